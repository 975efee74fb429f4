@testable import SearchlightEngine
import XCTest

/// What the tests of the ranked shortcuts (champion covers, best-first phrases) share: a query planned as a search
/// plans it, and a rescore with a ceiling that lifts some documents above it.
enum RankedPathFixtures {
    /// Near ties: a snapshot of `documents` bodies of 60 to 127 filler words ("f0" ... "f49") plus what `extra` inserts.
    /// Lengths below 128 are exact norms, so neighbouring lengths score about 0.4% apart: many hits then beat the
    /// k-th by less than 1%, and a bound applied with too little margin drops one.
    static func nearTies(documents: Int, seed: UInt64,
                         extra: (inout DifferentialTests.Generator, inout [String]) -> Void) throws -> IndexSnapshot {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        var g = DifferentialTests.Generator(state: seed)
        for i in 0..<documents {
            var words = (0..<(60 + g.int(68))).map { _ in "f\(g.int(50))" }
            extra(&g, &words)
            try writer.upsert(Document(id: "d\(i)", values: [(body, .text(words.joined(separator: " ")))]))
        }
        return try writer.commit()
    }

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

    /// Each query at each page size searched with the phrase tunings `on` and `off` (`options` otherwise), the hits
    /// compared; returns how many of the searches with `on` the path under test answered (`answered`).
    static func comparePhrasePaths(_ snapshot: IndexSnapshot, _ queries: [Query], limits: [Int], label: String,
                                   on: PhraseTuning, off: PhraseTuning, options make: (Int) -> SearchOptions,
                                   answered: (Query, SearchOptions) -> Bool,
                                   file: StaticString = #filePath, line: UInt = #line) -> Int {
        var served = 0
        for query in queries {
            for limit in limits {
                var without = make(limit)
                without.phrases = off
                var with = make(limit)
                with.phrases = on
                XCTAssertEqual(snapshot.search(query, options: with), snapshot.search(query, options: without),
                               "\(label) \(query) limit \(limit)", file: file, line: line)
                if answered(query, with) { served += 1 }
            }
        }
        return served
    }
}
