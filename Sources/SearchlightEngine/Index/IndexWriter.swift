import Dispatch
import Synchronization

/// The single writer of an index. Changes accumulate invisibly until `commit()`, which makes the whole
/// batch visible at once as a new `IndexSnapshot`. The caller serializes calls (one writer at a time);
/// snapshots it returns can be read from any thread while the writer keeps working.
public final class IndexWriter {
    public private(set) var schema = Schema()
    public var parameters = RankingParameters()
    public var mergePolicy = MergePolicy()
    public let analyzer: Analyzer

    private var segments: [Segment] = []
    private var live: [Bitset] = []
    private var buffer = SegmentBuilder()
    private var bufferLive: [Bool] = []
    /// The buffered documents by domain, so a domain delete inside a batch finds its own (`DomainIndex`); made by
    /// the buffer's first domain delete, so writes that delete no domain do not pay for it.
    private var bufferDomains: DomainIndex<Int>?
    private var generation: UInt64 = 0
    /// Shared by this writer's snapshots (`VocabularyCache`).
    private let vocabularies = VocabularyCache()
    private var dirty = false
    /// The last committed snapshot.
    public private(set) var snapshot = IndexSnapshot()

    /// When true, the merges a commit decides on run on a low-priority thread while the writer goes on (Lucene's
    /// concurrent merge scheduler): the commit publishes its snapshot without them, and the first commit after
    /// they finish installs them, carrying over the deletes made meanwhile. No new merge starts while one runs.
    /// A commit waits for a running merge only when the index already has `mergePolicy.maxSegments` segments
    /// (back-pressure), so a writer never stalls on merges it can afford to defer.
    public var mergesInBackground = false
    /// Whether segments get champion lists (`ChampionLists`): ranked searches of a lone term or prefix with a
    /// page of up to 32 read them, and ranked conjunctions of two frequent words read their covers; each key's
    /// built by the first such search. A writer whose searches never take those shapes saves the lookups.
    public var buildsChampionLists = true
    /// Starts a background merge's work; tests substitute a starter they control.
    package var startMerge: @Sendable (@escaping @Sendable () -> Void) -> Void = startLowPriorityThread
    /// The merges running in the background (nil: none).
    private var pendingMerge: PendingMerge?
    /// Called on the merge's thread when a background merge has finished, so the writer's owner can publish it
    /// with `publishFinishedMerges()` from wherever it serializes its calls to the writer. Without it (or
    /// without that call) the next commit installs the merge.
    public var onMergeFinished: (@Sendable () -> Void)?
    /// Counts the commits that changed documents or fields (`IndexSnapshot.contentGeneration`).
    private var contentGeneration: UInt64 = 0
    /// Documents `mergeWhileIdle()` may rewrite: `mergePolicy.idleRewriteFactor` per document committed since
    /// the last idle check (a check spends it or, finding nothing worth merging, drops it).
    private var idleBudget = 0
    /// What one segment may hold (`SegmentLimits`: the 32-bit bounds; tests set tiny ones). A batch past it
    /// throws `segmentTooLarge` and leaves the last snapshot as it was; merges past it are not planned.
    package var segmentLimits = SegmentLimits.standard { didSet { buffer.limits = segmentLimits } }
    /// The buffer compresses a segment's long texts from this many bytes of them on (`StoredRecords`); tests set
    /// a tiny one to build compressed segments without megabytes of text.
    package var minimumColdBytes = StoredRecords.minimumColdBytes {
        didSet { buffer.minimumColdBytes = minimumColdBytes }
    }
    /// Segments of a merge that failed for its size (its largest source): not planned into merges again, so a
    /// merge the byte estimate let through is not retried by every commit. Kept while the segment is.
    private var unmergeable: [Segment] = []

    public init() { analyzer = Analyzer() }

    /// A writer whose segments `analyzer` analyzes (tests build what an older analyzer version built).
    init(analyzer: Analyzer) { self.analyzer = analyzer }

    /// An empty buffer within `segmentLimits`.
    private func makeBuffer() -> SegmentBuilder {
        var builder = SegmentBuilder()
        builder.limits = segmentLimits
        builder.minimumColdBytes = minimumColdBytes
        return builder
    }

    /// Whether there are changes `commit()` would publish.
    public var hasUncommittedChanges: Bool { dirty }

