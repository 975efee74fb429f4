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
            XCTAssertFalse(top.buffered)
            for hit in hits { top.insert(hit) }
            let expected = Array(hits.sorted(by: SearchHit.ranksBefore).prefix(k))
            XCTAssertEqual(top.sorted(), expected, "seed \(start), round \(round), k \(k), n \(n)")
        }
    }

    /// Buffered (a large `k`): the same hits as a full sort, sorted or not, whatever the order and the ties; the
    /// bar it prunes by never passes the k-th hit of what it was given so far.
    func testBufferedKeepsTheBestKAsAFullSort() {
        var seed: UInt64 = 0xB0FF
        func random(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for round in 0..<120 {
            let k = [64, 65, 100, 256, 300][round % 5]
            let n = random(3 * k) + (round % 3 == 0 ? 4 * k : 0)
            // Few distinct scores (ties decided by address), or many; sometimes ascending, the worst case of a bar.
            let distinct = round % 2 == 0 ? 12 : 100_000
            var hits = (0..<n).map { doc in
                SearchHit(address: DocAddress(segment: UInt32(random(3)), doc: UInt32(doc)), score: Float(random(distinct)) / 4)
            }
            if round % 7 == 0 { hits.sort { SearchHit.ranksBefore($1, $0) } } else { hits.shuffle() }
            var top = TopK(k: k, buffered: true)
            var unordered = TopK(k: k, buffered: true)
            XCTAssertTrue(top.buffered)
            var given: [SearchHit] = []
            for hit in hits {
                top.insert(hit)
                unordered.insert(hit)
                given.append(hit)
                if top.isFull, given.count % 50 == 0 {
                    let kth = given.sorted(by: SearchHit.ranksBefore)[k - 1]
                    XCTAssertLessThanOrEqual(top.threshold, kth.score, "round \(round): the bar passed the k-th hit")
                }
            }
            let expected = Array(hits.sorted(by: SearchHit.ranksBefore).prefix(k))
            XCTAssertEqual(top.count, expected.count)
            XCTAssertEqual(top.sorted(), expected, "round \(round), k \(k), n \(n)")
            XCTAssertEqual(unordered.unordered().sorted(by: SearchHit.ranksBefore), expected, "round \(round)")
        }
        // Below the minimum, or past the maximum, a heap is kept.
        XCTAssertFalse(TopK(k: TopK.bufferedMinimum - 1, buffered: true).buffered)
        XCTAssertFalse(TopK(k: TopK.bufferedMaximum + 1, buffered: true).buffered)
    }

    /// The selection puts the hit of each rank in its place, the better ones before it, on inputs a naive pivot
    /// makes quadratic (sorted, reversed, all one score).
    func testSelectPlacesEachRank() {
        var seed: UInt64 = 77
        func random(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for round in 0..<200 {
            let n = 1 + random(600)
            var hits = (0..<n).map { SearchHit(address: DocAddress(segment: 0, doc: UInt32($0)), score: Float(random(round % 4 == 0 ? 1 : 50))) }
            switch round % 3 {
            case 0: hits.sort(by: SearchHit.ranksBefore)
            case 1: hits.sort { SearchHit.ranksBefore($1, $0) }
            default: hits.shuffle()
            }
            let rank = random(n)
            let expected = hits.sorted(by: SearchHit.ranksBefore)
            hits.withUnsafeMutableBufferPointer { TopK.select($0.baseAddress!, count: n, rank: rank) }
            XCTAssertEqual(hits[rank], expected[rank], "round \(round), n \(n), rank \(rank)")
            XCTAssertEqual(Set(hits[..<rank].map(\.address)), Set(expected[..<rank].map(\.address)), "round \(round)")
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
