/// Parses CSSearchQuery query strings into `QueryExpression` trees.
///
/// Recursive descent over the lexer's tokens, one token of lookahead. Precedence, loosest first:
/// `||`, `&&`, unary `!`, then primaries (parentheses, comparisons, `InRange`, `true`/`false`). See the module
/// README for the grammar. Never traps: every malformed input becomes a `QueryParseError`, and nesting deeper
/// than `maximumNestingDepth` is an error rather than a stack overflow.
public enum QueryParser {
    /// How deeply parentheses and `!` may nest (real queries use a handful). The parser recurses through four
    /// functions per parenthesis, about 11 KB of stack a level in a debug build: at 128 a 512 KB stack (every
    /// secondary thread on Apple platforms) overflowed at 47 parentheses. 24 keeps it near half of that stack.
    public static let maximumNestingDepth = 24

    /// Parses a whole query string.
    public static func parse(_ query: String) throws(QueryParseError) -> QueryExpression {
        var text = query
        let result: Result<QueryExpression, QueryParseError> = text.withUTF8 { buffer in
            var parser = Parser(buffer)
            return Result { () throws(QueryParseError) -> QueryExpression in try parser.parseQuery() }
        }
        return try result.get()
    }
}

/// `QueryParser.parse(_:)`.
public func parseQuery(_ query: String) throws(QueryParseError) -> QueryExpression {
    try QueryParser.parse(query)
}

/// The parser state for one query.
struct Parser {
    private var lexer: Lexer
    private var current = Token(kind: .end, range: .none)
    /// The token before `current` (tokens are plain values, so keeping it costs nothing).
    private var previous: Token? = nil
    private var depth = 0

    init(_ source: UnsafeBufferPointer<UInt8>) {
        lexer = Lexer(source)
    }

    private var source: UnsafeBufferPointer<UInt8> { lexer.source }

    private mutating func advance() throws(QueryParseError) {
        previous = current
        current = try lexer.next()
    }

    /// `text` as a message quotes it: a bounded excerpt (`QueryParseError.excerpt(_:)`).
    private func excerpt(_ text: String) -> String { QueryParseError.excerpt(text) }

