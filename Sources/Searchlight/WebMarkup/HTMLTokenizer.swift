/// A tolerant HTML tokenizer over UTF-8 bytes, after the WHATWG tokenizer in spirit: it never fails and never
/// backtracks, so every byte is looked at a bounded number of times (linear on any input).
///
/// Handles quoted, unquoted and valueless attributes, comments (`<!-- -->`, `<!-->`), doctype and other `<!...>`
/// / `<?...>` declarations, CDATA sections (read as text where `inForeignContent`), raw-text elements (`script`,
/// `style`, ... whose contents run to the matching end tag, `/>` or not outside foreign content) and escapable raw
/// text (`title`, `textarea`). A tag cut off by the end of input is
/// dropped, as browsers do; a `<` that starts no tag is text.
struct HTMLTokenizer {
    /// Attributes kept per tag; later ones are read and skipped (keeps duplicate detection linear).
    static let maximumAttributes = 64

    /// Elements whose contents are raw text (never tags or references).
    static let rawTextElements: Set<String> = ["script", "style", "xmp", "iframe", "noembed", "noframes"]
    /// Elements whose contents are text with references but no tags.
    static let escapableRawTextElements: Set<String> = ["title", "textarea"]

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0
    /// Set after a raw-text start tag: the next token is its contents.
    private var pendingRawText: String?
    /// Whether the tokens are in SVG/MathML content, which only the tree builder knows (the reader sets it). There
    /// `<![CDATA[` opens a CDATA section and `/>` closes a raw-text element at once; in HTML content CDATA is a
    /// bogus comment to the next `>` and `/>` on a non-void element is ignored, so `<script/>` still reads its
    /// contents to `</script>` (WHATWG).
    var inForeignContent = true

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The next token, or nil at the end of input.
    mutating func next() -> HTMLToken? {
        if let element = pendingRawText {
            pendingRawText = nil
            let start = index
            let end = endOfRawText(element)
            index = end
            if Self.escapableRawTextElements.contains(element) {
                return .text(HTMLCharacterReferences.decode(bytes, start..<end, replacingNUL: true))
            }
            return .rawText(element: element, range: start..<end)
        }
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                let start = index
                index = bytes[index...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
                return .text(HTMLCharacterReferences.decode(bytes, start..<index))
            }
            if let token = markup() { return token }
        }
        return nil
    }

    // MARK: Markup after `<`

    /// Reads the markup at `<`; nil when it produced nothing (a dropped tag) — the caller loops on.
    private mutating func markup() -> HTMLToken? {
        let start = index
        let n = bytes.count
        let next = start + 1 < n ? bytes[start + 1] : 0
        if isASCIILetter(next) { return startTag(at: start) }
        switch next {
        case UInt8(ascii: "/"):
            let after = start + 2 < n ? bytes[start + 2] : 0
            if isASCIILetter(after) { return endTag(at: start) }
            if after == UInt8(ascii: ">") { index = start + 3; return nil }  // `</>` is ignored
            if start + 2 >= n { index = n; return .text("</") }
            index = skipPast(UInt8(ascii: ">"), from: start + 2)  // `</3...>` is a bogus comment
            return .comment
        case UInt8(ascii: "!"):
            if matches("<!--", at: start) { return comment(at: start) }
            if inForeignContent, matchesCaseInsensitive("<![cdata[", at: start) { return cdata(at: start) }
            let isDoctype = matchesCaseInsensitive("<!doctype", at: start)
            index = skipPast(UInt8(ascii: ">"), from: start + 2)
            return isDoctype ? .doctype : .comment
        case UInt8(ascii: "?"):
            index = skipPast(UInt8(ascii: ">"), from: start + 2)
            return .comment
        default:
            index = start + 1
            return .text("<")
        }
    }

    private mutating func startTag(at start: Int) -> HTMLToken? {
        let n = bytes.count
        var i = start + 1
        let name = readName(&i)
        var attributes: [HTMLAttribute] = []
        var selfClosing = false
        while true {
            while i < n, isASCIIWhitespace(bytes[i]) { i += 1 }
            guard i < n else { index = n; return nil }  // cut off: dropped
            let b = bytes[i]
            if b == UInt8(ascii: ">") { i += 1; break }
            if b == UInt8(ascii: "/") {
                if i + 1 < n, bytes[i + 1] == UInt8(ascii: ">") { selfClosing = true; i += 2; break }
                i += 1
                continue
            }
            // Attribute name: any run up to whitespace, `/`, `>` or `=` (a leading `=` belongs to the name).
            let nameStart = i
            i += 1
            while i < n {
                let c = bytes[i]
                if isASCIIWhitespace(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: ">") || c == UInt8(ascii: "=") { break }
                i += 1
            }
            let attributeName = lowercasedASCII(nameStart..<i)
            var j = i
            while j < n, isASCIIWhitespace(bytes[j]) { j += 1 }
            var value = ""
            if j < n, bytes[j] == UInt8(ascii: "=") {
                j += 1
                while j < n, isASCIIWhitespace(bytes[j]) { j += 1 }
                guard j < n else { index = n; return nil }
                let quote = bytes[j]
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    guard let close = bytes[(j + 1)...].firstIndex(of: quote) else { index = n; return nil }
                    value = HTMLCharacterReferences.decode(bytes, (j + 1)..<close, inAttribute: true,
                                                           replacingNUL: true)
                    i = close + 1
                } else {
                    var k = j
                    while k < n, !isASCIIWhitespace(bytes[k]), bytes[k] != UInt8(ascii: ">") { k += 1 }
                    value = HTMLCharacterReferences.decode(bytes, j..<k, inAttribute: true, replacingNUL: true)
                    i = k
                }
            }
            if attributes.count < Self.maximumAttributes, !attributes.contains(where: { $0.name == attributeName }) {
                attributes.append(HTMLAttribute(name: attributeName, value: value))
            }
        }
        index = i
        if !selfClosing || !inForeignContent, Self.mayBeRawText(name),
           Self.rawTextElements.contains(name) || Self.escapableRawTextElements.contains(name) {
            pendingRawText = name
        }
        return .startTag(name: name, attributes: attributes, selfClosing: selfClosing, offset: start)
    }

    private mutating func endTag(at start: Int) -> HTMLToken? {
        var i = start + 2
        let name = readName(&i)
        // Anything up to `>` (attributes on end tags are ignored); cut off at the end: dropped.
        guard let close = bytes[i...].firstIndex(of: UInt8(ascii: ">")) else { index = bytes.count; return nil }
        index = close + 1
        return .endTag(name: name, offset: start)
    }

    private mutating func comment(at start: Int) -> HTMLToken {
        let n = bytes.count
        var i = start + 4
        if i < n, bytes[i] == UInt8(ascii: ">") { index = i + 1; return .comment }  // `<!-->`
        if matches("->", at: i) { index = i + 2; return .comment }  // `<!--->`
        while i < n {
            guard let dash = bytes[i...].firstIndex(of: UInt8(ascii: "-")) else { break }
            if matches("-->", at: dash) { index = dash + 3; return .comment }
            if matches("--!>", at: dash) { index = dash + 4; return .comment }
            i = dash + 1
        }
        index = n
        return .comment
    }

    private mutating func cdata(at start: Int) -> HTMLToken {
        let n = bytes.count
        var i = start + 9
        let contentStart = i
        while i < n {
            guard let bracket = bytes[i...].firstIndex(of: UInt8(ascii: "]")) else { break }
            if matches("]]>", at: bracket) {
                index = bracket + 3
                return .text(String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<bracket]), as: UTF8.self))
            }
            i = bracket + 1
        }
        index = n
        return .text(String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<n]), as: UTF8.self))
    }

    // MARK: Raw text

    /// A cheap filter before the set lookups: every raw-text element name starts with one of these letters.
    @inline(__always) private static func mayBeRawText(_ name: String) -> Bool {
        switch name.utf8.first {
        case UInt8(ascii: "s"), UInt8(ascii: "t"), UInt8(ascii: "x"), UInt8(ascii: "i"), UInt8(ascii: "n"): return true
        default: return false
        }
    }

    /// Where the raw contents of `element` end: at `</element` followed by whitespace, `/` or `>`, or the input's end.
    private func endOfRawText(_ element: String) -> Int {
        if element == "script" { return endOfScript() }
        let n = bytes.count
        let name = Array(element.utf8)
        var i = index
        while i < n {
            guard let lt = bytes[i...].firstIndex(of: UInt8(ascii: "<")) else { return n }
            if isTag(name, at: lt + 1, end: true) { return lt }
            i = lt + 1
        }
        return n
    }

    /// Where a script's contents end, with WHATWG script data escaping: after `<!--` a `<script>` is double-escaped,
    /// so its `</script>` does not end the outer script, until `-->` (`document.write("<script></script>")` in a
    /// commented-out script).
    private func endOfScript() -> Int {
        let n = bytes.count
        let name = Array("script".utf8)
        var escaped = false, doubleEscaped = false
        var i = index
        while i < n {
            if !escaped {  // only a `<` matters
                guard let lt = bytes[i...].firstIndex(of: UInt8(ascii: "<")) else { return n }
                i = lt
            }
            let b = bytes[i]
            if b == UInt8(ascii: "-"), escaped, matches("-->", at: i) {
                escaped = false
                doubleEscaped = false
                i += 3
                continue
            }
            guard b == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            if isTag(name, at: i + 1, end: true) {
                if !doubleEscaped { return i }
                doubleEscaped = false
            } else if !escaped, matches("<!--", at: i) {
                escaped = true
                i += 2  // `<!-->` leaves the escape at once: its `-->` is read next
                continue
            } else if escaped, !doubleEscaped, isTag(name, at: i + 1, end: false) {
                doubleEscaped = true
            }
            i += 1
        }
        return n
    }

    /// Whether `name` (lowercase), after a `/` when `end`, starts at `i`, case-insensitively, followed by whitespace,
    /// `/`, `>` or the input's end.
    private func isTag(_ name: [UInt8], at i: Int, end: Bool) -> Bool {
        let n = bytes.count
        var j = i
        if end {
            guard j < n, bytes[j] == UInt8(ascii: "/") else { return false }
            j += 1
        }
        var k = 0
        while k < name.count, j + k < n, bytes[j + k] | 0x20 == name[k] { k += 1 }
        guard k == name.count else { return false }
        let after = j + k
        return after >= n || isASCIIWhitespace(bytes[after]) || bytes[after] == UInt8(ascii: "/")
            || bytes[after] == UInt8(ascii: ">")
    }

    // MARK: Helpers

    /// A tag name from `i` to whitespace, `/` or `>`, lowercased.
    private func readName(_ i: inout Int) -> String {
        let start = i
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            if isASCIIWhitespace(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: ">") { break }
            i += 1
        }
        return lowercasedASCII(start..<i)
    }

    private func lowercasedASCII(_ range: Range<Int>) -> String {
        var hasUpper = false
        for b in bytes[range] where b >= 0x41 && b <= 0x5A { hasUpper = true; break }
        if !hasUpper { return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        return String(decoding: bytes[range].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The index just past the next `byte` at or after `from`, or the end of input.
    private func skipPast(_ byte: UInt8, from: Int) -> Int {
        guard from < bytes.count else { return bytes.count }
        return (bytes[from...].firstIndex(of: byte)).map { $0 + 1 } ?? bytes.count
    }

    private func matches(_ literal: StaticString, at i: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard i >= 0, i + count <= bytes.count else { return false }
        let p = literal.utf8Start
        for k in 0..<count where bytes[i + k] != p[k] { return false }
        return true
    }

    /// Like `matches`, for a lowercase literal compared case-insensitively.
    private func matchesCaseInsensitive(_ literal: StaticString, at i: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard i >= 0, i + count <= bytes.count else { return false }
        let p = literal.utf8Start
        for k in 0..<count {
            let b = bytes[i + k]
            let lower = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
            if lower != p[k] { return false }
        }
        return true
    }
}

@inline(__always) func isASCIILetter(_ b: UInt8) -> Bool {
    (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A
}
