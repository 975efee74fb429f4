/// One lexical unit of a query, with the span it covers.
struct Token: Sendable {
    enum Kind: Sendable, Equatable {
        case leftParen, rightParen, comma
        /// `&&`
        case and
        /// `||`
        case or
        /// `!` not followed by `=`
        case not
        case comparison(ComparisonOperator)
        /// A quoted string with its escapes resolved into a pattern, and the modifiers glued to it.
        case string(StringPattern, StringModifiers)
        case number(QueryNumber)
        /// Letters, digits, `_`, `:`, `.` (the text is read from the range).
        case identifier
        /// `*`
        case star
        /// `**`
        case doubleStar
        /// `$time.name` with its optional parenthesized argument (raw, interpreted by the parser).
        case time(name: String, nameRange: SourceRange, argument: TimeArgument?)
        case end
    }

    /// The text between the parentheses of a `$time.name(…)`, trimmed of spaces, quotes resolved.
    struct TimeArgument: Sendable, Equatable {
        var text: String
        var range: SourceRange
        var quoted: Bool
    }

    var kind: Kind
    var range: SourceRange
}
