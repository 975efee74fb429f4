import Foundation
import XCTest
@testable import Searchlight

final class ExpirationTests: XCTestCase {
    func testDefaultExpirationIsOneMonthAfterIndexing() async throws {
        let clock = TestClock()
        let index = makeIndex(clock: clock)
        try await index.indexSearchableItems([makeItem("1", title: "a")])
        let stored = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["1"]).first)
        let days = stored.expirationDate.timeIntervalSince(clock.now) / 86_400
        XCTAssertTrue((28...31).contains(days), "expires \(days) days after indexing")
        clock.advance(by: 27 * 86_400)
        XCTAssertEqual(index.itemCount(), 1)
        clock.advance(by: 5 * 86_400)
        XCTAssertEqual(index.itemCount(), 0, "expired items disappear from queries at once")
    }

    func testExpiredItemsDisappearThenArePurgedLazily() async throws {
        let clock = TestClock()
        let index = makeIndex(clock: clock)
        let soon = makeItem("soon", title: "a")
        soon.expirationDate = clock.now.addingTimeInterval(60)
        let later = makeItem("later", title: "b")
        later.expirationDate = .distantFuture
        try await index.indexSearchableItems([soon, later])
        XCTAssertEqual(index.allIdentifiers, ["later", "soon"])
        clock.advance(by: 61)
        XCTAssertEqual(index.allIdentifiers, ["later"])
        XCTAssertTrue(index.fetchSearchableItems(withIdentifiers: ["soon"]).isEmpty)
        XCTAssertEqual(index.container.snapshot().engine.documentCount, 2, "still stored until the next write")
        try await index.indexSearchableItems([makeItem("new", title: "c")])
        XCTAssertEqual(index.container.snapshot().engine.documentCount, 2, "the next write purged it")
        XCTAssertEqual(index.allIdentifiers, ["later", "new"])
    }

    func testReindexingRefreshesTheExpiration() async throws {
        let clock = TestClock()
        let index = makeIndex(clock: clock)
        try await index.indexSearchableItems([makeItem("1", title: "a")])
        clock.advance(by: 20 * 86_400)
        try await index.indexSearchableItems([makeItem("1", title: "a")])
        clock.advance(by: 20 * 86_400)
        XCTAssertEqual(index.itemCount(), 1)
    }

    func testUpdateKeepsTheStoredExpirationUnlessItSetsOne() async throws {
        let clock = TestClock()
        let index = makeIndex(clock: clock)
        let item = makeItem("1", title: "a")
        item.expirationDate = clock.now.addingTimeInterval(100)
        try await index.indexSearchableItems([item])
        let update = makeItem("1", title: "b")
        update.isUpdate = true
        try await index.indexSearchableItems([update])
        clock.advance(by: 101)
        XCTAssertEqual(index.itemCount(), 0)
    }
}
