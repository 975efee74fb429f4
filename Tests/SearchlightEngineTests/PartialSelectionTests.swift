import XCTest
@testable import SearchlightEngine

/// `moveSmallestToFront(k)` against a full sort: the first k elements are the k smallest (as a multiset), for
/// random arrays with and without repeats, sorted and reversed inputs, and every edge of k.
final class PartialSelectionTests: XCTestCase {
    func testFirstKAreTheKSmallest() {
        var seed: UInt64 = 77
        func random(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for round in 0..<400 {
            let n = random(600)
            let spread = [2, 10, 1_000, 1 << 30][round % 4]
            var values = (0..<n).map { _ in UInt64(random(spread)) }
            switch round % 5 {
            case 0: values.sort()
            case 1: values.sort(by: >)
            default: break
            }
            let k = [0, 1, 2, n / 2, max(n - 1, 0), n, n + 5, random(n + 1)][round % 8]
            var selected = values
            selected.moveSmallestToFront(k)
            XCTAssertEqual(selected.sorted(), values.sorted(), "round \(round): a permutation")
            let kept = min(max(k, 0), n)
            XCTAssertEqual(selected.prefix(kept).sorted(), Array(values.sorted().prefix(kept)), "round \(round): n \(n) k \(k)")
        }
    }
}
