@testable import SearchlightEngine
import Synchronization
import XCTest

/// `SearchOptions.windowRescore` against its definition: the first stage's best `max(limit, window)` hits, in
/// order, each multiplied by the factor, re-sorted (score, then address), cut to `limit`. Over every path a search
/// takes (champion lists, covers, phrases, the collector), with no rescore, a rescore applied while collecting and
/// a rescore of a window afterwards.
final class WindowRescoreTests: XCTestCase {
    typealias Review = ChampionListsReviewTests

    /// A factor that ties many documents (1) and lifts a few by up to 2×, as renown does.
    static let factor: @Sendable (DocAddress) -> Float = { address in
        address.doc % 5 == 0 ? 1 + Float(address.doc % 7) / 6 : 1
    }

    func testSecondStageEqualsRescoringTheOrderedWindow() throws {
        var compared = 0, changed = 0
        for seed: UInt64 in [3] {
            var g = Review.Generator(state: seed)
            let setup = Review.randomSetup(&g)
            let (writer, _) = try Review.build(setup, seed: seed &* 17)
            let snapshot = writer.snapshot
            let queries = Review.queries + [
                .and([.term("ab"), .prefix("ca")]), .and([.term("b"), .term("ab")]), .or([.term("ba"), .prefix("d")]),
                .and([.prefix("a"), .prefix("b")]), .phrase("ab b"), .and([.term("zzz"), .term("ab")]),
            ]
            let rescores: [(String, SearchOptions)] = [
                ("none", SearchOptions()),
                ("collecting", SearchOptions(rescore: { address, score in score * (1 + Float(address.doc % 3) / 4) },
                                             rescoreCeiling: 1.5)),
                ("after", SearchOptions(rescore: { address, score in score * Float(1 + address.doc % 2) },
                                        rescoreWindow: 40)),
            ]
            for query in queries {
                for (name, base) in rescores {
                    for (limit, window) in [(1, 30), (5, 64), (20, 256), (20, 3), (40, 40)] {
                        var first = base
                        first.limit = max(limit, window)
                        let ordered = snapshot.search(query, options: first)
                        var expected = ordered.map { SearchHit(address: $0.address, score: $0.score * Self.factor($0.address)) }
                        expected.sort(by: SearchHit.ranksBefore)
                        expected = Array(expected.prefix(limit))
                        var options = base
                        options.limit = limit
                        options.windowRescore = WindowRescore(window: window, factor: Self.factor)
                        let got = snapshot.search(query, options: options)
                        XCTAssertEqual(got, expected, "seed \(seed) \(query) \(name) limit \(limit) window \(window)")
                        // With the factor's ceiling (hits that cannot place are not rescored): the same page.
                        options.windowRescore = WindowRescore(window: window, ceiling: 2, factor: Self.factor)
                        XCTAssertEqual(snapshot.search(query, options: options), expected,
                                       "ceiling: seed \(seed) \(query) \(name) limit \(limit) window \(window)")
                        if expected.map(\.address) != ordered.prefix(limit).map(\.address) { changed += 1 }
                        compared += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 700)
        // The factor must reorder pages for the comparison to mean anything.
        XCTAssertGreaterThan(changed, compared / 4, "\(changed) of \(compared) pages reordered")
    }

    /// `best` with a ceiling against rescoring every hit: the same page from windows with ties, zero and negative
    /// scores and factors from 0 to exactly the ceiling, with fewer factors asked when the scores spread out.
    func testCeilingPassesOverHitsThatCannotPlace() {
        var g = Review.Generator(state: 29)
        var asked = (all: 0, bounded: 0)
        for round in 0..<300 {
            let count = 1 + g.int(400)
            let spread = [2, 50, 10_000][round % 3]
            let hits = (0..<count).map { doc -> SearchHit in
                let score = round % 10 == 0 ? Float(g.int(spread)) - Float(spread / 4) : Float(g.int(spread)) / 8
                return SearchHit(address: DocAddress(segment: UInt32(g.int(2)), doc: UInt32(doc)), score: score)
            }
            let factors = (0..<count).map { _ in [0, 1, 1, 1.25, 2][g.int(5)] as Float }
            let calls = Mutex(0)
            let factor: @Sendable (DocAddress) -> Float = { address in
                calls.withLock { $0 += 1 }
                return factors[Int(address.doc)]
            }
            let limit = [1, 5, 20][round % 3]
            let every = WindowRescore(window: count, factor: factor).best(limit, of: hits.shuffled())
            asked.all += calls.withLock { $0 }
            calls.withLock { $0 = 0 }
            let bounded = WindowRescore(window: count, ceiling: 2, factor: factor).best(limit, of: hits.shuffled())
            asked.bounded += calls.withLock { $0 }
            XCTAssertEqual(bounded, every, "round \(round), \(count) hits, limit \(limit)")
        }
        XCTAssertLessThan(asked.bounded, asked.all * 3 / 4, "the ceiling passed over too few hits: \(asked)")
        // A hit whose bound only ties the page's worst may still win on its address: one lifted to exactly the
        // ceiling, and one of score 0 beside a leader its factor of 0 brought down to 0.
        let a = DocAddress(segment: 0, doc: 10), b = DocAddress(segment: 0, doc: 1)
        for (hits, factors) in [([SearchHit(address: a, score: 2), SearchHit(address: b, score: 1)], [a: Float(1), b: 2]),
                                ([SearchHit(address: a, score: 1), SearchHit(address: b, score: 0)], [a: 0, b: 1])] {
            let factor: @Sendable (DocAddress) -> Float = { factors[$0] ?? 1 }
            let page = WindowRescore(window: 2, ceiling: 2, factor: factor).best(1, of: hits)
            XCTAssertEqual(page.map(\.address), [b], "\(hits)")
            XCTAssertEqual(page, WindowRescore(window: 2, factor: factor).best(1, of: hits))
        }
    }
}
