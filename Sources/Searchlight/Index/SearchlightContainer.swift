import Dispatch
import Foundation
import SearchlightEngine
import Synchronization

/// An isolated pool of searchable items with its own client states: what Core Spotlight gives one app.
///
/// A process gets one shared container (`SearchlightContainer.default`), which `CSSearchableIndex.default()` and
/// `CSSearchableIndex(name:)` use, the way every index instance of an app shares the app's items. A server can open
/// further containers (one per user, say) whose items can never be seen from another.
///
/// Writes run one at a time on a private serial queue; each call or batch is applied and committed as one engine
/// snapshot before its completion handler runs (read-your-writes). Readers take the current snapshot under a lock
/// held only for a reference copy, so a long write never blocks them. Apps' completion handlers are handed over
/// in submission order, each to run on its own thread, so one may make another call and wait for its completion.
///
/// A container opened on a directory is durable: each call or batch is journaled (with its client state) and
/// fsynced before it becomes visible and before its completion handler runs; `checkpoint()` and `close()` write
/// a snapshot. See `SearchlightEngine/Store/README.md`.
public final class SearchlightContainer: Sendable {
    /// The process-wide container that the index and query APIs use unless told otherwise.
    public static let `default` = SearchlightContainer()

    /// The time source for expiration (injectable so tests can move time).
    public let clock: @Sendable () -> Date

    /// Activities: which one is current, and the live objects of donated ones (Sources/Searchlight/Activities).
    package let activities = ActivityRegistry()
    /// Engagement (selections, impressions, activity visits) that `CSUserQuery` ranking uses. A durable container
    /// saves it with every checkpoint (and `close()`) and loads it when opened (Activities/EngagementLedger).
    package let engagement: EngagementLedger

    private let core: Mutex<ContainerCore>
    private let published: Mutex<Published>
    /// Held while engagement is recorded from a snapshot (`recordingEngagement`) and while a write that deleted
    /// items is published and their engagement forgotten, so the forgetting comes after any record made from a
    /// snapshot that still held them. Queries never take it.
    private let engagementGate = Mutex(())
    private let writeQueue = DispatchQueue(label: "searchlight.container.write")
    /// Where the library's own completion work runs, in submission order (it never blocks).
    private let callbackQueue = DispatchQueue(label: "searchlight.container.callbacks")
    /// Where apps' completion handlers run: handed over from the callback queue in order, each on its own thread,
    /// so a handler that waits for another call's completion holds none of the others.
    private let handlerQueue = DispatchQueue(label: "searchlight.container.handlers", attributes: .concurrent)
    /// Where index delegates are called: apart from the completion handlers, so a delegate that writes back and
    /// waits for that write's completion (re-adding items, as asked) does not wait on itself.
    package let delegateQueue = DispatchQueue(label: "searchlight.container.delegate")

    /// The store directory (nil: in memory).
    public let directory: URL?
    /// The protection class recorded with the store (on Linux it is recorded, not enforced).
    public let protectionClass: FileProtectionType?
    /// What opening the store found (nil: in memory).
    package let recoveryReport: RecoveryReport?
    /// Index names that acknowledged a pending reindex-all since this container opened (by their bytes, as
    /// Core Spotlight compares names: canonically equivalent spellings are two indexes).
    private let acknowledgedReindex = Mutex<Set<ExactIdentifier>>([])

