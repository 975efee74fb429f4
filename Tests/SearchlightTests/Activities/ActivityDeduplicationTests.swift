// The Linux NSUserActivity (Foundation has its own on Apple platforms; see SearchlightActivityDonation).
#if !canImport(Darwin)
import Foundation
import XCTest
@testable import Searchlight

/// Reference §3.7: activities linked to items by `relatedUniqueIdentifier` / `weakRelatedUniqueIdentifier`, and
/// the separate identifier namespaces of activities and items.
final class ActivityDeduplicationTests: XCTestCase {
    func testTiedActivityIsStoredOnlyIfItsItemExists() async throws {
        let fixture = ActivityFixture()
        let early = fixture.linkedActivity(title: "recipe soup", to: "recipe-1")
        try await early.becomeCurrentAndWait()
        XCTAssertTrue(fixture.activities.isEmpty, "the item does not exist yet: the activity is dropped")

        try await fixture.index.indexSearchableItems([makeItem("recipe-1", title: "Tomato soup")])
        try await early.becomeCurrentAndWait()
        XCTAssertEqual(fixture.activities.count, 1)
    }

    /// A dropped donation is no visit: counted, it lifted the item it named once that item was indexed.
    func testADroppedTiedDonationEarnsNoEngagement() async throws {
        let fixture = ActivityFixture()
        let early = fixture.linkedActivity(title: "Something else", to: "y")
        for _ in 0..<3 { try await early.becomeCurrentAndWait() }
        XCTAssertTrue(fixture.activities.isEmpty, "dropped: y does not exist")
        try await fixture.index.indexSearchableItems([makeItem("x", title: "Quarterly report"),
                                                      makeItem("y", title: "Quarterly report")])
        XCTAssertNil(fixture.container.engagement.record(for: "y", at: fixture.clock.now))
        XCTAssertEqual(runUserQuery("quarterly", in: fixture.container).items.map(\.uniqueIdentifier), ["x", "y"])
        // Once stored, a visit counts.
        try await early.becomeCurrentAndWait()
        XCTAssertEqual(fixture.container.engagement.record(for: "y", at: fixture.clock.now)?.donations, 1)
    }

