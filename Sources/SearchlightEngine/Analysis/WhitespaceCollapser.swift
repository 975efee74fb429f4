/// Text built byte by byte with every run of whitespace collapsed to one space and none at either end: what
/// ranking does to titles and the web-markup reader to page text, each deciding which bytes are whitespace.
package struct WhitespaceCollapser {
    /// The text so far (UTF-8), without a trailing space.
    package var bytes: [UInt8] = []
    /// A space is owed before the next byte that is not whitespace.
    private var pendingSpace = false

    package init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    package mutating func append(_ byte: UInt8, isSpace: Bool) {
        if isSpace {
            pendingSpace = !bytes.isEmpty
            return
        }
        if pendingSpace {
            bytes.append(0x20)
            pendingSpace = false
        }
        bytes.append(byte)
    }

    /// Separates what comes next from the text so far (a block boundary), as whitespace would.
    package mutating func separate() {
        if !bytes.isEmpty { pendingSpace = true }
    }

    package var string: String { String(decoding: bytes, as: UTF8.self) }
}
