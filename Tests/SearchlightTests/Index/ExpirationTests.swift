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

    /// A NaN expiration compares false with every time: accepted, it replaced the stored item, which then
    /// vanished (unpurged) once any other item expired. It is an invalid item, and the stored one stays.
    func testNaNExpirationIsRefusedAndKeepsTheStoredItem() {
        let clock = TestClock()
        let index = makeIndex(clock: clock)
        let original = makeItem("x", title: "original")
        original.expirationDate = .distantFuture
        XCTAssertNil(index.completion { index.indexSearchableItems([original], completionHandler: $0) })
        let bad = makeItem("x", title: "replacement")
        bad.expirationDate = Date(timeIntervalSinceReferenceDate: .nan)
        let error = index.completion { index.indexSearchableItems([bad], completionHandler: $0) }
        XCTAssertEqual(indexErrorCode(error), .invalidItemError)
        XCTAssertTrue((error as? CSIndexError)?.message.contains("expirationDate") == true, "\(String(describing: error))")
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: ["x"]).first?.attributeSet.title, "original")
        let shortLived = makeItem("y", title: "short")
        shortLived.expirationDate = clock.now.addingTimeInterval(10)
        XCTAssertNil(index.completion { index.indexSearchableItems([shortLived], completionHandler: $0) })
        clock.advance(by: 20)
        XCTAssertEqual(index.allIdentifiers, ["x"])
    }

    /// Every indexed item can be written out again (`searchlight export`): an expiration or an attribute date
    /// that is infinite or millions of years away was indexed, and then the export of the whole index failed on it.
    func testDatesThatCouldNotBeExportedAreRefused() throws {
        let index = makeIndex()
        let forever = makeItem("forever", title: "a")
        forever.expirationDate = Date(timeIntervalSinceReferenceDate: .infinity)
        let far = makeItem("far", title: "b")
        far.expirationDate = Date(timeIntervalSinceReferenceDate: 1e15)
        let farDate = makeItem("farDate", title: "c")
        farDate.attributeSet.contentCreationDate = Date(timeIntervalSinceReferenceDate: -1e15)
        for item in [forever, far, farDate] {
            let error = index.completion { index.indexSearchableItems([item], completionHandler: $0) }
            XCTAssertEqual(indexErrorCode(error), .invalidItemError, item.uniqueIdentifier)
            XCTAssertTrue((error as? CSIndexError)?.message.contains("three million years") == true,
                          "\(String(describing: error))")
        }
        let edge = makeItem("edge", title: "d")
        edge.expirationDate = Date(timeIntervalSinceReferenceDate: 9.9e13)
        edge.attributeSet.contentCreationDate = Date(timeIntervalSinceReferenceDate: -9.9e13)
        XCTAssertNil(index.completion { index.indexSearchableItems([edge], completionHandler: $0) })
        let stored = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["edge"]).first)
        XCTAssertNoThrow(try ItemJSON.encode(stored))
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

    /// Readers skip the expiration column while the container's earliest expiration lies ahead
    /// (`ContainerSnapshot.noneExpired`); from that instant on they look again, with no write in between.
    func testNothingIsLookedUpBeforeTheEarliestExpirationAndEverythingAfter() async throws {
        let clock = TestClock()
        let index = makeIndex(clock: clock)
        // Twenty-five items a user query ranks alike; the one that expires first is among the best (shortest title).
        var items = (0..<25).map { makeItem("item\($0)", title: "alpine lake number \($0)") }
        let soon = makeItem("soon", title: "alpine lake")
        soon.expirationDate = clock.now.addingTimeInterval(60)
        items.append(soon)
        try await index.indexSearchableItems(items)
        XCTAssertTrue(index.container.snapshot().noneExpired)
        let before = runUserQuery("alpine la", in: index.container) { $0.maxResultCount = 5; $0.enableRankedResults = true }
        XCTAssertEqual(before.items.first?.uniqueIdentifier, "soon")
        XCTAssertEqual(before.items.count, 5)

        clock.advance(by: 61)
        XCTAssertFalse(index.container.snapshot().noneExpired)
        let after = runUserQuery("alpine la", in: index.container) { $0.maxResultCount = 5; $0.enableRankedResults = true }
        XCTAssertEqual(after.items.count, 5, "the page is filled from the items that have not expired")
        XCTAssertFalse(after.items.contains { $0.uniqueIdentifier == "soon" })
        XCTAssertEqual(index.itemCount(), 25)
        XCTAssertFalse(index.allIdentifiers.contains("soon"))
    }

    /// An update that sets an earlier date lowers the floor, and merging the batches in the background keeps it.
    /// (A donated activity that expires first lowers it too: `testExpirationUsesTheActivityDateElseOneMonth`.)
    func testEveryWriteThatExpiresSoonerLowersTheFloor() async throws {
        let clock = TestClock()
        let index = makeIndex(clock: clock)
        try await index.indexSearchableItems((0..<40).map { makeItem("a\($0)", title: "a") })
        for batch in 0..<4 {
            try await index.indexSearchableItems((0..<40).map { makeItem("b\(batch)-\($0)", title: "b") })
        }
        let update = makeItem("a7", title: "a")
        update.isUpdate = true
        update.expirationDate = clock.now.addingTimeInterval(100)
        try await index.indexSearchableItems([update])
        index.container.waitForBackgroundMerges()
        XCTAssertTrue(index.container.snapshot().noneExpired, "a merge keeps the floor")
        clock.advance(by: 101)
        XCTAssertFalse(index.container.snapshot().noneExpired)
        XCTAssertEqual(index.itemCount(), 199, "the update's earlier date counts at once")
        XCTAssertFalse(index.allIdentifiers.contains("a7"))
    }
}
