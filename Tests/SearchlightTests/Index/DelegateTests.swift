import Foundation
import Synchronization
import XCTest
@testable import Searchlight

final class DelegateTests: XCTestCase {
    final class Recorder: CSIndexExtensionRequestHandler, @unchecked Sendable {
        let events = Mutex<[String]>([])
        let fresh: [CSSearchableItem]
        init(fresh: [CSSearchableItem] = []) {
            self.fresh = fresh
            super.init()
        }
        override func searchableIndex(_ searchableIndex: CSSearchableIndex,
                                      reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping @Sendable () -> Void) {
            events.withLock { $0.append("all") }
            acknowledgementHandler()
        }
        override func data(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String) throws -> Data {
            Data("\(itemIdentifier):\(typeIdentifier)".utf8)
        }
        override func searchableItems(forIdentifiers identifiers: [String],
                             searchableItemsHandler: @escaping @Sendable ([CSSearchableItem]) -> Void) {
            events.withLock { $0.append("pull \(identifiers)") }
            searchableItemsHandler(fresh)
        }
    }

    func testReindexAllReachesTheDelegate() {
        let index = makeIndex()
        let recorder = Recorder()
        index.indexDelegate = recorder
        index.requestReindexAll()
        XCTAssertEqual(recorder.events.withLock { $0 }, ["all"])
    }

    func testTheDelegateIsHeldWeakly() {
        let index = makeIndex()
        var recorder: Recorder? = Recorder()
        index.indexDelegate = recorder
        XCTAssertNotNil(index.indexDelegate)
        recorder = nil
        XCTAssertNil(index.indexDelegate)
    }

    func testProviderDataComesFromTheDelegateForListedTypesOnly() async throws {
        let index = makeIndex()
        let recorder = Recorder()
        index.indexDelegate = recorder
        let item = makeItem("doc", title: "Doc")
        item.attributeSet.providerDataTypeIdentifiers = ["public.pdf"]
        try await index.indexSearchableItems([item])
        XCTAssertEqual(try index.providerData(forItemIdentifier: "doc", typeIdentifier: "public.pdf"), Data("doc:public.pdf".utf8))
        XCTAssertThrowsError(try index.providerData(forItemIdentifier: "doc", typeIdentifier: "public.png"))
        XCTAssertThrowsError(try index.providerData(forItemIdentifier: "missing", typeIdentifier: "public.pdf"))
    }

    func testRefreshPullsItemsFromTheDelegate() async throws {
        let index = makeIndex()
        let recorder = Recorder(fresh: [makeItem("p", title: "Pulled")])
        index.indexDelegate = recorder
        try await index.refreshSearchableItems(withIdentifiers: ["p"])
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: ["p"]).first?.attributeSet.title, "Pulled")
        XCTAssertEqual(recorder.events.withLock { $0 }, ["pull [\"p\"]"])
    }
}
