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
/// - numbers, dates, `$time.*`, booleans: engine `.range` over the numeric column (`InRange` inclusive);
///   `== $time.today` / `this_week` / … is the whole period (`resolvePeriod`).
///   Integers compare exactly (an integer literal that fits `Int64` against the stored `Int64` or Double):
///   the columns' Doubles decide every bound below 2^53 in magnitude, and for a larger bound the documents
///   whose column equals its rounded value are checked on their stored numbers (`NumericRange`).
/// - `!=` and `!`: the complement within the visible documents; `attr != "*"` is therefore absence.
/// - `"*"` on a data attribute (`thumbnailData`), which no field indexes: the item blobs of the documents still
///   allowed; any other pattern never matches bytes. Likewise `"*"` on a custom key reads the blobs of the
///   documents its fields did not name (a custom key may hold Data).
/// - `&&` / `||`: set intersection / union of the operands.
///
/// Results are sorted address arrays (merged, never hashed). Each node is evaluated *within* the documents
/// its context still allows: an `&&` first intersects the postings candidates of its text comparisons, then
/// evaluates its operands one after another inside the running result, so verification, presence scans,
/// domains and numeric checks only touch documents that can still match. Visibility (expiration) is
/// checked per candidate instead of by scanning the expiration column.
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
    private var universeCache: [DocAddress]?

    package init(snapshot: ContainerSnapshot, calendar: Calendar = .current) {
        self.snapshot = snapshot
        self.calendar = calendar
    }

    private var engine: IndexSnapshot { snapshot.engine }

    /// Parses a query string, mapping syntax errors to `CSSearchQueryError.invalidQuery` with the position.
    package static func parse(_ query: String) throws(CSSearchQueryError) -> QueryExpression {
        try parse(query, named: "query")
    }

    /// Parses a context's `filterQueries`; an error names the filter (its index and text, a bounded excerpt of a
    /// long one) besides the position, which is within that filter. A filter repeated byte for byte is parsed
    /// (and so evaluated) once: it restricts no further.
    package static func parse(filters: [String]) throws(CSSearchQueryError) -> [QueryExpression] {
        var expressions: [QueryExpression] = []
        var seen: Set<[UInt8]> = []
        for (index, filter) in filters.enumerated() where seen.insert(Array(filter.utf8)).inserted {
            let name = "filter query \(index) (\(QueryParseError.excerpt(filter).debugDescription))"
            expressions.append(try parse(filter, named: name))
        }
        return expressions
    }

    private static func parse(_ query: String, named name: String) throws(CSSearchQueryError) -> QueryExpression {
        do {
            return try QueryParser.parse(query)
        } catch {
            throw CSSearchQueryError(.invalidQuery, message: "invalid \(name): \(error.description)")
        }
    }

    /// The visible documents matching `expression`, in address order.
    package mutating func matches(_ expression: QueryExpression) -> [DocAddress] {
        evaluate(expression, within: nil)
    }

    /// The visible documents matching every expression.
    package mutating func matches(all expressions: [QueryExpression]) -> [DocAddress] {
        guard !expressions.isEmpty else { return universe }
        return conjunction(expressions, within: nil)
    }

    /// Every visible document, in address order.
    private var universe: [DocAddress] {
        mutating get {
            if let universeCache { return universeCache }
            let all = snapshot.visibleAddresses()
            universeCache = all
            return all
        }
    }

    /// The documents of `expression` among `within` (sorted, visible), or among all visible ones when nil.
    private mutating func evaluate(_ expression: QueryExpression, within: [DocAddress]?) -> [DocAddress] {
        switch expression {
        case .constant(let value, _):
            return value ? within ?? universe : []
        case .and(let operands, _):
            return conjunction(operands, within: within)
        case .or(let operands, _):
            var result: [DocAddress] = []
            for operand in operands { result = SortedAddresses.union(result, evaluate(operand, within: within)) }
            return result
        case .not(let operand, _):
            let excluded = evaluate(operand, within: within)
            return SortedAddresses.subtract(within ?? universe, excluded)
        case .comparison(let comparison):
            let fields = AttributeFields(comparison.attribute, schema: engine.schema)
            if comparison.op == .notEqual {
                var positive = comparison
                positive.op = .equal
                let excluded = compare(positive, fields: fields, within: within)
                return SortedAddresses.subtract(within ?? universe, excluded)
            }
            return compare(comparison, fields: fields, within: within)
        case .inRange(let test):
            let fields = AttributeFields(test.attribute, schema: engine.schema)
            guard let lower = number(test.lower), let upper = number(test.upper) else { return [] }
            let range = NumericRange(lower: .init(value: lower, inclusive: true),
                                     upper: .init(value: upper, inclusive: true))
            return numeric(fields.numeric, range, within: within)
        }
    }

    /// All operands, each evaluated inside the result so far. The postings of the operands that are text
    /// comparisons narrow the documents first, most selective first and only while they are cheaper than
    /// verifying the documents left (no stored values read), so verification runs on few documents. They are
    /// intersected by one engine conjunction: the rarest clause leads and the others seek to its documents,
    /// so a wide expansion (`game*`: dozens of terms) is never merged whole when a rare term drives.
    private mutating func conjunction(_ operands: [QueryExpression], within: [DocAddress]?) -> [DocAddress] {
        var current = within
        // Postings name expired documents too; they are dropped once, after the intersections.
        var unfiltered = false
        var plans: [Int: [FieldID: Access]] = [:]
        // The operands whose postings `current` is already restricted to.
        var narrowed = Set<Int>()
        // Comparisons with a literal prefix (dictionary lookups) first; those needing a dictionary walk only
        // while many documents remain.
        for walks in [false, true] {
            if walks, let current, current.count <= Self.directLimit.walk { break }
            var order: [(index: Int, estimate: Int)] = []
            for (index, operand) in operands.enumerated() {
                guard case .comparison(let comparison) = operand, Self.walksDictionary(comparison) == walks,
                      let access = textAccess(comparison) else { continue }
                plans[index] = access
                var estimate = 0
                for case .postings(_, let count) in access.values { estimate += count }
                order.append((index, estimate))
            }
            var clauses: [Query] = []
            // An upper bound of the documents the conjunction can yield: the smallest clause so far.
            var lead = current?.count
            for (index, estimate) in order.sorted(by: { $0.estimate < $1.estimate }) {
                guard let access = plans[index] else { continue }
                if let lead {
                    guard Self.postingsPay(estimate, against: lead) else { break }
                } else if estimate * 2 >= engine.documentCount {
                    break
                }
                var fields: [Query] = []
                for (field, plan) in access.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                    guard case .postings(let terms, _) = plan, !terms.isEmpty else { continue }
                    fields.append(.scoped(.field(field), .terms(terms)))
                }
                // No field has a term every match must hold: the comparison, so the conjunction, matches nothing.
                if fields.isEmpty { return [] }
                clauses.append(fields.count == 1 ? fields[0] : .or(fields))
                narrowed.insert(index)
                lead = min(lead ?? .max, estimate)
            }
            if clauses.isEmpty { continue }
            if let current { clauses.append(.documents(DocumentSet(current))) } else { unfiltered = true }
            let found = engine.matches(clauses.count == 1 ? clauses[0] : .and(clauses))
            if found.isEmpty { return [] }
            current = found
        }
        if unfiltered { current = current?.filter(snapshot.isUnexpired) }
        for (index, operand) in operands.enumerated() {
            if let access = plans[index], case .comparison(let comparison) = operand {
                let fields = AttributeFields(comparison.attribute, schema: engine.schema)
                current = textComparison(comparison, fields: fields, within: current, access: access,
                                         narrowed: narrowed.contains(index))
            } else {
                current = evaluate(operand, within: current)
            }
            if current?.isEmpty == true { return [] }
        }
        return current ?? universe
    }

    /// What looking up one more term costs, in postings: a dictionary search and a cursor per segment.
    static let termCost = 40

    /// Up to how many allowed documents a text comparison verifies them directly instead of planning
    /// candidate terms: always (`plan`), or when planning would walk a whole dictionary (`walk`).
    static let directLimit = (plan: 64, walk: 512)

    /// Whether a comparison is a string `==` whose candidate terms need a dictionary walk.
    static func walksDictionary(_ comparison: Comparison) -> Bool {
        guard case .string(let pattern) = comparison.value else { return false }
        return CandidateTerms.needsDictionaryScan(TextMatch(pattern: pattern, modifiers: comparison.modifiers),
                                                  pattern: pattern)
    }

    /// Whether looking up postings with this many entries beats verifying `count` documents directly (a
    /// posting costs a few nanoseconds, a verification decodes and matches stored values: ~30 times more).
    static func postingsPay(_ estimate: Int, against count: Int) -> Bool { estimate < count * 32 }

    /// A query value as a number: numbers, `$time.*` (resolved at the snapshot's `now`), booleans, and strings
    /// without wildcards that parse as a number. Integers that fit `Int64` are exact (`QueryNumber.integerValue`),
    /// anything else a Double.
    private func number(_ value: QueryValue) -> AttributeNumber? {
        switch value {
        case .string(let pattern):
            guard let text = pattern.exactText?.trimmingCharacters(in: .whitespaces),
                  let double = Double(text) else { return nil }
            return QueryNumber(value: double, text: text).integerValue.map(AttributeNumber.int) ?? .double(double)
        case .number(let number):
            return number.integerValue.map(AttributeNumber.int) ?? .double(number.value)
        case .time, .bool:
            return value.numericValue(now: snapshot.now, calendar: calendar).map(AttributeNumber.double)
        }
    }

    /// `==`, `<`, `>`, `<=`, `>=` (never `!=`, which the caller turned into a complement).
    private mutating func compare(_ comparison: Comparison, fields: AttributeFields,
                                  within: [DocAddress]?) -> [DocAddress] {
        if case .string = comparison.value, comparison.op == .equal {
            return textComparison(comparison, fields: fields, within: within)
        }
        if comparison.op == .equal, case .time(let time) = comparison.value,
           let period = resolvePeriod(time, now: snapshot.now, calendar: calendar) {
            // `== $time.today` (this_week, …) is any date in that period, as Apple documents.
            let range = NumericRange(lower: .init(value: .double(period.lowerBound.timeIntervalSinceReferenceDate),
                                                  inclusive: true),
                                     upper: .init(value: .double(period.upperBound.timeIntervalSinceReferenceDate),
                                                  inclusive: false))
            return numeric(fields.numeric, range, within: within)
        }
        guard let x = number(comparison.value), let range = NumericRange(comparison.op, x) else { return [] }
        return numeric(fields.numeric, range, within: within)
    }

    /// How each text field of a string `==` comparison finds its candidates, or nil when the comparison can
    /// match documents the postings cannot name (a field needing a scan, domains, numeric columns).
    private func textAccess(_ comparison: Comparison) -> [FieldID: Access]? {
        guard comparison.op == .equal, case .string(let pattern) = comparison.value,
              !Self.isDomainAttribute(comparison.attribute) else { return nil }
        let fields = AttributeFields(comparison.attribute, schema: engine.schema)
        if !fields.numeric.isEmpty, pattern.shape == .presence || number(comparison.value) != nil { return nil }
        if pattern.shape == .presence, Self.storedOnlyAttribute(comparison.attribute) != nil
            || Self.customKeyName(comparison.attribute) != nil { return nil }
        let match = TextMatch(pattern: pattern, modifiers: comparison.modifiers)
        var result: [FieldID: Access] = [:]
        for field in fields.text {
            let access = access(match, pattern: pattern, field: field)
            guard case .postings = access else { return nil }
            result[field] = access
        }
        return result
    }

    /// A string `==`: text fields (postings candidates, or `within` itself when it is already `narrowed` to
    /// the postings of `access`), the domain, and numeric columns for presence or a number-like string.
    private mutating func textComparison(_ comparison: Comparison, fields: AttributeFields, within: [DocAddress]?,
                                         access: [FieldID: Access]? = nil, narrowed: Bool = false) -> [DocAddress] {
        guard case .string(let pattern) = comparison.value else { return [] }
        var result: [DocAddress] = []
        let match = TextMatch(pattern: pattern, modifiers: comparison.modifiers)
        for field in fields.text {
            let found = text(match, pattern: pattern, field: field, within: within,
                             access: access?[field], narrowed: narrowed)
            result = SortedAddresses.union(result, found)
        }
        if Self.isDomainAttribute(comparison.attribute) {
            result = SortedAddresses.union(result, domains(match, within: within))
        }
        if pattern.shape == .presence {
            result = SortedAddresses.union(result, numeric(fields.numeric, .any, within: within))
            if let name = Self.storedOnlyAttribute(comparison.attribute) {
                result = SortedAddresses.union(result, storedPresence(of: name, within: within))
            } else if let key = Self.customKeyName(comparison.attribute) {
                // Data (or a name-less person) in a custom key has no text or number: only the blob holds it.
                let rest = SortedAddresses.subtract(within ?? universe, result)
                result = SortedAddresses.union(result, storedPresence(ofCustomKey: key, within: rest))
            }
        } else if let x = number(comparison.value), let range = NumericRange(.equal, x) {
            result = SortedAddresses.union(result, numeric(fields.numeric, range, within: within))
        }
        return result
    }

    /// Whether an attribute names the item's domain (`domainIdentifier` / `kMDItemDomainIdentifier`), which
    /// lives in the document's identity rather than in a field.
    static func isDomainAttribute(_ attribute: QueryAttribute) -> Bool {
        guard case .named(let name) = attribute else { return false }
        return AttributeCatalog.descriptor(forQueryName: name)?.name == "domainIdentifier"
    }

    /// The catalogue name of an attribute whose values no field indexes (data: `thumbnailData`,
    /// `htmlContentData`), which only the item blob holds.
    static func storedOnlyAttribute(_ attribute: QueryAttribute) -> String? {
        guard case .named(let name) = attribute, let descriptor = AttributeCatalog.descriptor(forQueryName: name),
              descriptor.kind == .data else { return nil }
        return descriptor.name
    }

    /// The key name of a custom attribute (a name the catalogue does not know), or nil.
    static func customKeyName(_ attribute: QueryAttribute) -> String? {
        guard case .named(let name) = attribute else { return nil }
        return AttributeCatalog.descriptor(forQueryName: name) == nil ? name : nil
    }

    /// Documents among `within` whose searchable custom key holds Data or a person (alone or in an array), read
    /// from the item blobs: no field indexes bytes, nor a person without a name or handles. Text and numbers are
    /// left to the fields (under `t` an overlong word is no token).
    private func storedPresence(ofCustomKey key: String, within: [DocAddress]) -> [DocAddress] {
        func holds(_ value: AttributeValue) -> Bool {
            switch value {
            case .data, .person: return true
            case .persons(let persons): return !persons.isEmpty
            case .array(let values): return values.contains(where: holds)
            default: return false
            }
        }
        let plan = ItemDocumentCodec.FetchPlan([key], schema: engine.schema)
        let engine = self.engine
        return within.filter { address in
            // An unsearchable key's values are in no field; its Data is not for queries either.
            guard let item = ItemDocumentCodec.item(at: address, in: engine, plan: plan),
                  let entry = item.attributeSet.snapshot.custom[key], entry.key.isSearchable,
                  let value = entry.slot.value else { return false }
            return holds(value)
        }
    }

    /// Visible documents (among `within`) that hold a value of a stored-only attribute. Nothing indexes
    /// these, so this decodes the blob of every document still allowed: the presence test is rare and the
    /// alternative, a column per data attribute, would cost every item that has one.
    private mutating func storedPresence(of name: String, within: [DocAddress]?) -> [DocAddress] {
        let plan = ItemDocumentCodec.FetchPlan([name], schema: engine.schema)
        let engine = self.engine
        return (within ?? universe).filter { address in
            ItemDocumentCodec.item(at: address, in: engine, plan: plan)?.attributeSet.value(forAttribute: name) != nil
        }
    }

    /// Visible documents whose item domain matches. Domains are not in the postings, so this scans the
    /// documents still allowed (no stored values are decoded).
    private mutating func domains(_ match: TextMatch, within: [DocAddress]?) -> [DocAddress] {
        (within ?? universe).filter { address in engine.domain(of: address).map(match.matches) ?? false }
    }

    /// Visible documents with a value of any of `fields` within `range`.
    private func numeric(_ fields: [FieldID], _ range: NumericRange, within: [DocAddress]?) -> [DocAddress] {
        guard !fields.isEmpty else { return [] }
        if let within, within.count * 8 < max(engine.documentCount, 1) {
            // Few documents left: read their values instead of scanning the whole columns.
            return within.filter { numeric(fields, range, contains: $0) }
        }
        let clauses = fields.map { Query.range($0, lower: range.engineLower, upper: range.engineUpper) }
        let query = clauses.count == 1 ? clauses[0] : .or(clauses)
        let found = within.map { SortedAddresses.intersect($0, engine.matches(query)) }
            ?? engine.matches(.and([query, snapshot.liveFilter]))
        // The engine range included rounded bounds: the documents at them are checked exactly.
        return range.isExact ? found : found.filter { numeric(fields, range, contains: $0) }
    }

    /// Whether a document has a value of any of `fields` within `range`, reading its exact stored numbers only
    /// where the column's Doubles cannot tell.
    private func numeric(_ fields: [FieldID], _ range: NumericRange, contains address: DocAddress) -> Bool {
        fields.contains { field in
            if let decided = range.contains(columns: engine.numbers(field, of: address)) { return decided }
            let exact = ItemDocumentCodec.exactNumbers(of: field, at: address, in: engine)
            return exact.contains(where: range.contains(exactly:))
        }
    }

    /// How a text field's candidates are found.
    enum Access {
        /// Documents holding one of these terms; `count` estimates the work in postings (their document
        /// frequencies plus `termCost` per term).
        case postings([String], count: Int)
        /// No postings access path fits: the pattern has no literal text to look up.
        case scan
    }

    private func access(_ match: TextMatch, pattern: StringPattern, field: FieldID) -> Access {
        switch CandidateTerms.plan(match, pattern: pattern, field: field, snapshot: engine) {
        case .terms(let terms, let documentFrequency):
            return .postings(terms, count: documentFrequency + terms.count * Self.termCost)
        case .scan: return .scan
        }
    }

    /// Visible documents (among `within`) whose stored values of `field` satisfy `match`. Candidates are
    /// `within` itself when it is `narrowed` to the postings of `access` already, or come from the postings of
    /// `access` (planned now if nil), or, when those would name more documents than verifying directly costs,
    /// from `within` (or every visible document) itself.
    private mutating func text(_ match: TextMatch, pattern: StringPattern, field: FieldID, within: [DocAddress]?,
                               access known: Access?, narrowed: Bool) -> [DocAddress] {
        if case .postings(let terms, _)? = known, terms.isEmpty { return [] }
        var list: [DocAddress]?
        let direct = within.map { within in
            narrowed || within.count <= Self.directLimit.plan || (within.count <= Self.directLimit.walk && known == nil
                && CandidateTerms.needsDictionaryScan(match, pattern: pattern))
        } ?? false
        if !direct, case .postings(let terms, let count) = known ?? access(match, pattern: pattern, field: field) {
            if terms.isEmpty { return [] }
            let pays = within.map { Self.postingsPay(count, against: $0.count) } ?? (count * 2 < engine.documentCount)
            if pays { list = engine.matches(.scoped(.field(field), .terms(terms))) }
        }
        let candidates: [DocAddress]
        if let list {
            candidates = within.map { SortedAddresses.intersect($0, list) } ?? list.filter(snapshot.isUnexpired)
        } else {
            // Already narrowed, a scan (no literal text the dictionary could look up), or postings wider than
            // the scan itself.
            candidates = within ?? universe
        }
        return candidates.filter { address in
            assert(snapshot.isVisible(address), "candidates are restricted to visible documents")
            return engine.containsText(field, of: address) { match.matches(utf8: $0) }
        }
    }
}
