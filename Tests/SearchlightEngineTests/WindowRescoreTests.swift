@testable import SearchlightEngine
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
}
