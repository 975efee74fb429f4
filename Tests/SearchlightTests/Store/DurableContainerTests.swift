import Foundation
import Synchronization
import XCTest
@testable import Searchlight
import SearchlightEngine

final class DurableContainerTests: XCTestCase {
    func testItemsAndClientStatesSurviveReopen() throws {
        let url = makeStoreURL(self)
        do {
            let container = try SearchlightContainer(directory: url, protectionClass: .complete)
            let index = CSSearchableIndex(name: "mail", container: container)
            let item = makeItem("m1", title: "Quarterly report", domain: "mail.inbox", keywords: ["finance", "q3"],
                                description: "numbers über alles")
            item.attributeSet.rankingHint = 42
            XCTAssertNil(index.batch("s1") { $0.indexSearchableItems([item, makeItem("m2", title: "Lunch")]) })
            XCTAssertNil(index.completion { index.deleteSearchableItems(withIdentifiers: ["m2"], completionHandler: $0) })
            container.closeWithoutCheckpoint()
        }
        for round in 0..<2 {
            // Round 0 replays the journal; round 1 loads the snapshot that round 0's close() wrote.
            let container = try SearchlightContainer(directory: url, protectionClass: .complete)
            XCTAssertEqual(container.recoveryReport?.replayedBatches, round == 0 ? 2 : 0)
            XCTAssertEqual(container.recoveryReport?.recordedProtectionClass, "NSFileProtectionComplete")
            let index = CSSearchableIndex(name: "mail", container: container)
            XCTAssertEqual(index.allIdentifiers, ["m1"])
            let item = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["m1"]).first)
            XCTAssertEqual(item.attributeSet.title, "Quarterly report")
            XCTAssertEqual(item.attributeSet.keywords, ["finance", "q3"])
            XCTAssertEqual(item.attributeSet.rankingHint, 42)
            XCTAssertEqual(item.domainIdentifier, "mail.inbox")
            XCTAssertEqual(index.lastClientState, Data("s1".utf8))
            XCTAssertEqual(index.identifiers(inDomain: "mail"), ["m1"])
            container.close()
        }
    }

    /// Every attribute (and custom keys) comes back the same from the journal and from a snapshot, and queries
    /// find the item by its text.
    func testEveryAttributeRoundTripsThroughJournalAndSnapshot() throws {
        let url = makeStoreURL(self)
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        for descriptor in AttributeCatalog.all where !descriptor.isReadOnly {
            set.setValue(sample(for: descriptor).stored, forAttribute: descriptor.name)
        }
        set.providerDataTypeIdentifiers = ["public.data"]
        set.providerFileTypeIdentifiers = ["public.file-url"]
        set.providerInPlaceFileTypeIdentifiers = ["public.folder"]
        let key = try XCTUnwrap(CSCustomAttributeKey(keyName: "com_example_status", searchable: true,
                                                     searchableByDefault: true, unique: false, multiValued: false))
        set.setValue("open", forCustomKey: key)
        let when = try XCTUnwrap(CSCustomAttributeKey(keyName: "when"))
        set.setValue(Date(timeIntervalSinceReferenceDate: 1234.5), forCustomKey: when)
        let item = CSSearchableItem(uniqueIdentifier: "all", domainIdentifier: "a.b", attributeSet: set)
        item.expirationDate = Date(timeIntervalSinceReferenceDate: 900_000_000)
        var expected = set.snapshot
        expected.removeClearedSlots()
        let live: CSSearchableItem
        do {
            let container = try SearchlightContainer(directory: url)
            let index = CSSearchableIndex(name: "all", container: container)
            XCTAssertNil(index.completion { index.indexSearchableItems([item], completionHandler: $0) })
            live = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["all"]).first)
            container.closeWithoutCheckpoint()
        }
        for round in ["journal", "snapshot"] {
            let container = try SearchlightContainer(directory: url)
            XCTAssertEqual(container.recoveryReport?.replayedBatches, round == "journal" ? 1 : 0)
            let index = CSSearchableIndex(name: "all", container: container)
            let fetched = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["all"]).first, round)
            XCTAssertEqual(fetched.domainIdentifier, "a.b")
            XCTAssertEqual(fetched.expirationDate, Date(timeIntervalSinceReferenceDate: 900_000_000))
            let actual = fetched.attributeSet.snapshot
            for name in Set(expected.named.keys).union(actual.named.keys).sorted() {
                XCTAssertEqual(actual.named[name], expected.named[name], "\(round): attribute \(name)")
            }
            XCTAssertEqual(actual.custom, expected.custom, round)
            XCTAssertEqual(actual.named.count, live.attributeSet.snapshot.named.count, round)
            let snapshot = container.snapshot()
            XCTAssertEqual(snapshot.engine.search(.term("ünïcödé"), limit: 5).count, 1, round)
            container.close()  // the first round's close writes the snapshot the second round loads
        }
    }

    /// Long descriptions (over 8 MB of them, so the index keeps them compressed) come back exactly, from memory,
    /// the journal and a snapshot, and queries still find their words.
    func testLongDescriptionsComeBackExactlyFromMemoryJournalAndSnapshot() throws {
        let url = makeStoreURL(self)
        let words = ["library", "für", "runtime", "日本語の文書", "plugin", "server", "\u{1F600}", "tool", "shared", "data"]
        var descriptions: [String: String] = [:]
        for n in 0..<700 {
            let body = (0..<(1_700 + n % 300)).map { words[($0 * 7 + n) % words.count] }.joined(separator: n % 2 == 0 ? " " : "\n")
            descriptions["d\(n)"] = "Item \(n): " + body
        }
        let descriptionBytes = descriptions.values.reduce(0) { $0 + $1.utf8.count }
        XCTAssertGreaterThan(descriptionBytes, 8 << 20)
        func check(_ index: CSSearchableIndex, _ what: String) throws {
            // The whole index (postings, positions and every stored value) is smaller than the raw descriptions.
            XCTAssertLessThan(index.container.snapshot().engine.stats.estimatedMemoryBytes, descriptionBytes / 2, what)
            let items = index.fetchSearchableItems(withIdentifiers: descriptions.keys.sorted())
            XCTAssertEqual(items.count, descriptions.count, what)
            for item in items {
                XCTAssertEqual(item.attributeSet.contentDescription, descriptions[item.uniqueIdentifier], what)
                XCTAssertEqual(item.attributeSet.title, "Title " + item.uniqueIdentifier, what)
            }
        }
        do {
            let container = try SearchlightContainer(directory: url)
            let index = CSSearchableIndex(name: "long", container: container)
            let items = descriptions.keys.sorted().map { makeItem($0, title: "Title " + $0, description: descriptions[$0]) }
            XCTAssertNil(index.completion { index.indexSearchableItems(items, completionHandler: $0) })
            try check(index, "memory")
            // Champion lists and covers are built by the searches that read them: none by indexing (the lists'
            // fixed part is their field averages, 8 bytes per default field).
            XCTAssertLessThanOrEqual(container.snapshot().engine.memoryBreakdown["championLists"] ?? 0, 8 * 64)
            container.closeWithoutCheckpoint()
        }
        for round in ["journal", "snapshot"] {
            let container = try SearchlightContainer(directory: url)
            let index = CSSearchableIndex(name: "long", container: container)
            try check(index, round)
            XCTAssertEqual(container.snapshot().engine.count(.term("item")), descriptions.count, round)
            // Nor by reopening.
            XCTAssertLessThanOrEqual(container.snapshot().engine.memoryBreakdown["championLists"] ?? 0, 8 * 64, round)
            container.close()
        }
    }

    func testDeleteAllResetsClientStatesDurably() throws {
        let url = makeStoreURL(self)
        do {
            let container = try SearchlightContainer(directory: url)
            let index = CSSearchableIndex(name: "a", container: container)
            XCTAssertNil(index.batch("state-a") { $0.indexSearchableItems([makeItem("x", title: "X")]) })
            XCTAssertNil(CSSearchableIndex(name: "b", container: container).batch("state-b") { _ in })
            XCTAssertNil(index.completion { index.deleteAllSearchableItems(completionHandler: $0) })
            XCTAssertNil(CSSearchableIndex(name: "b", container: container).batch("state-b2") { _ in })
            container.closeWithoutCheckpoint()
        }
        let container = try SearchlightContainer(directory: url)
        XCTAssertNil(CSSearchableIndex(name: "a", container: container).lastClientState)
        XCTAssertEqual(CSSearchableIndex(name: "b", container: container).lastClientState, Data("state-b2".utf8))
        XCTAssertEqual(CSSearchableIndex(name: "a", container: container).itemCount(), 0)
    }

    func testExpiredItemsStayExpiredAfterReopen() throws {
        let url = makeStoreURL(self)
        let clock = TestClock()
        do {
            let container = try SearchlightContainer(directory: url, clock: clock.function)
            let index = CSSearchableIndex(name: "e", container: container)
            let soon = makeItem("soon", title: "Soon")
            soon.expirationDate = clock.now.addingTimeInterval(60)
            XCTAssertNil(index.completion { index.indexSearchableItems([soon, makeItem("kept", title: "Kept")], completionHandler: $0) })
            container.close()
        }
        clock.advance(by: 120)
        let container = try SearchlightContainer(directory: url, clock: clock.function)
        let index = CSSearchableIndex(name: "e", container: container)
        // A reopened store does not know its earliest expiration: readers look until a write finds it.
        XCTAssertFalse(container.snapshot().noneExpired)
        XCTAssertEqual(index.allIdentifiers, ["kept"])
        // The next write purges it from the engine too (durably).
        XCTAssertNil(index.completion { index.indexSearchableItems([makeItem("new", title: "New")], completionHandler: $0) })
        XCTAssertNil(container.snapshot().engine.lookup(id: "soon"))
        XCTAssertTrue(container.snapshot().noneExpired, "the write found the earliest expiration left")
        container.closeWithoutCheckpoint()
        let reopened = try SearchlightContainer(directory: url, clock: clock.function)
        XCTAssertNil(reopened.snapshot().engine.lookup(id: "soon"))
        XCTAssertEqual(CSSearchableIndex(name: "e", container: reopened).allIdentifiers, ["kept", "new"])
    }

    /// A write that fails after purging expired items rolls the purge back: the earliest expiration must go
    /// back with it, or the next write tells readers nothing has expired and the expired item shows again.
    func testAFailedWriteKeepsExpiredItemsHidden() throws {
        for fault: StoreFault in [.failWrite(errno: 5), .noSpace] {
            let clock = TestClock()
            let fileSystem = FaultInjectingFileSystem()
            let container = try SearchlightContainer(directory: makeStoreURL(self), options: storeOptions(fileSystem),
                                                     clock: clock.function)
            let index = CSSearchableIndex(name: "e", container: container)
            let soon = makeItem("soon", title: "Soon")
            soon.expirationDate = clock.now.addingTimeInterval(60)
            let kept = makeItem("kept", title: "Kept")
            kept.expirationDate = .distantFuture
            XCTAssertNil(index.completion { index.indexSearchableItems([soon, kept], completionHandler: $0) })
            clock.advance(by: 120)
            XCTAssertEqual(index.allIdentifiers, ["kept"])
            fileSystem.inject(fault)
            XCTAssertNotNil(index.completion { index.indexSearchableItems([makeItem("x", title: "X")], completionHandler: $0) })
            fileSystem.inject(fault)
            XCTAssertNotNil(index.completion { index.deleteAllSearchableItems(completionHandler: $0) })
            XCTAssertEqual(index.allIdentifiers, ["kept"])
            let later = makeItem("later", title: "Later")
            later.expirationDate = .distantFuture
            XCTAssertNil(index.completion { index.indexSearchableItems([later], completionHandler: $0) })
            XCTAssertEqual(index.allIdentifiers, ["kept", "later"], "\(fault)")
            XCTAssertTrue(index.fetchSearchableItems(withIdentifiers: ["soon"]).isEmpty, "\(fault)")
            XCTAssertNil(container.snapshot().engine.lookup(id: "soon"), "the successful write purged it")
            container.close()
        }
    }

    /// Every fault reaches the completion handler as a CSIndexError; the failed call is invisible, later calls
    /// work, and reopening the same files shows exactly the acknowledged calls.
    func testFaultsSurfaceThroughCompletionAndReopenMatchesTheAcknowledgedModel() throws {
        let faults: [(StoreFault, CSIndexError.Code)] = [
            (.failWrite(errno: 5), .indexUnavailableError), (.shortWrite(bytes: 9), .indexUnavailableError),
            (.noSpace, .quotaExceeded), (.failSync, .indexUnavailableError),
        ]
        for (fault, code) in faults {
            let url = makeStoreURL(self)
            let fileSystem = FaultInjectingFileSystem()
            var acknowledged: Set<String> = []
            var acknowledgedState: Data?
            do {
                let container = try SearchlightContainer(directory: url, options: storeOptions(fileSystem))
                let index = CSSearchableIndex(name: "f", container: container)
                for n in 0..<3 {
                    XCTAssertNil(index.batch("s\(n)") { $0.indexSearchableItems([makeItem("ok\(n)", title: "Fine \(n)")]) })
                    acknowledged.insert("ok\(n)")
                    acknowledgedState = Data("s\(n)".utf8)
                }
                fileSystem.inject(fault)
                let error = index.batch("bad") { index in
                    index.indexSearchableItems([makeItem("lost", title: "Never acknowledged")])
                    index.deleteSearchableItems(withIdentifiers: ["ok0"])
                }
                XCTAssertEqual(indexErrorCode(error), code, "\(fault): \(String(describing: error))")
                XCTAssertTrue((error as? CSIndexError)?.message.contains("nothing from this call was applied") == true)
                XCTAssertEqual(index.allIdentifiers, acknowledged.sorted(), "\(fault)")
                XCTAssertEqual(index.lastClientState, acknowledgedState)
                // A single call fails the same way.
                fileSystem.inject(fault)
                let single = index.completion { index.indexSearchableItems([makeItem("lost2", title: "No")], completionHandler: $0) }
                XCTAssertEqual(indexErrorCode(single), code)
                XCTAssertNil(index.batch("after") { $0.indexSearchableItems([makeItem("after", title: "After")]) })
                acknowledged.insert("after")
                acknowledgedState = Data("after".utf8)
                container.closeWithoutCheckpoint()
            }
            let reopened = try SearchlightContainer(directory: url)
            XCTAssertNil(reopened.recoveryReport?.corruption)
            let index = CSSearchableIndex(name: "f", container: reopened)
            XCTAssertEqual(index.allIdentifiers, acknowledged.sorted(), "\(fault)")
            XCTAssertEqual(index.lastClientState, acknowledgedState, "\(fault)")
            reopened.close()
        }
    }

    /// A user's disk quota running out (EDQUOT) is the same failure as a full disk: `quotaExceeded`, for a batch
    /// and for a checkpoint alike, and nothing from the call is applied.
    func testADiskQuotaExceededIsQuotaExceeded() throws {
        let fileSystem = FaultInjectingFileSystem()
        let container = try SearchlightContainer(directory: makeStoreURL(self), options: storeOptions(fileSystem))
        defer { container.close() }
        let index = CSSearchableIndex(name: "q", container: container)
        XCTAssertNil(index.batch("1") { $0.indexSearchableItems([makeItem("a", title: "A")]) })
        fileSystem.inject(.failWrite(errno: EDQUOT))
        let error = index.batch("2") { $0.indexSearchableItems([makeItem("b", title: "B")]) }
        XCTAssertEqual(indexErrorCode(error), .quotaExceeded, String(describing: error))
        XCTAssertEqual(index.allIdentifiers, ["a"])
        fileSystem.inject(.failWrite(errno: EDQUOT))
        XCTAssertThrowsError(try container.checkpoint()) { error in
            XCTAssertEqual((error as? CSIndexError)?.code, .quotaExceeded, "\(error)")
        }
    }

    func testCheckpointFaultsAreReportedAndLoseNothing() throws {
        let url = makeStoreURL(self)
        let fileSystem = FaultInjectingFileSystem()
        do {
            let container = try SearchlightContainer(directory: url, options: storeOptions(fileSystem, checkpointBytes: 3_000))
            let index = CSSearchableIndex(name: "k", container: container)
            XCTAssertNil(index.batch("1") { $0.indexSearchableItems([makeItem("a", title: "A")]) })
            fileSystem.inject(.failRename)
            XCTAssertThrowsError(try container.checkpoint()) { error in
                XCTAssertEqual((error as? CSIndexError)?.code, .indexUnavailableError)
                XCTAssertTrue(error.localizedDescription.contains("rename"), error.localizedDescription)
            }
            // An automatic checkpoint that fails does not fail the batch that triggered it: it is journaled.
            fileSystem.inject(.failSync, skip: 1)
            let big = makeItem("b", title: "B", description: String(repeating: "long text ", count: 400))
            XCTAssertNil(index.batch("2") { $0.indexSearchableItems([big]) })
            XCTAssertEqual(fileSystem.firedFaults, [.failRename, .failSync])
            XCTAssertNil(index.batch("3") { $0.indexSearchableItems([makeItem("c", title: "C")]) })
            container.closeWithoutCheckpoint()
        }
        let container = try SearchlightContainer(directory: url)
        let index = CSSearchableIndex(name: "k", container: container)
        XCTAssertEqual(index.allIdentifiers, ["a", "b", "c"])
        XCTAssertEqual(index.lastClientState, Data("3".utf8))
    }

    func testAutomaticCheckpointsAfterTheJournalThreshold() throws {
        let url = makeStoreURL(self)
        do {
            let container = try SearchlightContainer(directory: url, options: storeOptions(checkpointBytes: 4_000))
            let index = CSSearchableIndex(name: "c", container: container)
            for n in 0..<40 {
                XCTAssertNil(index.batch("\(n)") { $0.indexSearchableItems([makeItem("i\(n)", title: "Item number \(n)")]) })
            }
            container.closeWithoutCheckpoint()
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        XCTAssertTrue(names.contains("snapshot.sls"), "\(names)")
        XCTAssertFalse(names.contains("journal-0.slj"), "old journals are deleted: \(names)")
        XCTAssertEqual(names.filter { $0.hasPrefix("journal-") }.count, 1)
        let container = try SearchlightContainer(directory: url)
        let index = CSSearchableIndex(name: "c", container: container)
        XCTAssertEqual(index.itemCount(), 40)
        XCTAssertEqual(index.lastClientState, Data("39".utf8))
        XCTAssertLessThan(container.recoveryReport?.replayedBatches ?? 99, 40)
    }

    final class ReindexRecorder: CSIndexExtensionRequestHandler, @unchecked Sendable {
        // `calls` is a Mutex; the class is otherwise immutable.
        let calls = Mutex(0)
        let called = DispatchSemaphore(value: 0)
        /// Whether it acknowledges (false: the app "crashes" before re-adding).
        let acknowledges: Bool
        init(acknowledges: Bool = true) {
            self.acknowledges = acknowledges
            super.init()
        }
        override func searchableIndex(_ searchableIndex: CSSearchableIndex,
                                      reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping @Sendable () -> Void) {
            calls.withLock { $0 += 1 }
            // Acknowledged before the test hears of the call: it may close the store as soon as it does.
            if acknowledges { acknowledgementHandler() }
            called.signal()
        }
    }

    /// A lost store asks each index to reindex until that index acknowledges, across reopens (reference §1.4: the
    /// request may come again after a crash): an index whose app crashed before acknowledging is asked at the next
    /// open, one that acknowledged is not; a later loss asks everyone again.
    func testAnUnacknowledgedReindexAllIsAskedAgainAfterACrash() throws {
        let url = makeStoreURL(self)
        func corrupt() throws { try damageFirstJournal(at: url) }
        /// Opens the store, sets a delegate on each named index, and says which were asked.
        func open(acknowledging: [String: Bool], write: Bool = false) throws -> [String] {
            let container = try SearchlightContainer(directory: url)
            var asked: [String] = []
            var recorders: [ReindexRecorder] = []
            for (name, acknowledges) in acknowledging.sorted(by: { $0.key < $1.key }) {
                let index = CSSearchableIndex(name: name, container: container)
                let recorder = ReindexRecorder(acknowledges: acknowledges)
                recorders.append(recorder)
                index.indexDelegate = recorder
                if recorder.called.wait(timeout: .now() + 0.5) == .success { asked.append(name) }
                // Several records, so a damaged one is corruption, not a torn tail.
                for n in 0..<(write ? 3 : 0) {
                    XCTAssertNil(index.batch("\(n)") { $0.indexSearchableItems([makeItem("i\(n)", title: "I")]) })
                }
            }
            container.afterPendingWrites {}
            container.closeWithoutCheckpoint()
            return asked
        }
        XCTAssertEqual(try open(acknowledging: ["r": true], write: true), [])
        try corrupt()
        XCTAssertEqual(try open(acknowledging: ["r": false, "other": true]), ["other", "r"], "the loss asks both")
        XCTAssertEqual(try open(acknowledging: ["r": true, "other": true]), ["r"], "r crashed before acknowledging")
        XCTAssertEqual(try open(acknowledging: ["r": true, "other": true], write: true), [], "both acknowledged")
        try corrupt()
        XCTAssertEqual(try open(acknowledging: ["r": true, "other": true]), ["other", "r"], "a new loss asks again")
    }

    /// Flips a bit a third of the way into the first journal: a damaged record with valid ones after it, so the
    /// store is corrupt (not torn) and opens lost.
    private func damageFirstJournal(at url: URL) throws {
        let journal = url.appendingPathComponent("journal-0.slj")
        var bytes = try Data(contentsOf: journal)
        bytes[bytes.count / 3] ^= 0x20
        try bytes.write(to: journal)
    }

    /// Three acknowledged batches of index "r" (client states "0"…"2"), closed as a crash would leave them.
    private func writeThreeBatches(to url: URL) throws {
        let container = try SearchlightContainer(directory: url)
        let index = CSSearchableIndex(name: "r", container: container)
        for n in 0..<3 { XCTAssertNil(index.batch("\(n)") { $0.indexSearchableItems([makeItem("i\(n)", title: "I")]) }) }
        container.closeWithoutCheckpoint()
    }

    func testACorruptStoreStartsEmptyAndAsksEveryIndexToReindexAll() throws {
        let url = makeStoreURL(self)
        try writeThreeBatches(to: url)
        // A healthy reopen asks nobody.
        do {
            let container = try SearchlightContainer(directory: url)
            let recorder = ReindexRecorder()
            let index = CSSearchableIndex(name: "r", container: container)
            index.indexDelegate = recorder
            container.afterPendingWrites {}
            XCTAssertEqual(recorder.called.wait(timeout: .now() + 0.3), .timedOut)
            XCTAssertEqual(index.itemCount(), 3)
            container.closeWithoutCheckpoint()
        }
        try damageFirstJournal(at: url)
        let container = try SearchlightContainer(directory: url)
        XCTAssertTrue(container.storeWasLost)
        let first = CSSearchableIndex(name: "r", container: container)
        let second = CSSearchableIndex(name: "other", container: container)
        XCTAssertEqual(first.itemCount(), 0, "never half the data")
        XCTAssertNil(first.lastClientState)
        let recorders = [ReindexRecorder(), ReindexRecorder()]
        first.indexDelegate = recorders[0]
        second.indexDelegate = recorders[1]
        first.indexDelegate = recorders[0]  // setting it again does not ask again
        for recorder in recorders { XCTAssertEqual(recorder.called.wait(timeout: .now() + 5), .success) }
        container.afterPendingWrites {}
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(recorders.map { $0.calls.withLock { $0 } }, [1, 1])
        let moved = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.contains(".corrupt-") }
        XCTAssertEqual(moved.count, 1)
        // The delegate re-adds; the new store works.
        XCTAssertNil(first.batch("again") { $0.indexSearchableItems([makeItem("i0", title: "Again")]) })
        XCTAssertEqual(first.itemCount(), 1)
    }

    /// Every index name can acknowledge a reindex-all durably: an empty name, or one with a line break or a '%',
    /// must not be asked again at every later open (a full reindex each time).
    func testAnyIndexNameAcknowledgesAReindexAllForGood() throws {
        let url = makeStoreURL(self)
        try writeThreeBatches(to: url)
        try damageFirstJournal(at: url)
        let names = ["", "two\nlines", "ends\r", "crlf\r\nname", "\ne\u{301}", "50%", "%0A", "%2", "plain"]
        do {
            let container = try SearchlightContainer(directory: url)
            XCTAssertTrue(container.storeWasLost)
            for name in names { container.acknowledgeReindexAll(name: name) }
            let done = DispatchSemaphore(value: 0)
            container.afterPendingWrites { done.signal() }
            done.wait()
            container.closeWithoutCheckpoint()
        }
        let container = try SearchlightContainer(directory: url)
        for name in names { XCTAssertFalse(container.reindexAllPending(for: name), "'\(name)' is asked again") }
        XCTAssertTrue(container.reindexAllPending(for: "other"))
        XCTAssertTrue(container.reindexAllPending(for: "two"))
        XCTAssertTrue(container.reindexAllPending(for: "\n"))
        container.close()
    }

    /// The reindex-all acknowledgements are kept by the name's bytes, as client states are: after "café" (precomposed)
    /// acknowledged, "cafe\u{301}" is still asked, in this container and after a reopen (the REINDEX record).
    func testAReindexAllAcknowledgementIsKeptPerSpellingOfTheName() throws {
        let url = makeStoreURL(self)
        try writeThreeBatches(to: url)
        try damageFirstJournal(at: url)
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        do {
            let container = try SearchlightContainer(directory: url)
            XCTAssertTrue(container.storeWasLost)
            container.acknowledgeReindexAll(name: composed)
            XCTAssertFalse(container.reindexAllPending(for: composed))
            XCTAssertTrue(container.reindexAllPending(for: decomposed), "in memory")
            let done = DispatchSemaphore(value: 0)
            container.afterPendingWrites { done.signal() }
            done.wait()
            container.close()
        }
        let container = try SearchlightContainer(directory: url)
        XCTAssertFalse(container.reindexAllPending(for: composed))
        XCTAssertTrue(container.reindexAllPending(for: decomposed), "after a reopen")
        container.acknowledgeReindexAll(name: decomposed)
        let done = DispatchSemaphore(value: 0)
        container.afterPendingWrites { done.signal() }
        done.wait()
        container.close()
        let record = try Data(contentsOf: url.appendingPathComponent("REINDEX"))
        XCTAssertEqual(Array(record), Array("cafe\u{301}\ncaf\u{E9}\n".utf8), "both lines, sorted by their bytes")
        let reopened = try SearchlightContainer(directory: url)
        XCTAssertFalse(reopened.reindexAllPending(for: composed))
        XCTAssertFalse(reopened.reindexAllPending(for: decomposed))
        XCTAssertTrue(reopened.reindexAllPending(for: "other"))
        reopened.close()
    }

    /// A corrupt store whose reset is interrupted once its files were moved aside (here the new journal cannot be
    /// renamed into place; a full disk or a crash there is the same): the acknowledged batches are only in
    /// `*.corrupt-*` files, so the next open must still ask the delegates to reindex, not look like a healthy store.
    func testALossWhoseResetWasInterruptedStillAsksTheDelegatesAtTheNextOpen() throws {
        let url = makeStoreURL(self)
        try writeThreeBatches(to: url)
        try damageFirstJournal(at: url)
        // The reset writes REINDEX (rename 1), moves journal-0 aside (rename 2), starts a new journal-0 (rename 3).
        let faults = FaultInjectingFileSystem()
        faults.inject(.failRename, skip: 2)
        XCTAssertThrowsError(try SearchlightContainer(directory: url, options: storeOptions(faults))) { error in
            XCTAssertEqual((error as? CSIndexError)?.code, .indexUnavailableError)
        }
        XCTAssertEqual(faults.firedFaults, [.failRename])
        let moved = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.contains(".corrupt-") }
        XCTAssertEqual(moved.count, 1, "the acknowledged batches are only in the moved-aside file now")
        let container = try SearchlightContainer(directory: url)
        let index = CSSearchableIndex(name: "r", container: container)
        XCTAssertEqual(index.allIdentifiers, [])
        XCTAssertTrue(container.reindexAllPending(for: "r"), "the lost batches are never asked for again")
        let recorder = ReindexRecorder()
        index.indexDelegate = recorder
        XCTAssertEqual(recorder.called.wait(timeout: .now() + 5), .success)
        container.close()
    }

    /// Snapshot 1 (batches 1-3), journal-1 (4, 5) and, after a checkpoint whose snapshot was not written, journal-2
    /// (6). Damage at the end of journal-1 is not a torn append (journal-2 took the appends after it): cutting it off
    /// would show batch 6 and client state "6" without batch 5, and the app would never add batch 5 again.
    func testADamagedEndOfAJournalBeforeTheLastIsALossNotAHoleInTheHistory() throws {
        let url = makeStoreURL(self)
        func batch(_ index: CSSearchableIndex, _ n: Int) {
            XCTAssertNil(index.batch("\(n)") { $0.indexSearchableItems([makeItem("b\(n)", title: "Batch \(n)")]) })
        }
        do {
            let faults = FaultInjectingFileSystem()
            let container = try SearchlightContainer(directory: url, options: storeOptions(faults))
            container.setIdleMergeDelay(nil)
            let index = CSSearchableIndex(name: "h", container: container)
            for n in 1...3 { batch(index, n) }
            try container.checkpoint()
            for n in 4...5 { batch(index, n) }
            // The checkpoint switches to journal-2 (rename 1), then its snapshot's rename fails (rename 2).
            faults.inject(.failRename, skip: 1)
            XCTAssertThrowsError(try container.checkpoint())
            batch(index, 6)
            container.closeWithoutCheckpoint()
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
        XCTAssertEqual(names.filter { $0.hasSuffix(".slj") || $0.hasSuffix(".sls") },
                       ["journal-1.slj", "journal-2.slj", "snapshot.sls"])
        let journal = url.appendingPathComponent("journal-1.slj")
        let bytes = try Data(contentsOf: journal)
        try bytes.prefix(bytes.count - 3).write(to: journal)  // batch 5's record is incomplete now

        let container = try SearchlightContainer(directory: url)
        let index = CSSearchableIndex(name: "h", container: container)
        XCTAssertTrue(container.storeWasLost, "state \(String(describing: index.lastClientState)), \(index.allIdentifiers)")
        XCTAssertEqual(index.allIdentifiers, [], "never half the data")
        XCTAssertNil(index.lastClientState)
        XCTAssertTrue(container.reindexAllPending(for: "h"))
        container.close()
    }

    func testNewerFormatVersionIsAClearError() throws {
        let url = makeStoreURL(self)
        do {
            let container = try SearchlightContainer(directory: url)
            XCTAssertNil(CSSearchableIndex(name: "v", container: container).batch("1") { _ in })
            container.closeWithoutCheckpoint()
        }
        let journal = url.appendingPathComponent("journal-0.slj")
        var bytes = try Data(contentsOf: journal)
        bytes[8] = 7
        try bytes.write(to: journal)
        XCTAssertThrowsError(try SearchlightContainer(directory: url)) { error in
            let e = error as? CSIndexError
            XCTAssertEqual(e?.code, .indexUnavailableError)
            XCTAssertTrue(e?.message.contains(journal.path) == true, e?.message ?? "")
            XCTAssertTrue(e?.message.contains("format version 7") == true, e?.message ?? "")
        }
        XCTAssertEqual(try Data(contentsOf: journal), bytes, "the files are kept as they are")
    }

    func testTheSameDirectoryTwiceInOneProcessIsAnError() throws {
        let url = makeStoreURL(self)
        let container = try SearchlightContainer(directory: url)
        XCTAssertThrowsError(try SearchlightContainer(directory: url)) { error in
            XCTAssertEqual((error as? CSIndexError)?.code, .indexUnavailableError)
            XCTAssertTrue("\(error.localizedDescription)".contains("already open"), error.localizedDescription)
        }
        container.close()
        XCTAssertNoThrow(try SearchlightContainer(directory: url).close())
    }

    /// A store directory deleted while open takes the journal with it: a write after that must fail (and every
    /// later one, until the store is reopened), not be acknowledged into a file nothing can read again.
    func testAWriteAfterTheStoreDirectoryVanishedIsNotAcknowledged() throws {
        let url = makeStoreURL(self)
        let container = try SearchlightContainer(directory: url)
        let index = CSSearchableIndex(name: "v", container: container)
        XCTAssertNil(index.batch("1") { $0.indexSearchableItems([makeItem("a", title: "A")]) })
        try FileManager.default.removeItem(at: url)
        let error = index.batch("2") { $0.indexSearchableItems([makeItem("b", title: "B")]) }
        XCTAssertEqual(indexErrorCode(error), .indexUnavailableError, String(describing: error))
        XCTAssertTrue((error as? CSIndexError)?.message.contains("reopen") == true, String(describing: error))
        XCTAssertEqual(index.allIdentifiers, ["a"])
        XCTAssertEqual(index.lastClientState, Data("1".utf8))
        let later = index.completion { index.deleteSearchableItems(withIdentifiers: ["a"], completionHandler: $0) }
        XCTAssertEqual(indexErrorCode(later), .indexUnavailableError)
        XCTAssertEqual(index.allIdentifiers, ["a"])
        container.close()
    }

    /// A store directory deleted and made again (another process's store now, say) is not this store's: the
    /// snapshot `close()` writes went into it by path and deleted the journals it found there, another store's.
    func testACheckpointAfterTheStoreDirectoryWasReplacedLeavesTheNewOneAlone() throws {
        let url = makeStoreURL(self)
        let container = try SearchlightContainer(directory: url)
        let index = CSSearchableIndex(name: "r", container: container)
        XCTAssertNil(index.batch("1") { $0.indexSearchableItems([makeItem("a", title: "A")]) })
        let journal = url.appendingPathComponent("journal-0.slj")
        let foreign = try Data(contentsOf: journal)
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        try foreign.write(to: journal)
        XCTAssertThrowsError(try container.checkpoint()) { error in
            XCTAssertEqual((error as? CSIndexError)?.code, .indexUnavailableError, "\(error)")
        }
        container.close()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: url.path), ["journal-0.slj"])
        XCTAssertEqual(try Data(contentsOf: journal), foreign)
    }

    func testWritesAfterCloseFailAndReadsContinue() throws {
        let url = makeStoreURL(self)
        let container = try SearchlightContainer(directory: url)
        let index = CSSearchableIndex(name: "w", container: container)
        XCTAssertNil(index.completion { index.indexSearchableItems([makeItem("a", title: "A")], completionHandler: $0) })
        container.close()
        let error = index.completion { index.indexSearchableItems([makeItem("b", title: "B")], completionHandler: $0) }
        XCTAssertEqual(indexErrorCode(error), .indexUnavailableError)
        XCTAssertEqual(index.allIdentifiers, ["a"])
    }

    /// A URL that is no file URL names no directory: its path must not be created somewhere (an https URL's path
    /// is '/name', the file system's root).
    func testANonFileURLIsRefusedAndCreatesNothing() throws {
        let name = "searchlight-non-file-url-\(getpid())-\(UUID().uuidString.prefix(8))"
        let url = try XCTUnwrap(URL(string: "https://example.com/\(name)"))
        defer { try? FileManager.default.removeItem(atPath: "/" + name) }
        XCTAssertThrowsError(try SearchlightContainer(directory: url)) { error in
            XCTAssertEqual((error as? CSIndexError)?.code, .indexUnavailableError)
            XCTAssertTrue(error.localizedDescription.contains("file URL"), error.localizedDescription)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/" + name), "nothing is created")
    }

    /// Writes that change nothing (an empty delete, an update of an absent item) fail after close() and after
    /// closeWithoutCheckpoint() like every other write: the caller is told the index is gone.
    func testWritesThatChangeNothingAlsoFailAfterClose() throws {
        for crash in [false, true] {
            let container = try SearchlightContainer(directory: makeStoreURL(self))
            let index = CSSearchableIndex(name: "w", container: container)
            XCTAssertNil(index.completion { index.deleteSearchableItems(withIdentifiers: [], completionHandler: $0) })
            if crash { container.closeWithoutCheckpoint() } else { container.close() }
            let update = makeItem("absent", title: "Absent")
            update.isUpdate = true
            let errors = [
                index.completion { index.deleteSearchableItems(withIdentifiers: [], completionHandler: $0) },
                index.completion { index.deleteSearchableItems(withDomainIdentifiers: [], completionHandler: $0) },
                index.completion { index.indexSearchableItems([update], completionHandler: $0) },
            ]
            for (n, error) in errors.enumerated() {
                XCTAssertEqual(indexErrorCode(error), .indexUnavailableError, "crash \(crash), write \(n)")
                XCTAssertTrue("\(error?.localizedDescription ?? "")".contains("closed"), "\(String(describing: error))")
            }
        }
    }

    /// checkpoint() after close() or closeWithoutCheckpoint() writes nothing, so it must not report success (after
    /// closeWithoutCheckpoint the caller would believe a snapshot holds the journal's batches); close() twice is fine.
    func testCheckpointAfterCloseIsAnErrorAndCloseTwiceIsNot() throws {
        for crash in [false, true] {
            let url = makeStoreURL(self)
            let container = try SearchlightContainer(directory: url)
            let index = CSSearchableIndex(name: "k", container: container)
            XCTAssertNil(index.batch("1") { $0.indexSearchableItems([makeItem("a", title: "A")]) })
            if crash { container.closeWithoutCheckpoint() } else { container.close() }
            container.close()
            XCTAssertThrowsError(try container.checkpoint()) { error in
                XCTAssertEqual((error as? CSIndexError)?.code, .indexUnavailableError, "crash \(crash)")
                XCTAssertTrue(error.localizedDescription.contains("closed"), error.localizedDescription)
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
            XCTAssertEqual(names.contains("snapshot.sls"), !crash, "\(names)")
            let reopened = try SearchlightContainer(directory: url)
            XCTAssertEqual(CSSearchableIndex(name: "k", container: reopened).allIdentifiers, ["a"])
            XCTAssertEqual(CSSearchableIndex(name: "k", container: reopened).lastClientState, Data("1".utf8))
            reopened.close()
        }
    }

    /// The engagement ledger is saved under a reserved client-state name: an index of that name must not store its
    /// client state there (reopening took it for the ledger: the batch's items came back without their state).
    func testTheEngagementLedgersClientStateNameIsRefusedForAnIndex() throws {
        let url = makeStoreURL(self)
        let container = try SearchlightContainer(directory: url)
        let index = CSSearchableIndex(name: EngagementLedger.clientStateName, container: container)
        let error = index.batch("s") { $0.indexSearchableItems([makeItem("a", title: "A")]) }
        XCTAssertEqual(indexErrorCode(error), .invalidClientStateError)
        XCTAssertTrue("\(error?.localizedDescription ?? "")".contains("reserved"), "\(String(describing: error))")
        XCTAssertEqual(index.allIdentifiers, [], "nothing from the batch was applied")
        container.close()
    }

    /// A reindex-all acknowledged after its container closed must not write into the store directory, which it no
    /// longer holds: another container may have it open, and marking an index as having re-added its items there
    /// (or a loss where there was none) makes that store ask the wrong indexes.
    func testAnAcknowledgementAfterCloseLeavesTheStoreAlone() throws {
        let url = makeStoreURL(self)
        let old = try SearchlightContainer(directory: url)
        old.close()
        let current = try SearchlightContainer(directory: url)
        old.acknowledgeReindexAll(name: "late")
        let done = DispatchSemaphore(value: 0)
        old.afterPendingWrites { done.signal() }
        done.wait()
        current.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.appendingPathComponent("REINDEX").path))
        let reopened = try SearchlightContainer(directory: url)
        XCTAssertFalse(reopened.reindexAllPending(for: "other"), "no store was lost")
        reopened.close()
    }

    func testInsecureDirectoryIsRefused() throws {
        let url = makeStoreURL(self)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o777])
        XCTAssertEqual(chmod(url.path, 0o777), 0)
        XCTAssertThrowsError(try SearchlightContainer(directory: url)) { error in
            XCTAssertTrue(error.localizedDescription.contains("writable by group or others"), error.localizedDescription)
        }
    }

    func testInMemoryContainersIgnoreCheckpointAndClose() throws {
        let container = SearchlightContainer()
        let index = CSSearchableIndex(name: "m", container: container)
        XCTAssertNil(index.completion { index.indexSearchableItems([makeItem("a", title: "A")], completionHandler: $0) })
        XCTAssertNoThrow(try container.checkpoint())
        container.close()
        XCTAssertNil(index.completion { index.indexSearchableItems([makeItem("b", title: "B")], completionHandler: $0) })
        XCTAssertEqual(index.allIdentifiers, ["a", "b"])
    }
}
