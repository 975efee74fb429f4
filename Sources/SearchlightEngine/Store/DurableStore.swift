#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import Synchronization

/// Settings of a durable store.
package struct StoreOptions: Sendable {
    /// The file layer (tests inject faults here).
    package var fileSystem: any StoreFileSystem = POSIXFileSystem()
    /// Recorded in every file header (see README: protection classes).
    package var protectionClass: String = ""
    /// A snapshot is due once the journal holds this many bytes.
    package var checkpointJournalBytes: Int = 64 << 20
    /// `IndexWriter.buildsChampionLists` of the writer opened (set before the snapshot's segments are loaded).
    package var championLists = true
    /// `IndexWriter.segmentLimits` of the writer opened, replay included (tests inject tiny ones).
    package var segmentLimits = SegmentLimits.standard

    package init() {}
}

/// What opening a store found.
package struct RecoveryReport: Sendable {
    /// Set when the store could not be read: it was opened EMPTY and its files were moved aside.
    package var corruption: StoreError?
    /// Where the unreadable files went (full paths).
    package var movedAside: [String] = []
    /// Bytes of an incomplete last record (a crash mid-append) that were cut off.
    package var tornTailBytes = 0
    /// Journal records replayed over the snapshot.
    package var replayedBatches = 0
    /// Replayed records skipped because they do not fit a segment on their own: batches the container refused
    /// after journaling them (`JournalReplay`).
    package var refusedBatches = 0
    /// The protection class the files recorded (nil for a new store).
    package var recordedProtectionClass: String?
    /// Documents analyzed again because another `Analyzer.version` built the snapshot's segments (0: none).
    package var reanalyzedDocuments = 0
    /// The analyzer version the snapshot's segments were analyzed again from (nil: none were, or it failed). A
    /// checkpoint then records the current version, so the next open loads the new terms.
    package var upgradedFromAnalyzerVersion: UInt32?
    /// Why the snapshot's documents could not all be analyzed again: those not yet analyzed keep their old terms,
    /// and snapshots go on recording the old version, so every open tries again.
    package var reanalysisError: EngineError?
    /// A lost store's reindex-all is pending (this open lost the store, or an earlier one did and not every index
    /// acknowledged it): the index names that acknowledged it (`DurableStore.acknowledgeReindex`); nil: none pending.
    package var reindexAcknowledged: Set<ExactIdentifier>?
}

