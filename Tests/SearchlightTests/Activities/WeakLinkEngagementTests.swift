// The Linux NSUserActivity (Foundation has its own on Apple platforms; see SearchlightActivityDonation).
#if !canImport(Darwin)
import Foundation
import XCTest
@testable import Searchlight

/// Engagement of an activity weakly linked (`weakRelatedUniqueIdentifier`) to an item that does not exist.
final class WeakLinkEngagementTests: XCTestCase {
    /// Such an activity stands alone in results, yet its visit and its selection were recorded under the absent
    /// item's identifier: an item indexed later with that identifier inherited them. They are the record's own.
    func testAWeaklyLinkedActivityOfAnAbsentItemEarnsEngagementUnderItsRecord() async throws {
        let fixture = ActivityFixture()
        let activity = fixture.linkedActivity(title: "Budget sheet", to: "ghost", weak: true)
        try await activity.becomeCurrentAndWait()
        let record = try XCTUnwrap(fixture.activities.first?.identifier)
        XCTAssertEqual(fixture.search("budget"), [record], "the activity stands alone")
        XCTAssertNotNil(SearchlightContinuation.activity(forSelecting: record, in: fixture.container))
        let now = fixture.clock.now
        XCTAssertNil(fixture.container.engagement.record(for: "ghost", at: now), "not the absent item's")
        let own = try XCTUnwrap(fixture.container.engagement.record(for: record, at: now))
        XCTAssertEqual(own.selections, 1)
        XCTAssertEqual(own.donations, 1, accuracy: 1e-9)
        try await fixture.index.indexSearchableItems([makeItem("ghost", title: "Budget sheet")])
        XCTAssertNil(fixture.container.engagement.record(for: "ghost", at: fixture.clock.now),
                     "a later item with that identifier starts with none")
    }
}
#endif
