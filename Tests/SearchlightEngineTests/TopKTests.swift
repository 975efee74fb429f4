import XCTest
@testable import SearchlightEngine

/// The top-k collector against a full sort: the kept hits are the best `k`, best first, ties broken by
/// address, whatever the insertion order.
final class TopKTests: XCTestCase {
    func testKeepsTheBestKInRankOrder() {
        for start: UInt64 in [1, 0x5EED, 2026] {
            checkAgainstAFullSort(seed: start)
        }
    }

    private func checkAgainstAFullSort(seed start: UInt64) {
        var seed = start
        func random(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for round in 0..<300 {
            let k = [1, 2, 3, 7, 20, 100][round % 6]
            let n = random(250)
            // Few distinct scores, so ties on score are common and the address decides.
            let hits = (0..<n).map { doc in
                SearchHit(address: DocAddress(segment: UInt32(random(3)), doc: UInt32(doc)), score: Float(random(12)) / 4)
            }.shuffled()
            var top = TopK(k: k)
            for hit in hits { top.insert(hit) }
            let expected = Array(hits.sorted(by: SearchHit.ranksBefore).prefix(k))
            XCTAssertEqual(top.sorted(), expected, "seed \(start), round \(round), k \(k), n \(n)")
        }
    }

    func testEmptyAndZeroK() {
        var empty = TopK(k: 5)
        XCTAssertEqual(empty.sorted(), [])
        var none = TopK(k: 0)
        none.insert(SearchHit(address: DocAddress(segment: 0, doc: 1), score: 1))
        XCTAssertEqual(none.sorted(), [])
        empty.insert(SearchHit(address: DocAddress(segment: 0, doc: 1), score: 1))
        XCTAssertEqual(empty.sorted(), [SearchHit(address: DocAddress(segment: 0, doc: 1), score: 1)])
    }
}
