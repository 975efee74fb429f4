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
            try assertReopened(directory, options, refused: refusedAfterJournaling, model: model, "limit \(maxBytes)")
        }
        XCTAssertGreaterThan(limitsThatRefusedAfterJournaling, 0, "some batches were refused after journaling")
    }

    /// Seeded batches that delete by identifier and domain, delete everything (client states with it) and set
    /// states of two indexes, mostly on documents an earlier batch wrote: with a small limit the replay commits
    /// between them, so deletes reach documents of an earlier replay commit and a delete-all clears states an
    /// earlier commit recorded. The replay shows exactly the acknowledged batches.
    func testDeletesAndClientStatesAcrossReplayCommitsMatchTheAcknowledgedBatches() throws {
        for seed in UInt64(1)...6 {
            var random = SeededLCG(seed: seed)
            let directory = makeStoreDirectory(self)
            var options = StoreOptions()
            options.segmentLimits = SegmentLimits(maxBytes: 900 + 300 * Int(seed % 3), maxDocuments: 1_000)
            var model = StoreModel()
            var refused = 0
            do {
                let opened = try DurableStore.open(directory: directory, options: options)
                for n in 0..<60 {
                    var operations: [ModelOperation] = []
                    for _ in 0..<(1 + random.below(3)) {
                        switch random.below(10) {
                        case 0..<5:
                            let words = random.below(12) == 0 ? 200 : 1 + random.below(6)
                            let id = "d\(random.below(12))", domain = ["a", "b", nil][random.below(3)]
                            let title = (0..<words).map { "w\(n)x\($0)" }.joined(separator: " ")
                            operations.append(.upsert(id: id, domain: domain, title: title, size: Double(n)))
                        case 5, 6: operations.append(.delete(["d\(random.below(12))"]))
                        case 7: operations.append(.deleteDomain(["a", "b"][random.below(2)]))
                        case 8 where random.below(3) == 0: operations.append(.deleteAll)
                        default:
                            let name = ["i1", "i2"][random.below(2)]
                            operations.append(.state(name: name, state: Array("s\(n)".utf8)))
                        }
                    }
                    var journaled = false
                    do {
                        try opened.store.append(try record(operations, writer: opened.writer))
                        journaled = true
                        try opened.writer.commit()
                        model.apply(operations)
                    } catch {
                        XCTAssertEqual(error as? EngineError, .segmentTooLarge, "seed \(seed) batch \(n)")
                        if journaled { refused += 1 }
                        opened.writer.rollback()
                    }
                }
                opened.store.close()
            }
            try assertReopened(directory, options, refused: refused, model: model, "seed \(seed)")
        }
    }

    /// Reopens the store (a replay of its journal) and checks it is undamaged, refused `refused` batches, and holds
    /// what `model` acknowledged.
    private func assertReopened(_ directory: String, _ options: StoreOptions, refused: Int, model: StoreModel,
                                _ label: String) throws {
        let reopened = try DurableStore.open(directory: directory, options: options)
        defer { reopened.store.close() }
        XCTAssertNil(reopened.report.corruption, label)
        XCTAssertEqual(reopened.report.refusedBatches, refused, label)
        XCTAssertEqual(StoreModel.read(reopened.writer.snapshot, clientStates: reopened.clientStates), model, label)
    }
}
