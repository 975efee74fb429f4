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
    /// Renown re-ranks an ordered window even when the engine could select from it (tests compare the two).
    var ordersWindow = false

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
    /// `UserQueryRanking.renownWindow` of them re-ranked by renown; `renowned` holds the returned ones renown raised.
    func hits(_ query: Query, limit: Int) -> (hits: [SearchHit], renowned: Set<DocAddress>) {
        guard ranking.mentions != nil else { return (visibleHits(query, limit: limit), []) }
        let window = UserQueryRanking.renownWindow
        if limit <= window, snapshot.noneExpired, !ordersWindow {
            // Every hit is visible and the page lies within the window: the engine selects the page from the
            // window by renown (`WindowRescore`) without ordering the window.
            let ranking = ranking
            var options = options(limit: limit, filter: restriction)
            options.windowRescore = WindowRescore(window: window, ceiling: UserQueryRanking.renownCeiling) {
                ranking.renownFactors($0)
            }
            let hits = snapshot.engine.search(query, options: options)
            var renowned: Set<DocAddress> = []
            for (hit, factor) in zip(hits, ranking.renownFactors(hits.map(\.address))) where factor != 1 {
                renowned.insert(hit.address)
            }
            return (hits, renowned)
        }
        let ranked = visibleHits(query, limit: max(limit, window))
        let head = min(window, ranked.count)
        // Only the few mentioned documents move (most have no renown): they are sorted apart and merged into the
        // others, which keep the engine's order, instead of sorting the whole window.
        var risen: [SearchHit] = [], places: [Int] = []
        let factors = ranking.renownFactors(ranked[..<head].map(\.address))
        for place in 0..<head {
            let hit = ranked[place], factor = factors[place]
            guard factor != 1 else { continue }
            risen.append(SearchHit(address: hit.address, score: hit.score * factor))
            places.append(place)
        }
        guard !risen.isEmpty else { return (Array(ranked.prefix(limit)), []) }
        risen.sort(by: Self.precedes)
        var hits: [SearchHit] = []
        hits.reserveCapacity(min(limit, ranked.count))
        var renowned: Set<DocAddress> = []
        var next = 0, stayed = 0, skipped = 0
        while hits.count < limit {
            // Past the places the risen ones left.
            while skipped < places.count, places[skipped] == stayed { stayed += 1; skipped += 1 }
            if next < risen.count, stayed >= head || Self.precedes(risen[next], ranked[stayed]) {
                hits.append(risen[next])
                renowned.insert(risen[next].address)
                next += 1
            } else if stayed < head {
                hits.append(ranked[stayed])
                stayed += 1
            } else {
                break
            }
        }
        if hits.count < limit, head < ranked.count { hits += ranked[head..<min(ranked.count, head + limit - hits.count)] }
        return (hits, renowned)
    }

    /// Score, then address: the engine's order of ties.
    static func precedes(_ a: SearchHit, _ b: SearchHit) -> Bool {
        a.score != b.score ? a.score > b.score : a.address < b.address
    }

    /// The engine's options for `limit` hits: the signals applied while collecting.
    private func options(limit: Int, filter: Query?) -> SearchOptions {
        var options = SearchOptions(limit: limit, filter: filter, rescore: ranking.rescore,
                                    rescoreCeiling: ranking.ceiling, memo: memo)
        options.lifted = ranking.covering ?? []
        options.liftedCeiling = ranking.coveringCeiling
        return options
    }

    /// The best `limit` visible hits of `query` by rescored score, best first.
    func visibleHits(_ query: Query, limit: Int) -> [SearchHit] {
        guard limit > 0 else { return [] }
        let engine = snapshot.engine
        // None expired yet: the first `limit` are visible.
        let request = limit + (snapshot.noneExpired ? 0 : Self.slack)
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
