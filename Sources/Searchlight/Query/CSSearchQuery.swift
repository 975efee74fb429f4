import Dispatch
import Foundation
import SearchlightEngine
import SearchlightQueryLanguage
import Synchronization

/// Mirror of `CSSearchQuery`: a one-shot query in the query language over a container's items.
///
/// `start()` runs the query asynchronously on the query's own serial queue: the results arrive through
/// `foundItemsHandler` in batches of `batchSize` (calls serialized on that queue), `foundItemCount` is updated
/// before each batch, and `completionHandler` runs exactly once, after the last batch, with `nil`, the
/// `CSSearchQueryError` that stopped the query (`.invalidQuery` for a syntax error in the query string or a
/// filter query, with its position), or `.cancelled` after `cancel()`. A second `start()` is ignored (create
/// a new query to run again; iterating `results` of a started query throws); `cancel()` before `start()` makes
/// the later `start()` complete with `.cancelled`.
///
/// Results are unranked, in index order, unless the context sets `sortAttributes`; each item carries its
/// identifier, domain and only the attributes named in `fetchAttributes`.
open class CSSearchQuery: NSObject, @unchecked Sendable {
    // `@unchecked Sendable` is sound: mutable state lives in the `Mutex`; the handler closures (which Apple's
    // API declares non-Sendable) are stored under that lock and only called on `queue`, one at a time.

    /// Items per `foundItemsHandler` call.
    public static let batchSize = 100

    private enum Phase { case idle, running, finished }

    private struct State {
        var phase = Phase.idle
        var isCancelled = false
        var foundItemCount = 0
        var foundItemsHandler = HandlerBox<([CSSearchableItem]) -> Void>()
        var completionHandler = HandlerBox<((any Error)?) -> Void>()
        /// Apple's default when the app declares no default data protection (reference §1.12).
        var protectionClasses: [FileProtectionType] = [.completeUntilFirstUserAuthentication]
        var cursor: CSSearchQueryCursor?
        var calendar = Calendar.current
    }

    private let state = Mutex(State())
    package let queryString: String
    package let contextValues: CSSearchQueryContext.State
    /// The container searched.
    public let container: SearchlightContainer
    /// Calendar for `$time.*` (local midnight, weeks, months; `Calendar.current` by default); the time is the
    /// container clock's `now`. Set it before `start()`.
    package var calendar: Calendar {
        get { state.withLock { $0.calendar } }
        set { state.withLock { $0.calendar = newValue } }
    }
    package let queue = DispatchQueue(label: "searchlight.query")

    /// A query over the default container; `queryContext` is copied (later changes to it do not apply).
    public init(queryString: String, queryContext: CSSearchQueryContext?) {
        self.queryString = queryString
        contextValues = queryContext?.values ?? CSSearchQueryContext.State()
        container = .default
        super.init()
    }

    /// Searchlight extension: a query over a given container.
    public init(queryString: String, queryContext: CSSearchQueryContext?, container: SearchlightContainer) {
        self.queryString = queryString
        contextValues = queryContext?.values ?? CSSearchQueryContext.State()
        self.container = container
        super.init()
    }

    /// The iOS 10 form: `attributes` are the attributes to fetch.
    @available(*, deprecated, message: "use init(queryString:queryContext:)")
    public convenience init(queryString: String, attributes: [String]?) {
        let context = CSSearchQueryContext()
        context.fetchAttributes = attributes ?? []
        self.init(queryString: queryString, queryContext: context, container: .default)
    }

    open var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Items delivered so far (the total once the query completed).
    open var foundItemCount: Int { state.withLock { $0.foundItemCount } }

    /// Receives the results in batches; set it before `start()`.
    open var foundItemsHandler: (([CSSearchableItem]) -> Void)? {
        get { state.withLock { $0.foundItemsHandler.value } }
        set { let box = HandlerBox(newValue); state.withLock { $0.foundItemsHandler = box } }
    }

    /// Called exactly once when the query ends; set it before `start()`.
    open var completionHandler: (((any Error)?) -> Void)? {
        get { state.withLock { $0.completionHandler.value } }
        set { let box = HandlerBox(newValue); state.withLock { $0.completionHandler = box } }
    }

    /// Which protection classes to search (recorded; a container's items are all searched); by default
    /// `.completeUntilFirstUserAuthentication`, as Apple's without a data-protection entitlement.
    open var protectionClasses: [FileProtectionType] {
        get { state.withLock { $0.protectionClasses } }
        set { state.withLock { $0.protectionClasses = newValue } }
    }

    /// Searchlight extension: after a successful completion, where to continue (set it as the `cursor` of the
    /// next query's context); nil before completion or when nothing was delivered and no cursor was given.
    public var cursor: CSSearchQueryCursor? { state.withLock { $0.cursor } }

    /// Starts the query (asynchronously); a second call is ignored.
    open func start() {
        if claimStart() { launch() }
    }

    /// Moves an idle query to running; false if it was already started.
    package func claimStart() -> Bool {
        state.withLock { s -> Bool in
            guard s.phase == .idle else { return false }
            s.phase = .running
            return true
        }
    }

