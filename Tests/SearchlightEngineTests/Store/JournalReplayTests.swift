import Foundation
import XCTest
@testable import SearchlightEngine

/// Replaying a journal whose batches each fitted a segment but together pass the segment limit (`JournalReplay`).
final class JournalReplayTests: XCTestCase {
    /// Batch `n`: a few documents of varying size, every fifth one giant; a client state.
    private func batch(_ n: Int) -> [ModelOperation] {
        var operations: [ModelOperation] = []
        for k in 0..<(1 + n % 3) {
            let words = n % 5 == 4 && k == 0 ? 400 : 2 + (n * 7 + k) % 9
            let title = (0..<words).map { "t\(n)w\($0)" }.joined(separator: " ")
            operations.append(.upsert(id: "d\((n * 3 + k) % 23)", domain: nil, title: title, size: Double(n)))
        }
        if n % 6 == 5 { operations.append(.delete(["d\(n % 23)"])) }
        operations.append(.state(name: "index", state: Array("state \(n)".utf8)))
        return operations
    }

    /// At every limit from tiny to roomy, batches are committed the way the container does (applied, journaled,
    /// committed; rolled back when refused before or after journaling), then the store is reopened without a
    /// checkpoint: the replay shows exactly the acknowledged batches, never reports corruption, and skips the
    /// journaled batches the commit refused.
    func testEveryAcknowledgedBatchSurvivesAReplayPastTheSegmentLimit() throws {
        var limitsThatRefusedAfterJournaling = 0
        for maxBytes in stride(from: 400, through: 6_000, by: 223) {
            let directory = makeStoreDirectory(self)
            var options = StoreOptions()
            options.segmentLimits = SegmentLimits(maxBytes: maxBytes, maxDocuments: 1_000)
            var model = StoreModel()
            var refusedAfterJournaling = 0
            do {
                let opened = try DurableStore.open(directory: directory, options: options)
                for n in 0..<40 {
                    var journaled = false
                    do {
                        let recorded = try record(batch(n), writer: opened.writer)
                        try opened.store.append(recorded)
                        journaled = true
                        try opened.writer.commit()
                        model.apply(batch(n))
                    } catch {
                        XCTAssertEqual(error as? EngineError, .segmentTooLarge, "limit \(maxBytes) batch \(n)")
                        if journaled { refusedAfterJournaling += 1 }
                        opened.writer.rollback()
                    }
                }
                opened.store.close()
            }
            if refusedAfterJournaling > 0 { limitsThatRefusedAfterJournaling += 1 }
            let reopened = try DurableStore.open(directory: directory, options: options)
            defer { reopened.store.close() }
            XCTAssertNil(reopened.report.corruption, "limit \(maxBytes)")
            XCTAssertEqual(reopened.report.refusedBatches, refusedAfterJournaling, "limit \(maxBytes)")
            XCTAssertEqual(StoreModel.read(reopened.writer.snapshot, clientStates: reopened.clientStates), model,
                           "limit \(maxBytes)")
        }
        XCTAssertGreaterThan(limitsThatRefusedAfterJournaling, 0, "some batches were refused after journaling")
    }
}