    /// Registers a field (or updates the options of a field of the same name and kind).
    @discardableResult
    public func registerField(_ name: String, _ options: FieldOptions) throws(EngineError) -> FieldID {
        // The common call (every document re-registers its fields) changes nothing: no write, so the schema the
        // last snapshot shares is not copied.
        if let existing = schema.field(named: name), schema.fields[Int(existing.rawValue)].options == options {
            return existing
        }
        let id = try schema.register(name, options: options)
        dirty = true
        return id
    }

    /// Changes the BM25F weight of a text field (takes effect at the next commit).
    public func setWeight(_ weight: Float, for field: FieldID) throws(EngineError) {
        try schema.setWeight(weight, for: field)
        dirty = true
    }

    /// Adds a document, replacing any document with the same id.
    public func upsert(_ document: Document) throws(EngineError) {
        try upsert(document, analyzed: nil)
    }

    /// `committed` (when given) lists the committed documents (segment ordinal, document) with this id.
    private func upsert(_ document: Document, analyzed: (texts: SegmentBuilder.AnalyzedTexts, number: Int)?,
                        committed: ArraySlice<(Int, Int)>? = nil) throws(EngineError) {
        guard !document.id.isEmpty else { throw .emptyIdentifier }
        let fieldCount = schema.fields.count
        for (field, _) in document.values where Int(field.rawValue) >= fieldCount { throw .unknownField(field) }
        // Before the document's earlier versions are deleted: a refused document changes nothing.
        try buffer.checkRoom(forID: document.id)
        if let committed {
            for (ordinal, doc) in committed where live[ordinal][doc] {
                live[ordinal][doc] = false
                dirty = true
            }
        } else {
            deleteCommitted(id: document.id)
        }
        let doc = buffer.add(document, schema: schema, analyzer: analyzer, analyzed: analyzed)
        bufferLive.append(true)
        bufferDomains?.insert(doc, domain: document.domain)
        // The previous buffered version (if any) is what the update displaces.
        if let previous = buffer.claimID(of: doc) { bufferLive[previous] = false }
        dirty = true
    }

    /// Adds documents in order; validates all before changing anything. With `analysisThreads` above one, a
    /// large batch is analyzed on several threads while this one interns it (see `upsert(count:make:...)`).
    public func upsert(contentsOf documents: [Document]) throws(EngineError) {
        for document in documents {
            guard !document.id.isEmpty else { throw .emptyIdentifier }
            for (field, _) in document.values where schema.info(field) == nil { throw .unknownField(field) }
        }
        try upsert(count: documents.count, make: { documents[$0] }, makeInOrder: { documents[$0] })
    }

    /// Adds `count` documents in order. `make(i)` makes document `i` on any thread, or returns nil when it can
    /// only be made here, in order, by `makeInOrder` (for example because it registers a field); `added` sees
    /// each document once it is in. With `analysisThreads` above one, chunks of documents are made and analyzed
    /// on that many threads while this thread interns the chunks before them in document order, so the index is
    /// the same as upserting the documents one by one. An invalid document throws once the ones before it are in
    /// (`rollback()` discards them).
    public func upsert(count: Int, make: @escaping @Sendable (Int) -> Document?,
                       makeInOrder: (Int) throws(EngineError) -> Document,
                       added: (Document) -> Void = { _ in }) throws(EngineError) {
        let chunkSize = Self.chunkSize
        let chunkCount = (count + chunkSize - 1) / chunkSize
        guard analysisThreads > 1, chunkCount > 1 else {
            for index in 0..<count {
                let document = try makeInOrder(index)
                try upsert(document)
                added(document)
            }
            return
        }
        // Made against the schema as it is now: a document that needs another field comes back nil.
        let kinds = schema.fields.map(\.options.kind)
        let analyzer = self.analyzer
        // Fixed during this call (only commits and rollbacks change them), so the committed documents a new one
        // replaces are found off the writer too; whether they are still live is decided here, in order.
        let committed = segments
        try pipelinedChunks(chunkCount, threads: analysisThreads, make: { chunk in
            let documents = (chunk * chunkSize..<min((chunk + 1) * chunkSize, count)).map(make)
            var replaced: [(Int, Int)] = [], replacedEnds: [Int] = []
            replacedEnds.reserveCapacity(documents.count)
            for document in documents {
                if let document, !committed.isEmpty {
                    document.id.withUTF8Bytes { key in
                        let hash = Segment.hashID(key)
                        for (ordinal, segment) in committed.enumerated() {
                            for doc in segment.documents(withID: key, hash: hash) { replaced.append((ordinal, doc)) }
                        }
                    }
                }
                replacedEnds.append(replaced.count)
            }
            return PreparedChunk(documents: documents, texts: SegmentBuilder.prepare(documents, kinds: kinds, analyzer: analyzer),
                                 replaced: replaced, replacedEnds: replacedEnds)
        }, consume: { (chunk: Int, prepared: consuming PreparedChunk) throws(EngineError) in
            assert(segments.count == committed.count && zip(segments, committed).allSatisfy { $0 === $1 })
            for (number, made) in prepared.documents.enumerated() {
                if let made {
                    let start = number == 0 ? 0 : prepared.replacedEnds[number - 1]
                    try upsert(made, analyzed: (prepared.texts, number),
                               committed: prepared.replaced[start..<prepared.replacedEnds[number]])
                    added(made)
                } else {
                    let document = try makeInOrder(chunk * chunkSize + number)
                    try upsert(document)
                    added(document)
                }
            }
        })
    }