    /// Runs a claimed query on its queue.
    package func launch() {
        queue.async { [self] in run() }
    }

    /// The error a second iteration of `results`/`responses` ends with.
    package static let alreadyStarted = CSSearchQueryError(
        .unknown, message: "this query was already started; a query runs once, create a new one to search again")

    /// Cancels the query: it completes with `CSSearchQueryError.cancelled` (unless it already completed).
    open func cancel() {
        state.withLock { $0.isCancelled = true }
    }

    // MARK: Running

    /// One delivered result: where it is and its relevance (0 when unranked).
    package struct Hit {
        package let entry: ResultOrder.Entry
        package let rank: Double
    }

    /// What a run delivers: the ordered hits, and the cursor after the last one.
    package struct Outcome {
        package var hits: [Hit]
        package var cursor: CSSearchQueryCursor?
    }

    /// The results to deliver; `CSUserQuery` overrides this.
    package func execute(in snapshot: ContainerSnapshot) throws(CSSearchQueryError) -> Outcome {
        var expressions = [try QueryEvaluator.parse(queryString)]
        expressions += try QueryEvaluator.parse(filters: contextValues.filterQueries)
        // What can refuse the query without running it comes first: the sort attributes and the cursor.
        let order = try ResultOrder(snapshot: snapshot, sortAttributes: contextValues.sortAttributes)
        let query = [queryString] + contextValues.filterQueries
        if let cursor = contextValues.cursor { try order.check(cursor, query: query) }
        var evaluator = QueryEvaluator(snapshot: snapshot, calendar: calendar)
        // Activities linked to items become those items: one result each (Activities/ActivityResults).
        let matches = ActivityResults.collapse(evaluator.matches(all: expressions), in: snapshot)
        let entries = order.page(matches, cursor: contextValues.cursor, offset: contextValues.offset,
                                 limit: contextValues.limit)
        return Outcome(hits: entries.map { Hit(entry: $0, rank: 0) },
                       cursor: entries.last.map { order.cursor(after: $0, query: query) } ?? contextValues.cursor)
    }

    /// Hook for subclasses: drop their handlers once the query completed.
    package func releaseHandlers() {}

    /// Hook for subclasses: runs on `queue` before the items (suggestions of `CSUserQuery`).
    package func willDeliver(in snapshot: ContainerSnapshot) {}

    /// The attribute names to fetch, resolved to storage names.
    package var fetchSet: Set<String> { Set(contextValues.fetchAttributes.map(AttributeFields.storageName)) }

    /// Builds the item delivered for a hit (fetched attributes only, rank set).
    package func makeItem(_ hit: Hit, in snapshot: ContainerSnapshot, plan: ItemDocumentCodec.FetchPlan) -> CSSearchableItem? {
        guard let item = ItemDocumentCodec.item(at: hit.entry.address, in: snapshot.engine, plan: plan) else {
            return nil
        }
        item.rank = hit.rank
        return item
    }

    private func run() {
        if isCancelled { return finish(CSSearchQueryError.cancelledQuery()) }
        let snapshot = container.snapshot(resuming: contextValues.cursor)
        let outcome: Outcome
        do throws(CSSearchQueryError) {
            outcome = try execute(in: snapshot)
        } catch {
            return finish(error)
        }
        willDeliver(in: snapshot)
        let plan = ItemDocumentCodec.FetchPlan(fetchSet, schema: snapshot.engine.schema)
        var index = 0
        while index < outcome.hits.count {
            if isCancelled { return finish(CSSearchQueryError.cancelledQuery()) }
            let slice = outcome.hits[index..<min(index + Self.batchSize, outcome.hits.count)]
            index += slice.count
            let items = slice.compactMap { makeItem($0, in: snapshot, plan: plan) }
            let handler = state.withLock { s -> HandlerBox<([CSSearchableItem]) -> Void> in
                s.foundItemCount += items.count
                return s.foundItemsHandler
            }
            if !items.isEmpty { handler.value?(items) }
        }
        if isCancelled { return finish(CSSearchQueryError.cancelledQuery()) }
        state.withLock { $0.cursor = outcome.cursor }
        finish(nil)
    }

    /// Calls the completion handler, once.
    package func finish(_ error: CSSearchQueryError?) {
        let handler = state.withLock { s -> HandlerBox<((any Error)?) -> Void> in
            guard s.phase != .finished else { return HandlerBox() }
            s.phase = .finished
            return s.completionHandler
        }
        handler.value?(error)
        // Drop the handlers so closures that capture the query do not keep it alive.
        state.withLock {
            $0.foundItemsHandler = HandlerBox()
            $0.completionHandler = HandlerBox()
        }
        releaseHandlers()
    }
}

/// Holds a caller's handler closure, which Apple's API types as non-Sendable.
///
/// `@unchecked Sendable` is sound for how the queries use it: a box is only read and replaced under the
/// query's lock, and the closure inside is only called on the query's serial queue, never concurrently.
package struct HandlerBox<Handler>: @unchecked Sendable {
    package var value: Handler?
    package init(_ value: Handler? = nil) { self.value = value }
}
