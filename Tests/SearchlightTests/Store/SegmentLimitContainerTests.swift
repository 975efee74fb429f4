import Foundation
import XCTest
@testable import Searchlight
import SearchlightEngine

/// A batch past the index's segment limit (`SegmentLimits`, injected tiny through `StoreOptions`) is refused with
/// `quotaExceeded`, saying to commit smaller batches; what was indexed before stays, its client state is not
/// recorded, smaller batches are taken afterwards, and a crash-reopen replays exactly the acknowledged batches.
final class SegmentLimitContainerTests: XCTestCase {
    private func options() -> StoreOptions {
        var options = storeOptions()
        options.segmentLimits = SegmentLimits(maxBytes: 6_000, maxDocuments: 1_000)
        return options
    }

    private func items(_ prefix: String, count: Int, words: Int = 3) -> [CSSearchableItem] {
        (0..<count).map { n in
            makeItem("\(prefix)-\(n)", title: "alpha " + (0..<words).map { "w\(prefix)\(n)x\($0)" }.joined(separator: " "))
        }
    }

    private func check(_ error: (any Error)?, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(indexErrorCode(error), .quotaExceeded, "\(String(describing: error))", file: file, line: line)
        let message = (error as? CSIndexError)?.message ?? ""
        XCTAssertTrue(message.contains("segment limit"), message, file: file, line: line)
        XCTAssertTrue(message.contains("smaller batches"), message, file: file, line: line)
    }

    /// Many documents (refused while they are added) and one giant document (refused when the batch is sealed,
    /// after it was journaled) both fail with `quotaExceeded` and change nothing; smaller batches go on.
    func testABatchPastTheSegmentLimitFailsWithQuotaExceededAndChangesNothing() throws {
        let url = makeStoreURL(self)
        let expected = (items("a", count: 3) + items("c", count: 2)).map(\.uniqueIdentifier).sorted()
        do {
            let container = try SearchlightContainer(directory: url, options: options())
            container.setIdleMergeDelay(nil)
            let index = CSSearchableIndex(name: "limits", container: container)
            XCTAssertNil(index.batch("1") { $0.indexSearchableItems(self.items("a", count: 3)) })
            check(index.batch("2") { $0.indexSearchableItems(self.items("b", count: 400)) })
            let giant = makeItem("giant", title: (0..<3_000).map { "g\($0)" }.joined(separator: " "))
            check(index.batch("3") { $0.indexSearchableItems([giant]) })
            check(index.completion { index.indexSearchableItems([giant], completionHandler: $0) })
            XCTAssertEqual(index.lastClientState, Data("1".utf8), "a refused batch records no client state")
            XCTAssertEqual(index.allIdentifiers, items("a", count: 3).map(\.uniqueIdentifier).sorted())
            XCTAssertNil(index.batch("4") { $0.indexSearchableItems(self.items("c", count: 2)) })
            XCTAssertEqual(index.allIdentifiers, expected)
            container.closeWithoutCheckpoint()
        }
    }

    /// Batches that each fitted but together pass the segment limit, with a refused batch journaled among them,
    /// survive a crash: the replay commits as it goes instead of sealing them all at once (which failed, lost the
    /// store and asked for a reindex), and skips the batch that was refused.
    func testAcknowledgedBatchesPastTheSegmentLimitTogetherSurviveACrash() throws {
        let url = makeStoreURL(self)
        var expected: [String] = []
        do {
            let container = try SearchlightContainer(directory: url, options: options())
            container.setIdleMergeDelay(nil)
            let index = CSSearchableIndex(name: "limits", container: container)
            for n in 0..<12 {
                let batch = items("n\(n)", count: 8)
                XCTAssertNil(index.batch("\(n)") { $0.indexSearchableItems(batch) })
                expected += batch.map(\.uniqueIdentifier)
                if n == 6 {
                    let giant = makeItem("giant", title: (0..<3_000).map { "g\($0)" }.joined(separator: " "))
                    check(index.batch("giant") { $0.indexSearchableItems([giant]) })
                }
            }
            XCTAssertEqual(index.allIdentifiers, expected.sorted())
            container.closeWithoutCheckpoint()
        }
        let reopened = try SearchlightContainer(directory: url, options: options())
        reopened.setIdleMergeDelay(nil)
        defer { reopened.closeWithoutCheckpoint() }
        XCTAssertFalse(reopened.storeWasLost, "\(String(describing: reopened.recoveryReport?.corruption))")
        XCTAssertEqual(reopened.recoveryReport?.refusedBatches, 1, "the giant batch was journaled, then refused")
        let index = CSSearchableIndex(name: "limits", container: reopened)
        XCTAssertEqual(index.allIdentifiers, expected.sorted())
        XCTAssertEqual(index.lastClientState, Data("11".utf8))
        XCTAssertNil(index.batch("12") { $0.indexSearchableItems(self.items("last", count: 2)) })
    }
}
