import SearchlightEngine

/// Searchlight's engine (`SearchlightEngine`) under the harness, through its public API only: one
/// `IndexWriter`, items upserted as `Document`s, `commit()` to publish a snapshot, queries on the snapshot.
///
/// Fields mirror FTS5's: title (primary, weight 4), displayName (2), keywords (2, one value per keyword),
/// contentDescription (1), weights from `BenchField`.
public final class SearchlightEngineAdapter: BenchEngine {
    public static let name = "searchlight"

    private let writer = IndexWriter()
    private var snapshot = IndexSnapshot()
    private var fieldIDs: [FieldID] = []

    public init() throws {
        for field in BenchField.allCases {
            fieldIDs.append(try writer.registerField(
                field.rawValue, .text(weight: Float(field.weight), primary: field == .title)))
        }
    }

    /// The engine document for a corpus item (keywords stay separate values of one field).
    func document(_ item: CorpusItem) -> Document {
        var values: [(FieldID, FieldValue)] = []
        values.reserveCapacity(3 + item.keywords.count)
        for (field, id) in zip(BenchField.allCases, fieldIDs) {
            switch field {
            case .title: if !item.title.isEmpty { values.append((id, .text(item.title))) }
            case .displayName: if !item.displayName.isEmpty { values.append((id, .text(item.displayName))) }
            case .keywords: for keyword in item.keywords { values.append((id, .text(keyword))) }
            case .contentDescription:
                if !item.contentDescription.isEmpty { values.append((id, .text(item.contentDescription))) }
            }
        }
        return Document(
            id: item.uniqueIdentifier, domain: item.domainIdentifier.isEmpty ? nil : item.domainIdentifier,
            values: values)
    }

    public func build(_ items: [CorpusItem]) throws {
        for item in items { try writer.upsert(document(item)) }
        snapshot = try writer.commit()
    }

    /// Term → `.term`, prefix → `.prefix`, phrase → `.phrase`; several clauses → `.and`.
    public static func query(_ query: BenchQuery) -> Query {
        let leaves = query.clauses.map { clause -> Query in
            switch clause {
            case .term(let word): return .term(word)
            case .prefix(let stem): return .prefix(stem)
            case .phrase(let words): return .phrase(words.joined(separator: " "))
            }
        }
        return leaves.count == 1 ? leaves[0] : .and(leaves)
    }

    public func compile(_ query: BenchQuery) throws -> Query { Self.query(query) }

    public func search(_ query: Query, limit: Int) throws -> Int {
        let hits = snapshot.search(query, limit: limit)
        var checksum: UInt64 = 0
        for hit in hits { checksum &+= UInt64(hit.address.segment) << 32 | UInt64(hit.address.doc) }
        blackHole(checksum)
        return hits.count
    }

    public func topIdentifiers(_ query: Query, limit: Int) throws -> [String] {
        snapshot.search(query, limit: limit).map { snapshot.id(of: $0.address) ?? "" }
    }

    public func deleteDomain(_ domain: String) throws -> Int {
        let before = snapshot.documentCount
        writer.delete(domains: [domain])
        snapshot = try writer.commit()
        return before - snapshot.documentCount
    }

    /// Tombstones the items' committed documents; the commit drops a segment left with no live document.
    public func delete(_ items: ArraySlice<CorpusItem>) throws -> Int {
        let before = snapshot.documentCount
        writer.delete(ids: items.lazy.map(\.uniqueIdentifier))
        snapshot = try writer.commit()
        return before - snapshot.documentCount
    }

    public func replace(_ items: ArraySlice<CorpusItem>) throws {
        for item in items { try writer.upsert(document(item)) }
        snapshot = try writer.commit()
    }

    public func indexBytes() throws -> Int? { snapshot.stats.estimatedMemoryBytes }

    public func indexShape() -> String? {
        let stats = snapshot.stats
        return "\(stats.segments) segments, \(stats.documents) documents, \(stats.deletedDocuments) deleted"
    }

    public func memoryComponents() -> [(name: String, bytes: Int)] {
        snapshot.memoryBreakdown.map { (name: $0.key, bytes: $0.value) }
            .sorted { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.name < $1.name }
    }
}
