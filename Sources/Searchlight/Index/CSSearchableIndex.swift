import Foundation
import SearchlightEngine
import Synchronization


/// Mirror of Core Spotlight's `CSSearchableIndex`: adds, replaces and deletes items, in batches with client-state
/// checkpoints on named instances.
///
/// Instances share their container's items (Apple: all index instances of an app share the app's items); the
/// `name` selects which client state batches read and write. Every call is atomic: if one item is invalid,
/// nothing from the call is applied and the error names the offending identifiers. When a completion handler runs
/// (or the `async` call returns), every query sees the change. Completion handlers are handed over in the order of
/// the calls, each to run on its own thread: a handler may make another call and wait for its completion.
///
/// Inside a batch (`beginBatch()` … `endBatch(withClientState:)`), calls are validated and recorded, their
/// completion handlers run once recorded, and the whole batch becomes visible, with its client state, at once.
open class CSSearchableIndex: NSObject, @unchecked Sendable {
    // `@unchecked Sendable` is sound: mutable state lives in `state` (a `Mutex`); the rest is immutable.

    /// Apple's limit on the size of a batch's client state.
    public static let maximumClientStateSize = 250

    /// The container whose items this instance reads and writes.
    public let container: SearchlightContainer
    /// The name given at creation (`nil` for the default index).
    public let name: String?
    /// The protection class the instance was created with; with none given, the class an app's files get by
    /// default (`completeUntilFirstUserAuthentication`). Non-optional, as Apple declares it (iOS 27).
    public let protectionClass: FileProtectionType

    private struct State {
        var isDefault = false
        var batch: [IndexOperation]?
        /// A misuse detected by `beginBatch()`, reported by the next call that can fail.
        var misuse: CSIndexError?
        /// Whether this instance's delegate was already asked to reindex everything after a lost store.
        var reindexAllRequested = false
    }

    private let state = Mutex(State())

    // The delegate is an app object that is not `Sendable`; like Core Spotlight, Searchlight calls it from its own
    // queue, and the reference itself is only read or written while `delegateLock` is held.
    private let delegateLock = NSLock()
    nonisolated(unsafe) private weak var storedDelegate: (any CSSearchableIndexDelegate)?

    /// Receives reindex requests and provides data; held weakly, like Apple's. When the container's store was
    /// found unreadable at open (and started empty), the first delegate set on each instance is asked to
    /// reindex all items, the way Core Spotlight asks when it loses an index.
    open var indexDelegate: (any CSSearchableIndexDelegate)? {
        get { delegateLock.withLock { storedDelegate } }
        set {
            delegateLock.withLock { storedDelegate = newValue }
            guard newValue != nil, container.reindexAllPending(for: clientStateName) else { return }
            let first = state.withLock { s in
                defer { s.reindexAllRequested = true }
                return !s.reindexAllRequested
            }
            if first {
                container.afterPendingWrites { [weak self] in
                    guard let self else { return }
                    container.delegateQueue.async { self.requestReindexAll() }
                }
            }
        }
    }

    private static let defaults = Mutex<[ObjectIdentifier: CSSearchableIndex]>([:])

    /// Whether indexing works here: always, in Searchlight.
    open class func isIndexingAvailable() -> Bool { true }

    /// The shared index of the default container. It does not support batches or a custom protection class;
    /// Apple recommends it for prototyping only.
    open class func `default`() -> Self {
        Self.defaults.withLock { cache in
            if let existing = cache[ObjectIdentifier(self)] as? Self { return existing }
            let index = self.init(name: "default", protectionClass: nil)
            index.state.withLock { $0.isDefault = true }
            cache[ObjectIdentifier(self)] = index
            return index
        }
    }

    /// An index instance of the default container; `name` selects the client state its batches use.
    /// Designated, as Apple declares it, so a subclass's own initialiser can call `super.init(name:)`.
    public init(name: String) {
        self.name = name
        protectionClass = Self.defaultProtectionClass
        container = .default
        super.init()
    }

    /// Designated, as Apple declares it; also `required`, so that `default()` can return `Self`.
    public required init(name: String, protectionClass: FileProtectionType?) {
        self.name = name
        self.protectionClass = protectionClass ?? Self.defaultProtectionClass
        container = .default
        super.init()
    }