    /// A new, empty, in-memory container.
    public init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
        directory = nil
        protectionClass = nil
        recoveryReport = nil
        engagement = EngagementLedger()
        core = Mutex(ContainerCore(writer: IndexWriter(), store: nil, clientStates: [:], engagement: engagement))
        published = Mutex(Published(engine: IndexSnapshot(), expirationFloor: .infinity))
        publishMergesWhenFinished()
    }

    /// A durable container stored in `directory` (created with mode 0700 if absent). Opening loads the last
    /// snapshot and replays the journal. A store that cannot be read opens EMPTY, its files are moved aside and
    /// every index instance whose delegate is set is asked to reindex all its items. Throws when `directory` is
    /// not a file URL, or the directory is locked by another process or already open in this one, belongs to
    /// another user or is writable by others, or holds files of a newer format version.
    public convenience init(directory: URL, protectionClass: FileProtectionType? = nil,
                            clock: @escaping @Sendable () -> Date = { Date() }) throws(CSIndexError) {
        var options = StoreOptions()
        options.protectionClass = protectionClass?.rawValue ?? ""
        try self.init(directory: directory, options: options, protectionClass: protectionClass, clock: clock)
    }

    /// A durable container with explicit store options (file layer, checkpoint threshold), for tests and tools.
    package init(directory: URL, options: StoreOptions, protectionClass: FileProtectionType? = nil,
                 clock: @escaping @Sendable () -> Date = { Date() }) throws(CSIndexError) {
        self.clock = clock
        self.directory = directory
        self.protectionClass = protectionClass
        // Only a file URL names a directory: another URL's path (an https URL's '/name') would be created elsewhere.
        guard directory.isFileURL else {
            throw .indexUnavailable("the store could not be opened: '\(directory.absoluteString)' is not a file URL; "
                                    + "give the store directory as a file URL")
        }
        let opened: (store: DurableStore, writer: IndexWriter, clientStates: [ExactIdentifier: [UInt8]], report: RecoveryReport)
        do {
            opened = try DurableStore.open(directory: directory.path, options: options)
        } catch {
            throw Self.error(from: error, doing: "the store could not be opened")
        }
        recoveryReport = opened.report
        // Items loaded from a store may expire at any time, until a write finds the earliest.
        published = Mutex(Published(engine: opened.writer.snapshot, expirationFloor: -.infinity))
        var states = opened.clientStates
        engagement = EngagementLedger()
        if let saved = states.removeValue(forKey: ExactIdentifier(EngagementLedger.clientStateName)) {
            // Soft state: a ledger that cannot be read starts empty rather than failing the open.
            try? engagement.restore(from: saved)
        }
        core = Mutex(ContainerCore(writer: opened.writer, store: opened.store,
                                   clientStates: states.mapValues { Data($0) }, engagement: engagement))
        publishMergesWhenFinished()
    }

    /// Whether opening the store found it unreadable and started empty (index delegates are asked to reindex).
    package var storeWasLost: Bool { recoveryReport?.corruption != nil }

    /// Whether index `name`'s delegate is to be asked to reindex everything: the store was lost, at this open or
    /// an earlier one, and that index has not acknowledged it yet (a crash before it did asks again).
    package func reindexAllPending(for name: String) -> Bool {
        guard let acknowledged = recoveryReport?.reindexAcknowledged else { return false }
        let name = ExactIdentifier(name)
        return !(acknowledgedReindex.withLock { $0.contains(name) } || acknowledged.contains(name))
    }

    /// Records that index `name` re-added everything after the store was lost (durably: later opens do not ask
    /// it again; if the record cannot be written, the next open asks again). Runs after every write submitted
    /// before it.
    package func acknowledgeReindexAll(name: String) {
        acknowledgedReindex.withLock { _ = $0.insert(ExactIdentifier(name)) }
        writeQueue.async { [self] in
            core.withLock { core in try? core.store?.acknowledgeReindex(name: name) }
        }
    }

    /// The Core Spotlight error for a store failure: out of space (a full disk, or the user's disk quota used up)
    /// is `quotaExceeded`, anything else `indexUnavailableError`.
    static func error(from error: StoreError, doing what: String) -> CSIndexError {
        if case .io(_, _, let code) = error, code == ENOSPC_CODE || code == EDQUOT { return .quota("\(what): \(error)") }
        return .indexUnavailable("\(what): \(error)")
    }

    // MARK: Durability

    /// Writes a snapshot of everything committed so far and starts a new journal (no-op in memory). Runs after
    /// every write submitted before it. After `close()` it fails with `indexUnavailableError`.
    public func checkpoint() throws(CSIndexError) {
        let result: Result<Void, CSIndexError> = writeQueue.sync {
            core.withLock { core in Result { () throws(CSIndexError) in try core.checkpoint(force: true) } }
        }
        try result.get()
    }

    /// Whether every later write is refused: `close()` released the store, or a failed append it could not undo
    /// left it to be reopened (an in-memory container never refuses). A flag of its own, so the callback queue
    /// need not wait for the writer's lock to read it.
    package var refusesWrites: Bool { refusing.withLock { $0 } }
    private let refusing = Mutex(false)

    /// Releases the store WITHOUT a snapshot, as a crash would leave it (the journal holds every acknowledged
    /// change); for tests and tools that check recovery.
    package func closeWithoutCheckpoint() {
        writeQueue.sync {
            refusing.withLock { $0 = directory != nil }
            core.withLock { $0.store?.close() }
        }
    }

    /// Writes a final snapshot and releases the store (its lock and files) after every write submitted before
    /// it; later writes fail with `indexUnavailableError`, reads keep seeing the last state. No-op in memory.
    public func close() {
        writeQueue.sync {
            core.withLock { core in
                // A failed background snapshot saved nothing, not even the engagement marked saved when it started.
                core.store?.waitForBackgroundCheckpoint()
                let backgroundFailed = core.store?.lastBackgroundError != nil
                try? core.checkpoint(force: (core.store?.journalRecordCount ?? 0) > 0 || core.engagementChanged
                                     || backgroundFailed)
                core.store?.close()
            }
            // Set on the write queue: a write refused after this sees it when its completion work runs.
            refusing.withLock { $0 = directory != nil }
        }
    }

    /// Blocks until the segment merges running in the background have finished and been published, with the
    /// merges they lead to and the one an idle index makes (see `idleMergeDelay`) started at once, after every
    /// write submitted before it. For benchmarks and tools that want the machine quiet and the index in its
    /// settled shape. While other threads keep writing it returns after the first round that sees one of their
    /// writes (the merge running then finished and published): each write's commit may start merges, and waiting
    /// for a round with nothing to publish chased them for as long as they came.
    public func waitForBackgroundMerges() {
        var settled = false
        var mark: UInt64?
        while !settled {
            // Published on the write queue, like every snapshot: a write submitted meanwhile stays visible.
            writeQueue.sync {
                let (snapshot, written) = core.withLock { core -> (IndexSnapshot?, Bool) in
                    let written = mark.map { $0 != core.writes } ?? false
                    if mark == nil { mark = core.writes }
                    core.writer.waitForMerges()
                    if let snapshot = core.writer.publishFinishedMerges() { return (snapshot, written) }
                    guard core.writer.mergeWhileIdle() else { return (nil, written) }
                    core.writer.waitForMerges()
                    return (core.writer.publishFinishedMerges(), written)
                }
                // A merge keeps the documents: the expiration floor stands.
                if let snapshot { published.withLock { $0.engine = snapshot } }
                settled = snapshot == nil || written
            }
        }
    }

    /// How long an index goes without writes (after a write or a published merge) before it consolidates its
    /// smallest segments in the background (`IndexWriter.mergeWhileIdle()`): a bulk load's segments become few,
    /// while merges after small writes rewrite at most ten times what they wrote.
    package static let idleMergeDelay: DispatchTimeInterval = .milliseconds(500)
    /// `idleMergeDelay`, or nil to never merge while idle (tests that hold merges set it).
    private let idleDelay = Mutex<DispatchTimeInterval?>(SearchlightContainer.idleMergeDelay)

    /// Sets how long the index waits without writes before an idle merge (nil: never), for later writes.
    package func setIdleMergeDelay(_ delay: DispatchTimeInterval?) {
        idleDelay.withLock { $0 = delay }
    }

    /// After the idle delay without a write since now, starts the merge an idle index is worth (on the write
    /// queue; a later write schedules its own check).
    private func mergeWhenIdle() {
        guard let delay = idleDelay.withLock({ $0 }) else { return }
        let mark = core.withLock { $0.writes }
        writeQueue.asyncAfter(deadline: .now() + delay) { [weak self] in
            self?.core.withLock { core in
                // (A closed store takes no more writes: its index stays as it is.)
                if core.writes == mark, core.store?.isClosed != true { core.writer.mergeWhileIdle() }
            }
        }
    }

    /// How the writer starts its background merges (tests hold them to choose when they finish).
    package func setMergeStarter(_ starter: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        writeQueue.sync { core.withLock { $0.writer.startMerge = starter } }
    }

    private func publishMergesWhenFinished() {
        core.withLock { $0.writer.onMergeFinished = { [weak self] in self?.publishFinishedMerges() } }
    }

    /// Publishes a finished background merge between writes (the writer calls this from the merge's thread), so
    /// queries stop paying for the merged segments without waiting for the next write.
    private func publishFinishedMerges() {
        writeQueue.async { [self] in
            guard let snapshot = core.withLock({ $0.writer.publishFinishedMerges() }) else { return }
            published.withLock { $0.engine = snapshot }
            mergeWhenIdle()
        }
    }

    /// What the expiration purges have cost so far (tests check it stays proportional to what expired).
    package var expirationWork: ExpirationWork { core.withLock { $0.expirationWork } }

    // MARK: Reading

    /// The current committed state, as of now.
    package func snapshot() -> ContainerSnapshot {
        let current = published.withLock { $0 }
        return ContainerSnapshot(engine: current.engine, now: clock(), expirationFloor: current.expirationFloor)
    }

    /// Searchlight extension: builds what user queries read over the items indexed so far (the vocabularies
    /// typo-tolerant queries walk, the titles' leading keys ranking names covering titles by, how many items
    /// mention each title for renown), so the first query after opening a store or a bulk load does not pay for
    /// them (tens of milliseconds each on 64,000 items). `CSUserQuery.prepare()` does this for the default
    /// container. Merges build what their segments had built; a new segment builds what it lacks on first use.
    public func prepareUserQueries() {
        let engine = published.withLock { $0.engine }
        engine.prepareFuzzySearch()
        if let title = engine.schema.field(named: "title") {
            engine.prepareLeadingKeys(title)
            _ = engine.nameMentions(of: title)
        }
    }

    /// The state a query continuing `cursor` reads: the current one, or the snapshot an unsorted cursor was made
    /// on when only merges were published since (the same items; the cursor's address is valid there only).
    package func snapshot(resuming cursor: CSSearchQueryCursor?) -> ContainerSnapshot {
        let (current, floor) = published.withLock { ($0.engine, $0.expirationFloor) }
        // A pinned snapshot holds the current documents (only merges came since): the same floor holds for it.
        if let pinned = cursor?.snapshot, pinned.isFromSameWriter(as: current), pinned.generation != current.generation,
           pinned.contentGeneration == current.contentGeneration {
            return ContainerSnapshot(engine: pinned, now: clock(), expirationFloor: floor)
        }
        return ContainerSnapshot(engine: current, now: clock(), expirationFloor: floor)
    }

    /// Runs `body` on the current snapshot, to record engagement under the identifiers it finds there. A delete
    /// published meanwhile forgets its items' engagement only once `body` returned: checked, then recorded, a
    /// result deleted in between kept the engagement for a later item given its identifier. `body` must not
    /// wait for writes.
    package func recordingEngagement(_ body: (ContainerSnapshot) -> Void) {
        engagementGate.withLock { _ in body(snapshot()) }
    }

    /// Calls `body` on the callback queue after every write submitted before it has been applied, and after the
    /// completion work of those writes. `body` must not block: an app's handler goes through `callHandler(_:)`.
    package func afterPendingWrites(_ body: @escaping @Sendable () -> Void) {
        writeQueue.async { [callbackQueue] in callbackQueue.async(execute: body) }
    }

    /// Runs an app's completion handler apart from the callback queue. Called from the callback queue, handlers
    /// are handed over in submission order; none waits for another to return, so a handler may make another
    /// call and wait for its completion.
    package func callHandler(_ handler: @escaping @Sendable () -> Void) {
        handlerQueue.async(execute: handler)
    }

    /// The client state last stored for `name`, read after every write submitted before it; `completion` runs on
    /// the callback queue, like `afterPendingWrites(_:)`'s body.
    package func fetchClientState(name: String, completion: @escaping @Sendable (Data?) -> Void) {
        writeQueue.async { [self] in
            let state = core.withLock { $0.clientStates[ExactIdentifier(name)] }
            callbackQueue.async { completion(state) }
        }
    }

    // MARK: Writing

    /// Applies `operations` and then `clientState` atomically: either all become visible in one new snapshot,
    /// or none do and `completion` gets the error. Completions run on the callback queue in submission order and
    /// must not block: an app's handler goes through `callHandler(_:)`.
    package func submit(_ operations: [IndexOperation], clientState: ClientStateChange? = nil,
                        completion: @escaping @Sendable (CSIndexError?) -> Void) {
        writeQueue.async { [self] in
            let result = core.withLock { core in
                let result = Result { () throws(CSIndexError) -> (Published, EndedEngagement?) in
                    let snapshot = try core.apply(operations, clientState: clientState, now: clock())
                    defer { core.endedEngagement = nil }
                    return (Published(engine: snapshot, expirationFloor: core.nextExpiration), core.endedEngagement)
                }
                // Set before the completion work runs, which must not ask for writes the store will refuse.
                if core.store?.mustBeReopened == true { refusing.withLock { $0 = true } }
                return result
            }
            switch result {
            case .success(let (snapshot, ended)):
                if let ended {
                    // Again once published: engagement recorded meanwhile from an older snapshot ends too.
                    engagementGate.withLock { _ in
                        published.withLock { $0 = snapshot }
                        // Only when engagement was recorded since the write forgot: each pass walks every record.
                        if engagement.changeCount != ended.changeCount { engagement.forget(where: ended.isGone) }
                    }
                } else {
                    published.withLock { $0 = snapshot }
                }
                mergeWhenIdle()
                callbackQueue.async { completion(nil) }
            case .failure(let error):
                callbackQueue.async { completion(error) }
            }
        }
    }

    /// Submits and waits; for callers that are already asynchronous.
    package func apply(_ operations: [IndexOperation], clientState: ClientStateChange? = nil) async throws(CSIndexError) {
        let error: CSIndexError? = await withCheckedContinuation { continuation in
            submit(operations, clientState: clientState) { continuation.resume(returning: $0) }
        }
        if let error { throw error }
    }
}