    /// A dropped donation earns nothing even when an earlier record with its identifier stays (the same
    /// persistentIdentifier, tied to another item): that record was found and the visit counted for the missing item.
    func testADroppedRetiedDonationEarnsNoEngagement() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("doc-1", title: "Budget")])
        let activity = fixture.linkedActivity(title: "Editing", to: "doc-1")
        activity.persistentIdentifier = "editor"
        try await activity.becomeCurrentAndWait()
        XCTAssertEqual(fixture.container.engagement.record(for: "doc-1", at: fixture.clock.now)?.donations, 1)

        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.relatedUniqueIdentifier = "y"
        activity.contentAttributeSet = set
        for _ in 0..<3 { try await activity.becomeCurrentAndWait() }
        XCTAssertEqual(fixture.activities.compactMap(\.donation.strongLink), ["doc-1"], "dropped: y does not exist")
        XCTAssertNil(fixture.container.engagement.record(for: "y", at: fixture.clock.now))
        try await fixture.index.indexSearchableItems([makeItem("x", title: "Quarterly report"),
                                                      makeItem("y", title: "Quarterly report")])
        XCTAssertEqual(runUserQuery("quarterly", in: fixture.container).items.map(\.uniqueIdentifier), ["x", "y"])
    }

    /// The same with the missing item's identifier canonically equivalent to the kept record's ("café" decomposed
    /// vs precomposed, two items): compared as Strings they were equal, and the dropped visit counted.
    func testADroppedDonationRetiedToACanonicallyEquivalentIdentifierEarnsNoEngagement() async throws {
        let fixture = ActivityFixture()
        let precomposed = "caf\u{E9}", decomposed = "cafe\u{301}"
        try await fixture.index.indexSearchableItems([makeItem(precomposed, title: "Budget")])
        let activity = fixture.linkedActivity(title: "Editing", to: precomposed)
        activity.persistentIdentifier = "editor"
        try await activity.becomeCurrentAndWait()
        XCTAssertEqual(fixture.container.engagement.record(for: precomposed, at: fixture.clock.now)?.donations, 1)

        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.relatedUniqueIdentifier = decomposed
        activity.contentAttributeSet = set
        for _ in 0..<3 { try await activity.becomeCurrentAndWait() }
        XCTAssertEqual(fixture.activities.compactMap { $0.donation.strongLink.map { Array($0.utf8) } },
                       [Array(precomposed.utf8)], "dropped: the decomposed item does not exist")
        XCTAssertEqual(fixture.container.engagement.record(for: precomposed, at: fixture.clock.now)?.donations, 1)
    }

    func testTiedActivityAndItemAreOneResultAndTheItemWins() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("recipe-1", title: "Tomato soup"),
                                                      makeItem("recipe-2", title: "Onion soup")])
        let activity = fixture.linkedActivity(title: "Tomato soup", to: "recipe-1")
        activity.keywords = ["favourite"]
        try await activity.becomeCurrentAndWait()
        XCTAssertEqual(fixture.activities.count, 1)
        XCTAssertEqual(fixture.search("tomato"), ["recipe-1"], "one result, and it is the item")
        XCTAssertEqual(Set(fixture.search("soup")), ["recipe-1", "recipe-2"])
        XCTAssertEqual(fixture.search("favourite"), ["recipe-1"], "matching only the activity still shows the item")
    }

    /// `maxResultCount` caps the results, not the matches before activities collapse into their items: an
    /// item and its activity are one result, so the capped list is the head of the uncapped one, as long as it.
    func testMaxResultCountCountsAnItemAndItsActivityOnce() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([
            makeItem("recipe-1", title: "Tomato soup"), makeItem("recipe-2", title: "Tomato salad with more words here"),
            makeItem("recipe-3", title: "Tomato pie with a great many more words in its title"),
        ])
        // Each activity outranks its item (the word twice in a short title), so the best matches pair up.
        try await fixture.linkedActivity(title: "Tomato tomato soup", to: "recipe-1").becomeCurrentAndWait()
        try await fixture.linkedActivity(title: "Tomato tomato salad", to: "recipe-2").becomeCurrentAndWait()
        let all = runUserQuery("tomato", in: fixture.container)
        XCTAssertNil(all.error)
        XCTAssertEqual(all.items.map(\.uniqueIdentifier), ["recipe-1", "recipe-2", "recipe-3"])
        for cap in 1...3 {
            let capped = runUserQuery("tomato", in: fixture.container) {
                $0.enableRankedResults = true
                $0.maxResultCount = cap
            }
            XCTAssertEqual(capped.items.map(\.uniqueIdentifier), Array(all.items.map(\.uniqueIdentifier).prefix(cap)),
                           "maxResultCount \(cap)")
        }
        let unranked = runUserQuery("tomato", in: fixture.container) { $0.maxResultCount = 2 }
        XCTAssertEqual(unranked.items.count, 2, "unranked results are capped alike")
    }

    func testTiedActivityIsDeletedWithItsItem() async throws {
        let fixture = ActivityFixture()
        let items = [makeItem("a", title: "apple"), makeItem("b", title: "banana", domain: "fruit.yellow"),
                     makeItem("c", title: "cherry")]
        try await fixture.index.indexSearchableItems(items)
        for (id, title) in [("a", "apple visit"), ("b", "banana visit"), ("c", "cherry visit")] {
            try await fixture.linkedActivity(title: title, to: id).becomeCurrentAndWait()
        }
        let loose = fixture.activity(title: "loose visit")
        try await loose.becomeCurrentAndWait()
        XCTAssertEqual(fixture.activities.count, 4)

        try await fixture.index.deleteSearchableItems(withIdentifiers: ["a"])
        XCTAssertEqual(Set(fixture.activities.compactMap(\.donation.title)), ["banana visit", "cherry visit", "loose visit"])
        try await fixture.index.deleteSearchableItems(withDomainIdentifiers: ["fruit"])
        XCTAssertEqual(Set(fixture.activities.compactMap(\.donation.title)), ["cherry visit", "loose visit"],
                       "the item's domain took its activity although the activity has no domain")
        try await fixture.index.deleteAllSearchableItems()
        XCTAssertEqual(fixture.activities.compactMap(\.donation.title), ["loose visit"],
                       "delete-all removes items and their activities; untied activities are not items")
        XCTAssertEqual(fixture.search("visit").count, 1)
    }

    func testDeleteAllNeverResurrectsWhatTheRoundAlreadyRemovedOrWhatExpired() async throws {
        let fixture = ActivityFixture()
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.domainIdentifier = "trips"
        let inDomain = fixture.activity(title: "trip plan")
        inDomain.contentAttributeSet = set
        try await inDomain.becomeCurrentAndWait()
        let expiring = fixture.activity(title: "soon gone")
        expiring.expirationDate = fixture.clock.now.addingTimeInterval(10)
        try await expiring.becomeCurrentAndWait()
        let kept = fixture.activity(title: "kept")
        try await kept.becomeCurrentAndWait()
        fixture.clock.advance(by: 11)

        fixture.index.beginBatch()
        try await fixture.index.deleteSearchableItems(withDomainIdentifiers: ["trips"])
        try await fixture.index.deleteAllSearchableItems()
        try await fixture.index.endBatch(withClientState: Data([1]))
        XCTAssertEqual(fixture.activities.compactMap(\.donation.title), ["kept"])
        XCTAssertEqual(fixture.container.snapshot().engine.documentCount, 1, "nothing expired was re-added")
    }

    func testReplacingAnItemKeepsItsActivity() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("a", title: "first")])
        try await fixture.linkedActivity(title: "visit", to: "a").becomeCurrentAndWait()
        try await fixture.index.indexSearchableItems([makeItem("a", title: "second")])
        XCTAssertEqual(fixture.activities.count, 1)
        XCTAssertEqual(fixture.search("visit"), ["a"])
    }

    func testDeleteAndReindexInOneBatchKeepsTheActivity() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("a", title: "first")])
        try await fixture.linkedActivity(title: "visit", to: "a").becomeCurrentAndWait()
        fixture.index.beginBatch()
        try await fixture.index.deleteSearchableItems(withIdentifiers: ["a"])
        try await fixture.index.indexSearchableItems([makeItem("a", title: "again")])
        try await fixture.index.endBatch(withClientState: Data([1]))
        XCTAssertEqual(fixture.activities.count, 1, "the item survived the batch")
        fixture.index.beginBatch()
        try await fixture.index.indexSearchableItems([makeItem("z", title: "other")])
        try await fixture.index.deleteSearchableItems(withIdentifiers: ["a"])
        try await fixture.index.endBatch(withClientState: Data([2]))
        XCTAssertTrue(fixture.activities.isEmpty)
    }

    /// Delete-all then re-index in one batch: the item survived the batch, so its activity stays (delete-all
    /// removed it for good, as if the item were gone, and only untied activities were put back).
    func testDeleteAllAndReindexInOneBatchKeepsTheActivity() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("a", title: "first"), makeItem("b", title: "second")])
        try await fixture.linkedActivity(title: "visit a", to: "a").becomeCurrentAndWait()
        try await fixture.linkedActivity(title: "visit b", to: "b").becomeCurrentAndWait()
        fixture.index.beginBatch()
        try await fixture.index.deleteAllSearchableItems()
        try await fixture.index.indexSearchableItems([makeItem("a", title: "again")])
        try await fixture.index.endBatch(withClientState: Data([1]))
        XCTAssertEqual(fixture.activities.compactMap(\.donation.title), ["visit a"], "a survived the batch, b did not")
        XCTAssertEqual(fixture.search("visit"), ["a"])
    }

    func testTiedActivityOfAnExpiredItemIsHiddenThenPurged() async throws {
        let fixture = ActivityFixture()
        let item = makeItem("a", title: "ticket")
        item.expirationDate = fixture.clock.now.addingTimeInterval(60)
        try await fixture.index.indexSearchableItems([item])
        try await fixture.linkedActivity(title: "boarding pass", to: "a").becomeCurrentAndWait()
        XCTAssertEqual(fixture.search("boarding"), ["a"])
        fixture.clock.advance(by: 61)
        XCTAssertTrue(fixture.search("boarding").isEmpty, "hidden as soon as its item expired")
        XCTAssertEqual(fixture.container.snapshot().engine.documentCount, 2)
        try await fixture.index.indexSearchableItems([makeItem("z", title: "unrelated")])
        XCTAssertEqual(fixture.container.snapshot().engine.documentCount, 1, "the next write purged both")
    }

    /// An activity tied to an item and weakly linked to another dies with the first: once that item expired the
    /// activity stood for the weakly linked item until the next write purged it.
    func testTiedActivityOfAnExpiredItemIsHiddenEvenWithALiveWeakLink() async throws {
        let fixture = ActivityFixture()
        let ticket = makeItem("ticket", title: "ticket")
        ticket.expirationDate = fixture.clock.now.addingTimeInterval(60)
        try await fixture.index.indexSearchableItems([ticket, makeItem("trip", title: "trip")])
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.relatedUniqueIdentifier = "ticket"
        set.weakRelatedUniqueIdentifier = "trip"
        let activity = fixture.activity(title: "boarding pass")
        activity.contentAttributeSet = set
        try await activity.becomeCurrentAndWait()
        XCTAssertEqual(fixture.search("boarding"), ["ticket"])
        fixture.clock.advance(by: 61)
        let hidden = fixture.search("boarding")
        try await fixture.index.indexSearchableItems([makeItem("z", title: "unrelated")])
        XCTAssertTrue(fixture.search("boarding").isEmpty, "the next write purged it")
        XCTAssertTrue(hidden.isEmpty, "hidden as soon as its item expired, as the purge later removes it")
    }

    func testWeakLinkDeduplicatesWithoutTyingLifetimes() async throws {
        let fixture = ActivityFixture()
        let early = fixture.linkedActivity(title: "song lyrics", to: "song-1", weak: true)
        try await early.becomeCurrentAndWait()
        XCTAssertEqual(fixture.activities.count, 1, "stored although the item does not exist")
        XCTAssertEqual(fixture.search("lyrics"), [fixture.activities[0].identifier], "alone it is its own result")

        try await fixture.index.indexSearchableItems([makeItem("song-1", title: "Song lyrics")])
        XCTAssertEqual(fixture.search("lyrics"), ["song-1"], "with the item: one result, the item")

        try await fixture.index.deleteSearchableItems(withIdentifiers: ["song-1"])
        XCTAssertEqual(fixture.activities.count, 1, "deleting the item keeps a weakly linked activity")
        XCTAssertEqual(fixture.search("lyrics"), [fixture.activities[0].identifier])
    }

    func testItemsAndActivitiesNeverOverwriteEachOther() async throws {
        let fixture = ActivityFixture()
        // The same identifier through both APIs.
        try await fixture.index.indexSearchableItems([makeItem("shared", title: "item content")])
        let activity = fixture.activity(title: "activity content")
        activity.persistentIdentifier = "shared"
        try await activity.becomeCurrentAndWait()
        XCTAssertEqual(fixture.index.fetchSearchableItems(withIdentifiers: ["shared"]).first?.attributeSet.title,
                       "item content")
        XCTAssertEqual(fixture.search("activity").count, 1)
        try await fixture.index.indexSearchableItems([makeItem("shared", title: "item changed")])
        XCTAssertEqual(fixture.search("activity").count, 1, "re-indexing the item left the activity alone")

        // Item deletes cannot reach activity records, even by their record identifier.
        let recordID = try XCTUnwrap(fixture.activities.first?.identifier)
        try await fixture.index.deleteSearchableItems(withIdentifiers: [recordID])
        XCTAssertEqual(fixture.activities.count, 1)
        // And no item can take an activity's identifier.
        let error = fixture.index.completion { fixture.index.indexSearchableItems([makeItem(recordID, title: "x")],
                                                                                          completionHandler: $0) }
        XCTAssertEqual(indexErrorCode(error), .invalidItemError)
        XCTAssertTrue((error as? CSIndexError)?.message.contains("reserved") == true)
        XCTAssertEqual(fixture.activities.first?.donation.title, "activity content")
        // Deleting the activity leaves the item.
        await NSUserActivity.deleteSavedUserActivities(withPersistentIdentifiers: ["shared"], in: fixture.container)
        XCTAssertEqual(fixture.index.allIdentifiers, ["shared"])
    }
}
#endif
