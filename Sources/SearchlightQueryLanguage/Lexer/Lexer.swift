/// Splits query bytes into tokens, one at a time, on demand.
///
/// Byte-based: it walks the UTF-8 buffer with an index and never builds intermediate strings except for
/// token payloads (string literals, number text, time names). Non-ASCII bytes are only legal inside strings
/// and identifiers. It does not own the buffer; the parser keeps it alive for the lexer's lifetime.
struct Lexer {
    let source: UnsafeBufferPointer<UInt8>
    private(set) var position = 0
    /// Scratch space for string literal bytes, reused across tokens.
    private var literal: [UInt8] = []
    /// Scratch space for string segments, reused across tokens.
    private var segments: [StringPattern.Segment] = []

    /// Payload of the last `.string` token.
    private(set) var stringPattern = StringPattern.anything
    private(set) var modifiers = StringModifiers()
    /// Payload of the last `.number` token.
    private(set) var number = QueryNumber(value: 0, text: "0")
    /// Payload of the last `.time` token.
    private(set) var timeName = ""
    private(set) var timeNameRange = SourceRange.none
    private(set) var timeArgument: Token.TimeArgument? = nil

    init(_ source: UnsafeBufferPointer<UInt8>) {
        self.source = source
    }

    private func byte(at index: Int) -> UInt8? {
        index < source.count ? source[index] : nil
    }

    private func error(_ kind: QueryParseError.Kind, _ message: String, from start: Int, to end: Int,
                       hint: String? = nil) -> QueryParseError {
        QueryParseError(kind, message, at: SourceRange(start: start, end: end), in: source, hint: hint)
    }