/// What readers are handed: the last committed snapshot, and a time before which none of its documents expires
/// (`ContainerCore.nextExpiration` when it was committed; −∞: unknown), so visibility needs no look at the
/// expiration column until then (`ContainerSnapshot.noneExpired`).
private struct Published: Sendable {
    var engine: IndexSnapshot
    var expirationFloor: Double
}

/// Which identifiers' engagement a write ended (items and activities it deleted by identifier or domain), and the
/// ledger's `changeCount` once the write forgot them (it moves when engagement is recorded since).
private struct EndedEngagement: Sendable {
    let isGone: @Sendable (String) -> Bool
    let changeCount: UInt64
}

/// The writer side of a container; only touched under the container's lock.
private struct ContainerCore: ~Copyable {
    let writer: IndexWriter
    /// The durable store (nil: in memory).
    let store: DurableStore?
    /// Client states by index name, compared by bytes (Core Spotlight's names are NSStrings, equal only when their
    /// code units are: "café" precomposed and decomposed are two indexes with two states).
    var clientStates: [ExactIdentifier: Data]
    /// No stored item expires before this (seconds since 2001); purges run only once it has passed.
    var nextExpiration: Double
    /// What the purges cost so far (tests).
    var expirationWork = ExpirationWork()
    /// The activities tied to each item, for the orphan pass after an expiry or a delete by identifier (nil: made
    /// from the index when next needed).
    var activityLinks: ActivityLinks?