    /// An index instance of a given container (Searchlight extension: isolated item pools, e.g. one per user).
    public init(name: String, protectionClass: FileProtectionType? = nil, container: SearchlightContainer) {
        self.name = name
        self.protectionClass = protectionClass ?? Self.defaultProtectionClass
        self.container = container
        super.init()
    }

    private var clientStateName: String { name ?? "default" }

    /// What `protectionClass` reads when none was given: the data-protection class of an app's files by default.
    private static let defaultProtectionClass = FileProtectionType.completeUntilFirstUserAuthentication

    // MARK: Indexing

    /// Indexes items: an existing identifier is replaced wholesale, or merged when the item `isUpdate` (an update
    /// of an absent item is dropped). Items are copied, so later changes by the caller have no effect.
    open func indexSearchableItems(_ items: [CSSearchableItem], completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        index(items, joiningBatch: true, completionHandler)
    }

    /// Indexes items as `indexSearchableItems` does; `joiningBatch` false writes them on their own even while the
    /// app has a batch open (a refresh is the system's write, not part of the app's batch).
    private func index(_ items: [CSSearchableItem], joiningBatch: Bool,
                       _ completionHandler: (@Sendable ((any Error)?) -> Void)?) {
        let (copies, suspects) = Self.copyAndScreen(items)
        var problems: [CSIndexError] = []
        var ids: [String] = []
        for index in suspects {
            let item = copies[index]
            let found = item.validationProblems()
            if !found.isEmpty { ids.append("'\(item.uniqueIdentifier)'") }
            problems += found
        }
        if !problems.isEmpty {
            let message = "invalid items \(ids.joined(separator: ", ")); nothing from this call was applied: "
                + problems.map(\.message).joined(separator: "; ")
            return finish(CSIndexError.invalidItem(message), completionHandler)
        }
        perform(.index(copies), joiningBatch: joiningBatch, completionHandler)
    }

    /// Copies of `items` (the caller may change its own afterwards) and the indices of those that may have
    /// validation problems. A large call is copied and screened in chunks on every core, as the writer then
    /// converts it: on the caller's thread this work is not overlapped with anything.
    private static func copyAndScreen(_ items: [CSSearchableItem]) -> (copies: [CSSearchableItem], suspects: [Int]) {
        let chunkSize = 64
        let chunkCount = (items.count + chunkSize - 1) / chunkSize
        var copies: [CSSearchableItem] = []
        var suspects: [Int] = []
        copies.reserveCapacity(items.count)
        let threads = chunkCount > 1 ? ProcessInfo.processInfo.activeProcessorCount : 1
        pipelinedChunks(chunkCount, threads: threads, make: { (chunk: Int) -> [(CSSearchableItem, Bool)] in
            items[chunk * chunkSize..<min((chunk + 1) * chunkSize, items.count)].map { item in
                let copy = item.deepCopy()
                return (copy, copy.hasValidationProblems)
            }
        }, consume: { (_: Int, screened: consuming [(CSSearchableItem, Bool)]) in
            for (copy, suspect) in screened {
                if suspect { suspects.append(copies.count) }
                copies.append(copy)
            }
        })
        return (copies, suspects)
    }

    /// Deletes the items with these identifiers (unknown identifiers are not an error).
    open func deleteSearchableItems(withIdentifiers identifiers: [String], completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        perform(.deleteIdentifiers(identifiers), completionHandler)
    }

    /// Deletes every item in these domains and their subdomains: `a` removes `a` and `a.b`, never `ab`.
    open func deleteSearchableItems(withDomainIdentifiers domainIdentifiers: [String],
                                    completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        if let bad = domainIdentifiers.first(where: { CSSearchableItem.domainProblem($0) != nil }) {
            let problem = CSSearchableItem.domainProblem(bad) ?? ""
            return finish(CSIndexError.invalidItem("domain identifier '\(bad)' \(problem); nothing was deleted"),
                          completionHandler)
        }
        perform(.deleteDomains(domainIdentifiers), completionHandler)
    }

    /// Deletes every item of the container and resets every stored client state.
    open func deleteAllSearchableItems(completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        perform(.deleteAll, completionHandler)
    }

