/// A parsed query: the tree the evaluator walks.
///
/// `and` and `or` are n-ary (a chain `a && b && c` is one node with three operands, so long chains don't
/// make deep trees); explicit parentheses only show up as nesting. Every node carries the span of query
/// text it came from. Equality includes the spans; compare `strippingPositions()` for structure alone.
public indirect enum QueryExpression: Sendable, Hashable {
    /// All operands hold (two or more).
    case and([QueryExpression], range: SourceRange)
    /// Any operand holds (two or more).
    case or([QueryExpression], range: SourceRange)
    /// `!operand` (an extension: MDQuery itself has no unary not).
    case not(QueryExpression, range: SourceRange)
    case comparison(Comparison)
    case inRange(InRangeTest)
    /// `true`/`TRUEPREDICATE` or `false`/`FALSEPREDICATE`.
    case constant(Bool, range: SourceRange)

    /// The span of query text this node covers.
    public var range: SourceRange {
        switch self {
        case .and(_, let range), .or(_, let range), .not(_, let range), .constant(_, let range): range
        case .comparison(let comparison): comparison.range
        case .inRange(let test): test.range
        }
    }

    /// The same tree with every span replaced by `SourceRange.none`, for structural comparison.
    public func strippingPositions() -> QueryExpression {
        switch self {
        case .and(let operands, _): return .and(operands.map { $0.strippingPositions() }, range: .none)
        case .or(let operands, _): return .or(operands.map { $0.strippingPositions() }, range: .none)
        case .not(let operand, _): return .not(operand.strippingPositions(), range: .none)
        case .constant(let value, _): return .constant(value, range: .none)
        case .comparison(var comparison):
            comparison.range = .none
            comparison.attributeRange = .none
            comparison.operatorRange = .none
            comparison.valueRange = .none
            return .comparison(comparison)
        case .inRange(var test):
            test.range = .none
            test.attributeRange = .none
            test.lowerRange = .none
            test.upperRange = .none
            return .inRange(test)
        }
    }

    /// Calls `body` on this node and every node below it, parents first.
    public func forEachNode(_ body: (QueryExpression) throws -> Void) rethrows {
        try body(self)
        switch self {
        case .and(let operands, _), .or(let operands, _):
            for operand in operands { try operand.forEachNode(body) }
        case .not(let operand, _): try operand.forEachNode(body)
        case .comparison, .inRange, .constant: break
        }
    }
}
