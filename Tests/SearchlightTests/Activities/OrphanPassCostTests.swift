// The Linux NSUserActivity (Foundation has its own on Apple platforms; see SearchlightActivityDonation).
#if !canImport(Darwin)
import Foundation
import SearchlightEngine
import XCTest
@testable import Searchlight

/// Activities tied to an item go with it, expired or deleted: the pass that finds them must read the activities
/// tied to what went, not every activity on every write that purges (nearly every write, when items expire
/// steadily).
final class OrphanPassCostTests: XCTestCase {
    func testTheOrphanPassReadsOnlyTheActivitiesOfItemsThatWent() async throws {
        let fixture = ActivityFixture()
        let start = fixture.clock.now
        // Item n expires 1,000 + n seconds from now; every twentieth has an activity tied to it.
        try await fixture.index.indexSearchableItems((0..<2_000).map { n in
            let item = makeItem("item\(n)", title: "item")
            item.expirationDate = start.addingTimeInterval(1_000 + Double(n))
            return item
        })
        for n in stride(from: 0, to: 2_000, by: 20) {
            let activity = fixture.linkedActivity(title: "viewing \(n)", to: "item\(n)")
            activity.persistentIdentifier = "view\(n)"
            activity.expirationDate = start.addingTimeInterval(1_000_000)
            try await activity.becomeCurrentAndWait()
        }
        XCTAssertEqual(fixture.activities.count, 100)
        // Writes three seconds apart, each purging three items; every twentieth takes its activity with it.
        fixture.clock.advance(by: 1_002.5)
        for write in 0..<40 {
            let before = fixture.container.expirationWork
            try await fixture.index.indexSearchableItems([makeItem("write\(write)", title: "write")])
            let after = fixture.container.expirationWork
            let expired = 3 * (write + 1)
            let tiedGone = (expired + 19) / 20
            XCTAssertEqual(fixture.activities.count, 100 - tiedGone, "write \(write)")
            // The first reads every activity once, to learn which item each is tied to.
            XCTAssertLessThanOrEqual(after.activitiesExamined - before.activitiesExamined, write == 0 ? 101 : 1,
                                     "write \(write)")
            fixture.clock.advance(by: 3)
        }
        // A delete by identifier reads the activities tied to what it deleted alone, and takes them: item1000's,
        // and item120's, which expired meanwhile (items 0 to 122 have).
        let before = fixture.container.expirationWork.activitiesExamined
        try await fixture.index.deleteSearchableItems(withIdentifiers: ["item1000", "item1001"])
        XCTAssertEqual(fixture.activities.count, 100 - 7 - 1)
        XCTAssertLessThanOrEqual(fixture.container.expirationWork.activitiesExamined - before, 2)
    }

    /// The pass reads the activities of the items that went, and keeps those of an item the purging write indexes
    /// again; an activity re-tied to another item is checked against its current link.
    func testActivitiesOfAnItemIndexedAgainInThePurgingWriteStay() async throws {
        let fixture = ActivityFixture()
        let start = fixture.clock.now
        let items = ["a", "b", "c"].map { id in
            let item = makeItem(id, title: id)
            item.expirationDate = start.addingTimeInterval(10)
            return item
        }
        try await fixture.index.indexSearchableItems(items)
        for id in ["a", "b"] {
            let activity = fixture.linkedActivity(title: "viewing \(id)", to: id)
            activity.persistentIdentifier = id
            try await activity.becomeCurrentAndWait()
        }
        // Re-tied from b to c: the record moves from b's entry to c's (each read is checked against the index).
        let retied = fixture.linkedActivity(title: "viewing c", to: "c")
        retied.persistentIdentifier = "b"
        try await retied.becomeCurrentAndWait()
        let c = makeItem("c", title: "c")
        c.expirationDate = start.addingTimeInterval(1_000)
        try await fixture.index.indexSearchableItems([c])
        fixture.clock.advance(by: 11)
        let a = makeItem("a", title: "a")
        a.expirationDate = start.addingTimeInterval(1_000)
        try await fixture.index.indexSearchableItems([a])
        XCTAssertEqual(fixture.activities.compactMap(\.donation.strongLink).sorted(), ["a", "c"])
        try await fixture.index.deleteSearchableItems(withIdentifiers: ["c"])
        XCTAssertEqual(fixture.activities.compactMap(\.donation.strongLink), ["a"])
    }

    /// The links forget activities that went while their item stayed (deleted, expired, re-donated untied or tied
    /// elsewhere): kept, they grew with every activity ever donated to a long-lived item, and the pass read them
    /// all when it finally went.
    func testLinksForgetActivitiesThatWentWhileTheirItemStayed() async throws {
        let fixture = ActivityFixture()
        let container = fixture.container
        let start = fixture.clock.now
        func donate(_ id: String, to item: String?, expiring: Date? = nil) async throws {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.relatedUniqueIdentifier = item
            try await container.apply([.activities(.donate(ActivityDonation(
                activityType: "com.example.view", title: id, attributeSet: set, persistentIdentifier: id,
                expirationDate: expiring)))])
        }
        let home = makeItem("home", title: "home")
        home.expirationDate = start.addingTimeInterval(1_000_000)
        try await fixture.index.indexSearchableItems([home, makeItem("other", title: "other")])
        // A delete by identifier makes the links.
        try await fixture.index.deleteSearchableItems(withIdentifiers: ["other"])
        try await donate("all", to: "home")
        try await container.apply([.activities(.deleteAll)])
        for n in 0..<30 {
            try await donate("gone\(n)", to: "home")
            try await container.apply([.activities(.deletePersistentIdentifiers(["gone\(n)"]))])
            try await donate("untied\(n)", to: "home")
            try await donate("untied\(n)", to: nil)
            try await donate("short\(n)", to: "home", expiring: fixture.clock.now.addingTimeInterval(1))
        }
        try await donate("kept", to: "home")
        // The short-lived ones expire and are purged by the next write.
        fixture.clock.advance(by: 10)
        try await fixture.index.indexSearchableItems([makeItem("again", title: "again")])
        XCTAssertEqual(fixture.activities.map(\.identifier).count, 31)
        let before = container.expirationWork.activitiesExamined
        try await fixture.index.deleteSearchableItems(withIdentifiers: ["home"])
        XCTAssertEqual(fixture.activities.compactMap(\.donation.strongLink), [])
        XCTAssertEqual(fixture.activities.count, 30)
        XCTAssertLessThanOrEqual(container.expirationWork.activitiesExamined - before, 1)
    }
}
#endif