    /// A chunk of a batch made, analyzed and looked up on any thread: its documents (nil: to be made in order),
    /// their analyzed text and stored records, and the committed documents (segment ordinal, document) each
    /// one's id already has.
    private struct PreparedChunk: Sendable {
        var documents: [Document?]
        var texts: SegmentBuilder.AnalyzedTexts
        var replaced: [(Int, Int)]
        var replacedEnds: [Int]
    }

    /// Documents per chunk of a parallel batch: small, so the chunk a busy core holds up delays little.
    static let chunkSize = 64

    /// How many threads a batch upsert makes and analyzes documents on (1: on the caller's thread, as it goes).
    public var analysisThreads = 1

    /// Deletes documents by external id.
    public func delete(ids: some Sequence<String>) {
        for id in ids { delete(id: id) }
    }

    private func delete(id: String) {
        if let doc = buffer.releaseID(id) {
            bufferLive[doc] = false
            dirty = true
        }
        deleteCommitted(id: id)
    }

    /// Tombstones the committed documents with an external id.
    private func deleteCommitted(id: String) {
        guard !segments.isEmpty else { return }
        id.withUTF8Bytes { key in
            let hash = Segment.hashID(key)
            for ordinal in segments.indices {
                for doc in segments[ordinal].documents(withID: key, hash: hash) where live[ordinal][doc] {
                    live[ordinal][doc] = false
                    dirty = true
                }
            }
        }
    }

    /// Whether `domain` is `prefix` or below it (`a` covers `a` and `a.b`, never `ab`), by bytes as identifiers.
    public static func domain(_ domain: String, isWithin prefix: String) -> Bool {
        let bytes = domain.utf8, head = prefix.utf8
        guard bytes.starts(with: head) else { return false }
        let rest = bytes.dropFirst(head.count)
        return rest.isEmpty || rest.first == UInt8(ascii: ".")
    }

    /// Deletes every document whose domain is one of `domains` or below it, hierarchically on dots.
    public func delete(domains: some Sequence<String>) {
        let domains = Array(domains)
        let prefixes = DomainPrefixes(domains)
        guard !prefixes.isEmpty else { return }
        let covered = { (domain: String?) -> Bool in domain.map(prefixes.covers) ?? false }
        for ordinal in segments.indices {
            let segment = segments[ordinal]
            let matching = segment.domains.enumerated().map { $0.offset != 0 && covered($0.element) }
            guard matching.contains(true) else { continue }
            for doc in 0..<segment.documentCount where matching[Int(segment.domainOrdinals[doc])] && live[ordinal][doc] {
                live[ordinal][doc] = false
                dirty = true
            }
        }
        // Filed under the deleted domains themselves: no scan of the buffer (a batch may delete between writes)
        // after the first, which files what is buffered so far.
        if bufferDomains == nil {
            var filed = DomainIndex<Int>()
            for doc in 0..<buffer.documentCount where bufferLive[doc] { filed.insert(doc, domain: buffer.domain(doc)) }
            bufferDomains = filed
        }
        for doc in bufferDomains?.remove(within: domains) ?? [] where bufferLive[doc] {
            bufferLive[doc] = false
            buffer.releaseID(of: doc)
            dirty = true
        }
    }

