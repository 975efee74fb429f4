// The Linux NSUserActivity (Foundation has its own on Apple platforms; see SearchlightActivityDonation).
#if !canImport(Darwin)
import Foundation
import XCTest
@testable import Searchlight

/// Eligible activities become records in their container: what is searchable, identity, domains, expiration,
/// deletion of donations, invalid input.
final class ActivityIndexingTests: XCTestCase {
    func testOnlyEligibleActivitiesAreIndexedWhenTheyBecomeCurrent() async throws {
        let fixture = ActivityFixture()
        let hidden = fixture.activity("t.hidden", title: "secret plans", eligible: false)
        try await hidden.becomeCurrentAndWait()
        XCTAssertTrue(fixture.search("secret").isEmpty)

        let shown = fixture.activity("t.shown", title: "public plans")
        XCTAssertTrue(fixture.search("public").isEmpty, "nothing is indexed before it becomes current")
        try await shown.becomeCurrentAndWait()
        XCTAssertEqual(fixture.search("public").count, 1)
        XCTAssertEqual(fixture.activities.count, 1)
        XCTAssertEqual(fixture.index.itemCount(), 0, "a donated activity is not an item")
    }

    func testTitleKeywordsAndAttributeSetAreSearchable() async throws {
        let fixture = ActivityFixture()
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.contentDescription = "harbour walk"
        set.keywords = ["lighthouse"]
        let activity = fixture.activity(title: "Evening route")
        activity.keywords = ["seagull"]
        activity.contentAttributeSet = set
        try await activity.becomeCurrentAndWait()
        for word in ["evening", "seagull", "lighthouse", "harbour"] {
            XCTAssertEqual(fixture.search(word).count, 1, word)
        }
        let record = try XCTUnwrap(fixture.activities.first)
        XCTAssertEqual(record.donation.attributeSet?.title, "Evening route", "the activity's title wins")
        XCTAssertEqual(Set(record.donation.attributeSet?.keywords ?? []), ["lighthouse", "seagull"])
        XCTAssertTrue(ActivityIdentity.isActivity(record.identifier))
        let snapshot = fixture.container.snapshot()
        let address = try XCTUnwrap(snapshot.engine.lookup(id: record.identifier))
        let kind = try XCTUnwrap(snapshot.engine.schema.field(named: ItemDocumentCodec.kindField))
        XCTAssertEqual(snapshot.engine.numbers(kind, of: address), [ActivityIdentity.kind])
    }

    func testIdentityComesFromPersistentIdentifierOrContent() async throws {
        let fixture = ActivityFixture()
        let a = fixture.activity("t.note", title: "Groceries")
        a.userInfo = ["note": 1]
        try await a.becomeCurrentAndWait()
        // The same content donated again by another object replaces the record.
        let again = fixture.activity("t.note", title: "Groceries")
        again.userInfo = ["note": 1]
        try await again.becomeCurrentAndWait()
        XCTAssertEqual(fixture.activities.count, 1)
        // Different userInfo is different content.
        let other = fixture.activity("t.note", title: "Groceries")
        other.userInfo = ["note": 2]
        try await other.becomeCurrentAndWait()
        XCTAssertEqual(fixture.activities.count, 2)

        // With a persistent identifier, the identifier is the identity: changed content replaces the record.
        let p1 = fixture.activity("t.doc", title: "Draft one")
        p1.persistentIdentifier = "doc-7"
        try await p1.becomeCurrentAndWait()
        let p2 = fixture.activity("t.doc", title: "Draft two")
        p2.persistentIdentifier = "doc-7"
        try await p2.becomeCurrentAndWait()
        XCTAssertEqual(fixture.activities.count, 3)
        XCTAssertTrue(fixture.search("one").isEmpty)
        XCTAssertEqual(fixture.search("two").count, 1)
    }

    func testDomainComesFromTheAttributeSetAndDomainDeletesRemoveActivities() async throws {
        let fixture = ActivityFixture()
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.domainIdentifier = "account1.inbox"
        let activity = fixture.activity(title: "mail thread")
        activity.contentAttributeSet = set
        try await activity.becomeCurrentAndWait()
        let outside = fixture.activity(title: "mail settings")
        try await outside.becomeCurrentAndWait()
        let snapshot = fixture.container.snapshot()
        let inDomain = snapshot.visibleAddresses().filter { address in
            snapshot.engine.domain(of: address).map { $0 == "account1" || $0.hasPrefix("account1.") } ?? false
        }
        XCTAssertEqual(inDomain.count, 1, "the activity's domain comes from its attribute set")
        XCTAssertEqual(fixture.index.identifiers(inDomain: "account1"), [], "items only")
        try await fixture.index.deleteSearchableItems(withDomainIdentifiers: ["account10"])
        XCTAssertEqual(fixture.search("mail").count, 2, "component boundary: account10 is not account1")
        try await fixture.index.deleteSearchableItems(withDomainIdentifiers: ["account1"])
        XCTAssertEqual(fixture.activities.map(\.donation.title), ["mail settings"])
    }

