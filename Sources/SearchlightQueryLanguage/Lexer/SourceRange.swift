/// A half-open span of the query text, in UTF-8 byte offsets from the start of the query.
///
/// Byte offsets are what the lexer sees and cost nothing to record; `location(in:)` turns an offset
/// into a line and column when a human needs to read it (error messages, the tree printer).
public struct SourceRange: Sendable, Hashable, CustomStringConvertible {
    /// UTF-8 offset of the first byte.
    public var start: Int
    /// UTF-8 offset just past the last byte.
    public var end: Int

    /// A range from `start` to `end`; an `end` before `start` is raised to `start` (ranges never run backwards).
    public init(start: Int, end: Int) {
        self.start = start
        self.end = Swift.max(start, end)
    }

    /// The placeholder range used by nodes built in code rather than parsed (and by `strippingPositions()`).
    public static let none = SourceRange(start: 0, end: 0)

    public var length: Int { end - start }

    /// The smallest range covering both.
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(start: Swift.min(start, other.start), end: Swift.max(end, other.end))
    }

    /// The text this range covers in `source` (the string it was parsed from); empty if out of bounds.
    public func text(in source: String) -> String {
        let bytes = source.utf8
        guard start >= 0, end <= bytes.count, start <= end else { return "" }
        let lower = bytes.index(bytes.startIndex, offsetBy: start)
        let upper = bytes.index(lower, offsetBy: end - start)
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }

    /// Line and column of `start` within `source`.
    public func location(in source: String) -> SourceLocation {
        SourceLocation(utf8Offset: start, in: source)
    }

    public var description: String { "\(start)..<\(end)" }
}

/// A human-readable position: 1-based line and column (columns count Characters), plus the UTF-8 offset.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var utf8Offset: Int
    public var line: Int
    public var column: Int

    public init(utf8Offset: Int, line: Int, column: Int) {
        self.utf8Offset = utf8Offset
        self.line = line
        self.column = column
    }

    /// Computes line and column of a UTF-8 offset; offsets past the end clamp to the end, and offsets that
    /// fall inside a multi-byte character count that character's column.
    public init(utf8Offset: Int, in source: String) {
        var line = 1
        var lineStart = 0
        let bytes = Array(source.utf8)
        let clamped = Swift.max(0, Swift.min(utf8Offset, bytes.count))
        for i in 0..<clamped where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        // Columns count user-perceived characters from the line start up to the offset.
        var prefixEnd = clamped
        while prefixEnd > lineStart, prefixEnd < bytes.count, bytes[prefixEnd] & 0xC0 == 0x80 { prefixEnd -= 1 }
        let column = String(decoding: bytes[lineStart..<prefixEnd], as: UTF8.self).count + 1
        self.init(utf8Offset: utf8Offset, line: line, column: column)
    }

    public var description: String { "line \(line), column \(column)" }
}