    /// Deletes every document.
    public func deleteAll() {
        pendingMerge = nil  // its sources are gone; the result is dropped when it arrives
        segments = []
        live = []
        buffer = makeBuffer()
        bufferLive = []
        bufferDomains = nil
        dirty = true
    }

    /// Publishes every change since the last commit as one new snapshot (sealing the buffer into a
    /// segment, dropping fully deleted segments and merging per the merge policy).
    @discardableResult
    public func commit() throws(EngineError) -> IndexSnapshot {
        // Back-pressure at the cap, but never behind an idle merge: it may rewrite most of the index, and its
        // segments are merged by the policy once it is in.
        installPendingMerge(waiting: segments.count >= mergePolicy.maxSegments && pendingMerge?.isIdle != true)
        if !buffer.isEmpty {
            let segment = try buffer.seal()
            let (credit, overflow) = mergePolicy.idleRewriteFactor.multipliedReportingOverflow(by: segment.documentCount)
            idleBudget = overflow ? Int.max / 4 : min(idleBudget + credit, Int.max / 4)
            var bits = Bitset(count: segment.documentCount, allSet: true)
            for (doc, alive) in bufferLive.enumerated() where !alive { bits[doc] = false }
            segments.append(segment)
            live.append(bits)
            buffer = makeBuffer()
            bufferLive = []
            bufferDomains = nil
        }
        var keptSegments: [Segment] = [], keptLive: [Bitset] = []
        for (segment, bits) in zip(segments, live) where bits.cardinality > 0 {
            keptSegments.append(segment)
            keptLive.append(bits)
        }
        segments = keptSegments
        live = keptLive
        merge()
        if dirty { contentGeneration += 1 }
        dirty = false
        return publish()
    }

    /// Publishes a finished background merge on its own: a snapshot with the same documents in fewer segments
    /// (a new `generation`, the same `contentGeneration`), after planning the merges that may follow. Nil when
    /// no merge has finished, or when uncommitted changes wait (the next commit installs the merge then, since
    /// a snapshot cannot show the merge without them). A merge that failed is dropped; its sources stay.
    @discardableResult
    public func publishFinishedMerges() -> IndexSnapshot? {
        guard !dirty, let pending = pendingMerge, pending.isFinished else { return nil }
        installPendingMerge(waiting: false)
        merge()  // (in the background: it only starts them)
        return publish()
    }

    /// What new segments' champion lists rank for: the default fields and ranking parameters now.
    private var championScope: ChampionLists.Scope? {
        buildsChampionLists ? ChampionLists.Scope(schema: schema, parameters: parameters) : nil
    }

    /// The writer's state as the next snapshot.
    private func publish() -> IndexSnapshot {
        // Champion lists for another scope, or none yet (a new or loaded segment), start over empty for this one.
        let champions = championScope
        for segment in segments { segment.refreshChampionLists(scope: champions) }
        vocabularies.release(unlessServing: segments)
        generation += 1
        snapshot = IndexSnapshot(segments: segments, live: live, schema: schema, parameters: parameters,
                                 generation: generation, contentGeneration: contentGeneration,
                                 vocabularies: vocabularies)
        return snapshot
    }

    private func merge() {
        guard pendingMerge == nil else { return }  // planned again once the running merge is installed
        let bytes = mergeBytes
        // A segment whose merge failed joins no group (its size is past the limit), nor is it rewritten alone for
        // its deleted documents: that rewrite is planned whatever the size, and would fail again on every commit.
        let groups = mergePolicy.merges(sizes: segments.map(\.documentCount), live: live.map(\.cardinality),
                                        bytes: bytes, limits: segmentLimits)
            .filter { group in !group.contains { index in unmergeable.contains { $0 === segments[index] } } }
        guard !groups.isEmpty else { return }
        if mergesInBackground { return startInBackground(groups) }
        let sources = groups.map { group in group.map { (segments[$0], live[$0]) } }
        install(groups: groups, merged: Self.build(sources, limits: segmentLimits), sources: sources)
    }