    /// `text` as a message quotes it: a bounded excerpt (`QueryParseError.excerpt(_:)`).
    private func excerpt(_ text: String) -> String { QueryParseError.excerpt(text) }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: source[start..<end]), as: UTF8.self)
    }

    /// The end of the scalar starting at `index` (for quoting one offending character).
    private func scalarEnd(_ index: Int) -> Int {
        var end = index + 1
        while end < source.count, source[end] & 0xC0 == 0x80 { end += 1 }
        return end
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

    /// The byte length of the white space starting at `index` (0 if none): ASCII's, and the rest of Unicode's
    /// `White_Space` (no-break, ideographic, en/em and the other typographic spaces, line and paragraph
    /// separators), which an input method or a pasted query puts between tokens as readily as U+0020.
    func spaceLength(at index: Int) -> Int {
        guard index < source.count else { return 0 }
        let b = source[index]
        if b < 0x80 { return Self.isSpace(b) ? 1 : 0 }
        guard let b1 = byte(at: index + 1) else { return 0 }
        switch b {
        case 0xC2: return b1 == 0x85 || b1 == 0xA0 ? 2 : 0                        // U+0085, U+00A0
        case 0xE1: return b1 == 0x9A && byte(at: index + 2) == 0x80 ? 3 : 0        // U+1680
        case 0xE2:
            guard let b2 = byte(at: index + 2) else { return 0 }
            if b1 == 0x80 { return b2 <= 0x8A || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF ? 3 : 0 }  // U+2000–202F
            return b1 == 0x81 && b2 == 0x9F ? 3 : 0                                   // U+205F
        case 0xE3: return b1 == 0x80 && byte(at: index + 2) == 0x80 ? 3 : 0        // U+3000
        default: return 0
        }
    }

    /// Whether the byte at `index` continues an identifier (a name, modifiers glued to a quote, a number's tail):
    /// identifier bytes up to white space, Unicode's included.
    func continuesIdentifier(at index: Int) -> Bool {
        index < source.count && Self.isIdentifierContinue(source[index])
            && (source[index] < 0x80 || spaceLength(at: index) == 0)
    }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isHexDigit(_ b: UInt8) -> Bool {
        isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }
    /// Letters, `_` and any non-ASCII byte (so Unicode attribute names lex as identifiers).
    static func isIdentifierStart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b >= 0x80
    }
    static func isIdentifierContinue(_ b: UInt8) -> Bool {
        isIdentifierStart(b) || isDigit(b) || b == 0x3A || b == 0x2E
    }

    mutating func skipSpace() {
        while case let length = spaceLength(at: position), length > 0 { position += length }
    }

    /// The next token; `.end` forever once the input is exhausted.
    mutating func next() throws(QueryParseError) -> Token {
        skipSpace()
        let start = position
        guard let b = byte(at: position) else { return Token(kind: .end, range: SourceRange(start: start, end: start)) }
        func token(_ kind: Token.Kind, length: Int) -> Token {
            position = start + length
            return Token(kind: kind, range: SourceRange(start: start, end: start + length))
        }
        let following = byte(at: position + 1)
        switch b {
        case UInt8(ascii: "("): return token(.leftParen, length: 1)
        case UInt8(ascii: ")"): return token(.rightParen, length: 1)
        case UInt8(ascii: ","): return token(.comma, length: 1)
        case UInt8(ascii: "&"):
            guard following == UInt8(ascii: "&") else {
                throw error(.unexpectedCharacter, "unexpected '&'", from: start, to: start + 1,
                            hint: "expected '&&' (a single '&' is not an operator)")
            }
            return token(.and, length: 2)
        case UInt8(ascii: "|"):
            guard following == UInt8(ascii: "|") else {
                throw error(.unexpectedCharacter, "unexpected '|'", from: start, to: start + 1,
                            hint: "expected '||' (a single '|' is not an operator)")
            }
            return token(.or, length: 2)
        case UInt8(ascii: "!"):
            return following == UInt8(ascii: "=") ? token(.comparison(.notEqual), length: 2) : token(.not, length: 1)
        case UInt8(ascii: "="):
            return following == UInt8(ascii: "=") ? token(.comparison(.equal), length: 2)
                : token(.comparison(.equal), length: 1)
        case UInt8(ascii: "<"):
            return following == UInt8(ascii: "=") ? token(.comparison(.lessOrEqual), length: 2)
                : token(.comparison(.less), length: 1)
        case UInt8(ascii: ">"):
            return following == UInt8(ascii: "=") ? token(.comparison(.greaterOrEqual), length: 2)
                : token(.comparison(.greater), length: 1)
        case UInt8(ascii: "*"):
            return following == UInt8(ascii: "*") ? token(.doubleStar, length: 2) : token(.star, length: 1)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return try lexString()
        case UInt8(ascii: "$"):
            return try lexTime()
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            // A sign or leading dot only starts a number when a digit follows (`-5`, `.5`, `-.5`).
            let digitFollows = following.map(Self.isDigit) == true
            let dotDigitFollows = b != UInt8(ascii: ".") && following == UInt8(ascii: ".")
                && byte(at: position + 2).map(Self.isDigit) == true
            if digitFollows || dotDigitFollows { return try lexNumber() }
            throw error(.unexpectedCharacter, "unexpected '\(text(start, start + 1))'", from: start, to: start + 1,
                        hint: "expected a digit after '\(text(start, start + 1))' (a number such as -5 or .5)")
        default:
            if Self.isDigit(b) { return try lexNumber() }
            if Self.isIdentifierStart(b) {
                var end = position + 1
                while continuesIdentifier(at: end) { end += 1 }
                return token(.identifier, length: end - start)
            }
            let end = scalarEnd(start)
            throw error(.unexpectedCharacter, "unexpected character '\(text(start, end))'", from: start, to: end,
                        hint: "expected an attribute name, an operator, a quoted string, a number or a parenthesis")
        }
    }

    /// `"…"` or `'…'` with backslash escapes, then modifier letters glued to the closing quote.
    private mutating func lexString() throws(QueryParseError) -> Token {
        let start = position
        let (pattern, end) = try scanQuoted(at: start)
        stringPattern = pattern
        position = end
        // Modifiers: every identifier character glued to the quote must be one of c, d, w, t.
        var modifiers = StringModifiers()
        defer { self.modifiers = modifiers }
        while continuesIdentifier(at: position) {
            let letter = source[position]
            guard letter < 0x80, let modifier = StringModifiers(letter: Unicode.Scalar(letter)) else {
                let end = scalarEnd(position)
                throw error(.unknownModifier, "unknown modifier '\(text(position, end))'", from: position, to: end,
                            hint: "expected a modifier: c, d, w or t")
            }
            modifiers.insert(modifier)
            position += 1
        }
        return Token(kind: .string, range: SourceRange(start: start, end: position))
    }

    /// Scans a quoted string starting at the quote `start`; returns its pattern and the offset after the
    /// closing quote. `*`/`?` become wildcards unless escaped.
    private mutating func scanQuoted(at start: Int) throws(QueryParseError) -> (StringPattern, Int) {
        let quote = source[start]
        var index = start + 1
        segments.removeAll(keepingCapacity: true)
        literal.removeAll(keepingCapacity: true)
        func flushLiteral() {
            if !literal.isEmpty {
                segments.append(.literal(String(decoding: literal, as: UTF8.self)))
                literal.removeAll(keepingCapacity: true)
            }
        }
        while index < source.count {
            let b = source[index]
            if b == quote {
                flushLiteral()
                return (StringPattern(segments: segments), index + 1)
            }
            switch b {
            case UInt8(ascii: "\\"):
                guard index + 1 < source.count else { index += 1; continue }
                literal.append(source[index + 1])
                index += 2
            case UInt8(ascii: "*"):
                flushLiteral()
                segments.append(.anyRun)
                index += 1
            case UInt8(ascii: "?"):
                flushLiteral()
                segments.append(.anyOne)
                index += 1
            default:
                literal.append(b)
                index += 1
            }
        }
        throw error(.unterminatedString, "unterminated string starting at offset \(start)", from: start,
                    to: source.count,
                    hint: "expected the closing \(quote == UInt8(ascii: "\"") ? "\"" : "'") before the end of the query")
    }

    /// Integers, decimals, exponents and hex, with an optional sign.
    private mutating func lexNumber() throws(QueryParseError) -> Token {
        let start = position
        var index = position
        if source[index] == UInt8(ascii: "-") || source[index] == UInt8(ascii: "+") { index += 1 }
        let digitsStart = index
        var value: Double
        if byte(at: index) == UInt8(ascii: "0"), let x = byte(at: index + 1), x | 0x20 == UInt8(ascii: "x") {
            index += 2
            let hexStart = index
            while index < source.count, Self.isHexDigit(source[index]) { index += 1 }
            if index == hexStart {
                throw error(.invalidNumber, "expected hex digits after '0x'", from: start, to: index)
            }
            // Parsed whole, so beyond 2^53 it is the nearest Double (adding digit by digit rounded each step).
            value = Double("0x" + text(hexStart, index)) ?? .nan
            if source[start] == UInt8(ascii: "-") { value = -value }
        } else {
            while index < source.count, Self.isDigit(source[index]) { index += 1 }
            if byte(at: index) == UInt8(ascii: "."), byte(at: index + 1).map(Self.isDigit) == true {
                index += 1
                while index < source.count, Self.isDigit(source[index]) { index += 1 }
            }
            if let e = byte(at: index), e | 0x20 == UInt8(ascii: "e") {
                var exponent = index + 1
                if let sign = byte(at: exponent), sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { exponent += 1 }
                if byte(at: exponent).map(Self.isDigit) == true {
                    index = exponent
                    while index < source.count, Self.isDigit(source[index]) { index += 1 }
                }
            }
            assert(index > digitsStart || byte(at: digitsStart) == UInt8(ascii: "."))
            value = Double(text(start, index)) ?? .nan
        }
        // A number glued to letters (`12abc`, `0xfg`) is a mistake, not two tokens.
        if continuesIdentifier(at: index) {
            var end = index
            while continuesIdentifier(at: end) { end += 1 }
            throw error(.invalidNumber, "invalid number '\(excerpt(text(start, end)))'", from: start, to: end,
                        hint: Self.numberHint)
        }
        guard !value.isNaN else {
            throw error(.invalidNumber, "invalid number '\(excerpt(text(start, index)))'", from: start, to: index,
                        hint: Self.numberHint)
        }
        position = index
        number = QueryNumber(value: value, text: text(start, index))
        return Token(kind: .number, range: SourceRange(start: start, end: index))
    }

    /// What an invalid number should have been.
    private static let numberHint = "expected a number such as 12, -1.5, 2e3 or 0x1F (text must be quoted)"

    private static let timePrefix: [UInt8] = Array("$time.".utf8)

    /// `$time.name` and an optional `( argument )`, whose raw text the parser interprets.
    private mutating func lexTime() throws(QueryParseError) -> Token {
        let start = position
        var index = start
        for expected in Self.timePrefix {
            guard index < source.count, source[index] == expected else {
                var end = start + 1
                while continuesIdentifier(at: end) { end += 1 }
                throw error(.unknownFunction, "unknown variable '\(excerpt(text(start, end)))'", from: start, to: end,
                            hint: "expected a time value such as $time.now, $time.today or $time.iso(…)")
            }
            index += 1
        }
        let nameStart = index
        while continuesIdentifier(at: index), source[index] != 0x3A, source[index] != 0x2E { index += 1 }
        let name = text(nameStart, index)
        let nameRange = SourceRange(start: start, end: index)
        timeName = name
        timeNameRange = nameRange
        timeArgument = nil
        position = index
        skipSpace()
        guard byte(at: position) == UInt8(ascii: "(") else {
            position = index
            return Token(kind: .time, range: nameRange)
        }
        let open = position
        position += 1
        skipSpace()
        let argument: Token.TimeArgument
        if let b = byte(at: position), b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
            let quoteStart = position
            let (pattern, end) = try scanQuoted(at: quoteStart)
            // Inside a time argument `*` and `?` mean nothing; take the text as written.
            let raw = pattern.segments.map { segment -> String in
                switch segment {
                case .literal(let text): return text
                case .anyRun: return "*"
                case .anyOne: return "?"
                }
            }.joined()
            argument = Token.TimeArgument(text: raw, range: SourceRange(start: quoteStart, end: end), quoted: true)
            position = end
            skipSpace()
        } else {
            let argumentStart = position
            while position < source.count, source[position] != UInt8(ascii: ")"),
                  source[position] != UInt8(ascii: "("), spaceLength(at: position) == 0 {
                position += 1
            }
            argument = Token.TimeArgument(text: text(argumentStart, position),
                                          range: SourceRange(start: argumentStart, end: position), quoted: false)
            skipSpace()
        }
        guard byte(at: position) == UInt8(ascii: ")") else {
            if position >= source.count {
                throw error(.unbalancedParenthesis, "unbalanced '(' of '$time.\(excerpt(name))('", from: open,
                            to: open + 1,
                            hint: "expected ')' after the argument")
            }
            let end = scalarEnd(position)
            throw error(.invalidTime, "expected ')' after the argument of '$time.\(excerpt(name))'",
                        from: position, to: end)
        }
        position += 1
        timeArgument = argument
        return Token(kind: .time, range: SourceRange(start: start, end: position))
    }
}