    func testExpirationUsesTheActivityDateElseOneMonth() async throws {
        let fixture = ActivityFixture()
        let short = fixture.activity(title: "short lived")
        short.expirationDate = fixture.clock.now.addingTimeInterval(3600)
        try await short.becomeCurrentAndWait()
        let defaulted = fixture.activity(title: "default lived")
        try await defaulted.becomeCurrentAndWait()
        let record = try XCTUnwrap(fixture.activities.first { $0.donation.title == "default lived" })
        let days = record.expirationDate.timeIntervalSince(fixture.clock.now) / 86_400
        XCTAssertTrue((28...31).contains(days), "default expiration \(days) days")

        fixture.clock.advance(by: 3601)
        XCTAssertTrue(fixture.search("short").isEmpty, "expired activities disappear at once")
        XCTAssertEqual(fixture.search("default").count, 1)
        fixture.clock.advance(by: 32 * 86_400)
        XCTAssertTrue(fixture.search("default").isEmpty)

        // Becoming current again refreshes the default expiration.
        try await defaulted.becomeCurrentAndWait()
        XCTAssertEqual(fixture.search("default").count, 1)
    }

    /// A donation whose expirationDate has passed is never found, so its visit earns nothing: counted, it lifted
    /// the item it names.
    func testAnAlreadyExpiredDonationEarnsNoEngagement() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("x", title: "Quarterly report"),
                                                      makeItem("y", title: "Quarterly report")])
        let stale = fixture.linkedActivity(title: "Old visit", to: "y", weak: true)
        stale.expirationDate = fixture.clock.now.addingTimeInterval(-60)
        for _ in 0..<3 { try await stale.becomeCurrentAndWait() }
        XCTAssertTrue(fixture.activities.isEmpty, "expired: not found")
        XCTAssertNil(fixture.container.engagement.record(for: "y", at: fixture.clock.now))
        XCTAssertEqual(runUserQuery("quarterly", in: fixture.container).items.map(\.uniqueIdentifier), ["x", "y"])
        // Once it lives, a visit counts.
        stale.expirationDate = fixture.clock.now.addingTimeInterval(60)
        try await stale.becomeCurrentAndWait()
        XCTAssertEqual(fixture.container.engagement.record(for: "y", at: fixture.clock.now)?.donations, 1)
    }

    func testDeleteSavedActivitiesByPersistentIdentifierAndAll() async throws {
        let fixture = ActivityFixture()
        for (n, title) in ["alpha", "beta", "gamma"].enumerated() {
            let activity = fixture.activity(title: title)
            activity.persistentIdentifier = "p\(n)"
            try await activity.becomeCurrentAndWait()
        }
        try await fixture.index.indexSearchableItems([makeItem("p0", title: "alpha item")])
        await NSUserActivity.deleteSavedUserActivities(withPersistentIdentifiers: ["p0", "unknown"], in: fixture.container)
        XCTAssertEqual(fixture.activities.compactMap(\.donation.title).sorted(), ["beta", "gamma"])
        XCTAssertEqual(fixture.search("alpha"), ["p0"], "an item with the same identifier is untouched")

        await NSUserActivity.deleteAllSavedUserActivities(in: fixture.container)
        XCTAssertTrue(fixture.activities.isEmpty)
        XCTAssertEqual(fixture.index.allIdentifiers, ["p0"], "items stay")
    }

    func testClassDeletesUseTheDonationContainer() async throws {
        let original = NSUserActivity.donationContainer
        defer { NSUserActivity.donationContainer = original }
        let fixture = ActivityFixture()
        NSUserActivity.donationContainer = fixture.container
        let activity = NSUserActivity(activityType: "t")
        activity.title = "to delete"
        activity.persistentIdentifier = "x"
        activity.isEligibleForSearch = true
        try await activity.becomeCurrentAndWait()
        XCTAssertEqual(fixture.activities.count, 1)
        await NSUserActivity.deleteSavedUserActivities(withPersistentIdentifiers: ["x"])
        XCTAssertTrue(fixture.activities.isEmpty)
        try await activity.becomeCurrentAndWait()
        let done = expectation(description: "deleted")
        NSUserActivity.deleteAllSavedUserActivities { done.fulfill() }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertTrue(fixture.activities.isEmpty)
    }

    func testUnstorableUserInfoIsAClearErrorAndIndexesNothing() async throws {
        final class NotAPlist {}
        let fixture = ActivityFixture()
        let activity = fixture.activity(title: "broken")
        activity.userInfo = ["ok": "fine", "bad": ["nested": NotAPlist()]]
        do {
            try await activity.becomeCurrentAndWait()
            XCTFail("a non-property-list value was accepted")
        } catch {
            XCTAssertEqual(indexErrorCode(error), .invalidItemError)
            let message = (error as? CSIndexError)?.message ?? ""
            XCTAssertTrue(message.contains(#"userInfo["bad"]["nested"]"#), message)
            XCTAssertTrue(message.contains("NotAPlist"), message)
        }
        XCTAssertEqual(activity.lastDonationError?.code, .invalidItemError)
        XCTAssertTrue(fixture.activities.isEmpty)
        XCTAssertTrue(activity.isCurrent, "it is still the current activity; only indexing failed")

        activity.userInfo = [1: "non-string key"]
        do {
            try await activity.becomeCurrentAndWait()
            XCTFail("a non-String key was accepted")
        } catch {
            XCTAssertTrue((error as? CSIndexError)?.message.contains("keys must be Strings") == true)
        }

        activity.userInfo = ["ok": "fine"]
        try await activity.becomeCurrentAndWait()
        XCTAssertNil(activity.lastDonationError)
        XCTAssertEqual(fixture.activities.count, 1)
    }

    func testInvalidAttributeSetOrIdentifiersAreClearErrors() async {
        let fixture = ActivityFixture()
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.domainIdentifier = "a..b"
        let activity = fixture.activity(title: "bad domain")
        activity.contentAttributeSet = set
        await assertDonationFails(activity, containing: "domainIdentifier")
        let empty = fixture.activity(title: "bad id")
        empty.persistentIdentifier = ""
        await assertDonationFails(empty, containing: "persistentIdentifier")
        let untyped = fixture.activity("", title: "no type")
        await assertDonationFails(untyped, containing: "activityType")
        XCTAssertTrue(fixture.activities.isEmpty)
    }

    /// A NaN expiration compares false with every time: accepted, the re-donation replaced the stored record,
    /// which then was never found and never purged. Like an item's, it is refused and the stored record stays.
    func testUnkeepableExpirationIsRefusedAndKeepsTheStoredRecord() async throws {
        let fixture = ActivityFixture()
        let activity = fixture.activity(title: "harbour walk")
        activity.persistentIdentifier = "walk"
        try await activity.becomeCurrentAndWait()
        for bad in [Double.nan, .infinity, 1e15] {
            activity.expirationDate = Date(timeIntervalSinceReferenceDate: bad)
            await assertDonationFails(activity, containing: "expirationDate")
            XCTAssertEqual(fixture.search("harbour").count, 1, "\(bad)")
        }
        activity.expirationDate = .distantFuture
        try await activity.becomeCurrentAndWait()
        fixture.clock.advance(by: 400 * 86_400)
        XCTAssertEqual(fixture.search("harbour").count, 1)
    }

    func testUserInfoRoundTripsThroughTheStoredRecord() async throws {
        let fixture = ActivityFixture()
        let activity = fixture.activity(title: "kinds")
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: 12_345.5)
        activity.userInfo = ["s": "text", "i": 42, "d": 2.5, "b": true, "data": Data([0, 1, 255]), "date": date,
                             "url": URL(string: "https://example.com/x?y=1")!, "uuid": uuid,
                             "list": [1, "two", [3.0]], "dict": ["inner": ["deep": false]],
                             "ns": NSNumber(value: 7)]
        activity.webpageURL = URL(string: "https://example.com/page")
        activity.referrerURL = URL(string: "https://example.com/ref")
        activity.targetContentIdentifier = "scene-1"
        activity.persistentIdentifier = "kinds"
        try await activity.becomeCurrentAndWait()
        let record = try XCTUnwrap(fixture.container.snapshot().activity(
            withIdentifier: ActivityIdentity.recordIdentifier(persistentIdentifier: "kinds")))
        let info = record.donation.userInfo
        XCTAssertEqual(info["s"], .string("text"))
        XCTAssertEqual(info["i"], .number(.int(42)))
        XCTAssertEqual(info["d"], .number(.double(2.5)))
        XCTAssertEqual(info["b"], .number(.bool(true)))
        XCTAssertEqual(info["data"], .data(Data([0, 1, 255])))
        XCTAssertEqual(info["date"], .date(date))
        XCTAssertEqual(info["url"], .url(URL(string: "https://example.com/x?y=1")!))
        XCTAssertEqual(info["uuid"], .uuid(uuid))
        XCTAssertEqual(info["list"], .array([.number(.int(1)), .string("two"), .array([.number(.double(3))])]))
        XCTAssertEqual(info["dict"], .dictionary(["inner": .dictionary(["deep": .number(.bool(false))])]))
        XCTAssertEqual(info["ns"], .number(.int(7)))
        XCTAssertEqual(record.donation.webpageURL?.absoluteString, "https://example.com/page")
        XCTAssertEqual(record.donation.referrerURL?.absoluteString, "https://example.com/ref")
        XCTAssertEqual(record.donation.targetContentIdentifier, "scene-1")
        XCTAssertTrue(record.donation.isEligibleForHandoff)
        XCTAssertNil(ActivityDocumentCodec.decode([1, 3, 65]), "a truncated blob is rejected, not trapped on")
    }

    private func assertDonationFails(_ activity: NSUserActivity, containing text: String,
                                     file: StaticString = #filePath, line: UInt = #line) async {
        do {
            try await activity.becomeCurrentAndWait()
            XCTFail("donation accepted", file: file, line: line)
        } catch {
            XCTAssertEqual(indexErrorCode(error), .invalidItemError, file: file, line: line)
            let message = (error as? CSIndexError)?.message ?? ""
            XCTAssertTrue(message.contains(text), message, file: file, line: line)
        }
    }
}
#endif
