/// What the harness needs from an engine under test. One conforming type per engine; the runner is generic
/// over it, so no existential sits in the timed loop.
///
/// The timed query path is `search`: the engine gets its own pre-translated form of the query (`compile` runs
/// untimed, like building a MATCH string), parses/analyzes it and returns up to `limit` hits ranked by relevance.
public protocol BenchEngine: AnyObject {
    associatedtype CompiledQuery

    /// The name used in reports and in `--engines`.
    static var name: String { get }

    /// Indexes every item and makes the result searchable (for FTS5: one transaction, then `optimize`).
    func build(_ items: [CorpusItem]) throws

    /// Translates a workload query into the engine's own query form (untimed).
    func compile(_ query: BenchQuery) throws -> CompiledQuery

    /// Runs a query; returns the number of hits (≤ `limit`), ranked best first.
    func search(_ query: CompiledQuery, limit: Int) throws -> Int

    /// The identifiers of the top hits, for agreement checks (untimed).
    func topIdentifiers(_ query: CompiledQuery, limit: Int) throws -> [String]

    /// Removes every item of a domain and makes the removal visible to searches; returns how many went.
    func deleteDomain(_ domain: String) throws -> Int

    /// Removes the items with these identifiers and makes the removal visible to searches; returns how many went
    /// (identifiers not in the index are skipped). The `reindex` scenario deletes the whole corpus this way.
    func delete(_ items: ArraySlice<CorpusItem>) throws -> Int

    /// Reindexes items that already exist (same identifiers, possibly new text) and makes them visible.
    func replace(_ items: ArraySlice<CorpusItem>) throws

    /// The engine's own account of its index size in bytes, where it has one (reported beside RSS).
    func indexBytes() throws -> Int?

    /// That size by component (postings, stored values, ...), largest first, for the log; empty if unknown.
    func memoryComponents() -> [(name: String, bytes: Int)]

    /// The shape of the built index for the log (e.g. its segment count: timing-dependent merges change it, and
    /// with it every query's cost); nil if the engine has none to tell.
    func indexShape() -> String?
}

extension BenchEngine {
    public func indexBytes() throws -> Int? { nil }
    public func memoryComponents() -> [(name: String, bytes: Int)] { [] }
    public func indexShape() -> String? { nil }
}
