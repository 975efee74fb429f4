import Foundation
import XCTest
@testable import Searchlight

final class AttributeCatalogTests: XCTestCase {
    func testCatalogueCoversEveryPropertyOnce() {
        XCTAssertGreaterThanOrEqual(AttributeCatalog.all.count, 178)
        XCTAssertEqual(Set(AttributeCatalog.all.map(\.name)).count, AttributeCatalog.all.count)
        XCTAssertEqual(Set(AttributeCatalog.all.map(\.spotlightKey)).count, AttributeCatalog.all.count)
        // The generated accessors and the table agree one to one.
        XCTAssertEqual(Set(attributeAccessors.keys), Set(AttributeCatalog.all.map(\.name)))
        for category in AttributeCategory.allCases {
            XCTAssertFalse(AttributeCatalog.all.filter { $0.category == category }.isEmpty, "\(category) has no attributes")
        }
    }

    func testSpotlightKeyAliases() {
        let expected = [
            "contentDescription": "kMDItemDescription", "duration": "kMDItemDurationSeconds", "allDay": "kMDItemIsAllDay",
            "addedDate": "kMDItemDateAdded", "authors": "kMDItemAuthorPersons", "authorNames": "kMDItemAuthors",
            "recipientNames": "kMDItemRecipients", "rankingHint": "kMDItemRankingHint", "theme": "kMDItemTheme",
            "contentType": "kMDItemContentType", "title": "kMDItemTitle", "contentTypeTree": "kMDItemContentTypeTree",
            "textContent": "kMDItemTextContent", "htmlContentData": "kMDItemHTMLContentData", "gpsdop": "kMDItemGPSDOP",
            "gpsDifferental": "kMDItemGPSDifferental", "isoSpeed": "kMDItemISOSpeed", "url": "kMDItemURL",
        ]
        for (name, key) in expected {
            XCTAssertEqual(AttributeCatalog.descriptor(named: name)?.spotlightKey, key, name)
            XCTAssertEqual(AttributeCatalog.descriptor(spotlightKey: key)?.name, name, key)
            XCTAssertEqual(AttributeCatalog.descriptor(forQueryName: key)?.name, name)
            XCTAssertEqual(AttributeCatalog.descriptor(forQueryName: name)?.name, name)
        }
        XCTAssertNil(AttributeCatalog.descriptor(forQueryName: "noSuchAttribute"))
        for d in AttributeCatalog.all { XCTAssertTrue(d.spotlightKey.hasPrefix("kMDItem"), d.name) }
    }

    func testKindsAndFlags() {
        func d(_ n: String) -> AttributeDescriptor? { AttributeCatalog.descriptor(named: n) }
        XCTAssertEqual(d("emailHeaders")?.kind, .headers)
        XCTAssertEqual(d("authors")?.kind, .persons)
        XCTAssertEqual(d("importantDates")?.kind, .dates)
        XCTAssertEqual(d("sharedItemContentType")?.kind, .uniformType)
        XCTAssertEqual(d("htmlContentData")?.kind, .data)
        XCTAssertEqual(d("likelyJunk")?.kind, .number)
        XCTAssertEqual(d("keywords")?.isMultiValued, true)
        XCTAssertEqual(d("title")?.isMultiValued, false)
        XCTAssertEqual(d("textContentSummary")?.isReadOnly, true)
        XCTAssertEqual(d("isPriority")?.isReadOnly, true)
        XCTAssertEqual(d("title")?.isReadOnly, false)
        let text = Set(AttributeCatalog.textAttributes.map(\.name))
        for n in ["displayName", "title", "alternateNames", "keywords", "contentDescription", "textContent", "subject",
                  "authorNames", "recipientNames", "namedLocation", "city"] {
            XCTAssertTrue(text.contains(n), n)
        }
        XCTAssertFalse(text.contains("contentURL"))
        XCTAssertFalse(text.contains("latitude"))
    }

    /// Every attribute: set through its typed property, read back typed, by name and by kMDItem alias, clear it,
    /// and round-trip both states through JSON.
    func testEveryAttributeSetReadClearAndRoundTrip() throws {
        for descriptor in AttributeCatalog.all {
            let name = descriptor.name
            guard let accessor = attributeAccessors[name] else { XCTFail("no accessor for \(name)"); continue }
            let (typed, stored) = sample(for: descriptor)
            let set = CSSearchableItemAttributeSet()
            XCTAssertNil(set.slot(forAttribute: name), "\(name) starts unset")
            if let setter = accessor.set {
                setter(set, typed)
            } else {
                set.setValue(stored, forAttribute: name)  // system attributes are set by the index
            }
            XCTAssertEqual(set.value(forAttribute: name), stored, name)
            XCTAssertEqual(set.value(forAttribute: descriptor.spotlightKey), stored, "\(name) via \(descriptor.spotlightKey)")
            XCTAssertEqual(storedForm(ofTyped: accessor.get(set), kind: descriptor.kind), stored, "typed read of \(name)")

            let item = CSSearchableItem(uniqueIdentifier: "id-\(name)", domainIdentifier: "d", attributeSet: set)
            let back = try roundTrip(item)
            XCTAssertEqual(back.attributeSet.snapshot, set.snapshot, "JSON round trip of \(name)")
            XCTAssertEqual(back.attributeSet.value(forAttribute: name), stored)

            // Clearing (assigning nil) is recorded as "cleared", distinct from unset, and survives JSON.
            guard let setter = accessor.set, !["likelyJunk", "actionIdentifiers"].contains(name) else { continue }
            setter(set, nil)
            XCTAssertEqual(set.slot(forAttribute: name), .cleared, "\(name) cleared")
            XCTAssertNil(set.value(forAttribute: name))
            XCTAssertNil(accessor.get(set), "\(name) reads nil once cleared")
            let clearedBack = try roundTrip(CSSearchableItem(uniqueIdentifier: "c", domainIdentifier: nil, attributeSet: set))
            XCTAssertEqual(clearedBack.attributeSet.slot(forAttribute: name), .cleared, "\(name) cleared survives JSON")
        }
    }

    func testNonOptionalAndReadOnlyDefaults() {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.email-message")
        XCTAssertEqual(set.likelyJunk, 0)
        XCTAssertEqual(set.actionIdentifiers, [])
        XCTAssertNil(set.slot(forAttribute: "likelyJunk"), "reading the default does not store it")
        set.likelyJunk = 1
        XCTAssertEqual(set.likelyJunk, 1)
        set.actionIdentifiers = ["reply", "archive"]
        XCTAssertEqual(set.actionIdentifiers, ["reply", "archive"])
        XCTAssertNil(set.textContentSummary)
        XCTAssertNil(set.isPriority)
        set.setValue(.string("A short summary"), forAttribute: "textContentSummary")
        set.setValue(.number(.bool(true)), forAttribute: "isPriority")
        XCTAssertEqual(set.textContentSummary, "A short summary")
        XCTAssertEqual(set.isPriority, true)
    }
}
