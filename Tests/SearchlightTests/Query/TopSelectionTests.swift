import XCTest
@testable import Searchlight

/// `TopSelection.first`: the stable sort's prefix, found with about n·log k comparisons rather than n·log n.
final class TopSelectionTests: XCTestCase {
    func testSelectionEqualsTheStableSortPrefixWithTies() {
        var random = SeededGenerator(seed: 9)
        for _ in 0..<300 {
            let values = (0..<Int.random(in: 0..<60, using: &random)).map { index in
                (key: Int.random(in: 0..<6, using: &random), position: index)
            }
            let count = Int.random(in: -1..<70, using: &random)
            let sorted = values.sorted { $0.key < $1.key }  // Stable: ties keep their positions.
            let selected = TopSelection.first(count, of: values) { $0.key < $1.key }
            XCTAssertEqual(selected.map(\.position), sorted.prefix(max(count, 0)).map(\.position))
        }
    }

    /// A page of 10 out of 8192 shuffled values costs a few comparisons per value; a full sort costs ~13 each.
    func testSelectingAPageComparesFarLessThanSortingEverything() {
        var random = SeededGenerator(seed: 3)
        let values = Array(0..<8192).shuffled(using: &random)
        var comparisons = 0
        let page = TopSelection.first(10, of: values) { comparisons += 1; return $0 < $1 }
        XCTAssertEqual(page, Array(0..<10))
        XCTAssertLessThan(comparisons, values.count + values.count / 4,
                          "a bounded heap rejects most values with one comparison")
        var sortComparisons = 0
        _ = values.sorted { sortComparisons += 1; return $0 < $1 }
        XCTAssertGreaterThan(sortComparisons, 8 * comparisons)
    }
}
