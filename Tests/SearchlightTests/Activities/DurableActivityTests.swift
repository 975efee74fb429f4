// The Linux NSUserActivity (Foundation has its own on Apple platforms; see SearchlightActivityDonation).
#if !canImport(Darwin)
import Foundation
import XCTest
@testable import Searchlight
import SearchlightEngine

/// Activities and engagement in a durable container: journaled with every call, engagement saved at checkpoints.
final class DurableActivityTests: XCTestCase {
    func testActivitiesAndTiedDeletesSurviveReopen() async throws {
        let url = makeStoreURL(self)
        let clock = TestClock()
        do {
            let container = try SearchlightContainer(directory: url, clock: clock.function)
            let index = CSSearchableIndex(name: "durable", container: container)
            try await index.indexSearchableItems([makeItem("a", title: "Apple"), makeItem("b", title: "Banana")])
            for (id, title) in [("a", "apple visit"), ("b", "banana visit")] {
                let activity = NSUserActivity(activityType: "com.example.fruit")
                activity.container = container
                activity.title = title
                activity.isEligibleForSearch = true
                activity.userInfo = ["fruit": id]
                let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
                set.relatedUniqueIdentifier = id
                activity.contentAttributeSet = set
                try await activity.becomeCurrentAndWait()
            }
            let loose = NSUserActivity(activityType: "com.example.loose")
            loose.container = container
            loose.title = "loose visit"
            loose.isEligibleForSearch = true
            loose.persistentIdentifier = "loose"
            try await loose.becomeCurrentAndWait()
            try await index.deleteSearchableItems(withIdentifiers: ["a"])
            XCTAssertEqual(container.snapshot().activities().count, 2)
            container.closeWithoutCheckpoint()  // as a crash would leave it: only the journal has the activities
        }
        for round in 0..<2 {
            let container = try SearchlightContainer(directory: url, clock: clock.function)
            let records = container.snapshot().activities()
            XCTAssertEqual(Set(records.compactMap(\.donation.title)), ["banana visit", "loose visit"], "round \(round)")
            let banana = try XCTUnwrap(records.first { $0.donation.title == "banana visit" })
            XCTAssertEqual(banana.donation.userInfo["fruit"], .string("b"))
            XCTAssertEqual(banana.donation.strongLink, "b")
            // Tied lifetimes still hold after reopening.
            let index = CSSearchableIndex(name: "durable", container: container)
            try await index.deleteSearchableItems(withIdentifiers: ["b"])
            XCTAssertEqual(container.snapshot().activities().compactMap(\.donation.title), ["loose visit"])
            if round == 0 {
                // Undo the delete for the next round: re-create b and its activity.
                try await index.indexSearchableItems([makeItem("b", title: "Banana")])
                let activity = NSUserActivity(activityType: "com.example.fruit")
                activity.container = container
                activity.title = "banana visit"
                activity.isEligibleForSearch = true
                activity.userInfo = ["fruit": "b"]
                let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
                set.relatedUniqueIdentifier = "b"
                activity.contentAttributeSet = set
                try await activity.becomeCurrentAndWait()
            }
            container.close()
        }
    }

    func testEngagementIsSavedAtCheckpointsAndLoadedOnOpen() async throws {
        let url = makeStoreURL(self)
        let clock = TestClock()
        let saved: [EngagementLedger.Key: EngagementLedger.Record]
        do {
            let container = try SearchlightContainer(directory: url, clock: clock.function)
            let index = CSSearchableIndex(name: "durable", container: container)
            try await index.indexSearchableItems([makeItem("x", title: "Report"), makeItem("y", title: "Report")])
            for _ in 0..<3 {
                _ = SearchlightContinuation.activity(forSelecting: "y", visibleIdentifiers: ["x", "y"], in: container)
            }
            saved = container.engagement.records
            XCTAssertEqual(saved.count, 2)
            container.close()  // no write since the selections: close still saves the changed ledger
        }
        do {
            let container = try SearchlightContainer(directory: url, clock: clock.function)
            XCTAssertEqual(container.engagement.records, saved)
            let index = CSSearchableIndex(name: "durable", container: container)
            XCTAssertNil(index.lastClientState, "the ledger is not an index's client state")
            XCTAssertEqual(runUserQuery("report", in: container).items.map(\.uniqueIdentifier), ["y", "x"])
            // Engagement after the last checkpoint is soft state: a crash loses it, never the items.
            _ = SearchlightContinuation.activity(forSelecting: "x", in: container)
            container.closeWithoutCheckpoint()
        }
        let container = try SearchlightContainer(directory: url, clock: clock.function)
        XCTAssertEqual(container.engagement.records, saved)
        XCTAssertEqual(CSSearchableIndex(name: "durable", container: container).allIdentifiers, ["x", "y"])
        container.close()
    }

    /// Deleting every item resets the indexes' client states, not the engagement ledger saved beside them: after a
    /// crash the journal's delete-all cleared the ledger a checkpoint had saved, which a clean close kept.
    func testDeleteAllKeepsTheSavedEngagementThroughACrash() throws {
        let url = makeStoreURL(self)
        let saved: [EngagementLedger.Key: EngagementLedger.Record]
        do {
            let container = try SearchlightContainer(directory: url)
            let index = CSSearchableIndex(name: "wipe", container: container)
            XCTAssertNil(index.completion { index.indexSearchableItems([makeItem("x", title: "Report")], completionHandler: $0) })
            _ = SearchlightContinuation.activity(forSelecting: "x", in: container)
            saved = container.engagement.records
            XCTAssertEqual(saved.count, 1)
            try container.checkpoint()
            XCTAssertNil(index.completion { index.deleteAllSearchableItems(completionHandler: $0) })
            XCTAssertEqual(container.engagement.records, saved, "delete-all keeps the ledger in memory")
            container.closeWithoutCheckpoint()
        }
        let container = try SearchlightContainer(directory: url)
        XCTAssertEqual(container.engagement.records, saved)
        XCTAssertNil(CSSearchableIndex(name: "wipe", container: container).lastClientState)
        container.close()
    }

    /// A background checkpoint whose snapshot failed saved none of the engagement it carried: close() must still
    /// save it (no write came after, so the journal holds no record to force a checkpoint by itself).
    func testEngagementOfAFailedBackgroundCheckpointIsSavedAtClose() throws {
        let url = makeStoreURL(self)
        let faults = FaultInjectingFileSystem()
        let saved: [EngagementLedger.Key: EngagementLedger.Record]
        do {
            let container = try SearchlightContainer(directory: url, options: storeOptions(faults, checkpointBytes: 3_000))
            let index = CSSearchableIndex(name: "e", container: container)
            XCTAssertNil(index.completion { index.indexSearchableItems([makeItem("x", title: "Report")], completionHandler: $0) })
            _ = SearchlightContinuation.activity(forSelecting: "x", in: container)
            saved = container.engagement.records
            XCTAssertEqual(saved.count, 1)
            // The batch passes the threshold: the journal switch is rename 1, the background snapshot's rename 2.
            faults.inject(.failRename, skip: 1)
            let big = makeItem("b", title: "B", description: String(repeating: "long text ", count: 400))
            XCTAssertNil(index.completion { index.indexSearchableItems([big], completionHandler: $0) })
            container.close()
            XCTAssertEqual(faults.firedFaults, [.failRename])
        }
        let container = try SearchlightContainer(directory: url)
        XCTAssertEqual(container.engagement.records, saved)
        XCTAssertEqual(CSSearchableIndex(name: "e", container: container).allIdentifiers, ["b", "x"])
        container.close()
    }
}
#endif
