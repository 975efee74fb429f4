import Foundation
import SearchlightEngine
import SearchlightQueryLanguage

/// One sort key value: numbers before text, a missing value last.
package enum SortValue: Sendable, Hashable {
    case number(Double)
    /// A stored integer beyond 2^53, which a Double would round; ordered exactly against `number`.
    case integer(Int64)
    case text(String)
    case missing

    /// Orders two values for one sort attribute (`missing` last in both directions).
    static func ordered(_ a: SortValue, _ b: SortValue, ascending: Bool) -> ComparisonResult {
        switch (a, b) {
        case (.missing, .missing): return .orderedSame
        case (.missing, _): return .orderedDescending
        case (_, .missing): return .orderedAscending
        case let (.text(x), .text(y)):
            if x == y { return .orderedSame }
            return (x < y) == ascending ? .orderedAscending : .orderedDescending
        case (.text, _): return .orderedDescending
        case (_, .text): return .orderedAscending
        default:
            guard let x = a.exactNumber, let y = b.exactNumber, let order = AttributeNumber.compare(x, y),
                  order != .orderedSame else { return .orderedSame }
            return (order == .orderedAscending) == ascending ? .orderedAscending : .orderedDescending
        }
    }

    /// The value as an exact number; nil for text and a missing value.
    private var exactNumber: AttributeNumber? {
        switch self {
        case .number(let x): return .double(x)
        case .integer(let x): return .int(x)
        case .text, .missing: return nil
        }
    }
}

