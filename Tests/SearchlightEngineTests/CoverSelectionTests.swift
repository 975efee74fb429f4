@testable import SearchlightEngine
import XCTest

/// `CoverSelection` picks what a heap of the same size keeps, in the same order.
final class CoverSelectionTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator

    /// Random scores with many ties (a few hundred values), more and fewer documents than wanted, zero scores:
    /// the selection equals `TopK`'s sorted hits (score descending, then document ascending).
    func testSelectionEqualsAHeapsSortedHits() {
        var g = Generator(state: 71)
        for round in 0..<40 {
            let documents = 1 + g.int(round % 4 == 0 ? 300 : 20_000)
            let count = 1 + g.int(round % 3 == 0 ? 50 : 5_000)
            var keys: [UInt64] = []
            var top = TopK(k: count)
            for doc in 0..<documents where g.chance(0.7) {
                let score = round % 5 == 0 ? 0 : Float(g.int(400)) / 37
                keys.append(CoverSelection.key(score: score, doc: doc))
                top.insert(SearchHit(address: DocAddress(segment: 0, doc: UInt32(doc)), score: score))
            }
            for i in stride(from: keys.count - 1, to: 0, by: -1) { keys.swapAt(i, g.int(i + 1)) }
            XCTAssertEqual(CoverSelection.best(keys, count: count), top.sorted(), "round \(round)")
        }
    }

    /// A score of -0 ranks as 0 does (its sign bit must not rank it first).
    func testNegativeZeroRanksAsZero() {
        let keys = [CoverSelection.key(score: 1, doc: 0), CoverSelection.key(score: 0, doc: 1),
                    CoverSelection.key(score: 0.5, doc: 2)]
        XCTAssertEqual(CoverSelection.key(score: 0, doc: 3), CoverSelection.key(score: 0, doc: 3))
        XCTAssertEqual(CoverSelection.best(keys, count: 3).map(\.address.doc), [0, 2, 1])
        XCTAssertEqual(CoverSelection.key(score: -0.0 as Float, doc: 1) >> 32, CoverSelection.key(score: 0, doc: 1) >> 32)
    }

    /// Scores across the whole range of floats, so that buckets of the top bits split them unevenly.
    func testSelectionAcrossMagnitudes() {
        var g = Generator(state: 72)
        var keys: [UInt64] = []
        var top = TopK(k: 1_000)
        for doc in 0..<30_000 {
            let score = Float(g.int(1_000_000)) * Float(sign: .plus, exponent: g.int(60) - 30, significand: 1)
            keys.append(CoverSelection.key(score: score, doc: doc))
            top.insert(SearchHit(address: DocAddress(segment: 0, doc: UInt32(doc)), score: score))
        }
        XCTAssertEqual(CoverSelection.best(keys, count: 1_000), top.sorted())
    }
}
