/// The right-hand side of a comparison, or an `InRange` bound.
public enum QueryValue: Sendable, Hashable, CustomStringConvertible {
    /// A quoted string (or a bare `*`, which is the same as `"*"`).
    case string(StringPattern)
    case number(QueryNumber)
    /// A `$time.*` value, unresolved.
    case time(TimeExpression)
    /// `true` / `false`.
    case bool(Bool)

    /// Canonical query text (strings double-quoted with escapes; modifiers are printed by the comparison).
    public var description: String {
        switch self {
        case .string(let pattern): pattern.description
        case .number(let number): number.text
        case .time(let time): time.description
        case .bool(let value): value ? "true" : "false"
        }
    }
}