    /// Writes applied (each call or batch), so an idle check can tell whether one came since it was scheduled.
    var writes: UInt64 = 0

    /// The container's engagement ledger, saved with each checkpoint under a reserved client-state name.
    let engagement: EngagementLedger
    /// The ledger's `changeCount` when it was last saved.
    var savedEngagement: UInt64
    /// What the last applied write ended, forgotten again once it is published (`SearchlightContainer.submit`).
    var endedEngagement: EndedEngagement?

    init(writer: IndexWriter, store: DurableStore?, clientStates: [ExactIdentifier: Data], engagement: EngagementLedger) {
        self.writer = writer
        // A batch's merges run on another core while the next batch is analyzed; the container publishes each
        // one when it finishes (between writes), or the next commit installs it.
        writer.mergesInBackground = true
        // Champion lists stay on: a user query of two words is answered from the words' covers when they vouch
        // (`IndexSnapshot.championConjunction`); nothing is built until a search asks.
        // And a batch's text is analyzed on every core before its terms are interned in order.
        writer.analysisThreads = ProcessInfo.processInfo.activeProcessorCount
        self.store = store
        self.clientStates = clientStates
        self.engagement = engagement
        savedEngagement = engagement.changeCount
        // Items loaded from a store may expire at any time: the first write looks.
        nextExpiration = writer.snapshot.documentCount > 0 ? -.infinity : .infinity
    }

