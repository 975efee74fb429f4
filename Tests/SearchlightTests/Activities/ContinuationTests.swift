// The Linux NSUserActivity (Foundation has its own on Apple platforms; see SearchlightActivityDonation).
#if !canImport(Darwin)
import Foundation
import XCTest
@testable import Searchlight

/// Reference §3.12: the activity an app receives when a result is selected, and engagement recording.
final class ContinuationTests: XCTestCase {
    func testSelectingAnItemGivesTheSearchableItemAction() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("note-1", title: "Meeting notes")])
        let item = try XCTUnwrap(fixture.index.fetchSearchableItems(withIdentifiers: ["note-1"]).first)
        let activity = try XCTUnwrap(SearchlightContinuation.activity(forSelecting: item, in: fixture.container))
        XCTAssertEqual(activity.activityType, CSSearchableItemActionType)
        XCTAssertEqual(activity.activityType, "com.apple.corespotlightitem")
        XCTAssertEqual(activity.userInfo?[CSSearchableItemActivityIdentifier] as? String, "note-1")
        XCTAssertNil(activity.userInfo?[CSActionIdentifier])

        let action = try XCTUnwrap(SearchlightContinuation.activity(forSelecting: item, actionIdentifier: "reply",
                                                                    in: fixture.container))
        XCTAssertEqual(action.userInfo?[CSActionIdentifier] as? String, "reply")
        XCTAssertEqual(action.userInfo?[CSSearchableItemActivityIdentifier] as? String, "note-1")
    }

    func testSelectingAnActivityGivesItsTypeAndRequiredUserInfo() async throws {
        let fixture = ActivityFixture()
        let delegate = RecordingActivityDelegate()
        let activity = fixture.activity("com.example.article", title: "Deep sea fish")
        activity.userInfo = ["id": 77, "scroll": 0.4, "session": "abc"]
        activity.requiredUserInfoKeys = ["id"]
        activity.webpageURL = URL(string: "https://example.com/fish")
        activity.persistentIdentifier = "article-77"
        activity.targetContentIdentifier = "article"
        activity.keywords = ["ocean"]
        activity.delegate = delegate
        try await activity.becomeCurrentAndWait()

        let result = try XCTUnwrap(fixture.search("fish").first)
        let continued = try XCTUnwrap(SearchlightContinuation.activity(forSelecting: result, in: fixture.container))
        XCTAssertEqual(continued.activityType, "com.example.article")
        XCTAssertEqual(continued.title, "Deep sea fish")
        XCTAssertEqual(continued.userInfo?.count, 1, "only the required keys are restored")
        XCTAssertEqual(continued.userInfo?["id"] as? Int, 77)
        XCTAssertEqual(continued.requiredUserInfoKeys, ["id"])
        XCTAssertEqual(continued.webpageURL?.absoluteString, "https://example.com/fish")
        XCTAssertEqual(continued.persistentIdentifier, "article-77")
        XCTAssertEqual(continued.targetContentIdentifier, "article")
        XCTAssertEqual(continued.keywords, ["ocean"])
        XCTAssertEqual(continued.contentAttributeSet?.title, "Deep sea fish")
        XCTAssertFalse(continued === activity)
        XCTAssertEqual(delegate.events, ["wasContinued"], "the donating activity's delegate hears of it")

        // Without required keys, all of userInfo comes back.
        activity.requiredUserInfoKeys = nil
        try await activity.becomeCurrentAndWait()
        let all = try XCTUnwrap(SearchlightContinuation.activity(forSelecting: result, in: fixture.container))
        XCTAssertEqual(all.userInfo?.count, 3)
        XCTAssertEqual(all.userInfo?["scroll"] as? Double, 0.4)
        XCTAssertEqual(all.userInfo?["session"] as? String, "abc")
    }

    /// Apple restores userInfo numbers as NSNumbers (the property-list type), so an app reads one back as any
    /// numeric type that holds it exactly. They came back as the Swift type they were stored as (`Int`, `Double`),
    /// and on Linux `as? Int64`, `as? Float` or an `Int` literal read `as? Double` gave nil.
    func testContinuedNumbersReadBackAsAnyExactNumericTypeLikeNSNumber() async throws {
        let fixture = ActivityFixture()
        let activity = fixture.activity("com.example.recipe", title: "Pasta")
        activity.userInfo = ["id": Int64(42), "servings": Int32(4), "progress": 0, "rating": Float(4.5), "ratio": 3.0,
                             "favorite": true, "path": [Int64(1), Int64(2)], "nested": ["n": UInt8(7)]]
        try await activity.becomeCurrentAndWait()
        let result = try XCTUnwrap(fixture.search("pasta").first)
        let continued = try XCTUnwrap(SearchlightContinuation.activity(forSelecting: result, in: fixture.container))
        let info = try XCTUnwrap(continued.userInfo)
        XCTAssertEqual(info["id"] as? Int64, 42)
        XCTAssertEqual(info["id"] as? Int, 42)
        XCTAssertEqual(info["servings"] as? Int32, 4)
        XCTAssertEqual(info["progress"] as? Double, 0)
        XCTAssertEqual(info["rating"] as? Float, 4.5)
        XCTAssertEqual(info["ratio"] as? Int, 3)
        XCTAssertEqual(info["favorite"] as? Bool, true)
        XCTAssertEqual(info["path"] as? [Int64], [1, 2])
        XCTAssertEqual((info["nested"] as? [String: Any])?["n"] as? UInt8, 7)
    }

    /// A Swift `Decimal` bridges to `NSDecimalNumber`, an `NSNumber`, which Apple's userInfo accepts; it was
    /// refused as "not a property-list type", keeping the whole activity out of the index.
    func testDecimalUserInfoValuesAreNumbers() async throws {
        let fixture = ActivityFixture()
        let activity = fixture.activity("com.example.product", title: "Teapot")
        activity.userInfo = ["price": Decimal(string: "9.5")!, "prices": [Decimal(2)]]
        try await activity.becomeCurrentAndWait()
        let result = try XCTUnwrap(fixture.search("teapot").first)
        let continued = try XCTUnwrap(SearchlightContinuation.activity(forSelecting: result, in: fixture.container))
        XCTAssertEqual(continued.userInfo?["price"] as? Double, 9.5)
        XCTAssertEqual(continued.userInfo?["prices"] as? [Int], [2])
    }

    /// Two activities whose persistentIdentifiers are canonically equivalent ("café" precomposed and
    /// decomposed) make two records; selecting the first told the second's delegate (donors were keyed by `==`).
    func testSelectingAnActivityTellsItsOwnDonorNotACanonicallyEquivalentOne() async throws {
        let fixture = ActivityFixture()
        let first = RecordingActivityDelegate(), second = RecordingActivityDelegate()
        var donors: [NSUserActivity] = []
        for (persistent, delegate) in [("caf\u{E9}", first), ("cafe\u{301}", second)] {
            let activity = fixture.activity("com.example.article", title: "Menu \(donors.count + 1)")
            activity.persistentIdentifier = persistent
            activity.delegate = delegate
            try await activity.becomeCurrentAndWait()
            donors.append(activity)
        }
        XCTAssertEqual(fixture.activities.count, 2)
        let record = ActivityIdentity.recordIdentifier(persistentIdentifier: "caf\u{E9}")
        XCTAssertEqual(SearchlightContinuation.activity(forSelecting: record, in: fixture.container)?.title, "Menu 1")
        XCTAssertEqual(first.events.filter { $0 == "wasContinued" }.count, 1)
        XCTAssertEqual(second.events.filter { $0 == "wasContinued" }, [])
        withExtendedLifetime(donors) {}
    }

    func testAVanishedActivityResultContinuesToNothing() async throws {
        let fixture = ActivityFixture()
        let activity = fixture.activity(title: "temporary")
        activity.persistentIdentifier = "tmp"
        try await activity.becomeCurrentAndWait()
        let result = try XCTUnwrap(fixture.search("temporary").first)
        await NSUserActivity.deleteAllSavedUserActivities(in: fixture.container)
        XCTAssertNil(SearchlightContinuation.activity(forSelecting: result, in: fixture.container))
        XCTAssertEqual(fixture.container.engagement.record(for: result, at: fixture.clock.now)?.selections, 0,
                       "nothing was selected, so no selection is recorded")
    }

    func testSearchInAppGivesTheQueryContinuation() {
        let activity = SearchlightContinuation.activityForSearchInApp(query: "blue whales")
        XCTAssertEqual(activity.activityType, CSQueryContinuationActionType)
        XCTAssertEqual(activity.activityType, "com.apple.corespotlightcontinuation")
        XCTAssertEqual(activity.userInfo?[CSSearchQueryString] as? String, "blue whales")
    }

    func testSelectingRecordsEngagementUnderTheResultIdentity() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("a", title: "alpha"), makeItem("b", title: "beta")])
        let tied = fixture.activity(title: "alpha visit")
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.relatedUniqueIdentifier = "a"
        tied.contentAttributeSet = set
        try await tied.becomeCurrentAndWait()
        let loose = fixture.activity(title: "loose")
        try await loose.becomeCurrentAndWait()
        let ledger = fixture.container.engagement
        let now = fixture.clock.now
        XCTAssertEqual(ledger.record(for: "a", at: now)?.donations, 1, "a tied activity's visit counts for its item")
        let looseID = try XCTUnwrap(fixture.search("loose").first)
        XCTAssertEqual(ledger.record(for: looseID, at: now)?.donations, 1)

        _ = SearchlightContinuation.activity(forSelecting: "a", visibleIdentifiers: ["a", "b"], in: fixture.container)
        XCTAssertEqual(ledger.record(for: "a", at: now)?.selections, 1)
        XCTAssertEqual(ledger.record(for: "a", at: now)?.impressions, 1)
        XCTAssertEqual(ledger.record(for: "b", at: now)?.impressions, 1)
        XCTAssertEqual(ledger.record(for: "b", at: now)?.selections ?? 0, 0)

        _ = SearchlightContinuation.activity(forSelecting: looseID, in: fixture.container)
        XCTAssertEqual(ledger.record(for: looseID, at: now)?.selections, 1)
    }
}
#endif
