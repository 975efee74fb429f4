import SearchlightEngine

/// The ranked retrieval of `CSUserQuery`: the best `limit` visible documents for an engine query by BM25F score
/// multiplied by the ranking signals, best first.
///
/// The engine ranks while it collects: the signals' ceilings bound how far a document can rise, so pruning
/// stays exact (`SearchOptions.rescoreCeiling`). The expiration range filter is left out, since it makes the
/// engine scan the whole expiration column on every search: the search over-fetches a little, drops the few
/// expired hits by looking up their expiration, and only when too many were expired falls back to the filtered
/// search. Taking the first `limit` visible hits of a longer best-first list gives exactly the filtered top `limit`
/// (same scores, same tie order: score, then address). Before the container's earliest expiration none can have
/// expired: it fetches exactly `limit`.
struct RankedSearch {
    let snapshot: ContainerSnapshot
    /// A non-scoring restriction (the filter queries' matches, already visible-only), or nil.
    let restriction: Query?
    /// The signals, with their ceilings (the covering titles named, when few).
    let ranking: UserQueryRanking
    /// Leaf plans shared by this request's searches (the exact and the typo-tolerant pass).
    let memo: PlanMemo

    init(snapshot: ContainerSnapshot, restriction: Query?, ranking: UserQueryRanking) {
        self.snapshot = snapshot
        self.restriction = restriction
        self.ranking = ranking
        memo = PlanMemo(for: snapshot.engine)
    }

    /// At least as many documents as `query` matches (`IndexSnapshot.maximumMatches`), planned into the memo.
    func maximumMatches(_ query: Query) -> Int { snapshot.engine.maximumMatches(query, memo: memo) }

    /// Extra hits fetched beyond `limit` to absorb expired ones before falling back to the filtered search.
    static let slack = 16

    /// The best `limit` visible hits of `query` by rescored score, best first, the first
    /// `UserQueryRanking.renownWindow` of them re-ranked by renown; `renowned` holds the returned ones it re-ranked.
    func hits(_ query: Query, limit: Int) -> (hits: [SearchHit], renowned: Set<DocAddress>) {
        let window = ranking.mentions == nil ? 0 : UserQueryRanking.renownWindow
        var hits = visibleHits(query, limit: max(limit, window))
        let head = min(window, hits.count)
        for i in 0..<head {
            hits[i] = SearchHit(address: hits[i].address, score: hits[i].score * ranking.renownFactor(hits[i].address))
        }
        // Score, then address: the engine's order of ties.
        hits[..<head].sort { $0.score != $1.score ? $0.score > $1.score : $0.address < $1.address }
        if hits.count > limit { hits.removeSubrange(limit...) }
        // The head stays in front after its sort: the first `head` of what is returned are the ones re-ranked.
        return (hits, Set(hits[..<min(head, hits.count)].map(\.address)))
    }

    /// The best `limit` visible hits of `query` by rescored score, best first.
    func visibleHits(_ query: Query, limit: Int) -> [SearchHit] {
        guard limit > 0 else { return [] }
        let engine = snapshot.engine
        // None expired yet: the first `limit` are visible.
        let request = limit + (snapshot.noneExpired ? 0 : Self.slack)
        func options(limit: Int, filter: Query?) -> SearchOptions {
            var options = SearchOptions(limit: limit, filter: filter, rescore: ranking.rescore,
                                        rescoreCeiling: ranking.ceiling, memo: memo)
            options.lifted = ranking.covering ?? []
            options.liftedCeiling = ranking.coveringCeiling
            return options
        }
        var hits = engine.search(query, options: options(limit: request, filter: restriction))
        let fetched = hits.count
        hits.removeAll { !snapshot.isUnexpired($0.address) }
        if hits.count < limit, fetched == request {
            // Too many expired documents among the best: let the engine filter them while collecting.
            let filter = restriction.map { Query.and([snapshot.liveFilter, $0]) } ?? snapshot.liveFilter
            hits = engine.search(query, options: options(limit: limit, filter: filter))
        }
        if hits.count > limit { hits.removeSubrange(limit...) }
        return hits
    }
}
