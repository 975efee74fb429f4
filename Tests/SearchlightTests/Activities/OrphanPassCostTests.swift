// The Linux NSUserActivity (Foundation has its own on Apple platforms; see SearchlightActivityDonation).
#if !canImport(Darwin)
import Foundation
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
        // Re-tied from b to c: the record stays under b's entry too, and is checked.
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
}
#endif