    private func text(of range: SourceRange) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: source[range.start..<range.end]), as: UTF8.self)
    }

    private func error(_ kind: QueryParseError.Kind, _ message: String, at range: SourceRange,
                       hint: String? = nil) -> QueryParseError {
        QueryParseError(kind, message, at: range, in: source, hint: hint)
    }

    private static func constant(_ name: String) -> Bool? {
        switch name {
        case "true", "TRUEPREDICATE": true
        case "false", "FALSEPREDICATE": false
        default: nil
        }
    }

    // MARK: Expressions

    mutating func parseQuery() throws(QueryParseError) -> QueryExpression {
        try advance()
        if current.kind == .end {
            // Reported at offset 0 however much space precedes the end: the query has no first token.
            throw QueryParseError(kind: .emptyQuery, message: "empty query", range: SourceRange(start: 0, end: 0),
                                  found: "end of query", hint: "expected a comparison such as title == \"x\"")
        }
        let expression = try parseOr()
        switch current.kind {
        case .end:
            return expression
        case .rightParen:
            throw error(.unbalancedParenthesis, "unbalanced ')'", at: current.range, hint: "expected '&&', '||' or the end of the query (no '(' is open here)")
        default:
            throw error(.unexpectedToken, "expected '&&', '||' or the end of the query", at: current.range,
                        hint: detachedModifiersHint())
        }
    }

    /// A hint for `"x" cd`: modifier letters separated from their string by a space.
    private func detachedModifiersHint() -> String? {
        guard current.kind == .identifier, previous?.kind == .string else { return nil }
        let word = text(of: current.range)
        guard word.unicodeScalars.allSatisfy({ StringModifiers(letter: $0) != nil }) else { return nil }
        return "modifiers must follow the closing quote without a space"
    }

    private mutating func parseOr() throws(QueryParseError) -> QueryExpression {
        let first = try parseAnd()
        guard current.kind == .or else { return first }
        var operands = [first]
        while current.kind == .or {
            try advance()
            operands.append(try parseAnd())
        }
        return .or(operands, range: first.range.union(operands[operands.count - 1].range))
    }

    private mutating func parseAnd() throws(QueryParseError) -> QueryExpression {
        let first = try parseUnary()
        guard current.kind == .and else { return first }
        var operands = [first]
        while current.kind == .and {
            try advance()
            operands.append(try parseUnary())
        }
        return .and(operands, range: first.range.union(operands[operands.count - 1].range))
    }

    private mutating func enter(_ token: Token) throws(QueryParseError) {
        depth += 1
        if depth > QueryParser.maximumNestingDepth {
            throw error(.nestingTooDeep, "nesting deeper than \(QueryParser.maximumNestingDepth) levels",
                        at: token.range,
                        hint: "expected at most \(QueryParser.maximumNestingDepth) levels of '(' and '!'")
        }
    }

    private mutating func parseUnary() throws(QueryParseError) -> QueryExpression {
        guard current.kind == .not else { return try parsePrimary() }
        let bang = current
        try enter(bang)
        try advance()
        let operand = try parseUnary()
        depth -= 1
        return .not(operand, range: bang.range.union(operand.range))
    }

    private mutating func parsePrimary() throws(QueryParseError) -> QueryExpression {
        let token = current
        switch token.kind {
        case .leftParen:
            try enter(token)
            try advance()
            let inner = try parseOr()
            guard current.kind == .rightParen else {
                if current.kind == .end {
                    throw error(.unbalancedParenthesis, "unbalanced '('", at: token.range,
                                hint: "expected ')' before the end of the query")
                }
                throw error(.unexpectedToken, "expected ')', '&&' or '||'", at: current.range,
                            hint: detachedModifiersHint())
            }
            try advance()
            depth -= 1
            return inner
        case .identifier:
            let name = text(of: token.range)
            try advance()
            if current.kind == .leftParen {
                if name == "InRange" { return try parseInRange(start: token.range) }
                let hint = name.lowercased() == "inrange"
                    ? "expected 'InRange' (the name is case-sensitive)"
                    : "expected InRange(attribute, lower, upper), the only function"
                throw error(.unknownFunction, "unknown function '\(excerpt(name))'", at: token.range, hint: hint)
            }
            if let value = Self.constant(name), !isComparisonOperator(current.kind) {
                return .constant(value, range: token.range)
            }
            return try parseComparison(attribute: .named(name), attributeToken: token)
        case .star:
            try advance()
            return try parseComparison(attribute: .any, attributeToken: token)
        case .doubleStar:
            try advance()
            return try parseComparison(attribute: .anyIncludingContent, attributeToken: token)
        case .string, .number, .time:
            throw error(.unexpectedToken, "expected an attribute name before a value", at: token.range,
                        hint: "write a comparison such as title == \"Paris\"")
        default:
            throw missingExpression(at: token)
        }
    }

    private func missingExpression(at token: Token) -> QueryParseError {
        if let previous {
            switch previous.kind {
            case .and, .or, .not, .leftParen:
                return error(.unexpectedToken, "expected an expression after '\(text(of: previous.range))'",
                             at: token.range)
            default: break
            }
        }
        return error(.unexpectedToken, "expected an expression", at: token.range,
                     hint: "write a comparison, InRange(…), true, false or '('")
    }

    private func isComparisonOperator(_ kind: Token.Kind) -> Bool {
        if case .comparison = kind { return true }
        return false
    }

    // MARK: Comparisons

    private mutating func parseComparison(attribute: QueryAttribute,
                                          attributeToken: Token) throws(QueryParseError) -> QueryExpression {
        guard case .comparison(let op) = current.kind else {
            let attribute = excerpt(text(of: attributeToken.range))
            throw error(.unexpectedToken, "expected a comparison operator after '\(attribute)'",
                        at: current.range, hint: "operators are ==, !=, <, >, <= and >=")
        }
        let operatorToken = current
        try advance()
        let valueToken = current
        let value: QueryValue
        var modifiers = StringModifiers()
        switch valueToken.kind {
        case .string:
            value = .string(lexer.stringPattern)
            modifiers = lexer.modifiers
        case .star:
            value = .string(.anything)
        case .number:
            value = .number(lexer.number)
        case .time:
            value = .time(try parseTime())
        case .identifier:
            let word = text(of: valueToken.range)
            if word == "true" || word == "false" {
                value = .bool(word == "true")
            } else {
                throw error(.unexpectedToken, "expected a value after '\(text(of: operatorToken.range))'",
                            at: valueToken.range, hint: "strings must be quoted, e.g. \"\(excerpt(word))\"")
            }
        default:
            throw error(.unexpectedToken, "expected a value after '\(text(of: operatorToken.range))'",
                        at: valueToken.range)
        }
        try advance()
        return .comparison(Comparison(
            attribute: attribute, op: op, value: value, modifiers: modifiers,
            range: attributeToken.range.union(valueToken.range), attributeRange: attributeToken.range,
            operatorRange: operatorToken.range, valueRange: valueToken.range))
    }

    /// `InRange ( attribute , bound , bound )`, entered with `current` on the `(`.
    private mutating func parseInRange(start: SourceRange) throws(QueryParseError) -> QueryExpression {
        let open = current
        try advance()
        let attributeToken = current
        let attribute: QueryAttribute
        switch attributeToken.kind {
        case .identifier: attribute = .named(text(of: attributeToken.range))
        case .star: attribute = .any
        case .doubleStar: attribute = .anyIncludingContent
        default:
            throw error(.unexpectedToken, "expected an attribute name after 'InRange('", at: attributeToken.range)
        }
        try advance()
        try expectComma(after: "the attribute")
        let (lower, lowerRange) = try parseBound(which: "lower")
        try expectComma(after: "the lower bound")
        let (upper, upperRange) = try parseBound(which: "upper")
        guard current.kind == .rightParen else {
            if current.kind == .end {
                throw error(.unbalancedParenthesis, "unbalanced '(' of 'InRange('", at: open.range,
                            hint: "expected ')' after the upper bound")
            }
            throw error(.unexpectedToken, "expected ')' after the upper bound of InRange", at: current.range)
        }
        let close = current
        try advance()
        return .inRange(InRangeTest(
            attribute: attribute, lower: lower, upper: upper, range: start.union(close.range),
            attributeRange: attributeToken.range, lowerRange: lowerRange, upperRange: upperRange))
    }

    private mutating func expectComma(after what: String) throws(QueryParseError) {
        guard current.kind == .comma else {
            throw error(.unexpectedToken, "expected ',' after \(what) in InRange", at: current.range)
        }
        try advance()
    }

    private mutating func parseBound(which: String) throws(QueryParseError) -> (QueryValue, SourceRange) {
        let token = current
        let value: QueryValue
        switch token.kind {
        case .number: value = .number(lexer.number)
        case .string:
            guard lexer.modifiers.isEmpty else {
                throw error(.misplacedModifiers, "modifiers are not allowed on InRange bounds", at: token.range,
                            hint: "expected a string bound without modifiers, e.g. \"a\"")
            }
            value = .string(lexer.stringPattern)
        case .time:
            value = .time(try parseTime())
        default:
            throw error(.unexpectedToken, "expected a number, string or time as the \(which) bound of InRange",
                        at: token.range)
        }
        try advance()
        return (value, token.range)
    }

    // MARK: Time

    /// Interprets the lexer's current `.time` token.
    private func parseTime() throws(QueryParseError) -> TimeExpression {
        let name = lexer.timeName, nameRange = lexer.timeNameRange, argument = lexer.timeArgument
        if let anchor = TimeExpression.Anchor.relative(named: name) {
            guard let argument else { return TimeExpression(anchor) }
            let offset = try parseOffset(argument, anchor: anchor)
            return TimeExpression(anchor, offset: offset)
        }
        switch name {
        case "iso":
            guard let argument else {
                throw error(.invalidTime, "'$time.iso' needs a date in parentheses", at: nameRange,
                            hint: "expected a date in parentheses, e.g. $time.iso(2024-01-01T00:00:00Z)")
            }
            guard let date = ISODateTime(parsing: argument.text) else {
                throw error(.invalidTime, "invalid ISO-8601 date '\(excerpt(argument.text))'", at: argument.range,
                            hint: "expected YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|±HH:MM]")
            }
            return TimeExpression(.iso(date))
        case "absolute":
            guard let argument else {
                throw error(.invalidTime, "'$time.absolute' needs seconds since 2001 in parentheses", at: nameRange,
                            hint: "expected seconds in parentheses, e.g. $time.absolute(700000000)")
            }
            let allowed = Set("0123456789+-.eE".utf8)
            guard !argument.text.isEmpty, argument.text.utf8.allSatisfy(allowed.contains),
                  let seconds = Double(argument.text), seconds.isFinite else {
                throw error(.invalidTime, "invalid number of seconds '\(excerpt(argument.text))'", at: argument.range,
                            hint: "expected seconds since 2001 as a number, e.g. 700000000 or -1.5e3")
            }
            return TimeExpression(.absolute(QueryNumber(value: seconds, text: argument.text)))
        default:
            throw error(.unknownFunction, "unknown time function '$time.\(excerpt(name))'", at: nameRange,
                        hint: "expected now, today, yesterday, this_week, last_week, this_month, this_year, iso or absolute")
        }
    }

    private func parseOffset(_ argument: Token.TimeArgument,
                             anchor: TimeExpression.Anchor) throws(QueryParseError) -> Int {
        var bytes = argument.text.utf8[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        guard !bytes.isEmpty, bytes.count <= 18, bytes.allSatisfy(Lexer.isDigit) else {
            throw error(.invalidTime, "expected an integer offset for '$time.\(anchor.name)'", at: argument.range)
        }
        var magnitude = 0
        for digit in bytes { magnitude = magnitude * 10 + Int(digit - 0x30) }
        let limit = TimeExpression.maximumOffset(for: anchor)
        guard magnitude <= limit else {
            throw error(.invalidTime, "offset \(argument.text) of '$time.\(anchor.name)' is out of range",
                        at: argument.range, hint: "expected an offset of at most ±\(limit)")
        }
        return negative ? -magnitude : magnitude
    }
}
