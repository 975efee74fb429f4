/// One lexical unit of a query, with the span it covers.
///
/// Tokens are plain values (no references) so the parser can copy them for free; the payload of the most
/// recent string, number or time token lives in the `Lexer` (`stringPattern`, `number`, `time…`) until the
/// next token is read.
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
        /// A quoted string; its pattern and modifiers are in `Lexer.stringPattern` / `Lexer.modifiers`.
        case string
        /// A number; its value is in `Lexer.number`.
        case number
        /// Letters, digits, `_`, `:`, `.` (the text is read from the range).
        case identifier
        /// `*`
        case star
        /// `**`
        case doubleStar
        /// `$time.name` with its optional parenthesized argument (raw, interpreted by the parser), in
        /// `Lexer.timeName`, `Lexer.timeNameRange` and `Lexer.timeArgument`.
        case time
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