/// The durable store under an `IndexWriter`: a journal of batches (appended and fsynced before a batch is
/// acknowledged) plus snapshots of the committed index (sealed segments, schema, live bits, client states).
///
/// Files in the store directory (0700): `LOCK` (held with `flock` while open), `snapshot.sls` (generation S,
/// absent until the first checkpoint, S = 0), `journal-G.slj` for G = S, S+1, … (the batches after snapshot G),
/// and after a loss `REINDEX` (the indexes that acknowledged re-adding their items).
/// A checkpoint first switches to `journal-(G+1).slj`, then writes snapshot G+1 through a temporary file and a
/// rename (possibly on a background thread) and deletes the older journals; a crash at any point leaves a
/// snapshot and a chain of journals that replays to exactly the acknowledged batches. See README.md in this
/// folder for the byte layouts.
///
/// Not thread-safe: the owner serializes calls (the container calls it under its write lock).
package final class DurableStore {
    package let directory: String
    package let options: StoreOptions
    private var fileSystem: any StoreFileSystem { options.fileSystem }
    private let canonicalPath: String
    private var lockDescriptor: Int32
    private var journalDescriptor: Int32 = -1
    /// Generation of the current snapshot and journal.
    package private(set) var generation: UInt64
    /// Bytes of the current journal (header plus acknowledged records).
    package private(set) var journalLength = 0
    private var nextSequence: UInt64 = 1
    /// The `Analyzer.version` whose terms the writer's segments hold, which every snapshot records: the running
    /// version, or the loaded snapshot's when analyzing it again failed (`RecoveryReport.reanalysisError`).
    private var segmentsAnalyzerVersion = Analyzer.version
    /// The snapshot being written in the background, if any.
    private let background = BackgroundWork()
    /// Set when a failed append could not be undone; every later append fails.
    private var failure: String?
    private var closed = false

    private static let openStores = Mutex<Set<String>>([])

    private init(directory: String, canonicalPath: String, options: StoreOptions, lock: Int32, generation: UInt64) {
        self.directory = directory
        self.canonicalPath = canonicalPath
        self.options = options
        self.lockDescriptor = lock
        self.generation = generation
    }

    deinit { close() }

    private func path(_ name: String) -> String { directory + "/" + name }

    /// Whether the journal has grown past the checkpoint threshold.
    package var needsCheckpoint: Bool { journalLength >= options.checkpointJournalBytes }

    /// Records in the current journal (batches since the last snapshot).
    package var journalRecordCount: Int { Int(nextSequence) - 1 }

    // MARK: Opening

    /// Opens (or creates) the store in `directory`: loads the snapshot and replays the journal into a new writer.
    /// A store that cannot be read opens EMPTY with its files moved aside and `report.corruption` set; a newer
    /// format version, a lock held elsewhere or an insecure directory throw instead.
    package static func open(directory: String, options: StoreOptions = StoreOptions()) throws(StoreError)
        -> (store: DurableStore, writer: IndexWriter, clientStates: [ExactIdentifier: [UInt8]], report: RecoveryReport) {
        let fs = options.fileSystem
        var directory = directory
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        try fs.prepareDirectory(directory)
        let canonical = canonicalize(directory)
        let inserted = openStores.withLock { $0.insert(canonical).inserted }
        guard inserted else { throw .alreadyOpen(path: directory) }
        let lock: Int32
        do {
            lock = try fs.lock(directory + "/LOCK")
        } catch {
            openStores.withLock { _ = $0.remove(canonical) }
            throw error
        }
        let store = DurableStore(directory: directory, canonicalPath: canonical, options: options, lock: lock,
                                 generation: 0)
        // From here on, `store.close()` (also run by deinit) releases the lock and the registration.
        let (writer, states, report) = try store.recover()
        // Analyzed again: a snapshot records the current analyzer version (written in the background; until it is,
        // the old snapshot and the journals still hold everything, and the next open analyzes again).
        if report.upgradedFromAnalyzerVersion != nil { store.checkpointInBackground(writer.snapshot, clientStates: states) }
        return (store, writer, states, report)
    }

    private static func canonicalize(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The file recording a lost store's pending reindex-all: the index names that acknowledged it, one per line.
    /// It stays after every index acknowledged (a name added later is asked too, as after the loss itself); the
    /// next loss starts it again empty.
    package static let reindexFileName = "REINDEX"

    /// The index names that acknowledged the pending reindex-all, or nil when none is pending (no record).
    private func readReindexRecord() throws(StoreError) -> Set<ExactIdentifier>? {
        guard let bytes = try fileSystem.readFile(path(Self.reindexFileName)) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).unicodeScalars.split(separator: "\n")
        return Set(lines.map { ExactIdentifier(Self.unescapeReindexLine(Array($0))) })
    }

    /// Lines in the names' byte order (for names in NFC, the order `String <` gave before names were compared by
    /// bytes; the reader takes any order).
    private func writeReindexRecord(_ acknowledged: Set<ExactIdentifier>) throws(StoreError) {
        let text = acknowledged.sorted(by: ExactIdentifier.bytewise).map { Self.escapeReindexLine($0.id) + "\n" }.joined()
        try fileSystem.writeAtomically(Array(text.utf8), to: path(Self.reindexFileName), directory: directory)
    }

    /// A name as a REINDEX line: '%' and line breaks escaped by scalar (%25, %0A, %0D), the empty name a lone '%',
    /// so every name can be recorded (an empty one or one with a line break too); others are written as they are.
    private static func escapeReindexLine(_ name: String) -> String {
        if name.isEmpty { return "%" }
        var line = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar {
            case "%": line.append(contentsOf: "%25".unicodeScalars)
            case "\n": line.append(contentsOf: "%0A".unicodeScalars)
            case "\r": line.append(contentsOf: "%0D".unicodeScalars)
            default: line.append(scalar)
            }
        }
        return String(line)
    }

    /// The name a REINDEX line records (`escapeReindexLine` undone; a line of an older build reads as itself).
    private static func unescapeReindexLine(_ line: [Unicode.Scalar]) -> String {
        if line == ["%"] { return "" }
        var name = String.UnicodeScalarView()
        var i = 0
        while i < line.count {
            if line[i] == "%", i + 2 < line.count {
                let escape = String(String.UnicodeScalarView(line[(i + 1)...(i + 2)]))
                let decoded: Unicode.Scalar? = escape == "25" ? "%" : escape == "0A" ? "\n" : escape == "0D" ? "\r" : nil
                if let decoded {
                    name.append(decoded)
                    i += 3
                    continue
                }
            }
            name.append(line[i])
            i += 1
        }
        return String(name)
    }

    /// Records that index `name` re-added its items after the store was lost (its delegate acknowledged the
    /// reindex-all), so later opens no longer ask it (any name: lines are escaped). A closed store refuses it:
    /// its directory is no longer held (another store may have it open).
    package func acknowledgeReindex(name: String) throws(StoreError) {
        try checkWritable()
        try checkDirectoryIsOwn()
        var acknowledged = try readReindexRecord() ?? []
        guard acknowledged.insert(ExactIdentifier(name)).inserted else { return }
        try writeReindexRecord(acknowledged)
    }

    private func recover() throws(StoreError) -> (IndexWriter, [ExactIdentifier: [UInt8]], RecoveryReport) {
        let (writer, states, recovered) = try recoverContents()
        var report = recovered
        if report.corruption == nil { report.reindexAcknowledged = try readReindexRecord() }
        return (writer, states, report)
    }

    private func recoverContents() throws(StoreError) -> (IndexWriter, [ExactIdentifier: [UInt8]], RecoveryReport) {
        var report = RecoveryReport()
        let names = try fileSystem.list(directory)
        for name in names where name.hasSuffix(".tmp") { try? fileSystem.remove(path(name)) }
        let journals = names.compactMap { name in JournalFile.generation(ofFileName: name).map { ($0, name) } }

        let writer = IndexWriter()
        writer.buildsChampionLists = options.championLists
        writer.segmentLimits = options.segmentLimits
        var states: [ExactIdentifier: [UInt8]] = [:]
        var journalContents: JournalFile.Contents?
        // The journal whose end is a torn tail, and its length without it.
        var torn: (path: String, validLength: Int)?
        var staleBefore: UInt64 = 0
        // The analyzer version of the loaded snapshot's segments (the running one when there are none).
        var loadedAnalyzerVersion = Analyzer.version
        do throws(StoreError) {
            var snapshotGeneration: UInt64 = 0, hasSnapshot = false
            if let file = try fileSystem.mapFile(path(SnapshotFile.fileName)) {
                hasSnapshot = true
                let snapshot = try SnapshotFile.decode(file.bytes, path: path(SnapshotFile.fileName))
                snapshotGeneration = snapshot.generation
                report.recordedProtectionClass = snapshot.protectionClass
                writer.restore(segments: snapshot.segments, live: snapshot.live, schema: snapshot.schema,
                               generation: snapshot.writerGeneration)
                states = snapshot.clientStates
                if !snapshot.segments.isEmpty { loadedAnalyzerVersion = snapshot.analyzerVersion }
            }
            // Journals from the snapshot's generation on form a chain: each follows the snapshot its generation
            // names, which may not have been written (a checkpoint in progress or failed); replay them in order.
            let chain = journals.filter { $0.0 >= snapshotGeneration }.sorted { $0.0 < $1.0 }
            for (offset, journal) in chain.enumerated() where journal.0 != snapshotGeneration + UInt64(offset) {
                throw StoreError.corrupt(path: path(journal.1), reason: "journal generation \(journal.0) does not "
                                         + "continue from the snapshot at generation \(snapshotGeneration)")
            }
            // Journal S is written before snapshot S (and never deleted while it is the snapshot's): without it, the
            // batches acknowledged after the snapshot are gone.
            if hasSnapshot, chain.isEmpty {
                throw StoreError.corrupt(path: path(JournalFile.fileName(generation: snapshotGeneration)),
                                         reason: "it is missing (the snapshot at generation \(snapshotGeneration) "
                                             + "is followed by no journal)")
            }
            staleBefore = snapshotGeneration
            generation = chain.last?.0 ?? snapshotGeneration
            // A torn tail (an append a crash cut short) can only end the chain: appends go to the last journal, or,
            // after a journal switch that failed, to the one before the new, empty one. Damage at the end of a journal
            // that a later journal's records follow is corruption: cutting it off would leave a hole in the history.
            // Commits as it goes: batches that each fitted a segment may not fit one together.
            var replay = JournalReplay(writer: writer, states: states)
            for (journalGeneration, name) in chain {
                let journalPath = path(name)
                guard let bytes = try fileSystem.readFile(journalPath) else {
                    throw StoreError.corrupt(path: journalPath, reason: "it disappeared while the store was opened")
                }
                let contents = try JournalFile.read(bytes, path: journalPath)
                guard contents.generation == journalGeneration else {
                    throw StoreError.corrupt(path: journalPath, reason: "its header says generation \(contents.generation)")
                }
                if let torn, !contents.batches.isEmpty || contents.tornBytes > 0 {
                    throw StoreError.corrupt(path: torn.path, reason: "its last record is damaged and a later "
                                             + "journal holds records after it")
                }
                if contents.tornBytes > 0 { torn = (journalPath, contents.validLength) }
                if report.recordedProtectionClass == nil { report.recordedProtectionClass = contents.protectionClass }
                do {
                    for batch in contents.batches { try replay.apply(batch) }
                } catch {
                    throw StoreError.corrupt(path: journalPath, reason: "a record cannot be replayed (\(error))")
                }
                report.replayedBatches += contents.batches.count
                report.tornTailBytes += contents.tornBytes
                journalContents = contents
            }
            if !chain.isEmpty {
                do {
                    try replay.commit()
                    states = replay.states
                    report.refusedBatches = replay.refusedBatches
                } catch {
                    throw StoreError.corrupt(path: path(chain[chain.count - 1].1),
                                             reason: "the replayed records cannot be committed (\(error))")
                }
            }
        } catch {
            if case .corrupt = error {
                return try startOver(after: error, names: names)
            }
            close()
            throw error
        }
        // Segments another analyzer version built: their documents are analyzed again from their stored values (the
        // journals' batches were analyzed by this version as they replayed, and are simply analyzed twice).
        // Nothing on disk changes until the checkpoint `open` starts; a failure keeps the old terms, never data.
        if loadedAnalyzerVersion != Analyzer.version {
            do {
                report.reanalyzedDocuments = try writer.reanalyzeAll()
                report.upgradedFromAnalyzerVersion = loadedAnalyzerVersion
            } catch {
                report.reanalysisError = error
                // Some segments may still hold the old terms: snapshots must say so, so the next open tries again.
                segmentsAnalyzerVersion = loadedAnalyzerVersion
            }
        }
        // Stale journals of older generations are fully contained in the snapshot.
        for (journalGeneration, name) in journals where journalGeneration < staleBefore { try? fileSystem.remove(path(name)) }
        do {
            // Cut the torn tail off (also one before an empty last journal: the records appended next must not follow it).
            if let torn {
                let descriptor = try fileSystem.openForAppending(torn.path, truncate: false)
                defer { fileSystem.close(descriptor) }
                try fileSystem.truncate(descriptor, to: torn.validLength, path: torn.path)
                try fileSystem.sync(descriptor, path: torn.path)
            }
            if let contents = journalContents {
                let journalPath = path(JournalFile.fileName(generation: generation))
                journalDescriptor = try fileSystem.openForAppending(journalPath, truncate: false)
                journalLength = contents.validLength
                nextSequence = UInt64(contents.batches.count) + 1
            } else {
                try startJournal(generation: generation)
            }
        } catch {
            close()
            throw error
        }
        return (writer, states, report)
    }

    /// Moves every store file aside (never deletes it) and starts an empty store at generation 0.
    ///
    /// The loss is made durable first (an empty REINDEX record, written before anything moves), so when a later step
    /// fails or the process dies, the next open still asks every index to reindex. The snapshot moves first, then
    /// the journals oldest first, so what an interrupted move leaves behind is found corrupt again and moved too.
    private func startOver(after error: StoreError, names: [String])
        throws(StoreError) -> (IndexWriter, [ExactIdentifier: [UInt8]], RecoveryReport) {
        var report = RecoveryReport()
        report.corruption = error
        let suffix = ".corrupt-\(time(nil))"
        let journals = names.compactMap { name in JournalFile.generation(ofFileName: name).map { ($0, name) } }
        let storeFiles = names.filter { $0 == SnapshotFile.fileName } + journals.sorted { $0.0 < $1.0 }.map(\.1)
        do {
            // Every index is asked to reindex until it acknowledges, across reopens (a crash before then).
            try writeReindexRecord([])
            report.reindexAcknowledged = []
            for name in storeFiles {
                var target = name + suffix
                var n = 1
                while names.contains(target) {
                    target = name + suffix + "-\(n)"
                    n += 1
                }
                try fileSystem.rename(path(name), to: path(target))
                report.movedAside.append(path(target))
            }
            try fileSystem.syncDirectory(directory)
            generation = 0
            try startJournal(generation: 0)
        } catch {
            close()
            throw error
        }
        let empty = IndexWriter()
        empty.buildsChampionLists = options.championLists
        empty.segmentLimits = options.segmentLimits
        return (empty, [:], report)
    }

    /// Creates an empty journal for `generation` (atomically) and opens it for appending.
    private func startJournal(generation newGeneration: UInt64) throws(StoreError) {
        let name = JournalFile.fileName(generation: newGeneration)
        let header = JournalFile.header(generation: newGeneration, protectionClass: options.protectionClass)
        try fileSystem.writeAtomically(header, to: path(name), directory: directory)
        let fd = try fileSystem.openForAppending(path(name), truncate: false)
        if journalDescriptor >= 0 { fileSystem.close(journalDescriptor) }
        journalDescriptor = fd
        journalLength = header.count
        nextSequence = 1
        generation = newGeneration
    }

    // MARK: Writing

    /// Appends one batch as one record and fsyncs it. When this returns, the batch survives a crash; when it
    /// throws, the journal is as before (the partial record is cut off again) and the batch must not be
    /// acknowledged.
    package func append(_ batch: JournalBatch) throws(StoreError) {
        try checkWritable()
        let journalPath = path(JournalFile.fileName(generation: generation))
        let body = batch.encoded()
        guard body.count + 8 <= JournalFile.maximumRecordSize else {
            throw .unavailable(path: directory, reason: "a batch of \(body.count) bytes exceeds the 1 GiB record limit; "
                               + "split it into smaller batches")
        }
        let record = JournalFile.record(sequence: nextSequence, body: body)
        do throws(StoreError) {
            try fileSystem.write(journalDescriptor, record, path: journalPath)
            try fileSystem.sync(journalDescriptor, path: journalPath)
            // A journal deleted with its directory (or replaced) keeps nothing: this batch and every later one would
            // be acknowledged into a file no open reads. Refused until the store is reopened.
            guard try fileSystem.isLinked(journalDescriptor, path: journalPath) else {
                throw refuseUntilReopened("its journal '\(journalPath)' was deleted (the store directory was removed "
                                          + "or replaced); reopen the store")
            }
        } catch {
            do {
                try fileSystem.truncate(journalDescriptor, to: journalLength, path: journalPath)
                try fileSystem.sync(journalDescriptor, path: journalPath)
            } catch {
                failure = "a failed append could not be undone (\(error)); reopen the store"
            }
            throw error
        }
        journalLength += record.count
        nextSequence += 1
    }

    private func checkWritable() throws(StoreError) {
        if closed { throw .unavailable(path: directory, reason: "it is closed") }
        if let failure { throw .unavailable(path: directory, reason: failure) }
    }

    /// Before a write by path (a checkpoint's files, REINDEX): the directory must still be this store's. Deleted, or
    /// replaced by another (another store may be open there now), its LOCK is not the file this store holds, and
    /// those writes would land in it and delete its journals. Every later write is refused until a reopen.
    private func checkDirectoryIsOwn() throws(StoreError) {
        guard try fileSystem.isSameFile(lockDescriptor, path: path("LOCK")) else {
            throw refuseUntilReopened("its directory was removed or replaced while it was open; reopen the store")
        }
    }

    /// Records `reason` as the failure every later write is refused with (`checkWritable`) and returns the error
    /// refusing this one: the store keeps nothing more until it is reopened.
    private func refuseUntilReopened(_ reason: String) -> StoreError {
        failure = reason
        return .unavailable(path: directory, reason: reason)
    }

    /// Writes a snapshot of `snapshot` (the writer's last commit, which must include every appended batch) and
    /// its client states. The journal is switched first (generation G+1; appends go there from now on), then
    /// snapshot G+1 is written and the journals before it are deleted. If writing the snapshot fails, the old
    /// snapshot and both journals stay and replay in order at the next open. Waits for a background checkpoint.
    package func checkpoint(_ snapshot: IndexSnapshot, clientStates: [ExactIdentifier: [UInt8]]) throws(StoreError) {
        try checkWritable()
        try checkDirectoryIsOwn()
        background.wait()
        let next = generation + 1
        try startJournal(generation: next)
        try Self.writeSnapshot(snapshot, clientStates: clientStates, generation: next, analyzerVersion: segmentsAnalyzerVersion,
                               protectionClass: options.protectionClass, fileSystem: fileSystem, directory: directory)
    }

    /// Like `checkpoint`, but encodes and writes the snapshot on a background thread while appends continue in
    /// the new journal. Does nothing while another background checkpoint runs; a failure is kept in
    /// `lastBackgroundError` (the journals still hold everything) and the next checkpoint tries again.
    package func checkpointInBackground(_ snapshot: IndexSnapshot, clientStates: [ExactIdentifier: [UInt8]]) {
        guard !closed, failure == nil, !background.isRunning else { return }
        let next = generation + 1
        do {
            try checkDirectoryIsOwn()
            try startJournal(generation: next)
        } catch {
            background.record(error)
            return
        }
        let fileSystem = fileSystem, directory = directory, protection = options.protectionClass
        let analyzerVersion = segmentsAnalyzerVersion
        background.run { () throws(StoreError) in
            try Self.writeSnapshot(snapshot, clientStates: clientStates, generation: next, analyzerVersion: analyzerVersion,
                                   protectionClass: protection, fileSystem: fileSystem, directory: directory)
        }
    }

    /// Waits for a background checkpoint (tests and `close()`).
    package func waitForBackgroundCheckpoint() { background.wait() }

    /// The failure of the last background checkpoint (nil after a success).
    package var lastBackgroundError: StoreError? { background.lastError }

    private static func writeSnapshot(_ snapshot: IndexSnapshot, clientStates: [ExactIdentifier: [UInt8]], generation: UInt64,
                                      analyzerVersion: UInt32, protectionClass: String, fileSystem: any StoreFileSystem,
                                      directory: String) throws(StoreError) {
        let bytes = SnapshotFile.encode(snapshot, clientStates: clientStates, generation: generation,
                                        protectionClass: protectionClass, analyzerVersion: analyzerVersion)
        try fileSystem.writeAtomically(bytes, to: directory + "/" + SnapshotFile.fileName, directory: directory)
        // The journals before this generation are inside the snapshot now.
        for name in (try? fileSystem.list(directory)) ?? [] {
            if let old = JournalFile.generation(ofFileName: name), old < generation {
                try? fileSystem.remove(directory + "/" + name)
            }
        }
    }

    /// Releases the journal and the lock. Idempotent; later appends fail.
    package func close() {
        guard !closed else { return }
        background.wait()
        closed = true
        if journalDescriptor >= 0 { fileSystem.close(journalDescriptor) }
        journalDescriptor = -1
        if lockDescriptor >= 0 { fileSystem.close(lockDescriptor) }
        lockDescriptor = -1
        let key = canonicalPath
        Self.openStores.withLock { _ = $0.remove(key) }
    }

    package var isClosed: Bool { closed }

    /// Whether a failed append could not be undone: every later write is refused until the store is reopened.
    package var mustBeReopened: Bool { failure != nil }
}

/// One piece of work on a background thread at a time, with its outcome.
private final class BackgroundWork: Sendable {
    private let running = Mutex(false)
    private let failure = Mutex<StoreError?>(nil)
    private let group = DispatchGroup()

    var isRunning: Bool { running.withLock { $0 } }
    var lastError: StoreError? { failure.withLock { $0 } }

    func record(_ error: StoreError) { failure.withLock { $0 = error } }

    func run(_ body: @escaping @Sendable () throws(StoreError) -> Void) {
        running.withLock { $0 = true }
        DispatchQueue.global(qos: .utility).async(group: group) { [self] in
            do throws(StoreError) {
                try body()
                failure.withLock { $0 = nil }
            } catch {
                failure.withLock { $0 = error }
            }
            running.withLock { $0 = false }
        }
    }

    func wait() { group.wait() }
}
