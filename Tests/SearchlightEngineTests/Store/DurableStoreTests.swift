import Foundation
import XCTest
@testable import SearchlightEngine

final class DurableStoreTests: XCTestCase {
    typealias Opened = (store: DurableStore, writer: IndexWriter, clientStates: [ExactIdentifier: [UInt8]], report: RecoveryReport)

    private func open(_ directory: String, _ fileSystem: any StoreFileSystem = POSIXFileSystem(),
                      protection: String = "NSFileProtectionComplete") throws -> Opened {
        var options = StoreOptions()
        options.fileSystem = fileSystem
        options.protectionClass = protection
        return try DurableStore.open(directory: directory, options: options)
    }

    /// Applies model batch `n` and journals it the way the container does: on failure the writer rolls back.
    @discardableResult
    private func commit(_ n: Int, _ opened: Opened, model: inout StoreModel, states: inout [ExactIdentifier: [UInt8]]) -> Bool {
        do {
            let batch = try record(modelBatch(n), writer: opened.writer)
            try opened.store.append(batch)
            try opened.writer.commit()
            model.apply(modelBatch(n))
            states = model.clientStates
            return true
        } catch {
            opened.writer.rollback()
            return false
        }
    }

    private func state(_ opened: Opened) -> StoreModel {
        StoreModel.read(opened.writer.snapshot, clientStates: opened.clientStates)
    }

    func testReopenReplaysTheJournal() throws {
        let directory = makeStoreDirectory(self)
        var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
        do {
            let opened = try open(directory)
            XCTAssertNil(opened.report.corruption)
            for n in 1...14 { XCTAssertTrue(commit(n, opened, model: &model, states: &states)) }
            opened.store.close()
        }
        let reopened = try open(directory)
        XCTAssertEqual(reopened.report.replayedBatches, 14)
        XCTAssertEqual(reopened.report.recordedProtectionClass, "NSFileProtectionComplete")
        XCTAssertEqual(state(reopened), model)
        XCTAssertFalse(model.documents.isEmpty)
    }

