import Foundation
import SearchlightEngine
import XCTest
@testable import Searchlight

/// Fetching a few attributes decodes only their stored fields; the item must be exactly the one a full decode
/// filtered to those attributes gives, for catalogue attributes, custom keys kept in text or date fields and
/// custom values kept in the item blob.
final class FetchDecodingTests: XCTestCase {
    func testFetchingSomeAttributesEqualsFilteringAFullDecode() throws {
        let writer = IndexWriter()
        let searchable = CSCustomAttributeKey(keyName: "section", searchable: true, searchableByDefault: true,
                                              unique: false, multiValued: false)!
        let tags = CSCustomAttributeKey(keyName: "tags", searchable: true, searchableByDefault: false,
                                        unique: false, multiValued: true)!
        let plain = CSCustomAttributeKey(keyName: "installedSize")!
        let released = CSCustomAttributeKey(keyName: "released", searchable: true, searchableByDefault: false,
                                            unique: false, multiValued: false)!
        for i in 0..<40 {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.title = "title \(i)"
            set.displayName = "Display \(i)"
            set.contentDescription = String(repeating: "a long description ", count: 20)
            set.keywords = i % 2 == 0 ? ["k\(i)", "shared"] : nil
            set.contentURL = URL(string: "https://example.org/\(i)")
            set.rankingHint = NSNumber(value: i)
            set.lastUsedDate = Date(timeIntervalSinceReferenceDate: Double(700_000_000 + i))
            set.setValue("utils \(i % 3)", forCustomKey: searchable)
            if i % 3 == 0 { set.setValue(["red", "green"], forCustomKey: tags) }
            set.setValue(i * 100, forCustomKey: plain)
            set.setValue(Date(timeIntervalSinceReferenceDate: Double(i) * 86_400), forCustomKey: released)
            let item = CSSearchableItem(uniqueIdentifier: "id\(i)", domainIdentifier: "d", attributeSet: set)
            try writer.upsert(ItemDocumentCodec.document(for: item, expiration: Date(timeIntervalSinceReferenceDate: 1e9),
                                                         writer: writer))
        }
        let snapshot = try writer.commit()
        let fetches: [Set<String>] = [
            [], ["title"], ["title", "keywords"], ["contentURL", "rankingHint"], ["lastUsedDate", "contentType"],
            ["section"], ["tags"], ["installedSize"], ["released"], ["title", "section", "tags", "released", "installedSize"],
            ["noSuchAttribute"],
        ]
        var compared = 0
        for address in snapshot.matches(.all) {
            let full = try XCTUnwrap(snapshot.document(at: address))
            for fetch in fetches {
                let expected = try XCTUnwrap(ItemDocumentCodec.item(from: full, schema: snapshot.schema, fetch: fetch))
                let fetched = try XCTUnwrap(ItemDocumentCodec.item(at: address, in: snapshot, fetch: fetch), "\(fetch)")
                XCTAssertEqual(fetched.attributeSet.snapshot, expected.attributeSet.snapshot, "\(fetch) of \(full.id)")
                XCTAssertEqual(fetched.uniqueIdentifier, expected.uniqueIdentifier)
                XCTAssertEqual(fetched.domainIdentifier, expected.domainIdentifier)
                XCTAssertEqual(fetched.explicitExpirationDate, expected.explicitExpirationDate)
                compared += 1
            }
            // The restricted decode really is restricted: a title-only document holds no description.
            let titleOnly = try XCTUnwrap(snapshot.document(at: address, fields: [try XCTUnwrap(snapshot.schema.field(named: "title"))]))
            XCTAssertEqual(titleOnly.values.count, 1)
        }
        XCTAssertEqual(compared, 40 * fetches.count)
        // Fetching a custom key gives its value, and a catalogue attribute its value.
        let first = try XCTUnwrap(snapshot.lookup(id: "id3"))
        let item = try XCTUnwrap(ItemDocumentCodec.item(at: first, in: snapshot, fetch: ["tags", "title"]))
        XCTAssertEqual(item.attributeSet.value(forCustomKey: tags) as Any? as? [String], ["red", "green"])
        XCTAssertEqual(item.attributeSet.title, "title 3")
        XCTAssertNil(item.attributeSet.contentDescription)
        // Many names (tested through a set, not one by one): every attribute but the description, exactly as
        // the full decode has them.
        let many: Set<String> = ["title", "displayName", "keywords", "contentURL", "rankingHint", "lastUsedDate",
                                 "contentType", "contentTypeTree", "section", "tags", "installedSize", "released"]
        for id in ["id0", "id3", "id4"] {
            let address = try XCTUnwrap(snapshot.lookup(id: id))
            var expected = try XCTUnwrap(ItemDocumentCodec.item(at: address, in: snapshot)).attributeSet.snapshot
            XCTAssertNotNil(expected.named.removeValue(forKey: "contentDescription"))
            let fetched = try XCTUnwrap(ItemDocumentCodec.item(at: address, in: snapshot, fetch: many))
            XCTAssertEqual(fetched.attributeSet.snapshot, expected, id)
        }
    }
}