    /// Each segment's `MergePolicy` size (`estimatedBytes`), or past the limit for a segment in `unmergeable`.
    private var mergeBytes: [Int] {
        unmergeable.removeAll { kept in !segments.contains { $0 === kept } }
        return segments.map { segment in
            unmergeable.contains(where: { $0 === segment }) ? segmentLimits.maxBytes + 1 : Self.estimatedBytes(segment)
        }
    }

    /// A segment's size for merge planning: its largest buffer (stored records as kept, so a merge that
    /// decompresses long texts may still fail, and is then dropped).
    private static func estimatedBytes(_ segment: Segment) -> Int {
        let stored = segment.stored.bytes.count + segment.stored.coldBytes.count + 6 * segment.documentCount
        return max(segment.docBytes.count, segment.positionBytes.count, stored, segment.idBytes.count)
    }

    /// Starts merging each group of segments into one on the merge thread (`pendingMerge`).
    private func startInBackground(_ groups: [[Int]], idle: Bool = false) {
        let pending = PendingMerge(sources: groups.map { group in group.map { (segments[$0], live[$0]) } }, idle: idle,
                                   limits: segmentLimits)
        let finished = onMergeFinished
        startMerge {
            pending.run()
            finished?()
        }
        pendingMerge = pending
    }

    /// Starts the merge an idle index is worth, in the background: the smallest segments into one, as many as
    /// the rewrite budget allows (`MergePolicy.idleRewriteFactor` per document committed since the last idle
    /// check). An index left alone after a bulk load so ends up in few segments, which every query pays for,
    /// while idle merges after small writes rewrite at most that factor times what they wrote. The merge is
    /// published like any background merge; a commit at the segment cap does not wait for it. Returns whether
    /// one started: only with `mergesInBackground`, no merge running and nothing uncommitted.
    @discardableResult
    public func mergeWhileIdle() -> Bool {
        guard mergesInBackground, pendingMerge == nil, !dirty else { return false }
        let group = mergePolicy.idleMerge(sizes: segments.map(\.documentCount), live: live.map(\.cardinality),
                                          budget: idleBudget, bytes: mergeBytes, limits: segmentLimits)
        // Unspent credit is not carried over: later small writes must not pay for rewriting a large segment.
        idleBudget = 0
        guard let group else { return false }
        startInBackground([group], idle: true)
        return true
    }

    /// The merged segments of `sources` (one per group; nil for a group with no live document), or the error that
    /// abandoned a group's merge (`segmentTooLarge` past `limits`): its sources then stay as they are.
    fileprivate static func build(_ sources: [[(Segment, Bitset)]],
                                  limits: SegmentLimits) -> [Result<Segment?, EngineError>] {
        sources.map { group in
            Result { () throws(EngineError) -> Segment? in
                // Segments without deleted documents (a commit's batches, the common case) merge by streams.
                if group.allSatisfy({ $0.1.cardinality == $0.0.documentCount }) {
                    let segments = group.map(\.0)
                    if segments.allSatisfy({ $0.documentCount == 0 }) { return nil }
                    return try SegmentBuilder.mergeWhole(segments, limits: limits)
                }
                var builder = SegmentBuilder()
                builder.limits = limits
                for (segment, bits) in group { try builder.append(segment: segment, live: bits) }
                return builder.isEmpty ? nil : try builder.seal()
            }
        }
    }

    /// Replaces each group's segments by its merged segment (appended after the segments no group consumed).
    /// `sources` holds the tombstones the merge saw: a document deleted since then is deleted in the result too.
    /// A group whose merge failed keeps its segments, its largest by bytes (`estimatedBytes`) marked `unmergeable`:
    /// the policy checks documents, so a planned merge fails on bytes, and marking the one of most documents kept
    /// an innocent segment of many small documents from merging while the culprit was planned again.
    private func install(groups: [[Int]], merged: [Result<Segment?, EngineError>], sources: [[(Segment, Bitset)]]) {
        var consumed = Set<Int>()
        var results: [(Segment, Bitset)] = []
        for (number, group) in groups.enumerated() {
            guard case .success(let result) = merged[number] else {
                let bytes = group.map { Self.estimatedBytes(segments[$0]) }
                if let largest = zip(group, bytes).max(by: { $0.1 < $1.1 })?.0 {
                    unmergeable.append(segments[largest])
                }
                continue
            }
            consumed.formUnion(group)
            guard let segment = result else { continue }
            var bits = Bitset(count: segment.documentCount, allSet: true)
            var next = 0
            for (index, (source, seen)) in zip(group, sources[number]) {
                let now = live[index]
                for doc in 0..<source.documentCount where seen[doc] {
                    if !now[doc] { bits[next] = false }
                    next += 1
                }
            }
            results.append((segment, bits))
        }
        var newSegments: [Segment] = [], newLive: [Bitset] = []
        for index in segments.indices where !consumed.contains(index) {
            newSegments.append(segments[index])
            newLive.append(live[index])
        }
        for (segment, bits) in results {
            newSegments.append(segment)
            newLive.append(bits)
        }
        segments = newSegments
        live = newLive
    }

