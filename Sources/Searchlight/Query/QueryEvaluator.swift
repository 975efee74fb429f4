import Foundation
import SearchlightEngine
import SearchlightQueryLanguage

/// Evaluates a parsed `QueryExpression` over one `ContainerSnapshot`, through the index wherever postings or
/// numeric columns can answer, returning the matching visible documents in index (address) order.
///
/// Access paths, per comparison:
/// - string `==` on a text field: candidate documents from the postings (`CandidateTerms`: prefix lookup,
///   dictionary scan for infix/suffix, exact terms for `t`), each verified on the raw stored values with the
///   exact semantics of `TextMatch`. Only patterns with no literal text (`*`, `?*`) scan the field's documents.
/// - numbers, dates, `$time.*`, booleans: engine `.range` over the numeric column (`InRange` inclusive).
/// - `!=` and `!`: the complement within the visible documents; `attr != "*"` is therefore absence.
/// - `&&` / `||`: set intersection / union of the operands.
///
/// `domainIdentifier` matches the item's domain (and an attribute-set value of that name, if any).
///
/// Mixed kinds: a string compared with a numeric attribute compares numerically when the string (without
/// wildcards) parses as a number (`rating == "4"`), `"*"` tests presence of a number, anything else never
/// matches; a number, date or boolean compared with a text attribute never matches (text is not converted);
/// `<`, `>`, `<=`, `>=` with a string that is not a number never match.
package struct QueryEvaluator {
    package let snapshot: ContainerSnapshot
    package let calendar: Calendar
    private var universeCache: Set<DocAddress>?

    package init(snapshot: ContainerSnapshot, calendar: Calendar = .current) {
        self.snapshot = snapshot
        self.calendar = calendar
    }

    private var engine: IndexSnapshot { snapshot.engine }

    /// Parses a query string, mapping syntax errors to `CSSearchQueryError.invalidQuery` with the position.
    package static func parse(_ query: String) throws(CSSearchQueryError) -> QueryExpression {
        do {
            return try QueryParser.parse(query)
        } catch {
            throw CSSearchQueryError(.invalidQuery, message: "invalid query: \(error.description)")
        }
    }

    /// The visible documents matching `expression`, in address order.
    package mutating func matches(_ expression: QueryExpression) -> [DocAddress] {
        evaluate(expression).sorted()
    }

    /// The visible documents matching every expression.
    package mutating func matches(all expressions: [QueryExpression]) -> [DocAddress] {
        guard var result = expressions.first.map({ evaluate($0) }) else { return universe.sorted() }
        for expression in expressions.dropFirst() where !result.isEmpty {
            result.formIntersection(evaluate(expression))
        }
        return result.sorted()
    }

    /// Every visible document.
    private var universe: Set<DocAddress> {
        mutating get {
            if let universeCache { return universeCache }
            let all = Set(snapshot.visibleAddresses())
            universeCache = all
            return all
        }
    }

    private mutating func evaluate(_ expression: QueryExpression) -> Set<DocAddress> {
        switch expression {
        case .constant(let value, _):
            return value ? universe : []
        case .and(let operands, _):
            var result: Set<DocAddress>?
            for operand in operands {
                let part = evaluate(operand)
                result = result.map { $0.intersection(part) } ?? part
                if result?.isEmpty == true { return [] }
            }
            return result ?? universe
        case .or(let operands, _):
            var result = Set<DocAddress>()
            for operand in operands { result.formUnion(evaluate(operand)) }
            return result
        case .not(let operand, _):
            return universe.subtracting(evaluate(operand))
        case .comparison(let comparison):
            let fields = AttributeFields(comparison.attribute, schema: engine.schema)
            if comparison.op == .notEqual {
                var positive = comparison
                positive.op = .equal
                return universe.subtracting(compare(positive, fields: fields))
            }
            return compare(comparison, fields: fields)
        case .inRange(let test):
            let fields = AttributeFields(test.attribute, schema: engine.schema)
            guard let lower = number(test.lower), let upper = number(test.upper) else { return [] }
            return numeric(fields.numeric, lower: .inclusive(lower), upper: .inclusive(upper))
        }
    }

    /// A query value as a number: numbers, `$time.*` (resolved at the snapshot's `now`), booleans, and strings
    /// without wildcards that parse as a number.
    private func number(_ value: QueryValue) -> Double? {
        if case .string(let pattern) = value {
            guard let text = pattern.exactText else { return nil }
            return Double(text.trimmingCharacters(in: .whitespaces))
        }
        return value.numericValue(now: snapshot.now, calendar: calendar)
    }

    /// `==`, `<`, `>`, `<=`, `>=` (never `!=`, which the caller turned into a complement).
    private mutating func compare(_ comparison: Comparison, fields: AttributeFields) -> Set<DocAddress> {
        if case .string(let pattern) = comparison.value, comparison.op == .equal {
            var result = Set<DocAddress>()
            let match = TextMatch(pattern: pattern, modifiers: comparison.modifiers)
            for field in fields.text { result.formUnion(text(match, pattern: pattern, field: field)) }
            if Self.isDomainAttribute(comparison.attribute) { result.formUnion(domains(match)) }
            if pattern.shape == .presence {
                result.formUnion(numeric(fields.numeric, lower: nil, upper: nil))
            } else if let x = number(comparison.value) {
                result.formUnion(numeric(fields.numeric, lower: .inclusive(x), upper: .inclusive(x)))
            }
            return result
        }
        guard let x = number(comparison.value) else { return [] }
        switch comparison.op {
        case .equal, .notEqual: return numeric(fields.numeric, lower: .inclusive(x), upper: .inclusive(x))
        case .less: return numeric(fields.numeric, lower: nil, upper: .exclusive(x))
        case .lessOrEqual: return numeric(fields.numeric, lower: nil, upper: .inclusive(x))
        case .greater: return numeric(fields.numeric, lower: .exclusive(x), upper: nil)
        case .greaterOrEqual: return numeric(fields.numeric, lower: .inclusive(x), upper: nil)
        }
    }

    /// Whether an attribute names the item's domain (`domainIdentifier` / `kMDItemDomainIdentifier`), which
    /// lives in the document's identity rather than in a field.
    static func isDomainAttribute(_ attribute: QueryAttribute) -> Bool {
        guard case .named(let name) = attribute else { return false }
        return AttributeCatalog.descriptor(forQueryName: name)?.name == "domainIdentifier"
    }

    /// Visible documents whose item domain matches. Domains are not in the postings, so this scans the
    /// visible documents' identities (no stored values are decoded).
    private mutating func domains(_ match: TextMatch) -> Set<DocAddress> {
        Set(universe.filter { address in engine.domain(of: address).map(match.matches) ?? false })
    }

    /// Visible documents with a value of any of `fields` within the bounds (nil bounds: any value).
    private func numeric(_ fields: [FieldID], lower: NumericBound?, upper: NumericBound?) -> Set<DocAddress> {
        guard !fields.isEmpty else { return [] }
        let clauses = fields.map { Query.range($0, lower: lower, upper: upper) }
        let query = clauses.count == 1 ? clauses[0] : .or(clauses)
        return Set(engine.matches(.and([query, snapshot.liveFilter])))
    }

    /// Visible documents whose stored values of `field` satisfy `match`.
    private func text(_ match: TextMatch, pattern: StringPattern, field: FieldID) -> Set<DocAddress> {
        let candidates: [DocAddress]
        switch CandidateTerms.plan(match, pattern: pattern, field: field, snapshot: engine) {
        case .terms(let terms):
            guard !terms.isEmpty else { return [] }
            candidates = engine.matches(.and([.scoped(.field(field), .terms(terms)), snapshot.liveFilter]))
        case .scan:
            // Fallback: the pattern has no literal text the dictionary could look up, so every visible
            // document's stored values of the field are checked.
            candidates = snapshot.visibleAddresses()
        }
        var result = Set<DocAddress>()
        for address in candidates where match.matchesAny(engine.text(field, of: address)) {
            assert(snapshot.isVisible(address), "candidates are restricted to visible documents")
            result.insert(address)
        }
        return result
    }
}