    /// Records `operation` in the open batch, if any and `joiningBatch`; otherwise submits it alone.
    private func perform(_ operation: IndexOperation, joiningBatch: Bool = true,
                         _ completion: (@Sendable ((any Error)?) -> Void)?) {
        enum Route { case record, apply, fail(CSIndexError) }
        let route: Route = !joiningBatch ? .apply : state.withLock { s in
            if s.isDefault, let misuse = s.misuse { return .fail(misuse) }
            guard s.batch != nil else { return .apply }
            s.batch?.append(operation)
            return .record
        }
        switch route {
        case .fail(let error): finish(error, completion)
        case .record: finish(nil, completion)
        case .apply:
            container.submit([operation]) { [weak self, container] error in
                if let error, Self.asksReindex(error), let self { self.requestReindex(after: [operation]) }
                if let completion { container.callHandler { completion(error) } }
                if error == nil, let self, case .index(let items) = operation { self.notifySystemAttributes(of: items) }
            }
        }
    }

    /// Calls `completion` after every earlier call's.
    private func finish(_ error: CSIndexError?, _ completion: (@Sendable ((any Error)?) -> Void)?) {
        guard let completion else { return }
        container.afterPendingWrites { [container] in container.callHandler { completion(error) } }
    }

    // MARK: Batches

    /// Starts a batch: later calls are recorded and applied together by `endBatch(withClientState:)`.
    /// Nested batches and batches on the default index are errors, reported by the call that ends the batch.
    open func beginBatch() {
        state.withLock { s in
            if s.isDefault {
                s.misuse = .unsupported("batches are not supported on the default index; create one with "
                                        + "CSSearchableIndex(name:) (calls are refused until endBatch)")
            } else if s.batch != nil {
                s.misuse = .unknown("beginBatch() was called while a batch of index '\(clientStateName)' was "
                                    + "already open; nested batches are not supported, so the batch was discarded")
            } else {
                s.batch = []
            }
        }
    }

    /// Ends the batch, storing `clientState` with it: the batch's changes and the state become visible together.
    open func endBatch(withClientState clientState: Data, completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        endBatch(.set(name: clientStateName, state: clientState), completionHandler)
    }

    /// Ends the batch only if the stored client state equals `expectedClientState` (nil or empty data: no state
    /// stored yet, as the async `fetchLastClientState()` reports it); otherwise nothing from the batch is applied
    /// and the error is `.mismatchedClientState`.
    open func endIndexBatch(expectedClientState: Data?, newClientState: Data,
                            completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        endBatch(.compareAndSet(name: clientStateName, expected: expectedClientState, state: newClientState),
                 completionHandler)
    }

    private func endBatch(_ change: ClientStateChange, _ completion: (@Sendable ((any Error)?) -> Void)?) {
        let newState: Data
        switch change {
        case .set(_, let state), .compareAndSet(_, _, let state): newState = state
        }
        enum Outcome { case fail(CSIndexError), commit([IndexOperation]) }
        let outcome: Outcome = state.withLock { s in
            defer {
                s.batch = nil
                s.misuse = nil
            }
            if let misuse = s.misuse { return .fail(misuse) }
            guard let operations = s.batch else {
                return .fail(.unknown("endBatch was called on index '\(clientStateName)' without a matching beginBatch()"))
            }
            if newState.count > Self.maximumClientStateSize {
                return .fail(.invalidClientState(
                    "client state of \(newState.count) bytes exceeds the \(Self.maximumClientStateSize)-byte limit; "
                        + "the batch of index '\(clientStateName)' was not applied"))
            }
            // The container saves its engagement ledger under this name: a reopened store would take the state for it.
            // Compared by bytes, as the client states are keyed (another spelling of it is another index).
            if ExactIdentifier(clientStateName) == ExactIdentifier(EngagementLedger.clientStateName) {
                return .fail(.invalidClientState("the index name \(clientStateName.debugDescription) is reserved for the "
                                                 + "engagement ledger's client state; the batch was not applied"))
            }
            return .commit(operations)
        }
        switch outcome {
        case .fail(let error): finish(error, completion)
        case .commit(let operations):
            container.submit(operations, clientState: change) { [weak self, container] error in
                if let error, Self.asksReindex(error), let self { self.requestReindex(after: operations) }
                if let completion { container.callHandler { completion(error) } }
                guard error == nil, let self else { return }
                self.notifySystemAttributes(of: operations.flatMap { operation -> [CSSearchableItem] in
                    if case .index(let items) = operation { return items } else { return [] }
                })
            }
        }
    }