    /// Blocks until the background merge (if any) has finished; the next commit (or `publishFinishedMerges()`)
    /// installs it.
    public func waitForMerges() {
        _ = pendingMerge?.wait()
    }

    /// Installs the background merge if it has finished (or, with `waiting`, once it has); the commit then
    /// publishes the result. Sources are found by identity: commits since the merge started have appended
    /// segments and may have dropped fully deleted ones (or rolled back), so a group whose sources are not all
    /// still present is discarded and its remaining sources stay as they are.
    private func installPendingMerge(waiting: Bool) {
        guard let pending = pendingMerge, waiting || pending.isFinished else { return }
        pendingMerge = nil
        let merged = pending.wait()
        var groups: [[Int]] = [], results: [Result<Segment?, EngineError>] = [], sources: [[(Segment, Bitset)]] = []
        for (number, members) in pending.sources.enumerated() {
            let indices = members.compactMap { member in segments.firstIndex { $0 === member.0 } }
            guard indices.count == members.count else { continue }
            groups.append(indices)
            results.append(merged[number])
            sources.append(members)
        }
        install(groups: groups, merged: results, sources: sources)
    }

    /// Replaces the whole index with one loaded by the durable store, as if it had just been committed.
    func restore(segments: [Segment], live: [Bitset], schema: Schema, generation: UInt64) {
        pendingMerge = nil
        self.schema = schema
        let champions = championScope
        for segment in segments { segment.refreshChampionLists(scope: champions) }
        vocabularies.release(unlessServing: segments)
        self.segments = segments
        self.live = live
        self.generation = generation
        contentGeneration = generation
        buffer = makeBuffer()
        bufferLive = []
        bufferDomains = nil
        dirty = false
        snapshot = IndexSnapshot(segments: segments, live: live, schema: schema, parameters: parameters,
                                 generation: generation, contentGeneration: contentGeneration,
                                 vocabularies: vocabularies)
    }

    /// Analyzes every live document of the last commit again, from its stored values: the segments then hold this
    /// writer's analyzer's terms. For a store whose segments another `Analyzer.version` built (`DurableStore` calls it
    /// on open). Documents keep their identifiers, domains and values; their addresses change. Commits a chunk of
    /// documents at a time, as batched indexing does, so no segment outgrows what indexing would build and merges
    /// combine them as usual. Returns how many documents were analyzed. On an error the chunk in progress is rolled
    /// back; the chunks committed before it keep their new terms, the rest their old ones.
    func reanalyzeAll(chunk: Int = 4_096) throws(EngineError) -> Int {
        let committed = snapshot
        var documents: [Document] = []
        documents.reserveCapacity(chunk)
        var count = 0
        func flush() throws(EngineError) {
            guard !documents.isEmpty else { return }
            do {
                try upsert(contentsOf: documents)
                _ = try commit()
            } catch {
                rollback()
                throw error
            }
            count += documents.count
            documents.removeAll(keepingCapacity: true)
        }
        for ordinal in committed.segments.indices {
            let live = committed.live[ordinal]
            for doc in 0..<committed.segments[ordinal].documentCount where live[doc] {
                guard let document = committed.document(at: DocAddress(segment: UInt32(ordinal), doc: UInt32(doc)))
                else { continue }
                documents.append(document)
                if documents.count == chunk { try flush() }
            }
        }
        try flush()
        return count
    }