    func testCheckpointWritesSegmentsAndStartsANewJournal() throws {
        let directory = makeStoreDirectory(self)
        var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
        do {
            let opened = try open(directory)
            for n in 1...9 { commit(n, opened, model: &model, states: &states) }
            try opened.store.checkpoint(opened.writer.snapshot, clientStates: states)
            XCTAssertEqual(opened.store.generation, 1)
            XCTAssertEqual(opened.store.journalRecordCount, 0)
            for n in 12...16 { commit(n, opened, model: &model, states: &states) }
            opened.store.close()
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        XCTAssertEqual(names, ["LOCK", "journal-1.slj", "snapshot.sls"])
        let reopened = try open(directory)
        XCTAssertEqual(reopened.report.replayedBatches, 5)
        XCTAssertEqual(state(reopened), model)
        // Loaded segments answer queries (postings and term dictionaries came from the file).
        let snapshot = reopened.writer.snapshot
        XCTAssertEqual(snapshot.count(.term("batch")), model.documents.count)
        XCTAssertEqual(snapshot.count(.prefix("docum")), model.documents.count)
        XCTAssertEqual(snapshot.count(.phrase("batch 16 document 0")), model.documents["d14"] == nil ? 0 : 1)
    }

    func testSnapshotRoundTripWithoutJournal() throws {
        let directory = makeStoreDirectory(self)
        var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
        let originalHits: [String]
        var originalScored: [[SearchHit]] = []
        var originalStats: IndexStats?
        let queries: [Query] = [.term("document"), .or([.term("batch"), .prefix("üb")]), .phrase("document 2"),
                                .range(FieldID(rawValue: 1), lower: .inclusive(100), upper: nil)]
        do {
            let opened = try open(directory)
            for n in 1...40 { commit(n, opened, model: &model, states: &states) }
            let snapshot = opened.writer.snapshot
            originalHits = snapshot.search(.term("document"), limit: 50).compactMap { snapshot.id(of: $0.address) }
            originalScored = queries.map { snapshot.search($0, limit: 100) }
            originalStats = snapshot.stats
            try opened.store.checkpoint(snapshot, clientStates: states)
            opened.store.close()
        }
        let reopened = try open(directory)
        XCTAssertEqual(reopened.report.replayedBatches, 0)
        XCTAssertEqual(state(reopened), model)
        let snapshot = reopened.writer.snapshot
        XCTAssertEqual(snapshot.search(.term("document"), limit: 50).compactMap { snapshot.id(of: $0.address) }, originalHits)
        for id in model.documents.keys { XCTAssertNotNil(snapshot.lookup(id: id), id) }
        // Same segments, same addresses, same scores (norms, impacts and statistics came back bit for bit).
        XCTAssertEqual(queries.map { snapshot.search($0, limit: 100) }, originalScored)
        var stats = snapshot.stats, expected = try XCTUnwrap(originalStats)
        stats.estimatedMemoryBytes = 0  // array capacities differ after a load; the contents do not
        expected.estimatedMemoryBytes = 0
        XCTAssertEqual(stats, expected)
        // The reopened writer keeps working: replace, delete, commit.
        var more = model, moreStates = states
        let again = (store: reopened.store, writer: reopened.writer, clientStates: states, report: reopened.report)
        XCTAssertTrue(commit(41, again, model: &more, states: &moreStates))
        XCTAssertEqual(StoreModel.read(reopened.writer.snapshot, clientStates: moreStates), more)
    }

    func testFlippedSnapshotBytesAreAlwaysReportedCorrupt() throws {
        let writer = IndexWriter()
        for n in 1...12 { _ = try record(modelBatch(n), writer: writer) }
        let snapshot = try writer.commit()
        let bytes = SnapshotFile.encode(snapshot, clientStates: ["a": [1, 2]], generation: 4, protectionClass: "p")
        let decoded = try SnapshotFile.decode(bytes, path: "s")
        XCTAssertEqual(decoded.generation, 4)
        XCTAssertEqual(decoded.clientStates, ["a": [1, 2]])
        var random = SeededRandom(seed: 11)
        for _ in 0..<300 {
            var damaged = bytes
            let position = Int.random(in: 0..<bytes.count, using: &random)
            damaged[position] ^= UInt8.random(in: 1...255, using: &random)
            do {
                _ = try SnapshotFile.decode(damaged, path: "s")
                XCTFail("flip at \(position) was not detected")
            } catch StoreError.corrupt {
            } catch StoreError.unsupportedVersion {
                XCTAssertTrue((8..<12).contains(position))
            }
        }
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 200)) {
            XCTAssertThrowsError(try SnapshotFile.decode(Array(bytes[0..<length]), path: "s"))
        }
    }

    func testBackgroundCheckpointLetsAppendsContinue() throws {
        let directory = makeStoreDirectory(self)
        var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
        do {
            let opened = try open(directory)
            for n in 1...30 { commit(n, opened, model: &model, states: &states) }
            opened.store.checkpointInBackground(opened.writer.snapshot, clientStates: states)
            XCTAssertEqual(opened.store.generation, 1, "appends go to the new journal at once")
            for n in 31...40 { XCTAssertTrue(commit(n, opened, model: &model, states: &states)) }
            opened.store.waitForBackgroundCheckpoint()
            XCTAssertNil(opened.store.lastBackgroundError)
            opened.store.checkpointInBackground(opened.writer.snapshot, clientStates: states)
            for n in 41...45 { XCTAssertTrue(commit(n, opened, model: &model, states: &states)) }
            opened.store.close()  // waits for the snapshot
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        XCTAssertEqual(names, ["LOCK", "journal-2.slj", "snapshot.sls"])
        let reopened = try open(directory)
        XCTAssertEqual(reopened.report.replayedBatches, 5)
        XCTAssertEqual(state(reopened), model)
    }

    /// A snapshot that could not be written after the journal switch leaves two journals, replayed in order.
    func testJournalChainReplaysWhenTheSnapshotWasNotWritten() throws {
        let directory = makeStoreDirectory(self)
        let fileSystem = FaultInjectingFileSystem()
        var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
        do {
            let opened = try open(directory, fileSystem)
            for n in 1...4 { commit(n, opened, model: &model, states: &states) }
            try opened.store.checkpoint(opened.writer.snapshot, clientStates: states)
            for n in 5...8 { commit(n, opened, model: &model, states: &states) }
            fileSystem.inject(.failRename, skip: 1)  // the journal switch works, the snapshot's rename fails
            opened.store.checkpointInBackground(opened.writer.snapshot, clientStates: states)
            for n in 9...12 { XCTAssertTrue(commit(n, opened, model: &model, states: &states)) }
            opened.store.waitForBackgroundCheckpoint()
            guard case .io(let operation, _, _)? = opened.store.lastBackgroundError else {
                return XCTFail("the background failure was not kept")
            }
            XCTAssertEqual(operation, "rename")
            opened.store.close()
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        XCTAssertEqual(names, ["LOCK", "journal-1.slj", "journal-2.slj", "snapshot.sls"])
        let reopened = try open(directory)
        XCTAssertNil(reopened.report.corruption)
        XCTAssertEqual(reopened.report.replayedBatches, 8)
        XCTAssertEqual(state(reopened), model)
        // The next checkpoint folds both journals into one snapshot.
        try reopened.store.checkpoint(reopened.writer.snapshot, clientStates: reopened.clientStates)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).sorted(),
                       ["LOCK", "journal-3.slj", "snapshot.sls"])
    }

    func testAGapInTheJournalChainIsCorruption() throws {
        let directory = makeStoreDirectory(self)
        var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
        do {
            let opened = try open(directory)
            commit(1, opened, model: &model, states: &states)
            opened.store.close()
        }
        let journal = try Data(contentsOf: URL(fileURLWithPath: directory + "/journal-0.slj"))
        try journal.write(to: URL(fileURLWithPath: directory + "/journal-2.slj"))
        let opened = try open(directory)
        guard case .corrupt(let path, _)? = opened.report.corruption else { return XCTFail("gap not reported") }
        XCTAssertEqual(path, directory + "/journal-2.slj")
        XCTAssertEqual(opened.writer.snapshot.documentCount, 0)
    }

    /// A closed store of five batches: three in snapshot 1, two in journal 1 after it.
    private func storeWithJournalAfterItsSnapshot() throws -> String {
        let directory = makeStoreDirectory(self)
        var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
        let opened = try open(directory)
        for n in 1...3 { commit(n, opened, model: &model, states: &states) }
        try opened.store.checkpoint(opened.writer.snapshot, clientStates: states)
        for n in 4...5 { commit(n, opened, model: &model, states: &states) }
        opened.store.close()
        return directory
    }

    /// A checkpoint writes journal G before snapshot G, so a snapshot without its journal lost that journal's
    /// acknowledged batches: opening started a new, empty journal, showed the snapshot alone without a word and
    /// deleted the older journals as stale.
    func testASnapshotWithoutItsJournalIsCorruption() throws {
        let directory = try storeWithJournalAfterItsSnapshot()
        try FileManager.default.removeItem(atPath: directory + "/journal-1.slj")
        let opened = try open(directory)
        guard case .corrupt(let path, let reason)? = opened.report.corruption else {
            return XCTFail("the lost journal was not reported")
        }
        XCTAssertEqual(path, directory + "/journal-1.slj")
        XCTAssertTrue(reason.contains("missing"), reason)
        XCTAssertEqual(opened.writer.snapshot.documentCount, 0, "never half the data")
        XCTAssertEqual(opened.report.movedAside.count, 1)
        XCTAssertEqual(opened.report.reindexAcknowledged, [])
    }

    /// A journal whose header names another generation than its file name (copied from another point of the
    /// history) is corruption, not replayed.
    func testAJournalFromAnotherGenerationIsCorruption() throws {
        let directory = try storeWithJournalAfterItsSnapshot()
        var bytes = try XCTUnwrap(FileManager.default.contents(atPath: directory + "/journal-1.slj"))
        // Rewrite its header as generation 7's (a valid header: only the generation differs).
        let header = JournalFile.header(generation: 7, protectionClass: "NSFileProtectionComplete")
        bytes.replaceSubrange(0..<header.count, with: header)
        try bytes.write(to: URL(fileURLWithPath: directory + "/journal-1.slj"))
        let opened = try open(directory)
        guard case .corrupt(let path, let reason)? = opened.report.corruption else { return XCTFail("not reported") }
        XCTAssertEqual(path, directory + "/journal-1.slj")
        XCTAssertTrue(reason.contains("generation 7"), reason)
        XCTAssertEqual(opened.writer.snapshot.documentCount, 0)
        XCTAssertEqual(opened.report.movedAside.count, 2)
        for moved in opened.report.movedAside { XCTAssertTrue(moved.contains(".corrupt-"), moved) }
    }

    func testTornTailIsCutAndAppendingContinues() throws {
        let directory = makeStoreDirectory(self)
        var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
        do {
            let opened = try open(directory)
            for n in 1...5 { commit(n, opened, model: &model, states: &states) }
            opened.store.close()
        }
        try assertTornRecordIsCut(6, in: directory + "/journal-0.slj", of: directory, model: &model, states: &states)
        let reopened = try open(directory)
        XCTAssertEqual(reopened.report.tornTailBytes, 0)
        XCTAssertEqual(state(reopened), model)
    }

    /// Appends half of batch `n`'s record to `journal`, as a crash during its append leaves it, then opens the store:
    /// the torn tail is cut (the journal back to its length before, nothing reported corrupt, the state the model's),
    /// and batch `n + 1` commits after it.
    func assertTornRecordIsCut(_ n: Int, in journal: String, of directory: String, model: inout StoreModel,
                               states: inout [ExactIdentifier: [UInt8]], line: UInt = #line) throws {
        let cleanLength = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int)
        let torn = JournalFile.record(sequence: UInt64(n), body: try record(modelBatch(n), writer: IndexWriter()).encoded())
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data(torn.prefix(torn.count / 2)))
        try handle.close()
        let opened = try open(directory)
        XCTAssertNil(opened.report.corruption, line: line)
        XCTAssertEqual(opened.report.tornTailBytes, torn.count / 2, line: line)
        XCTAssertEqual(state(opened), model, line: line)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int, cleanLength, line: line)
        XCTAssertTrue(commit(n + 1, opened, model: &model, states: &states), line: line)
        opened.store.close()
    }

    /// A store with batches 1–4 in its snapshot and 5–9 in `journal-1.slj`, whose first record is then damaged
    /// (valid records follow it, so it is corruption, not a torn tail). Returns the journal's path.
    @discardableResult
    func storeWithDamagedJournal(_ directory: String) throws -> String {
        var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
        let opened = try open(directory)
        for n in 1...4 { commit(n, opened, model: &model, states: &states) }
        try opened.store.checkpoint(opened.writer.snapshot, clientStates: states)
        for n in 5...9 { commit(n, opened, model: &model, states: &states) }
        opened.store.close()
        let journal = directory + "/journal-1.slj"
        var bytes = try XCTUnwrap(FileManager.default.contents(atPath: journal))
        bytes[60] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: journal))
        return journal
    }

    func testCorruptionInTheMiddleStartsEmptyAndMovesFilesAside() throws {
        let directory = makeStoreDirectory(self)
        let journal = try storeWithDamagedJournal(directory)
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: journal))
        let opened = try open(directory)
        guard case .corrupt(let path, _)? = opened.report.corruption else {
            return XCTFail("corruption not reported: \(String(describing: opened.report.corruption))")
        }
        XCTAssertEqual(path, journal)
        XCTAssertEqual(opened.writer.snapshot.documentCount, 0, "never half the data")
        XCTAssertTrue(opened.clientStates.isEmpty)
        XCTAssertEqual(opened.report.movedAside.count, 2)
        for moved in opened.report.movedAside { XCTAssertTrue(FileManager.default.fileExists(atPath: moved), moved) }
        XCTAssertEqual(FileManager.default.contents(atPath: try XCTUnwrap(opened.report.movedAside.first { $0.contains("journal") })),
                       bytes, "moved aside unchanged, not deleted")
        // The fresh store works and survives a reopen.
        var fresh = StoreModel(), freshStates: [ExactIdentifier: [UInt8]] = [:]
        XCTAssertTrue(commit(20, opened, model: &fresh, states: &freshStates))
        opened.store.close()
        let reopened = try open(directory)
        XCTAssertNil(reopened.report.corruption)
        XCTAssertEqual(state(reopened), fresh)
    }

    /// Only the last journal of a chain takes appends: once a checkpoint started the next one, nothing is appended
    /// to the earlier journal again, so a damaged end there is damage, not a torn append. Cutting it off and replaying
    /// the later journal would leave a hole (the later batches and client state without the cut ones).
    func testADamagedEndOfAJournalBeforeTheLastIsCorruptionNotATornTail() throws {
        for damaged in ["journal-1.slj", "journal-2.slj"] {
            let directory = makeStoreDirectory(self)
            let fileSystem = FaultInjectingFileSystem()
            var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
            do {
                let opened = try open(directory, fileSystem)
                for n in 1...4 { commit(n, opened, model: &model, states: &states) }
                try opened.store.checkpoint(opened.writer.snapshot, clientStates: states)
                for n in 5...8 { commit(n, opened, model: &model, states: &states) }
                fileSystem.inject(.failRename, skip: 1)  // the journal switch works, the snapshot's rename fails
                XCTAssertThrowsError(try opened.store.checkpoint(opened.writer.snapshot, clientStates: states))
                for n in 9...10 { XCTAssertTrue(commit(n, opened, model: &model, states: &states)) }
                opened.store.close()
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).sorted(),
                           ["LOCK", "journal-1.slj", "journal-2.slj", "snapshot.sls"])
            let path = directory + "/" + damaged
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
            try bytes.prefix(bytes.count - 3).write(to: URL(fileURLWithPath: path))
            let opened = try open(directory)
            if damaged == "journal-2.slj" {
                // The chain's last journal: a torn tail, cut off; batch 10 is lost, nothing before it.
                XCTAssertNil(opened.report.corruption)
                XCTAssertGreaterThan(opened.report.tornTailBytes, 0)
                var upTo9 = StoreModel()
                for n in 1...9 { upTo9.apply(modelBatch(n)) }
                XCTAssertEqual(state(opened), upTo9)
                continue
            }
            guard case .corrupt(let file, _)? = opened.report.corruption else {
                return XCTFail("a hole in the history was not reported: \(state(opened).clientStates)")
            }
            XCTAssertEqual(file, path)
            XCTAssertEqual(opened.writer.snapshot.documentCount, 0, "never half the data")
            XCTAssertTrue(opened.clientStates.isEmpty)
            XCTAssertEqual(opened.report.movedAside.count, 3)
            XCTAssertEqual(opened.report.reindexAcknowledged, [])
        }
    }

    /// A journal switch that failed after creating the new journal (its directory fsync failed) leaves it empty
    /// while appends go on in the one before; a crash in such an append tears the end of a journal that is not the
    /// last. Nothing follows it, so it is a torn tail: cut off, and later records do not follow it.
    func testATornTailBeforeTheEmptyJournalOfAFailedSwitchIsCutOff() throws {
        let directory = makeStoreDirectory(self)
        let fileSystem = FaultInjectingFileSystem()
        var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
        do {
            let opened = try open(directory, fileSystem)
            for n in 1...4 { commit(n, opened, model: &model, states: &states) }
            fileSystem.inject(.failDirectorySync)
            XCTAssertThrowsError(try opened.store.checkpoint(opened.writer.snapshot, clientStates: states))
            for n in 5...6 { XCTAssertTrue(commit(n, opened, model: &model, states: &states)) }
            opened.store.close()
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).sorted(),
                       ["LOCK", "journal-0.slj", "journal-1.slj"])
        try assertTornRecordIsCut(7, in: directory + "/journal-0.slj", of: directory, model: &model, states: &states)
        let reopened = try open(directory)
        XCTAssertNil(reopened.report.corruption)
        XCTAssertEqual(state(reopened), model)
    }

    /// Resetting a corrupt store is interrupted at each of its steps in turn (a failed write, fsync, rename or
    /// directory fsync; a crash there leaves the same files): the next open still reports the loss (corrupt again,
    /// or a reindex-all pending), shows none of the old data, and every old file is still there or moved aside.
    func testAResetInterruptedAtAnyStepStillReportsTheLossAtTheNextOpen() throws {
        for fault in [StoreFault.failWrite(errno: 5), .failSync, .failRename, .failDirectorySync] {
            for skip in 0..<10 {
                let directory = makeStoreDirectory(self)
                try storeWithDamagedJournal(directory)
                let originals = try ["snapshot.sls", "journal-1.slj"].map {
                    try XCTUnwrap(FileManager.default.contents(atPath: directory + "/" + $0))
                }
                let fileSystem = FaultInjectingFileSystem()
                fileSystem.inject(fault, skip: skip)
                let label = "\(fault) skip \(skip)"
                do {
                    let opened = try open(directory, fileSystem)
                    // The reset has fewer steps of this kind: it completed.
                    XCTAssertEqual(fileSystem.firedFaults, [], label)
                    XCTAssertNotNil(opened.report.corruption, label)
                    opened.store.close()
                    break
                } catch {
                    XCTAssertEqual(fileSystem.firedFaults, [fault], label)
                }
                let reopened = try open(directory)
                XCTAssertTrue(reopened.report.corruption != nil || reopened.report.reindexAcknowledged == [],
                              "\(label): the loss is not reported")
                XCTAssertEqual(reopened.writer.snapshot.documentCount, 0, label)
                XCTAssertTrue(reopened.clientStates.isEmpty, label)
                let kept = try FileManager.default.contentsOfDirectory(atPath: directory).compactMap {
                    FileManager.default.contents(atPath: directory + "/" + $0)
                }
                for original in originals { XCTAssertTrue(kept.contains(original), "\(label): a file is gone") }
                reopened.store.close()
                // Reported again until acknowledged.
                let again = try open(directory)
                XCTAssertEqual(again.report.reindexAcknowledged, [], label)
                again.store.close()
            }
        }
    }

    func testDamagedSnapshotOrMissingSnapshotIsReportedAndStartsEmpty() throws {
        for damage in ["flip", "magic", "missing"] {
            let directory = makeStoreDirectory(self)
            var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
            do {
                let opened = try open(directory)
                for n in 1...5 { commit(n, opened, model: &model, states: &states) }
                try opened.store.checkpoint(opened.writer.snapshot, clientStates: states)
                commit(6, opened, model: &model, states: &states)
                opened.store.close()
            }
            let path = directory + "/snapshot.sls"
            var bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
            switch damage {
            case "flip": bytes[bytes.count / 2] ^= 0x10
            case "magic": bytes[0] = UInt8(ascii: "X")
            default: try FileManager.default.removeItem(atPath: path)
            }
            if damage != "missing" { try bytes.write(to: URL(fileURLWithPath: path)) }
            let opened = try open(directory)
            guard case .corrupt(let file, let reason)? = opened.report.corruption else {
                return XCTFail("\(damage): not reported")
            }
            XCTAssertEqual(file, damage == "missing" ? directory + "/journal-1.slj" : path, damage)
            XCTAssertFalse(reason.isEmpty)
            XCTAssertEqual(opened.writer.snapshot.documentCount, 0, damage)
            XCTAssertTrue(opened.clientStates.isEmpty)
            XCTAssertEqual(opened.report.movedAside.count, damage == "missing" ? 1 : 2, damage)
            opened.store.close()
        }
    }

    func testNewerSnapshotVersionIsAnErrorAndKeepsTheFiles() throws {
        let directory = makeStoreDirectory(self)
        var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
        do {
            let opened = try open(directory)
            commit(1, opened, model: &model, states: &states)
            try opened.store.checkpoint(opened.writer.snapshot, clientStates: states)
            opened.store.close()
        }
        let path = directory + "/snapshot.sls"
        var bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
        let current = SnapshotFile.version
        bytes[8] = UInt8(current + 1)
        try bytes.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try open(directory)) { error in
            XCTAssertEqual(error as? StoreError, .unsupportedVersion(path: path, version: current + 1, supported: current))
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path), bytes, "not reset")
        // The failed open released the lock and the registration.
        bytes[8] = UInt8(current)
        try bytes.write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(state(try open(directory)), model)
    }

    func testOpeningTwiceInOneProcessIsAnError() throws {
        let directory = makeStoreDirectory(self)
        let first = try open(directory)
        XCTAssertThrowsError(try open(directory + "/")) { error in
            XCTAssertEqual(error as? StoreError, .alreadyOpen(path: directory))
            XCTAssertTrue("\(error)".contains("already open"))
        }
        first.store.close()
        XCTAssertNoThrow(try open(directory))
    }

    func testLockHeldElsewhereIsAnError() throws {
        let directory = makeStoreDirectory(self)
        try POSIXFileSystem().prepareDirectory(directory)
        // Another open file description holding the flock stands in for another process here; the container
        // tests use a real second process.
        let fd = try POSIXFileSystem().lock(directory + "/LOCK")
        XCTAssertThrowsError(try open(directory)) { error in
            XCTAssertEqual(error as? StoreError, .locked(path: directory + "/LOCK"))
        }
        POSIXFileSystem().close(fd)
        XCTAssertNoThrow(try open(directory))
    }

    func testPermissionsOfCreatedFilesAndInsecureDirectories() throws {
        let directory = makeStoreDirectory(self)
        var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
        do {
            let opened = try open(directory)
            commit(1, opened, model: &model, states: &states)
            try opened.store.checkpoint(opened.writer.snapshot, clientStates: states)
            opened.store.close()
        }
        func mode(_ path: String) throws -> Int {
            try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        XCTAssertEqual(try mode(directory), 0o700)
        for name in ["LOCK", "snapshot.sls", "journal-1.slj"] { XCTAssertEqual(try mode(directory + "/" + name), 0o600, name) }

        XCTAssertEqual(chmod(directory, 0o770), 0)
        XCTAssertThrowsError(try open(directory)) { error in
            guard case StoreError.insecure(let path, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, directory)
            XCTAssertTrue(reason.contains("writable by group or others"), reason)
        }
        XCTAssertEqual(chmod(directory, 0o755), 0)  // readable, not writable, by others: accepted
        XCTAssertNoThrow(try open(directory).store.close())
        XCTAssertEqual(chmod(directory, 0o700), 0)
        if geteuid() == 0 {
            // Only root can give a directory away; elsewhere the owner check is covered by the code path above.
            XCTAssertEqual(chown(directory, 65534, 65534), 0)
            XCTAssertThrowsError(try open(directory)) { error in
                guard case StoreError.insecure(_, let reason) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains("belongs to user 65534"), reason)
            }
            XCTAssertEqual(chown(directory, 0, 0), 0)
        }
        let file = directory + "/LOCK"
        XCTAssertThrowsError(try open(file)) { error in
            guard case StoreError.insecure(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("not a directory"))
        }
    }

    // MARK: Faults

    /// A fault during an append: the batch fails, later batches succeed, and a reopen shows exactly the
    /// acknowledged batches.
    func testAppendFaultsLoseNothingAcknowledgedAndShowNothingElse() throws {
        let faults: [StoreFault] = [.failWrite(errno: 5), .shortWrite(bytes: 0), .shortWrite(bytes: 7),
                                    .shortWrite(bytes: 40), .noSpace, .failSync]
        for fault in faults {
            let directory = makeStoreDirectory(self)
            let fileSystem = FaultInjectingFileSystem()
            var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
            do {
                let opened = try open(directory, fileSystem)
                for n in 1...3 { XCTAssertTrue(commit(n, opened, model: &model, states: &states)) }
                fileSystem.inject(fault)
                let before = StoreModel.read(opened.writer.snapshot, clientStates: states)
                XCTAssertFalse(commit(4, opened, model: &model, states: &states), "\(fault)")
                XCTAssertEqual(fileSystem.firedFaults, [fault])
                XCTAssertEqual(StoreModel.read(opened.writer.snapshot, clientStates: states), before, "rolled back")
                XCTAssertTrue(commit(5, opened, model: &model, states: &states), "\(fault)")
                opened.store.close()
            }
            let reopened = try open(directory)
            XCTAssertNil(reopened.report.corruption, "\(fault)")
            XCTAssertEqual(state(reopened), model, "\(fault)")
            XCTAssertEqual(reopened.clientStates["index"], Array("state 5".utf8))
            reopened.store.close()
        }
    }

    func testAFailureThatCannotBeUndoneMakesTheStoreRefuseWrites() throws {
        let directory = makeStoreDirectory(self)
        let fileSystem = FaultInjectingFileSystem()
        var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
        do {
            let opened = try open(directory, fileSystem)
            for n in 1...3 { commit(n, opened, model: &model, states: &states) }
            fileSystem.inject(.shortWrite(bytes: 30))
            fileSystem.inject(.failTruncate)
            XCTAssertFalse(commit(4, opened, model: &model, states: &states))
            XCTAssertThrowsError(try opened.store.append(JournalBatch())) { error in
                guard case StoreError.unavailable(_, let reason) = error else { return XCTFail("\(error)") }
                XCTAssertTrue(reason.contains("could not be undone"), reason)
            }
            opened.store.close()
        }
        // The torn record is cut at the next open.
        let reopened = try open(directory)
        XCTAssertEqual(reopened.report.tornTailBytes, 30)
        XCTAssertEqual(state(reopened), model)
    }

    /// Faults at every step of a checkpoint: the checkpoint fails, appends keep working, nothing is lost.
    func testCheckpointFaultsLoseNothing() throws {
        let cases: [(StoreFault, Int)] = [(.failWrite(errno: 5), 0), (.noSpace, 0), (.shortWrite(bytes: 100), 0),
                                          (.failSync, 0), (.failRename, 0), (.failDirectorySync, 0),
                                          (.failRename, 1), (.failSync, 1), (.failDirectorySync, 1)]
        for (fault, skip) in cases {
            let directory = makeStoreDirectory(self)
            let fileSystem = FaultInjectingFileSystem()
            var model = StoreModel(), states: [ExactIdentifier: [UInt8]] = [:]
            do {
                let opened = try open(directory, fileSystem)
                for n in 1...6 { commit(n, opened, model: &model, states: &states) }
                fileSystem.inject(fault, skip: skip)
                XCTAssertThrowsError(try opened.store.checkpoint(opened.writer.snapshot, clientStates: states),
                                     "\(fault) skip \(skip)")
                fileSystem.reset()
                for n in 7...10 { XCTAssertTrue(commit(n, opened, model: &model, states: &states), "\(fault) \(skip)") }
                opened.store.close()
            }
            let reopened = try open(directory)
            XCTAssertNil(reopened.report.corruption, "\(fault) skip \(skip)")
            XCTAssertEqual(state(reopened), model, "\(fault) skip \(skip)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".tmp") }
            XCTAssertEqual(leftovers, [])
            reopened.store.close()
        }
    }

    /// Client-state names are keyed by their UTF-8 bytes: "café" precomposed and decomposed are two states (as
    /// Core Spotlight's NSString names are two indexes), replayed from the journal and loaded from a snapshot.
    /// `[String: …]` kept one of them.
    func testCanonicallyEquivalentClientStateNamesStaySeparate() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let expected: [ExactIdentifier: [UInt8]] = [ExactIdentifier(composed): [1], ExactIdentifier(decomposed): [2]]
        XCTAssertEqual(expected.count, 2)
        let directory = makeStoreDirectory(self)
        do {
            let opened = try open(directory)
            var batch = JournalBatch()
            batch.recordClientState(name: composed, state: [1])
            batch.recordClientState(name: decomposed, state: [2])
            try opened.store.append(batch)
            try opened.writer.commit()
            opened.store.close()
        }
        do {
            let replayed = try open(directory)
            XCTAssertEqual(replayed.report.replayedBatches, 1)
            XCTAssertEqual(replayed.clientStates, expected, "replayed from the journal")
            try replayed.store.checkpoint(replayed.writer.snapshot, clientStates: replayed.clientStates)
            replayed.store.close()
        }
        let loaded = try open(directory)
        XCTAssertEqual(loaded.report.replayedBatches, 0)
        XCTAssertEqual(loaded.clientStates, expected, "loaded from the snapshot")
        loaded.store.close()
        // Decoded from the file directly too, both names written in their byte order ("e" 0x65 before 0xC3).
        let file = SnapshotFile.encode(try IndexWriter().commit(), clientStates: expected, generation: 1, protectionClass: "")
        XCTAssertEqual(try SnapshotFile.decode(file, path: "s").clientStates, expected)
        let first = try XCTUnwrap(file.firstRange(of: Array(decomposed.utf8)))
        let second = try XCTUnwrap(file.firstRange(of: Array(composed.utf8)))
        XCTAssertLessThan(first.lowerBound, second.lowerBound)
    }

    /// Keying client states by bytes did not change the snapshot's bytes: names are written as UTF-8 as before, in
    /// the order the `String <` sort gave names in NFC (the scalars' order, which is the UTF-8 bytes' order). These
    /// bytes are the encoder's output before the change.
    func testSnapshotClientStatesKeepTheirBytesAndOrder() throws {
        let states: [ExactIdentifier: [UInt8]] = ["b": [3], "a": [1, 2], "\u{E9}": [4], "z\u{10000}": [5], "\u{FF21}": [6], "": []]
        let bytes = SnapshotFile.encode(try IndexWriter().commit(), clientStates: states, generation: 1, protectionClass: "p")
        let golden = "534c534e41505348050000000100000000000000017001000000000000001200000000060000016102010201620103057af090"
            + "8080010502c3a9010403efbca1010600e2fb7653"
        XCTAssertEqual(bytes.map { String(format: "%02x", $0) }.joined(), golden)
        XCTAssertEqual(try SnapshotFile.decode(bytes, path: "s").clientStates, states)
    }
}
