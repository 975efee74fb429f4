import Foundation
import Synchronization
import XCTest
@testable import Searchlight

/// Engagement recorded while a delete of its item is being applied.
final class EngagementDeleteRaceTests: XCTestCase {
    /// `userEngaged` checked the item in a snapshot, then recorded: a delete applied in between (its engagement
    /// forgotten before the record landed) left the deleted item's engagement for a later item with its
    /// identifier. The delete is run from inside the engagement call (through the container's clock, read right
    /// after the snapshot); recording and publishing a delete are now serialised, so the delete's forgetting
    /// comes after the record whatever the interleaving. The wait for the delete is bounded only so that the
    /// fixed code, where the delete cannot publish until the engagement is recorded, does not wait for ever.
    func testEngagementRecordedWhileItsItemIsDeletedIsForgotten() async throws {
        let hook = Mutex<(@Sendable () -> Void)?>(nil)
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let container = SearchlightContainer(clock: {
            if let run = hook.withLock({ h -> (@Sendable () -> Void)? in defer { h = nil }; return h }) { run() }
            return start
        })
        let index = CSSearchableIndex(name: "race", container: container)
        try await index.indexSearchableItems([makeItem("a", title: "Report"), makeItem("b", title: "Report")])
        let run = runUserQuery("report", in: container)
        let a = try XCTUnwrap(run.items.first { $0.uniqueIdentifier == "a" })
        hook.withLock {
            $0 = {
                let deleted = DispatchSemaphore(value: 0)
                index.deleteSearchableItems(withIdentifiers: ["a"]) { _ in deleted.signal() }
                _ = deleted.wait(timeout: .now() + 1)
            }
        }
        run.query.userEngaged(CSUserQuery.Item(item: a), visibleItems: [], interaction: .select)
        await withCheckedContinuation { done in container.afterPendingWrites { done.resume() } }
        XCTAssertTrue(index.fetchSearchableItems(withIdentifiers: ["a"]).isEmpty, "the delete was applied")
        try await index.indexSearchableItems([makeItem("a", title: "Report")])
        XCTAssertNil(container.engagement.record(for: "a", at: start), "the deleted item's: not the new one's")
    }

    /// A write that deletes items forgets their engagement inside the write, and walked every ledger record again
    /// (with identifier lookups) once published, though the second pass only matters when engagement was recorded
    /// between the two. With nothing recorded meanwhile it is skipped.
    func testADeleteWithNothingRecordedMeanwhileWalksTheLedgerOnce() async throws {
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let container = SearchlightContainer(clock: { start })
        let index = CSSearchableIndex(name: "once", container: container)
        try await index.indexSearchableItems([makeItem("a", title: "Report"), makeItem("b", title: "Report")])
        container.engagement.recordSelection(of: "a", at: start)
        container.engagement.recordSelection(of: "b", at: start)
        let before = container.engagement.forgetPasses
        try await index.deleteSearchableItems(withIdentifiers: ["a"])
        XCTAssertEqual(container.engagement.forgetPasses - before, 1, "one walk of the ledger")
        XCTAssertNil(container.engagement.record(for: "a", at: start), "the deleted item's engagement is forgotten")
        XCTAssertNotNil(container.engagement.record(for: "b", at: start))
    }
}
