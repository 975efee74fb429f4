import Foundation
import SearchlightEngine
import XCTest
@testable import Searchlight

/// A batch converted to engine documents on several threads gives exactly the documents, field ids and field
/// options of converting it item by item in order, also when items part-way through need new fields or change a
/// custom key's options (those are converted again in order, registering).
final class ParallelConversionTests: XCTestCase {
    private func items(count: Int = 600) -> [(item: CSSearchableItem, expiration: Date)] {
        let plain = CSCustomAttributeKey(keyName: "section")!
        let late = CSCustomAttributeKey(keyName: "lateKey")!
        let reflagged = CSCustomAttributeKey(keyName: "section", searchable: true, searchableByDefault: true,
                                             unique: false, multiValued: false)!
        return (0..<count).map { i in
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.title = "title \(i)"
            set.contentDescription = "description of item \(i % 17)"
            set.keywords = i % 2 == 0 ? ["a", "b\(i % 5)"] : []
            set.contentURL = URL(string: "https://example.org/\(i)")
            set.setValue(i == 400 ? "flags changed" : "utils", forCustomKey: i == 400 ? reflagged : plain)
            set.setValue(i, forCustomKey: CSCustomAttributeKey(keyName: "installedSize")!)
            if i >= 300 { set.setValue("new field from here", forCustomKey: late) }
            let item = CSSearchableItem(uniqueIdentifier: "id\(i)", domainIdentifier: "d.\(i % 3)", attributeSet: set)
            return (item, Date(timeIntervalSinceReferenceDate: Double(1_000_000 + i)))
        }
    }

    func testParallelConversionEqualsConvertingInOrder() throws {
        let batch = items()
        let serialWriter = IndexWriter()
        let serial = try batch.map { try ItemDocumentCodec.document(for: $0.item, expiration: $0.expiration, writer: serialWriter) }
        let parallelWriter = IndexWriter()
        parallelWriter.analysisThreads = 4
        // The first half registers the common fields; the second converts in parallel until item 300.
        let first = try ItemDocumentCodec.documents(for: Array(batch[..<150]), writer: parallelWriter)
        let rest = try ItemDocumentCodec.documents(for: Array(batch[150...]), writer: parallelWriter)
        XCTAssertEqual(first + rest, serial)
        XCTAssertEqual(parallelWriter.schema.fields.map(\.name), serialWriter.schema.fields.map(\.name))
        XCTAssertEqual(parallelWriter.schema.fields.map(\.options), serialWriter.schema.fields.map(\.options))
    }

    /// 5,000 items: 78 chunks of 65, the last one short.
    func testALargeBatchConvertsInChunksThatStayInRange() throws {
        let batch = items(count: 5_000)
        let serialWriter = IndexWriter()
        let serial = try batch.map { try ItemDocumentCodec.document(for: $0.item, expiration: $0.expiration, writer: serialWriter) }
        let parallelWriter = IndexWriter()
        parallelWriter.analysisThreads = 2
        _ = try ItemDocumentCodec.documents(for: Array(batch[..<100]), writer: parallelWriter)
        XCTAssertEqual(try ItemDocumentCodec.documents(for: batch, writer: parallelWriter), serial)
    }
}
