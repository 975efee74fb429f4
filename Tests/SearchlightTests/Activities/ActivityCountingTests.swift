#if !canImport(Darwin)
import Foundation
import XCTest
@testable import Searchlight

/// Donated activities are searchable, but they are not items: the index's counts and listings leave them out.
final class ActivityCountingTests: XCTestCase {
    func testActivitiesAreNotCountedOrListedAsItems() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("item", title: "Hiking boots", domain: "shop")])
        let attributes = CSSearchableItemAttributeSet(itemContentType: "public.text")
        attributes.domainIdentifier = "shop"
        let activity = fixture.activity(title: "Hiking trails")
        activity.contentAttributeSet = attributes
        try await activity.becomeCurrentAndWait()
        XCTAssertEqual(fixture.activities.count, 1, "the activity was donated")
        XCTAssertEqual(fixture.search("hiking").count, 2, "and is searchable beside the item")
        XCTAssertEqual(fixture.index.itemCount(), 1)
        XCTAssertEqual(fixture.index.identifiers(inDomain: "shop"), ["item"])
        XCTAssertEqual(fixture.index.statistics().items, 1)
        XCTAssertEqual(fixture.index.statistics().domains, 1)
    }

    func testProtectionClassesAreFoundationsOwnType() {
        let index = CSSearchableIndex(name: "protected", protectionClass: .completeUntilFirstUserAuthentication)
        XCTAssertEqual(index.protectionClass.rawValue, FileProtectionType.completeUntilFirstUserAuthentication.rawValue)
    }
}
#endif
