@testable import SearchlightEngine

/// What the tests of the ranked shortcuts (champion covers, best-first phrases) share: a query planned as a search
/// plans it, and a rescore with a ceiling that lifts some documents above it.
enum RankedPathFixtures {
    /// `query` planned over the default fields, with the rescore `options` apply while collecting (nil: none).
    static func plan(_ snapshot: IndexSnapshot, _ query: Query, options: SearchOptions)
        -> (planner: QueryPlanner, plan: QueryPlan, collecting: RescoreWhileCollecting?) {
        let planner = QueryPlanner(snapshot: snapshot)
        let plan = planner.plan(query, scope: planner.resolve(.defaultFields))
        let collecting = options.rescore.flatMap { _ in
            options.rescoreCeiling.map { RescoreWhileCollecting(options: options, ceiling: $0) }
        }
        return (planner, plan, collecting)
    }

    /// Options for a page of `limit` rescored ×0.6–1.0 (ceiling 1), every 97th document lifted up to ×3.
    static func rescored(_ snapshot: IndexSnapshot) -> (Int) -> SearchOptions {
        let rescore: @Sendable (DocAddress, Float) -> Float = { address, score in
            score * (address.doc % 97 == 0 ? 3 : Float(address.doc % 5 + 6) / 10)
        }
        var lifted: [DocAddress] = []
        for (segment, bits) in snapshot.live.enumerated() {
            for doc in stride(from: 0, to: bits.count, by: 97) { lifted.append(DocAddress(segment: UInt32(segment), doc: UInt32(doc))) }
        }
        return { limit in
            var options = SearchOptions(limit: limit, rescore: rescore, rescoreCeiling: 1)
            options.lifted = lifted
            options.liftedCeiling = 3
            return options
        }
    }
}