/// Orders matches for delivery: sort keys (or index order), then cursor, offset and limit.
package struct ResultOrder {
    package struct Entry {
        package let address: DocAddress
        package let identifier: String
        package let key: [SortValue]
    }

    let snapshot: ContainerSnapshot
    let sortAttributes: [CSSearchQueryContext.SortAttribute]
    /// The engine fields of each sort attribute, resolved once per query rather than for every document keyed.
    private let sortFields: [SortFields]

    /// Where one sort attribute's values are: its fields in this snapshot, and whether it is the domain.
    private struct SortFields {
        let fields: AttributeFields
        let isDomain: Bool
    }

    /// Fails with `invalidQuery` for a sort attribute that can never name an attribute: neither a property name
    /// or `kMDItem…` alias nor a valid custom key name (a valid key no item holds yet sorts as missing).
    init(snapshot: ContainerSnapshot,
         sortAttributes: [CSSearchQueryContext.SortAttribute]) throws(CSSearchQueryError) {
        for (index, sort) in sortAttributes.enumerated() {
            guard AttributeCatalog.descriptor(forQueryName: sort.attribute) == nil,
                  let problem = CustomAttributeKeyInfo.problem(withKeyName: sort.attribute) else { continue }
            let quoted = QueryParseError.excerpt(sort.attribute).debugDescription
            throw CSSearchQueryError(.invalidQuery, message: "invalid sort attribute \(index) "
                + "(\(quoted)): not a property name or kMDItem alias, and \(problem)")
        }
        self.snapshot = snapshot
        self.sortAttributes = sortAttributes
        sortFields = sortAttributes.map { sort in
            SortFields(fields: AttributeFields(.named(sort.attribute), schema: snapshot.engine.schema),
                       isDomain: QueryEvaluator.isDomainAttribute(.named(sort.attribute)))
        }
    }

    /// The sort key of one document. `domainIdentifier` sorts by the item's domain too, as the query language
    /// matches it: the domain lives in the document's identity, not in a field.
    func key(of address: DocAddress) -> [SortValue] {
        zip(sortAttributes, sortFields).map { sort, resolved in
            let fields = resolved.fields
            let numbers = fields.numeric.flatMap { snapshot.engine.numbers($0, of: address) }
            if let n = sort.ascending ? numbers.min() : numbers.max() {
                guard abs(n) >= NumericRange.exactMagnitude else { return .number(n) }
                return exactKey(fields.numeric, of: address, ascending: sort.ascending) ?? .number(n)
            }
            var texts = fields.text.flatMap { snapshot.engine.text($0, of: address) }.map { Folding.fold($0) }
            if resolved.isDomain, let domain = snapshot.engine.domain(of: address) {
                texts.append(Folding.fold(domain))
            }
            if let t = sort.ascending ? texts.min() : texts.max() { return .text(t) }
            return .missing
        }
    }

    /// The smallest (ascending) or largest exact stored number of `fields`, for a column value of 2^53 or more
    /// in magnitude, where Doubles round integers.
    private func exactKey(_ fields: [FieldID], of address: DocAddress, ascending: Bool) -> SortValue? {
        let numbers = fields.flatMap { ItemDocumentCodec.exactNumbers(of: $0, at: address, in: snapshot.engine) }
        let wanted: ComparisonResult = ascending ? .orderedAscending : .orderedDescending
        guard var chosen = numbers.first else { return nil }
        for number in numbers.dropFirst() where AttributeNumber.compare(number, chosen) == wanted { chosen = number }
        switch chosen {
        case .int(let x): return .integer(x)
        case .double(let x): return .number(x)
        case .bool(let x): return .number(x ? 1 : 0)
        }
    }

    /// Whether entry `a` comes before `b`.
    func precedes(_ a: (key: [SortValue], id: String), _ b: (key: [SortValue], id: String)) -> Bool {
        assert(a.key.count == sortAttributes.count && b.key.count == sortAttributes.count, "sort key arity")
        for (index, sort) in sortAttributes.enumerated() {
            switch SortValue.ordered(a.key[index], b.key[index], ascending: sort.ascending) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: continue
            }
        }
        return ResultOrder.identifier(a.id, precedes: b.id)
    }

    /// Identifier order for ties: `String`'s, with canonically equivalent identifiers (distinct items, e.g. "café"
    /// precomposed and decomposed) ordered by their UTF-8 bytes, so a cursor at one never drops the other.
    static func identifier(_ a: String, precedes b: String) -> Bool {
        if a < b { return true }
        if b < a { return false }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Refuses, with `invalidQuery`, a cursor that cannot continue the query `query` (its query string, then its
    /// filter queries) in this order: another query's last address or key would skip results. Checked before the
    /// query runs, so a stale or foreign cursor costs no evaluation.
    func check(_ cursor: CSSearchQueryCursor, query: [String]) throws(CSSearchQueryError) {
        guard cursor.query == query else {
            throw CSSearchQueryError(.invalidQuery,
                                     message: "the cursor was made by a query with another query string or filter queries")
        }
        guard cursor.sortAttributes == sortAttributes else {
            throw CSSearchQueryError(.invalidQuery,
                                     message: "the cursor was made by a query with other sort attributes")
        }
        guard sortAttributes.isEmpty else { return }
        // Generations count per writer: the cursor's snapshot must come from this one (another container's, or a
        // reopened store's, may share the number with other documents at its addresses).
        guard cursor.generation == snapshot.engine.generation,
              cursor.snapshot?.isFromSameWriter(as: snapshot.engine) == true else {
            throw CSSearchQueryError(.invalidQuery, message: "the index changed since this unsorted cursor was made; "
                + "set sortAttributes for cursors that survive changes")
        }
    }

    /// The page of `addresses` (address order) to deliver; a `cursor` passed `check(_:query:)`. Sorted, the
    /// matches at or before the cursor are dropped first and only the first `offset + limit` of the rest are
    /// selected (`TopSelection`), so walking n results a page at a time does not sort all n for every page.
    func page(_ addresses: [DocAddress], cursor: CSSearchQueryCursor?, offset: Int, limit: Int) -> [Entry] {
        if sortAttributes.isEmpty { return indexOrderPage(addresses, cursor: cursor, offset: offset, limit: limit) }
        var entries: [Entry] = []
        entries.reserveCapacity(addresses.count)
        for address in addresses {
            let entry = Entry(address: address, identifier: snapshot.engine.id(of: address) ?? "",
                              key: key(of: address))
            if let cursor, !precedes((cursor.key, cursor.identifier), (entry.key, entry.identifier)) { continue }
            entries.append(entry)
        }
        // No limit, or one past the matches (an offset near Int.max too): all of them, sorted.
        let (wanted, overflow) = offset.addingReportingOverflow(limit)
        let count = limit > 0 && !overflow ? wanted : entries.count
        let selected = TopSelection.first(count, of: entries) {
            precedes(($0.key, $0.identifier), ($1.key, $1.identifier))
        }
        return Array(selected.dropFirst(offset))
    }

    /// The page in index order: cursor, offset and limit apply to the addresses, so identifiers are read only
    /// for the documents delivered.
    private func indexOrderPage(_ addresses: [DocAddress], cursor: CSSearchQueryCursor?, offset: Int,
                                limit: Int) -> [Entry] {
        var page = addresses[...]
        if let cursor {
            let last = DocAddress(segment: cursor.address.segment, doc: cursor.address.doc)
            page = page.drop { !(last < $0) }
        }
        if offset > 0 { page = page.dropFirst(offset) }
        if limit > 0 { page = page.prefix(limit) }
        return page.map { address in
            Entry(address: address, identifier: snapshot.engine.id(of: address) ?? "", key: [])
        }
    }

    /// A cursor continuing after `entry`, for the query `query` (its query string, then its filter queries).
    func cursor(after entry: Entry, query: [String]) -> CSSearchQueryCursor {
        CSSearchQueryCursor(query: query, sortAttributes: sortAttributes, key: entry.key, identifier: entry.identifier,
                            generation: snapshot.engine.generation,
                            address: DocAddressKey(segment: entry.address.segment, doc: entry.address.doc),
                            snapshot: sortAttributes.isEmpty ? snapshot.engine : nil)
    }
}