    /// Discards every change since the last commit, so a caller whose batch failed half-way leaves the
    /// index exactly as the last snapshot shows it. That includes the schema: fields registered meanwhile are
    /// dropped (no committed segment uses them), or a batch refused at the field limit would leave it full and
    /// every later new field would fail.
    public func rollback() {
        // A pending merge stays: installing it finds its sources by identity among the restored segments.
        segments = snapshot.segments
        live = snapshot.live
        schema = snapshot.schema
        buffer = makeBuffer()
        bufferLive = []
        bufferDomains = nil
        dirty = false
    }

    /// Bytes held by the writer: committed segments plus the uncommitted buffer.
    public var estimatedMemoryBytes: Int {
        segments.reduce(0) { $0 + $1.memoryBytes } + live.reduce(0) { $0 + $1.memoryBytes } + buffer.memoryBytes
    }
}

/// Merges running on another thread: their inputs (immutable segments and the tombstones as of the start, one
/// group per merged segment) and, once done, the merged segments or the error.
private final class PendingMerge: Sendable {
    let sources: [[(Segment, Bitset)]]
    /// Started by `mergeWhileIdle()` (commits never wait for it).
    let isIdle: Bool
    /// The writer's `segmentLimits` when the merge started.
    let limits: SegmentLimits
    private let result = Mutex<[Result<Segment?, EngineError>]?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(sources: [[(Segment, Bitset)]], idle: Bool, limits: SegmentLimits) {
        self.sources = sources
        isIdle = idle
        self.limits = limits
    }

    func run() {
        let outcome = {
            let merged = IndexWriter.build(sources, limits: limits)
            // Typo-tolerant searches walked the sources' vocabularies: build the merged segment's here, off the
            // query path, so the first such search after the merge is published does not pay for it.
            for (group, built) in zip(sources, merged) {
                let segment = try? built.get()
                if let segment, let scope = group.lazy.compactMap({ $0.0.vocabularyScope }).first {
                    _ = segment.vocabulary(for: scope)
                }
                // And what user queries' ranking read of the sources: the titles' leading keys and the names
                // (tens of milliseconds each on a segment of 64,000 documents).
                if let segment, let field = group.lazy.compactMap({ $0.0.leadingKeysField }).first {
                    _ = segment.leadingKeys(for: field)
                }
                if let segment, let key = group.lazy.compactMap({ $0.0.namesKey }).first {
                    _ = segment.names(field: key.field, scope: key.scope)
                }
                // Likewise the prefix and champion lists searches built in the sources (the keys in use).
                segment?.buildLists(searchedIn: group.map(\.0))
            }
            return merged
        }()
        result.withLock { $0 = outcome }
        done.signal()
    }

    var isFinished: Bool { result.withLock { $0 != nil } }

    func wait() -> [Result<Segment?, EngineError>] {
        done.wait()
        done.signal()  // later waiters do not block
        return result.withLock { $0! }
    }
}

/// Domains, each standing for itself and every domain below it (hierarchical on dots, as
/// `IndexWriter.domain(_:isWithin:)`; empty ones stand for nothing). Whether they cover a domain is one set lookup
/// per dotted ancestor of that domain, however many domains there are: a call deleting thousands of domains tests
/// each distinct domain of the index once, not once per deleted domain.
public struct DomainPrefixes: Sendable {
    /// By bytes, as identifiers: a canonically equivalent spelling is another domain (NSString equality).
    private var domains: Set<ExactIdentifier> = []

    public init() {}

    public init(_ domains: some Sequence<String>) { insert(contentsOf: domains) }

    public var isEmpty: Bool { domains.isEmpty }

    public mutating func insert(contentsOf domains: some Sequence<String>) {
        for domain in domains where !domain.isEmpty { self.domains.insert(ExactIdentifier(domain)) }
    }

    /// Whether `domain` is one of the domains or below one (`a` covers `a` and `a.b`, never `ab`).
    public func covers(_ domain: String) -> Bool {
        guard !domains.isEmpty else { return false }
        if domains.contains(ExactIdentifier(domain)) { return true }
        let bytes = domain.utf8
        var dot = bytes.firstIndex(of: UInt8(ascii: "."))
        while let end = dot {
            if domains.contains(ExactIdentifier(String(decoding: bytes[..<end], as: UTF8.self))) { return true }
            dot = bytes[bytes.index(after: end)...].firstIndex(of: UInt8(ascii: "."))
        }
        return false
    }
}
