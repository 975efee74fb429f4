#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Settings of a durable store.
package struct StoreOptions: Sendable {
    /// The file layer (tests inject faults here).
    package var fileSystem: any StoreFileSystem = POSIXFileSystem()
    /// Recorded in every file header (see README: protection classes).
    package var protectionClass: String = ""
    /// A snapshot is due once the journal holds this many bytes.
    package var checkpointJournalBytes: Int = 64 << 20

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
    /// The protection class the files recorded (nil for a new store).
    package var recordedProtectionClass: String?
}

/// The durable store under an `IndexWriter`: a journal of batches (appended and fsynced before a batch is
/// acknowledged) plus snapshots of the committed index (sealed segments, schema, live bits, client states).
///
/// Files in the store directory (0700): `LOCK` (held with `flock` while open), `snapshot.sls` (generation G,
/// absent until the first checkpoint, G = 0), `journal-G.slj` (the batches since that snapshot). A checkpoint
/// writes snapshot G+1 through a temporary file and a rename, starts `journal-(G+1).slj` the same way and then
/// deletes the old journal; a crash at any point leaves either the old pair or the new snapshot (whose journal
/// is then created empty), never a mix. See README.md in this folder for the byte layouts.
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
    /// Set when a checkpoint replaced the snapshot but could not start its journal: appends must start it first.
    private var needsNewJournal = false
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
        -> (store: DurableStore, writer: IndexWriter, clientStates: [String: [UInt8]], report: RecoveryReport) {
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
        return (store, writer, states, report)
    }

    private static func canonicalize(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private func recover() throws(StoreError) -> (IndexWriter, [String: [UInt8]], RecoveryReport) {
        var report = RecoveryReport()
        let names = try fileSystem.list(directory)
        for name in names where name.hasSuffix(".tmp") { try? fileSystem.remove(path(name)) }
        let journals = names.compactMap { name in JournalFile.generation(ofFileName: name).map { ($0, name) } }

        let writer = IndexWriter()
        var states: [String: [UInt8]] = [:]
        var journalContents: JournalFile.Contents?
        do throws(StoreError) {
            var snapshotGeneration: UInt64 = 0
            if let file = try fileSystem.mapFile(path(SnapshotFile.fileName)) {
                let snapshot = try SnapshotFile.decode(file.bytes, path: path(SnapshotFile.fileName))
                snapshotGeneration = snapshot.generation
                report.recordedProtectionClass = snapshot.protectionClass
                writer.restore(segments: snapshot.segments, live: snapshot.live, schema: snapshot.schema,
                               generation: snapshot.writerGeneration)
                states = snapshot.clientStates
            }
            if let orphan = journals.first(where: { $0.0 > snapshotGeneration }) {
                throw StoreError.corrupt(path: path(orphan.1), reason: "journal generation \(orphan.0) has no snapshot "
                                         + "(the snapshot is at generation \(snapshotGeneration))")
            }
            generation = snapshotGeneration
            let journalPath = path(JournalFile.fileName(generation: snapshotGeneration))
            if let bytes = try fileSystem.readFile(journalPath) {
                let contents = try JournalFile.read(bytes, path: journalPath)
                guard contents.generation == snapshotGeneration else {
                    throw StoreError.corrupt(path: journalPath, reason: "its header says generation \(contents.generation)")
                }
                if report.recordedProtectionClass == nil { report.recordedProtectionClass = contents.protectionClass }
                do {
                    for batch in contents.batches { try batch.apply(to: writer, clientStates: &states) }
                    try writer.commit()
                } catch {
                    throw StoreError.corrupt(path: journalPath, reason: "a record cannot be replayed (\(error))")
                }
                report.replayedBatches = contents.batches.count
                report.tornTailBytes = contents.tornBytes
                journalContents = contents
            }
        } catch {
            if case .corrupt = error {
                return try startOver(after: error, names: names)
            }
            close()
            throw error
        }
        // Stale journals of older generations are fully contained in the snapshot.
        for (journalGeneration, name) in journals where journalGeneration < generation { try? fileSystem.remove(path(name)) }
        do {
            if let contents = journalContents {
                let journalPath = path(JournalFile.fileName(generation: generation))
                journalDescriptor = try fileSystem.openForAppending(journalPath, truncate: false)
                if contents.tornBytes > 0 {
                    try fileSystem.truncate(journalDescriptor, to: contents.validLength, path: journalPath)
                    try fileSystem.sync(journalDescriptor, path: journalPath)
                }
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
    private func startOver(after error: StoreError, names: [String])
        throws(StoreError) -> (IndexWriter, [String: [UInt8]], RecoveryReport) {
        var report = RecoveryReport()
        report.corruption = error
        let suffix = ".corrupt-\(time(nil))"
        do {
            for name in names where name == SnapshotFile.fileName || JournalFile.generation(ofFileName: name) != nil {
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
        return (IndexWriter(), [:], report)
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
        needsNewJournal = false
    }

    // MARK: Writing

    /// Appends one batch as one record and fsyncs it. When this returns, the batch survives a crash; when it
    /// throws, the journal is as before (the partial record is cut off again) and the batch must not be
    /// acknowledged.
    package func append(_ batch: JournalBatch) throws(StoreError) {
        try checkWritable()
        if needsNewJournal { try startJournal(generation: generation) }
        let journalPath = path(JournalFile.fileName(generation: generation))
        let body = batch.encoded()
        guard body.count + 8 <= JournalFile.maximumRecordSize else {
            throw .unavailable(path: directory, reason: "a batch of \(body.count) bytes exceeds the 1 GiB record limit; "
                               + "split it into smaller batches")
        }
        let record = JournalFile.record(sequence: nextSequence, body: body)
        do {
            try fileSystem.write(journalDescriptor, record, path: journalPath)
            try fileSystem.sync(journalDescriptor, path: journalPath)
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

    /// Writes a snapshot of `snapshot` (the writer's last commit, which must include every appended batch) and
    /// its client states, then starts a new journal generation and deletes the old journal.
    package func checkpoint(_ snapshot: IndexSnapshot, clientStates: [String: [UInt8]]) throws(StoreError) {
        try checkWritable()
        let next = generation + 1
        let bytes = SnapshotFile.encode(snapshot, clientStates: clientStates, generation: next,
                                        protectionClass: options.protectionClass)
        let target = path(SnapshotFile.fileName)
        let temporary = target + ".tmp"
        let fd = try fileSystem.openForAppending(temporary, truncate: true)
        do {
            try fileSystem.write(fd, bytes, path: temporary)
            try fileSystem.sync(fd, path: temporary)
            fileSystem.close(fd)
            try fileSystem.rename(temporary, to: target)
        } catch {
            fileSystem.close(fd)
            try? fileSystem.remove(temporary)
            throw error
        }
        // The new snapshot is in place: the old journal must never be appended to again.
        let oldJournal = path(JournalFile.fileName(generation: generation))
        generation = next
        needsNewJournal = true
        try fileSystem.syncDirectory(directory)
        try startJournal(generation: next)
        try? fileSystem.remove(oldJournal)
    }

    /// Releases the journal and the lock. Idempotent; later appends fail.
    package func close() {
        guard !closed else { return }
        closed = true
        if journalDescriptor >= 0 { fileSystem.close(journalDescriptor) }
        journalDescriptor = -1
        if lockDescriptor >= 0 { fileSystem.close(lockDescriptor) }
        lockDescriptor = -1
        let key = canonicalPath
        Self.openStores.withLock { _ = $0.remove(key) }
    }

    package var isClosed: Bool { closed }
}