    /// Snapshots the store (synchronously) when forced or when its journal has grown past the threshold.
    /// A closed store takes none: forced, that is an error (the caller would think a snapshot was written).
    mutating func checkpoint(force: Bool) throws(CSIndexError) {
        guard let store else { return }
        if store.isClosed {
            guard force else { return }
            throw SearchlightContainer.error(from: .unavailable(path: store.directory, reason: "it is closed"),
                                             doing: "no checkpoint was written")
        }
        guard force || store.needsCheckpoint else { return }
        do {
            let count = engagement.changeCount
            var states = clientStates.mapValues { Array($0) }
            states[ExactIdentifier(EngagementLedger.clientStateName)] = engagement.encoded()
            try store.checkpoint(writer.snapshot, clientStates: states)
            savedEngagement = count
        } catch {
            throw SearchlightContainer.error(from: error, doing: "the checkpoint failed (the journal still holds "
                                             + "every acknowledged change)")
        }
    }

    /// Whether engagement changed since the last checkpoint saved it.
    var engagementChanged: Bool { engagement.changeCount != savedEngagement }

    /// The Core Spotlight error for a change the engine refused: a batch past the segment limit is
    /// `quotaExceeded` (Apple's error for an index that takes no more), saying to commit smaller batches.
    private static func engineError(_ error: EngineError, limits: SegmentLimits) -> CSIndexError {
        guard error == .segmentTooLarge else {
            return .unknown("the index could not apply the change (\(error)); nothing from this call was applied")
        }
        return .quota("the index's segment limit was reached: the change needs more room than one segment holds "
                      + "(its stored values, identifiers and postings each under \(limits.maxBytes) bytes, at most "
                      + "\(limits.maxDocuments) items); nothing from this call was applied; commit smaller batches")
    }

    /// An item written earlier in the same round, or its deletion.
    private enum Pending {
        case stored(CSSearchableItem)
        case deleted
    }