    /// The client state stored by the last batch of this index name (nil if none, or after delete-all).
    open func fetchLastClientState(completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) {
        container.fetchClientState(name: clientStateName) { [container] state in
            container.callHandler { completionHandler(state, nil) }
        }
    }

    // MARK: Delegate

    /// Tells the delegate through `searchableItemsDidUpdate(_:)` which of the items just written got system
    /// attributes (`SystemAttributes`, generated in the write itself), as Core Spotlight does once its models
    /// have run: the versions stored now, those that still opted in (a later write may have replaced one).
    private func notifySystemAttributes(of items: [CSSearchableItem]) {
        let identifiers = items.filter { !$0.updateListenerOptions.isEmpty }.map(\.uniqueIdentifier)
        guard !identifiers.isEmpty, indexDelegate != nil else { return }
        let updated = fetchSearchableItems(withIdentifiers: identifiers)
            .filter { SystemAttributes.update(for: $0) != nil }
        guard !updated.isEmpty else { return }
        container.delegateQueue.async { self.indexDelegate?.searchableItemsDidUpdate(updated) }
    }

    /// Asks the delegate to re-add items that were acknowledged but could not be applied.
    /// Whether a failed write asks the delegate to re-add its items: only when the index failed to keep what it
    /// accepted (reference §3.5), never for a call refused as bad input or a client state that did not match, nor
    /// for a full disk or a batch past the segment limit (`quotaExceeded`: it stays full until space is freed, and
    /// the caller is told to retry, or to commit smaller batches). A delegate re-adding the items would be refused,
    /// and asked, again and again.
    static func asksReindex(_ error: CSIndexError) -> Bool {
        switch error.code {
        case .invalidItemError, .invalidClientStateError, .mismatchedClientState, .quotaExceeded: return false
        default: return true
        }
    }

    /// Asks the delegate to re-add what `operations` would have left indexed, each once (none: not asked). Not
    /// once the container refuses every write (closed, or its store must be reopened): a delegate re-adding
    /// the items, as asked, would be refused and asked again without end.
    private func requestReindex(after operations: [IndexOperation]) {
        guard !container.refusesWrites else { return }
        // Nothing from the operations was applied: the stored items are as they found them.
        let snapshot = container.snapshot()
        let identifiers = IndexOperation.identifiersLeftIndexed(by: operations) { id in
            snapshot.visibleAddress(withIdentifier: id).map { snapshot.engine.domain(of: $0) }
        }
        guard !identifiers.isEmpty else { return }
        container.delegateQueue.async {
            self.indexDelegate?.searchableIndex(self, reindexSearchableItemsWithIdentifiers: identifiers) {}
        }
    }

    /// Asks the delegate to re-add everything (used when a store is lost); its acknowledgement is recorded in the
    /// store, which asks again at the next open until it comes.
    package func requestReindexAll() {
        guard let delegate = indexDelegate else { return }
        let acknowledge: @Sendable () -> Void = { [container, clientStateName] in
            container.acknowledgeReindexAll(name: clientStateName)
        }
        delegate.searchableIndex(self, reindexAllSearchableItemsWithAcknowledgementHandler: acknowledge)
    }

    /// Data of a type the item lists in `providerDataTypeIdentifiers`, from the delegate.
    open func providerData(forItemIdentifier identifier: String, typeIdentifier: String) throws -> Data {
        guard let item = container.snapshot().item(withIdentifier: identifier) else {
            throw CSIndexError.invalidItem("no item '\(identifier)' is indexed")
        }
        guard item.attributeSet.providerDataTypeIdentifiers?.contains(typeIdentifier) == true else {
            throw CSIndexError.invalidItem("item '\(identifier)' does not list '\(typeIdentifier)' in providerDataTypeIdentifiers")
        }
        guard let delegate = indexDelegate else {
            throw CSIndexError.unknown("no index delegate provides data for item '\(identifier)'")
        }
        return try delegate.data(for: self, itemIdentifier: identifier, typeIdentifier: typeIdentifier)
    }

