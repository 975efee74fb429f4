/// Why a query string is not valid, and where.
///
/// `description` reads like `expected a value after '==' at offset 9 (found '&&')`: what went wrong, where, the
/// text found there and, when the message does not say what was expected, a hint that does
/// (`unknown modifier 'x' at offset 12; expected a modifier: c, d, w or t`). Every error, the empty query
/// included, names its offset and what was expected (tests enumerate the kinds). Offsets are UTF-8 byte
/// offsets into the query (equal to character offsets for ASCII queries); `line` and `column` are 1-based,
/// columns counting Characters. The `Searchlight` module wraps this into `CSSearchQueryError.invalidQuery`.
public struct QueryParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The category of mistake, for callers that branch on it.
    public enum Kind: Sendable, Hashable, CaseIterable {
        case emptyQuery
        case unexpectedToken
        case unexpectedCharacter
        case unterminatedString
        case unknownModifier
        case misplacedModifiers
        case unbalancedParenthesis
        case invalidNumber
        case invalidTime
        case unknownFunction
        case nestingTooDeep
    }

    public var kind: Kind
    /// What went wrong, without the position (e.g. `expected a value after '=='`).
    public var message: String
    /// The offending span (UTF-8 offsets); `range.start` is the reported offset.
    public var range: SourceRange
    /// The offending text as written, or `end of query`.
    public var found: String
    /// A short hint about what would have been valid: "expected …" when `message` does not say it already.
    public var hint: String?
    public var line: Int
    public var column: Int

    /// UTF-8 offset of the error.
    public var offset: Int { range.start }

    public init(kind: Kind, message: String, range: SourceRange, found: String, hint: String? = nil,
                line: Int = 1, column: Int? = nil) {
        self.kind = kind
        self.message = message
        self.range = range
        self.found = found
        self.hint = hint
        self.line = line
        self.column = column ?? range.start + 1
    }

    /// Builds an error for `range` of the query bytes `source`, filling in the found text, line and column.
    init(_ kind: Kind, _ message: String, at range: SourceRange, in source: UnsafeBufferPointer<UInt8>,
         hint: String? = nil) {
        let start = Swift.max(0, Swift.min(range.start, source.count))
        let end = Swift.max(start, Swift.min(range.end, source.count))
        let found: String
        if start >= source.count {
            found = "end of query"
        } else {
            // Quote at most 40 bytes of the offending text, cut back to a scalar boundary.
            var cut = Swift.min(end, start + 40)
            while cut > start, cut < source.count, source[cut] & 0xC0 == 0x80 { cut -= 1 }
            if cut == start { cut = Swift.min(source.count, start + 1) }
            found = String(decoding: UnsafeBufferPointer(rebasing: source[start..<cut]), as: UTF8.self)
        }
        var line = 1
        var lineStart = 0
        for i in 0..<start where source[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        let column = String(decoding: UnsafeBufferPointer(rebasing: source[lineStart..<start]), as: UTF8.self)
            .count + 1
        self.init(kind: kind, message: message, range: SourceRange(start: start, end: end), found: found,
                  hint: hint, line: line, column: column)
    }

    /// The most bytes of a token, name or query a message quotes (`excerpt(_:)`).
    public static let excerptLimit = 40

    /// `text` as a message quotes it: whole when at most `excerptLimit` bytes, else its first bytes up to that
    /// (cut back to a scalar boundary) and "…", so a huge query or token never makes a message as large.
    public static func excerpt(_ text: some StringProtocol) -> String {
        let whole = String(text), utf8 = whole.utf8
        guard utf8.count > excerptLimit else { return whole }
        var cut = utf8.index(utf8.startIndex, offsetBy: excerptLimit)
        while cut > utf8.startIndex, UTF8.isContinuation(utf8[cut]) { cut = utf8.index(before: cut) }
        return String(decoding: utf8[utf8.startIndex..<cut], as: UTF8.self) + "…"
    }

    public var description: String {
        let position = "at offset \(offset)"
        var text = message.hasSuffix(position) ? message : "\(message) \(position)"
        if line > 1 { text += " (line \(line), column \(column))" }
        if !found.isEmpty, !message.contains("'\(found)'") {
            text += found == "end of query" ? " (found end of query)" : " (found '\(found)')"
        }
        if let hint { text += "; \(hint)" }
        return text
    }
}