    mutating func apply(_ operations: [IndexOperation], clientState: ClientStateChange?,
                        now: Date) throws(CSIndexError) -> IndexSnapshot {
        // A closed store takes no write, not even one that changes nothing (which journals no record): every
        // write after close() is refused alike.
        if let store, store.isClosed {
            throw SearchlightContainer.error(from: .unavailable(path: store.directory, reason: "it is closed"),
                                             doing: "nothing from this call was applied")
        }
        if case .compareAndSet(let name, let expected, _) = clientState,
           !Self.sameClientState(clientStates[ExactIdentifier(name)], expected) {
            throw .mismatchedState(
                "the client state stored for index '\(name)' (\(Self.describe(clientStates[ExactIdentifier(name)]))) is not the expected "
                    + "state (\(Self.describe(expected))); the batch was not applied")
        }
        let base = writer.snapshot
        // A failed change rolls the writer back, purged expired items included: their expiration goes back too, or
        // the next change would tell readers none had expired.
        let expirationBefore = nextExpiration
        var applied = false
        defer { if !applied { nextExpiration = expirationBefore } }
        var pending: [ExactIdentifier: Pending] = [:]
        // The items stored in `pending` by domain, so a domain delete reaches them without a scan (`DomainIndex`);
        // made by the round's first domain delete, so rounds that delete no domain do not pay for it.
        var pendingDomains: DomainIndex<ExactIdentifier>?
        var everythingDeleted = false
        var newStates = clientStates
        var recorder = RecordingWriter(writer: writer, recording: store != nil)
        // Activities tied to an item die with it: track what this round deletes (see the pass after the loop).
        var deletedDomains = DomainPrefixes()
        // Items and activity records this round deletes by identifier (their engagement ends with them).
        var deletedIdentifiers: Set<ExactIdentifier> = []
        // Whether items may have gone that the round cannot list (a domain or everything deleted): every activity
        // is then checked. Otherwise the items it deleted by identifier or purged are listed, and only their
        // activities are (`ActivityLinks`).
        var itemsMayHaveGone = false
        var goneItems: Set<ExactIdentifier> = []
        // What this round did to activities' links, in order (item nil: the activity went or is tied to none),
        // recorded in `activityLinks` once it is applied; `activitiesCleared`: every activity was deleted first.
        var linkChanges: [(activity: String, item: String?)] = []
        var activitiesCleared = false
        // The item whose conversion failed, if one did.
        var refusedItem: String?
        // Why an update's merge was refused, if one was.
        var refusedMerge: CSIndexError?
        do {
            goneItems.formUnion(try purgeExpired(now: now, recorder: &recorder).map { ExactIdentifier($0) })
            operationLoop: for operation in IndexOperation.coalescingDomainDeletes(operations) {
                switch operation {
                case .index(let items):
                    // Updates and expirations resolved in order; then converted, analyzed (on every core when the
                    // batch is large) and upserted in order.
                    var prepared: [(item: CSSearchableItem, expiration: Date)] = []
                    prepared.reserveCapacity(items.count)
                    for item in items {
                        let id = item.uniqueIdentifier
                        var stored = item
                        if item.isUpdate {
                            let existing: CSSearchableItem?
                            switch pending[ExactIdentifier(id)] {
                            case .stored(let earlier): existing = earlier
                            case .deleted: existing = nil
                            case nil:
                                // In the base, unless this round deleted it (all, or its domain).
                                let survives = Self.itemSurvives(id, pending: pending,
                                                                 everythingDeleted: everythingDeleted,
                                                                 deletedDomains: deletedDomains, base: base, now: now)
                                existing = survives
                                    ? ContainerSnapshot(engine: base, now: now).item(withIdentifier: id) : nil
                            }
                            guard let existing else { continue }  // an update of an absent item is dropped
                            stored = existing.applying(update: item)
                            // Valid alone, an update can break a rule together with the stored item (a type in
                            // two provider arrays): refused, or the index would hold an item it refuses.
                            if stored.hasValidationProblems, let problem = stored.validationProblems().first {
                                refusedMerge = .invalidItem("the update of item '\(id)' would make the stored item "
                                    + "invalid (\(problem.message)); nothing from this call was applied")
                                break operationLoop
                            }
                        }
                        // System attributes of items that opted in, made from this version (SystemAttributes).
                        stored = SystemAttributes.applied(to: stored)
                        let expiration = stored.effectiveExpirationDate(indexedAt: now)
                        stored.explicitExpirationDate = expiration
                        prepared.append((stored, expiration))
                        pending[ExactIdentifier(id)] = .stored(stored)
                        pendingDomains?.insert(ExactIdentifier(id), domain: stored.domainIdentifier)
                        nextExpiration = min(nextExpiration, expiration.timeIntervalSinceReferenceDate)
                    }
                    try ItemDocumentCodec.upsert(prepared, into: &recorder) { refusedItem = $0 }
                case .deleteIdentifiers(let ids):
                    // Item deletes never reach activity records (their own namespace).
                    let itemIDs = ids.filter { !ActivityIdentity.isReserved($0) }
                    recorder.delete(ids: itemIDs)
                    for id in itemIDs { pending[ExactIdentifier(id)] = .deleted }
                    deletedIdentifiers.formUnion(itemIDs.map { ExactIdentifier($0) })
                    goneItems.formUnion(itemIDs.map { ExactIdentifier($0) })
                case .deleteDomains(let domains):
                    recorder.delete(domains: domains)
                    deletedDomains.insert(contentsOf: domains)
                    itemsMayHaveGone = true
                    // What the index finds may since have been re-written elsewhere or deleted: the item now
                    // pending decides.
                    let deleting = DomainPrefixes(domains)
                    if pendingDomains == nil {
                        var filed = DomainIndex<ExactIdentifier>()
                        for case (let id, .stored(let item)) in pending {
                            filed.insert(id, domain: item.domainIdentifier)
                        }
                        pendingDomains = filed
                    }
                    for id in pendingDomains?.remove(within: domains) ?? [] {
                        guard case .stored(let item)? = pending[id], let domain = item.domainIdentifier,
                              deleting.covers(domain) else { continue }
                        pending[id] = .deleted
                    }
                case .deleteAll:
                    recorder.deleteAll()
                    // Replaying a delete-all clears every stored state, the engagement ledger's too: the ledger is
                    // not an index's client state, so it is journaled again after it (as now: soft state anyway).
                    if store != nil {
                        recorder.setClientState(name: EngagementLedger.clientStateName, state: Data(engagement.encoded()))
                    }
                    pending = [:]
                    pendingDomains = nil
                    everythingDeleted = true
                    newStates = [:]
                    nextExpiration = .infinity
                    itemsMayHaveGone = true
                    // Activities are not items: delete-all keeps them, and the orphan pass below deletes those
                    // tied to an item that does not survive the round (re-indexed later in it, one does).
                    let kept = try ActivityWriter.restoreActivities(from: base, into: &recorder, now: now,
                                                                    excludingDomains: deletedDomains)
                    nextExpiration = min(nextExpiration, kept)
                case .activities(let change):
                    if case .deletePersistentIdentifiers(let ids) = change {
                        deletedIdentifiers.formUnion(ids.map {
                            ExactIdentifier(ActivityIdentity.recordIdentifier(persistentIdentifier: $0))
                        })
                    }
                    let expiration = try ActivityWriter.apply(change, recorder: &recorder, base: base, now: now) { id in
                        Self.itemSurvives(id, pending: pending, everythingDeleted: everythingDeleted,
                                          deletedDomains: deletedDomains, base: base, now: now)
                    }
                    if let expiration { nextExpiration = min(nextExpiration, expiration.timeIntervalSinceReferenceDate) }
                    switch change {
                    case .donate(let donation) where expiration != nil:
                        linkChanges.append((donation.recordIdentifier, donation.strongLink))
                    case .donate: break
                    case .deletePersistentIdentifiers(let ids):
                        linkChanges += ids.map { (ActivityIdentity.recordIdentifier(persistentIdentifier: $0), nil) }
                    case .deleteAll:
                        linkChanges = []
                        activitiesCleared = true
                    }
                }
            }
            // Activities tied to an item that no longer survives go with it: every activity is checked when the
            // round cannot list what went, else only those `ActivityLinks` ties to the items it lists.
            if itemsMayHaveGone || !goneItems.isEmpty {
                let survives = { (id: String) in
                    Self.itemSurvives(id, pending: pending, everythingDeleted: everythingDeleted,
                                      deletedDomains: deletedDomains, base: base, now: now)
                }
                var examined = 0
                let orphans: [String]
                if itemsMayHaveGone {
                    orphans = ActivityWriter.orphans(in: base, examined: &examined, itemSurvives: survives)
                } else {
                    let links = activityLinks ?? ActivityLinks(from: base, examined: &examined)
                    activityLinks = links
                    orphans = links.orphans(of: goneItems, in: base, examined: &examined, itemSurvives: survives)
                }
                expirationWork.activitiesExamined += examined
                if !orphans.isEmpty { recorder.delete(ids: orphans) }
            }
            switch clientState {
            case .set(let name, let state)?, .compareAndSet(let name, _, let state)?:
                newStates[ExactIdentifier(name)] = state
                recorder.setClientState(name: name, state: state)
            case nil: break
            }
        } catch {
            writer.rollback()
            if error == .tooManyFields, let refusedItem {
                // Bad input rather than a fault of the index: an item with more custom keys than the limit.
                throw .invalidItem("item '\(refusedItem)' needs more attribute fields than the index can hold (at most "
                                   + "65,535 attribute fields per index: every catalogue attribute and custom key in "
                                   + "use); nothing from this call was applied")
            }
            throw Self.engineError(error, limits: writer.segmentLimits)
        }
        if let refusedMerge {
            writer.rollback()
            throw refusedMerge
        }
        // Durable before visible: the journal record (changes and client state together) is fsynced before the
        // commit publishes it and before the completion handler runs.
        if let store, let batch = recorder.batch, !batch.isEmpty {
            do {
                try store.append(batch)
            } catch {
                writer.rollback()
                throw SearchlightContainer.error(from: error, doing: "the change could not be journaled; nothing "
                                                 + "from this call was applied")
            }
        }
        let snapshot: IndexSnapshot
        do {
            snapshot = try writer.commit()
        } catch {
            // Journaled but not applicable: the journal now holds a batch the engine refuses (sealing found it
            // past the segment limit). A replay refuses it the same way and skips it (`JournalReplay`).
            writer.rollback()
            throw Self.engineError(error, limits: writer.segmentLimits)
        }
        applied = true
        if itemsMayHaveGone {
            // Activities were deleted and restored wholesale: the links are made again when next needed.
            activityLinks = nil
        } else if activityLinks != nil {
            if activitiesCleared { activityLinks = ActivityLinks() }
            // A gone item's activities went with it (unless it was indexed again in the round); a purged activity
            // is forgotten too (the purge lists expired activities with the items).
            for item in goneItems where snapshot.lookup(id: item.id) == nil {
                activityLinks?.removeActivities(of: item.id)
                activityLinks?.removeActivity(item.id)
            }
            for change in linkChanges {
                if let item = change.item {
                    activityLinks?.insert(activity: change.activity, item: item)
                } else {
                    activityLinks?.removeActivity(change.activity)
                }
            }
        }
        // Engagement ends with what the app deleted by identifier or domain, so an item given a deleted one's
        // identifier later starts afresh. Not after a delete-all (a rebuild re-adds everything) or an expiry.
        if !deletedIdentifiers.isEmpty || !deletedDomains.isEmpty {
            let isGone: @Sendable (String) -> Bool = { [deletedIdentifiers, deletedDomains] id in
                guard let address = base.lookup(id: id), snapshot.lookup(id: id) == nil else { return false }
                return deletedIdentifiers.contains(ExactIdentifier(id))
                    || base.domain(of: address).map(deletedDomains.covers) ?? false
            }
            endedEngagement = EndedEngagement(isGone: isGone, changeCount: engagement.forget(where: isGone))
        }
        clientStates = newStates
        writes &+= 1
        if let store, store.needsCheckpoint {
            // Written on a background thread; writes continue in the new journal meanwhile. The engagement
            // ledger rides along under its reserved client-state name; its change count is read before it is
            // encoded (as `checkpoint(force:)` does), so a change recorded meanwhile stays unsaved.
            let count = engagement.changeCount
            var states = newStates.mapValues { Array($0) }
            states[ExactIdentifier(EngagementLedger.clientStateName)] = engagement.encoded()
            savedEngagement = count
            store.checkpointInBackground(snapshot, clientStates: states)
        }
        return snapshot
    }