    /// Asks the delegate (on the delegate queue) for fresh versions of these items and indexes what it returns
    /// (the iOS 18.4 pull model). The request keeps this instance until the delegate answers, so the items are
    /// indexed and the completion handler runs even if the caller let the instance go meanwhile. Only the
    /// delegate's first answer counts: a second would index again and run the completion handler twice. A
    /// delegate that releases the handler without calling it ends the refresh with `.unknownError` (the `async`
    /// twin would otherwise never return); one that keeps it and never calls it leaves the refresh pending.
    /// Delegate calls share one serial queue: a delegate method that blocks until a refresh finishes (a semaphore,
    /// a synchronous wait on a task) waits for itself; return first, then refresh.
    open func refreshSearchableItems(withIdentifiers identifiers: [String],
                                     completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        container.delegateQueue.async {
            guard let delegate = self.indexDelegate else { return self.finish(nil, completionHandler) }
            let answer = DelegateAnswer(unanswered: {
                self.finish(.unknown("the index delegate released its searchableItemsHandler without calling it; "
                                     + "nothing was refreshed"), completionHandler)
            })
            delegate.searchableItems(forIdentifiers: identifiers) { items in
                guard answer.take() else { return }
                // Never into a batch the app opened meanwhile: it would report the refresh done once recorded,
                // and lose it if the batch then failed or its expected client state did not match.
                self.index(items, joiningBatch: false, completionHandler)
            }
        }
    }

    /// Whether a delegate's handler was already called: `take()` is true the first time only. Released (with
    /// the handler) before any call, it runs `unanswered`, so the refresh still completes once.
    private final class DelegateAnswer: Sendable {
        private let called = Mutex(false)
        private let unanswered: @Sendable () -> Void
        init(unanswered: @escaping @Sendable () -> Void) { self.unanswered = unanswered }
        func take() -> Bool {
            called.withLock { called in
                defer { called = true }
                return !called
            }
        }
        deinit { if take() { unanswered() } }
    }

    // MARK: Reading (beyond Core Spotlight's write-only index)

    /// The stored items with these identifiers, in the given order, skipping unknown or expired ones.
    /// `fetchAttributes` limits the attributes returned (nil: all).
    open func fetchSearchableItems(withIdentifiers identifiers: [String], fetchAttributes: [String]? = nil) -> [CSSearchableItem] {
        let snapshot = container.snapshot()
        // Names as a query's fetch attributes take them (`kMDItem…` aliases too).
        let fetch = fetchAttributes.map { Set($0.map(AttributeFields.storageName)) }
        return identifiers.compactMap { snapshot.item(withIdentifier: $0, fetch: fetch) }
    }

    /// The identifiers of the items in a domain and its subdomains, sorted: what deleting the domain deletes
    /// (split on `.` bytes, as the engine does, even where a combining mark follows one).
    open func identifiers(inDomain domain: String) -> [String] {
        let snapshot = container.snapshot()
        let within = DomainPrefixes([domain])
        return snapshot.visibleItemAddresses().compactMap { address -> String? in
            guard let d = snapshot.engine.domain(of: address), within.covers(d) else { return nil }
            return snapshot.engine.id(of: address)
        }.sorted()
    }

    /// The number of items visible to queries (donated activities are not items).
    open func itemCount() -> Int { container.snapshot().count }

    /// Counts and sizes of the container's index.
    open func statistics() -> CSSearchableIndexStatistics {
        let snapshot = container.snapshot()
        let stats = snapshot.engine.stats
        var domains = Set<String>()
        for address in snapshot.visibleItemAddresses() {
            if let d = snapshot.engine.domain(of: address) { domains.insert(d) }
        }
        return CSSearchableIndexStatistics(items: snapshot.count, domains: domains.count, terms: stats.terms,
                                           segments: stats.segments, estimatedMemoryBytes: stats.estimatedMemoryBytes)
    }
}

/// Simple statistics of an index's container.
public struct CSSearchableIndexStatistics: Sendable, Hashable {
    public var items: Int
    public var domains: Int
    public var terms: Int
    public var segments: Int
    public var estimatedMemoryBytes: Int
}
