/// A comparison operator of the query language.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `==` (a single `=` is accepted as a synonym): wildcard/modifier match for strings, equality otherwise.
    case equal = "=="
    /// `!=`: the negated match; an item lacking the attribute matches (`attr != "*"` tests absence).
    case notEqual = "!="
    case less = "<"
    case greater = ">"
    case lessOrEqual = "<="
    case greaterOrEqual = ">="

    /// The canonical spelling (what the printer writes).
    public var symbol: String { rawValue }
    public var description: String { rawValue }
}
