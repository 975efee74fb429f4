import SearchlightEngine

/// The ranked retrieval of `CSUserQuery`: the best `limit` visible documents for an engine query, each
/// BM25F score multiplied by the ranking signals, best first.
///
/// Same result as `engine.search(query, filter: liveFilter, rescore:, rescoreWindow:)`, but without the
/// expiration range filter, which makes the engine scan the whole expiration column on every search: the
/// search over-fetches a little, drops the few expired hits by looking up their expiration, and only when
/// too many were expired falls back to the filtered search. Taking the first `limit` visible hits of a longer
/// best-first list gives exactly the filtered top `limit` (same scores, same tie order: score, then address).
struct RankedSearch {
    let snapshot: ContainerSnapshot
    /// A non-scoring restriction (the filter queries' matches, already visible-only), or nil.
    let restriction: Query?
    let rescore: @Sendable (DocAddress, Float) -> Float
    /// Leaf plans shared by this request's searches (the exact and the typo-tolerant pass).
    let memo: PlanMemo

    init(snapshot: ContainerSnapshot, restriction: Query?, rescore: @escaping @Sendable (DocAddress, Float) -> Float) {
        self.snapshot = snapshot
        self.restriction = restriction
        self.rescore = rescore
        memo = PlanMemo(for: snapshot.engine)
    }

    /// At least as many documents as `query` matches (`IndexSnapshot.maximumMatches`), planned into the memo.
    func maximumMatches(_ query: Query) -> Int { snapshot.engine.maximumMatches(query, memo: memo) }

    /// Extra hits fetched beyond `limit` to absorb expired ones before falling back to the filtered search.
    static let slack = 16

    /// The best `limit` visible hits of `query`: the best `rankedWindow` (at least `limit`) by BM25F are
    /// rescored with the ranking signals and re-sorted, so a small page still gets the best-ranked items (Apple
    /// ranks the top `maxRankedResultCount`, 100 by default, whatever the page size).
    func hits(_ query: Query, limit: Int, rankedWindow: Int = 0) -> [SearchHit] {
        guard limit > 0 else { return [] }
        let engine = snapshot.engine
        let size = max(limit, rankedWindow)
        let request = size + Self.slack
        var window = engine.search(query, options: SearchOptions(limit: request, filter: restriction, memo: memo))
        let fetched = window.count
        window.removeAll { !snapshot.isUnexpired($0.address) }
        if window.count < size, fetched == request {
            // Too many expired documents among the best: let the engine filter them while collecting.
            let filter = restriction.map { Query.and([snapshot.liveFilter, $0]) } ?? snapshot.liveFilter
            window = engine.search(query, options: SearchOptions(limit: size, filter: filter, memo: memo))
        }
        if window.count > size { window.removeSubrange(size...) }
        let rescored = window.map { SearchHit(address: $0.address, score: rescore($0.address, $0.score)) }
        let ranked = rescored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.address < $1.address }
        return Array(ranked.prefix(limit))
    }
}