    /// Whether a stored client state is the one a compare-and-swap expects. Nothing stored and empty data are the
    /// same state: the async `fetchLastClientState()` reports the former as the latter, and a caller hands it back.
    private static func sameClientState(_ stored: Data?, _ expected: Data?) -> Bool {
        (stored ?? Data()) == (expected ?? Data())
    }

    /// Whether item `id` exists at this point of a round: written in it, or present in `base`, unexpired, and not
    /// deleted by the round (by identifier, domain or delete-all).
    private static func itemSurvives(_ id: String, pending: [ExactIdentifier: Pending], everythingDeleted: Bool,
                                     deletedDomains: DomainPrefixes, base: IndexSnapshot, now: Date) -> Bool {
        guard !ActivityIdentity.isReserved(id) else { return false }
        switch pending[ExactIdentifier(id)] {
        case .stored: return true
        case .deleted: return false
        case nil:
            let snapshot = ContainerSnapshot(engine: base, now: now)
            guard !everythingDeleted, let address = base.lookup(id: id), snapshot.isVisible(address) else { return false }
            guard let domain = base.domain(of: address) else { return true }
            return !deletedDomains.covers(domain)
        }
    }

    /// Deletes items whose expiration has passed, once the earliest known expiration is reached, and finds the
    /// next one. Both are read from each segment's expirations in order (`IndexSnapshot.numericMatches`,
    /// `smallestNumber`): an index whose items expire steadily purges on nearly every write, and a walk over every
    /// document each time made a run of single-item writes quadratic.
    /// Returns the identifiers it deleted.
    private mutating func purgeExpired(now: Date, recorder: inout RecordingWriter) throws(EngineError) -> [String] {
        let t = now.timeIntervalSinceReferenceDate
        guard t >= nextExpiration, let field = writer.snapshot.schema.field(named: ItemDocumentCodec.expirationField)
        else { return [] }
        let snapshot = writer.snapshot
        var examined = 0
        let expired = snapshot.numericMatches(field, lower: nil, upper: .inclusive(t), examined: &examined)
        let ids = expired.compactMap { snapshot.id(of: $0) }
        recorder.delete(ids: ids)
        nextExpiration = snapshot.smallestNumber(field, lower: .exclusive(t), examined: &examined) ?? .infinity
        expirationWork.purges += 1
        expirationWork.entriesExamined += examined
        return ids
    }

    private static func describe(_ state: Data?) -> String {
        guard let state else { return "none" }
        return "\(state.count) bytes"
    }
}
