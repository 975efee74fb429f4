/// Size figures of a snapshot.
public struct IndexStats: Sendable, Equatable {
    /// Live documents.
    public var documents: Int
    /// Deleted documents still occupying segments (reclaimed by merges).
    public var deletedDocuments: Int
    /// Sum of the distinct (field, term) pairs of every segment.
    public var terms: Int
    public var segments: Int
    /// Estimated bytes of the index and stored values held by this snapshot.
    public var estimatedMemoryBytes: Int
}

/// A dictionary term with its document frequency (summed over segments, deleted documents included).
public struct TermInfo: Sendable, Equatable {
    public let term: String
    public let field: FieldID
    public let documentFrequency: Int
}

/// An immutable view of the index at one commit. It is a value holding references to immutable segments
/// and its own copy of their tombstones, so any number of threads read it at once while the writer keeps
/// working, and it never changes after it was taken.
public struct IndexSnapshot: Sendable {
    /// Fuzzy queries keep at most this many (field, term) expansions, among those live documents hold the nearest
    /// first, then the most frequent (`QueryPlanner.nearest`). (Prefix queries keep every expansion: wide prefixes read precomputed lists,
    /// `PrefixPostings`.)
    public static let maxExpansions = 256
    /// Fuzzy prefix queries expand at most this many near prefixes, among those live documents hold the typed
    /// text's own and those sharing the longest start with it first (`QueryPlanner.nearestPrefixes`). Each is read as a prefix is (a wide one from its precomputed list, a
    /// narrow one as its at most `PrefixPostings.minimumExpansions` terms), so this bounds a field's sources in a
    /// segment as Lucene's `maxExpansions` (50 terms) bounds a fuzzy query's. A 5-character word has about ten
    /// near prefixes in a large vocabulary; the cap stops a short one over a dense vocabulary.
    public static let maxNearPrefixes = 16

    /// Everything but `parameters`, in one immutable object: a search copies its snapshot into its planner, and a
    /// copy of a dozen arrays and objects was a dozen retains and releases (about 45 per search: 4% of a term
    /// search's instructions, 1% of a median phrase's, BENCHMARKS.md §AQ); a copy of this is one.
    private final class Storage: Sendable {
        let segments: [Segment]
        let live: [Bitset]
        let schema: Schema
        let factorParameters: RankingParameters
        let generation: UInt64
        let contentGeneration: UInt64
        let documentCount: Int
        let fieldFactors: [[Float]]
        let fieldAverages: [Float]
        let totalDocuments: Int
        let vocabularies: VocabularyCache
        let championScope: ChampionLists.Scope?
        /// Built by the first ranking that asks, by name field (`nameMentions(of:)`).
        let nameMentions = DerivedCache<FieldID, NameMentions>(cost: { _, value in value?.memoryBytes ?? 0 })

        init(segments: [Segment], live: [Bitset], schema: Schema, parameters: RankingParameters, generation: UInt64,
             contentGeneration: UInt64, vocabularies: VocabularyCache) {
            self.vocabularies = vocabularies
            self.segments = segments
            self.live = live
            self.schema = schema
            factorParameters = parameters
            self.generation = generation
            self.contentGeneration = contentGeneration
            documentCount = live.reduce(0) { $0 + $1.cardinality }
            totalDocuments = max(segments.reduce(0) { $0 + $1.documentCount }, 1)
            let averages = schema.fields.map { info -> Float in
                let field = Int(info.id.rawValue)
                var sum: UInt64 = 0, docs: UInt64 = 0
                for segment in segments where field < segment.lengthSum.count {
                    sum += segment.lengthSum[field]
                    docs += UInt64(segment.fieldDocCount[field])
                }
                return FieldNorm.averageLength(sum: sum, documents: docs)
            }
            fieldAverages = averages
            championScope = ChampionLists.Scope(schema: schema, parameters: parameters)
            fieldFactors = schema.fields.map { info -> [Float] in
                guard info.options.kind == .text else { return [] }
                return FieldNorm.lengthFactors(weight: info.options.weight, average: averages[Int(info.id.rawValue)],
                                               b: parameters.b)
            }
        }
    }

    private let storage: Storage

    var segments: [Segment] { storage.segments }
    var live: [Bitset] { storage.live }
    /// The fields as they were at commit time.
    public var schema: Schema { storage.schema }
    /// Ranking constants (BM25F k1 and b, primary-field boosts).
    public var parameters: RankingParameters
    /// The parameters `fieldFactors` were computed with (`parameters` can be changed afterwards).
    var factorParameters: RankingParameters { storage.factorParameters }
    /// Commit counter of the writer that produced this snapshot: a new one whenever documents or their
    /// addresses (`DocAddress`, which a merge reassigns) may have changed.
    public var generation: UInt64 { storage.generation }
    /// Counts the commits that changed documents or fields (a writer restored from a store starts it at its
    /// `generation`). A snapshot that only published a merge keeps its predecessor's: the same documents, at
    /// other addresses. Compare it only between snapshots of one writer (`isFromSameWriter(as:)`).
    public var contentGeneration: UInt64 { storage.contentGeneration }
    /// Live documents.
    public var documentCount: Int { storage.documentCount }
    /// Per text field: `weight / (1 - b + b·length/averageLength)` for the 256 norm codes (BM25F).
    var fieldFactors: [[Float]] { storage.fieldFactors }
    /// Per text field: average length (for block-max bounds).
    var fieldAverages: [Float] { storage.fieldAverages }
    /// Total documents in the segments (deleted included), the N of idf.
    var totalDocuments: Int { storage.totalDocuments }
    /// The typo-tolerant searches' vocabulary across segments, shared with the writer's other snapshots.
    var vocabularies: VocabularyCache { storage.vocabularies }
    /// What champion lists must have been ranked for to serve this snapshot's lone terms and prefixes (under
    /// `factorParameters`), worked out once rather than per search.
    var championScope: ChampionLists.Scope? { storage.championScope }

    init(segments: [Segment], live: [Bitset], schema: Schema, parameters: RankingParameters, generation: UInt64,
         contentGeneration: UInt64, vocabularies: VocabularyCache = VocabularyCache()) {
        storage = Storage(segments: segments, live: live, schema: schema, parameters: parameters, generation: generation,
                          contentGeneration: contentGeneration, vocabularies: vocabularies)
        self.parameters = parameters
    }

    /// How many documents mention each document's name in `field` (`NameMentions`), over the default fields.
    /// The first call on a snapshot builds it from its segments' `SegmentNames` (each segment's counted once, for
    /// every snapshot holding it); later calls share it.
    public func nameMentions(of field: FieldID) -> NameMentions? {
        guard schema.kind(field) == .text else { return nil }
        return storage.nameMentions.value(field) {
            .value(NameMentions.build(self, field: field, scope: schema.defaultFieldNumbers))
        }
    }

    /// Whether both snapshots were published by the same writer, so their generations count the same history
    /// (each writer counts from zero).
    package func isFromSameWriter(as other: IndexSnapshot) -> Bool { vocabularies === other.vocabularies }

    /// An empty index.
    public init() {
        self.init(segments: [], live: [], schema: Schema(), parameters: RankingParameters(), generation: 0,
                  contentGeneration: 0)
    }

    private func valid(_ address: DocAddress) -> Bool {
        Int(address.segment) < segments.count && Int(address.doc) < segments[Int(address.segment)].documentCount
    }

    /// Whether the address is a live document of this snapshot.
    public func isLive(_ address: DocAddress) -> Bool { valid(address) && live[Int(address.segment)][Int(address.doc)] }

    // MARK: Searching

    /// The best `limit` live documents for `query` that also match `filter`, best first.
    public func search(_ query: Query, limit: Int = 20, filter: Query? = nil) -> [SearchHit] {
        search(query, options: SearchOptions(limit: limit, filter: filter))
    }

    /// Ranked search with a static boost and/or a rescoring hook.
    public func search(_ query: Query, options: SearchOptions) -> [SearchHit] {
        // No page holds more hits than there are documents: a limit past that (`Int.max` for "all") is that many,
        // so nothing is sized by it.
        let limit = min(max(options.limit, 0), documentCount)
        guard limit > 0, !segments.isEmpty else { return [] }
        var planner = QueryPlanner(snapshot: self, memo: options.memo)
        // A rescore with a ceiling is applied while collecting (exactly the best `limit` by rescored score);
        // without one, the best `rescoreWindow` by score are rescored afterwards.
        let ceiling = options.rescore == nil ? nil : options.rescoreCeiling.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        let collecting = ceiling.map { RescoreWhileCollecting(options: options, ceiling: $0) }
        // A second stage ranks the first stage's best `firstStage` again.
        let second = options.windowRescore
        let firstStage = max(limit, second?.window ?? 0)
        let rescored = options.rescore == nil || collecting != nil ? firstStage : max(firstStage, options.rescoreWindow)
        let window = min(rescored, documentCount)
        // The collected hits need no order when the second stage selects from them directly.
        let unordered = second != nil && (options.rescore == nil || collecting != nil)
        var hits: [SearchHit]
        // A lone term or prefix that champion lists answer is planned only if they cannot vouch for the page.
        if collecting == nil,
           let read = championSearch(query, plan: nil, planner: &planner, window: window, options: options) {
            hits = read.hits
        } else {
            let defaults = planner.resolve(.defaultFields)
            let plan = planner.plan(query, scope: defaults)
            let filterPlan = options.filter.map { planner.plan($0, scope: defaults) }
            // A conjunction of two frequent words scores only what their champion covers name, when they vouch.
            if let covered = championConjunction(plan, planner: &planner, window: window, options: options,
                                                 collecting: collecting, ordered: !unordered) {
                hits = covered
            } else if let phrased = coverPhrase(plan, planner: &planner, window: window, options: options,
                                                collecting: collecting) {
                // A phrase of frequent words: read down one word's ranking until nothing further can place.
                hits = phrased
            } else if let phrased = bestFirstPhrase(plan, planner: &planner, window: window, options: options,
                                                    collecting: collecting) {
                // A phrase of frequent words: its candidates bounded from frequencies, the best scored first.
                hits = phrased
            } else {
                var top = TopK(k: window)
                for ordinal in segments.indices {
                    var iterator = planner.iterator(plan, segment: ordinal, scored: true, root: true)
                    if iterator is EmptyIterator { continue }
                    if let filterPlan {
                        let filter = planner.iterator(filterPlan, segment: ordinal, scored: false)
                        if filter is EmptyIterator { continue }
                        iterator = FilteredIterator(scoring: iterator, filter: filter)
                    }
                    if let collecting {
                        collectRescoring(iterator, segment: ordinal, boostField: options.boostField, rescore: collecting,
                                         into: &top)
                    } else {
                        collect(iterator, segment: ordinal, boostField: options.boostField, into: &top)
                    }
                }
                hits = unordered ? top.unordered() : top.sorted()
            }
        }
        if collecting == nil, let rescore = options.rescore {
            hits = hits.map { SearchHit(address: $0.address, score: rescore($0.address, $0.score)) }
                .sorted(by: SearchHit.ranksBefore)
        }
        // Unordered hits are at most `firstStage`; ordered ones are cut to it.
        if let second { return second.best(limit, of: hits.prefix(firstStage)) }
        return Array(hits.prefix(limit))
    }

    /// Collects `iterator`'s live documents into `top` (`collectRescoring` when a rescore applies while
    /// collecting).
    func collect(_ iterator: DocIterator, segment ordinal: Int, boostField: FieldID?, into top: inout TopK) {
        let alive = live[ordinal]
        let segment = segments[ordinal]
        // Block-max pruning: once the heap is full, a window of documents whose score bound cannot beat
        // the worst kept hit is skipped without scoring (ties lose: later documents have larger addresses).
        let pruning = boostField == nil
        var windowEnd = -1
        var doc = iterator.next()
        while doc != DocIterator.end {
            if pruning, top.isFull, doc > windowEnd {
                if let (bound, upTo) = iterator.blockBound() {
                    if bound * 1.0001 <= top.threshold {
                        doc = upTo + 1 >= DocIterator.end ? DocIterator.end : iterator.advance(upTo + 1)
                        continue
                    }
                    windowEnd = upTo
                } else {
                    windowEnd = DocIterator.end
                }
            }
            if alive[doc] {
                var score = iterator.score()
                if let boostField {
                    // Negative and NaN boosts count as 0 (NaN would compare false both ways and break the order).
                    let boost = segment.numbers(boostField, doc).first ?? 1
                    score *= boost.isNaN ? 0 : Float(max(boost, 0))
                }
                top.insert(SearchHit(address: DocAddress(segment: UInt32(ordinal), doc: UInt32(doc)), score: score))
            }
            doc = pruning && top.isFull ? iterator.nextCompetitive(top.threshold) : iterator.next()
        }
    }

    /// An upper bound of the documents `query` matches, from document frequencies alone (no posting is
    /// decoded): a caller can tell that a search cannot fill a page before running it.
    public func maximumMatches(_ query: Query, memo: PlanMemo? = nil) -> Int {
        guard !segments.isEmpty else { return 0 }
        let planner = QueryPlanner(snapshot: self, memo: memo)
        return planner.maximumMatches(planner.plan(query, scope: planner.resolve(.defaultFields)))
    }

    /// Every live document matching `query`, in address order (unranked).
    public func matches(_ query: Query) -> [DocAddress] {
        var result: [DocAddress] = []
        forEachMatch(query) {
            result.append($0)
            return true
        }
        return result
    }

    /// The matches as a set usable in `.documents(_)`.
    public func documentSet(_ query: Query) -> DocumentSet { DocumentSet(matches(query)) }

    /// Number of live documents matching `query`.
    public func count(_ query: Query) -> Int {
        var total = 0
        forEachMatch(query) { _ in
            total += 1
            return true
        }
        return total
    }

    /// Number of live documents among `documents` (ascending addresses of this snapshot; nil: every document)
    /// that `query` matches: what counting `.and([.documents(_), query])` finds, without a document set to build.
    package func count(_ query: Query, among documents: [DocAddress]?) -> Int {
        guard let documents else { return count(query) }
        var total = 0
        forEachMatch(query, among: documents) { _ in
            total += 1
            return true
        }
        return total
    }

    /// The live documents among `documents` (ascending addresses of this snapshot; nil: every document) that
    /// `query` matches, in address order.
    package func matches(_ query: Query, among documents: [DocAddress]?) -> [DocAddress] {
        guard let documents else { return matches(query) }
        var result: [DocAddress] = []
        forEachMatch(query, among: documents) {
            result.append($0)
            return true
        }
        return result
    }

    /// The first live document in address order among `documents` (ascending addresses of this snapshot; nil:
    /// every document) that `query` matches and `accept` accepts; the walk stops there.
    package func firstMatch(_ query: Query, among documents: [DocAddress]?,
                            where accept: (DocAddress) -> Bool) -> DocAddress? {
        var found: DocAddress?
        let visit = { (address: DocAddress) -> Bool in
            if accept(address) { found = address }
            return found == nil
        }
        if let documents { forEachMatch(query, among: documents, visit) } else { forEachMatch(query, visit) }
        return found
    }

    /// Calls `body` with each live document among `documents` (ascending) that `query` matches, in order, until
    /// it returns false. Per segment the query's matches and the list leap past each other: the iterator advances
    /// to the next listed document, the list gallops to the iterator's, so a short side bounds the work.
    private func forEachMatch(_ query: Query, among documents: [DocAddress], _ body: (DocAddress) -> Bool) {
        var planner = QueryPlanner(snapshot: self)
        let plan = planner.plan(query, scope: planner.resolve(.defaultFields))
        var start = 0
        while start < documents.count {
            let segment = documents[start].segment, ordinal = Int(segment)
            guard ordinal < segments.count else { return }
            let end = Self.lowerBound(documents, DocAddress(segment: segment &+ 1, doc: 0), from: start)
            let iterator = planner.iterator(plan, segment: ordinal, scored: false)
            let alive = live[ordinal]
            var doc = -1, index = start
            while index < end {
                let target = Int(documents[index].doc)
                if doc < target {
                    doc = iterator.advance(target)
                    if doc == DocIterator.end { break }
                }
                if doc == target {
                    if alive[doc], !body(documents[index]) { return }
                    index += 1
                } else {
                    index = Self.lowerBound(documents, DocAddress(segment: segment, doc: UInt32(clamping: doc)),
                                            from: index + 1, to: end)
                }
            }
            start = max(end, start + 1)
        }
    }

    /// The first index from `start` (up to `end`, default the end) whose address is not below `address`,
    /// galloping: about the log of the distance moved.
    private static func lowerBound(_ documents: [DocAddress], _ address: DocAddress, from start: Int,
                                   to end: Int? = nil) -> Int {
        let end = end ?? documents.count
        var low = start, step = 1, high = start
        while high < end, documents[high] < address {
            low = high + 1
            high = start + step
            step <<= 1
        }
        high = min(high, end)
        while low < high {
            let mid = (low + high) >> 1
            if documents[mid] < address { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Calls `body` with each live document `query` matches, in address order, until it returns false.
    private func forEachMatch(_ query: Query, _ body: (DocAddress) -> Bool) {
        var planner = QueryPlanner(snapshot: self)
        let plan = planner.plan(query, scope: planner.resolve(.defaultFields))
        for ordinal in segments.indices {
            let iterator = planner.iterator(plan, segment: ordinal, scored: false)
            let alive = live[ordinal]
            var doc = iterator.next()
            while doc != DocIterator.end {
                if alive[doc], !body(DocAddress(segment: UInt32(ordinal), doc: UInt32(doc))) { return }
                doc = iterator.next()
            }
        }
    }

    /// The score breakdown of `query` for one document; nil when it does not match (or is deleted).
    public func explain(_ query: Query, _ address: DocAddress) -> Explanation? {
        guard isLive(address) else { return nil }
        var planner = QueryPlanner(snapshot: self)
        let plan = planner.plan(query, scope: planner.resolve(.defaultFields))
        let iterator = planner.iterator(plan, segment: Int(address.segment), scored: true)
        guard iterator.advance(Int(address.doc)) == Int(address.doc) else { return nil }
        return iterator.explain()
    }

    // MARK: Documents

    /// The stored document; values are decoded only now.
    public func document(at address: DocAddress) -> Document? {
        guard valid(address) else { return nil }
        let segment = segments[Int(address.segment)], doc = Int(address.doc)
        return Document(id: segment.id(doc), domain: segment.domain(doc), values: segment.storedValues(doc))
    }

    /// The stored document with the values of `fields` only (the others are not decoded): what a caller
    /// fetching a few attributes of many hits needs.
    public func document(at address: DocAddress, fields: Set<FieldID>) -> Document? {
        guard valid(address) else { return nil }
        let segment = segments[Int(address.segment)], doc = Int(address.doc)
        return Document(id: segment.id(doc), domain: segment.domain(doc), values: segment.storedValues(doc, fields: fields))
    }

    /// The stored values of one field of a document, in order.
    public func values(_ field: FieldID, of address: DocAddress) -> [FieldValue] {
        guard valid(address) else { return [] }
        return segments[Int(address.segment)].storedValues(Int(address.doc), only: field).map(\.1)
    }

    /// The raw (unanalyzed, unfolded) stored text of a field, for case/diacritic-sensitive verification.
    public func text(_ field: FieldID, of address: DocAddress) -> [String] {
        valid(address) ? segments[Int(address.segment)].storedTexts(Int(address.doc), field: field) : []
    }

    /// Whether some raw stored text value of `field` satisfies `test`, given its UTF-8 bytes (valid UTF-8,
    /// as indexed): verifies a candidate without building a string per value.
    package func containsText(_ field: FieldID, of address: DocAddress,
                              where test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard valid(address) else { return false }
        return segments[Int(address.segment)].withStoredRecord(Int(address.doc), holding: field) {
            StoredFields.anyText($0, field: field, where: test)
        }
    }

    /// The live documents (ascending) that may have a value of `field` starting with `prefix`, a text already
    /// normalized by `Folding.foldCollapsingWhitespace`: every one that has, and possibly others that share its
    /// first eight bytes; nil when there are more than `limit`. Each segment's `LeadingKeys` is built on first use.
    package func documents(_ field: FieldID, mayStartWith prefix: String, limit: Int) -> [DocAddress]? {
        let bytes = Array(prefix.utf8)
        // Counted first, so a wide prefix ("l") gives up before sorting thousands of candidates.
        var counted = 0
        for ordinal in segments.indices {
            guard let count = segments[ordinal].leadingKeys(for: field).liveCount(bytes, alive: live[ordinal]) else { break }
            counted += count
            if counted > limit { return nil }
        }
        var found: [DocAddress] = []
        for ordinal in segments.indices {
            let alive = live[ordinal]
            for doc in segments[ordinal].leadingKeys(for: field).candidates(bytes) where alive[Int(doc)] {
                found.append(DocAddress(segment: UInt32(ordinal), doc: doc))
                if found.count > limit { return nil }
            }
        }
        return found
    }

    /// Each segment's `LeadingKeys` of `field`, by ordinal, built on first use: a per-document signal reads how a
    /// document's value begins (`LeadingKeys.head(of:)`) without reading its stored record.
    package func leadingKeys(_ field: FieldID) -> [LeadingKeys] { segments.map { $0.leadingKeys(for: field) } }

    public func id(of address: DocAddress) -> String? {
        valid(address) ? segments[Int(address.segment)].id(Int(address.doc)) : nil
    }

    public func domain(of address: DocAddress) -> String? {
        valid(address) ? segments[Int(address.segment)].domain(Int(address.doc)) : nil
    }

    /// The live document with an external id.
    public func lookup(id: String) -> DocAddress? {
        for ordinal in segments.indices.reversed() {
            for doc in segments[ordinal].documents(withID: id).reversed() where live[ordinal][doc] {
                return DocAddress(segment: UInt32(ordinal), doc: UInt32(doc))
            }
        }
        return nil
    }

    /// The numeric column values of a document's field.
    public func numbers(_ field: FieldID, of address: DocAddress) -> [Double] {
        valid(address) ? Array(segments[Int(address.segment)].numbers(field, Int(address.doc))) : []
    }

    /// The first numeric value of a document's field, without building an array (per-candidate checks).
    public func firstNumber(_ field: FieldID, of address: DocAddress) -> Double? {
        valid(address) ? segments[Int(address.segment)].numbers(field, Int(address.doc)).first : nil
    }

    /// Sorts documents by a numeric field (smallest value ascending, largest descending; documents
    /// without a value last, ties by address).
    public func sorted(_ addresses: [DocAddress], by field: FieldID, ascending: Bool = true) -> [DocAddress] {
        let keyed = addresses.map { address -> (DocAddress, Double?) in
            let values = numbers(field, of: address)
            return (address, ascending ? values.min() : values.max())
        }
        return keyed.sorted { a, b in
            switch (a.1, b.1) {
            case let (x?, y?) where x != y: return ascending ? x < y : x > y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.0 < b.0
            }
        }.map(\.0)
    }

    // MARK: Term dictionary

    private func fieldIDs(_ scope: FieldScope) -> [Int] { QueryPlanner(snapshot: self).resolve(scope) }

    private func collectTerms(_ scope: FieldScope, _ indices: (FieldTerms) -> [Int]) -> [TermInfo] {
        let fields = fieldIDs(scope)
        return collectTerms(fields, lists: fields.map { field in
            segments.compactMap { segment in segment.terms(FieldID(rawValue: UInt16(field))).map { ($0, indices($0)) } }
        })
    }

    /// The terms of per-field lists of (dictionary, term indices), document frequencies summed per field.
    private func collectTerms(_ fields: [Int], lists: [[(terms: FieldTerms, indices: [Int])]]) -> [TermInfo] {
        var result: [TermInfo] = []
        for (field, fieldLists) in zip(fields, lists) {
            var found: [String: Int] = [:]
            for (terms, indices) in fieldLists {
                for index in indices { found[terms.term(index), default: 0] += Int(terms.docFreq[index]) }
            }
            // The stand-in for overlong words is no term to list or suggest.
            found[Analyzer.overlongTerm] = nil
            for (term, df) in found {
                result.append(TermInfo(term: term, field: FieldID(rawValue: UInt16(field)), documentFrequency: df))
            }
        }
        return result.sorted { $0.documentFrequency != $1.documentFrequency ? $0.documentFrequency > $1.documentFrequency
            : $0.term != $1.term ? $0.term < $1.term : $0.field < $1.field }
    }

    /// How many documents hold a word longer than `Analyzer.maxTermBytes` in `field` (deleted ones included until
    /// merged), as `Analyzer.overlongTerm`; nil when none does. Such words have no term of their own, so a pattern
    /// that may match inside one takes these documents as candidates too.
    public func overlongWords(in field: FieldID) -> TermInfo? {
        let df = Analyzer.overlongBytes.withUnsafeBufferPointer { key in
            segments.reduce(0) { sum, segment in
                guard let terms = segment.terms(field), let index = terms.find(key) else { return sum }
                return sum + Int(terms.docFreq[index])
            }
        }
        return df > 0 ? TermInfo(term: Analyzer.overlongTerm, field: field, documentFrequency: df) : nil
    }

    /// Those of `candidates` (already folded terms) that the field's dictionary holds, with their document
    /// frequencies summed over the segments: exact lookups, no walk of a prefix range.
    package func terms(exactly candidates: [String], in field: FieldID) -> [TermInfo] {
        candidates.compactMap { term in
            let df = Array(term.utf8).withUnsafeBufferPointer { key in
                segments.reduce(0) { sum, segment in
                    guard let terms = segment.terms(field), let index = terms.find(key) else { return sum }
                    return sum + Int(terms.docFreq[index])
                }
            }
            return df > 0 ? TermInfo(term: term, field: field, documentFrequency: df) : nil
        }
    }

    /// Dictionary terms starting with the folded prefix (for suggestions), most frequent first.
    public func terms(withPrefix prefix: String, in scope: FieldScope = .defaultFields, limit: Int = 20) -> [TermInfo] {
        let key = Array(QueryPlanner.foldedPrefix(prefix).utf8)
        return Array(collectTerms(scope) { terms in key.withUnsafeBufferPointer { Array(terms.prefixRange($0)) } }.prefix(limit))
    }

    /// The `limit` dictionary terms starting with the folded prefix that the most documents hold, their document
    /// frequencies summed over the fields of `scope` and the segments (deleted documents count until merged), most
    /// first, ties in byte order: a word's completions. The prefix's runs are merged on their bytes and a String is
    /// made for each term kept only (`terms(withPrefix:)` makes one per field and segment entry, then sorts them all).
    /// A term no live document holds is left out: deleted documents' terms, kept until a merge, would crowd out
    /// live ones.
    package func topTerms(withPrefix prefix: String, in scope: FieldScope = .defaultFields,
                          limit: Int) -> [(term: String, documentFrequency: Int)] {
        let key = Array(QueryPlanner.foldedPrefix(prefix).utf8)
        var lists: [FieldTerms] = [], ranges: [Range<Int>] = [], owners: [(ordinal: Int, field: Int)] = []
        for field in fieldIDs(scope) {
            for (ordinal, segment) in segments.enumerated() {
                guard let terms = segment.terms(FieldID(rawValue: UInt16(field))) else { continue }
                let range = key.withUnsafeBufferPointer { terms.prefixRange($0) }
                if !range.isEmpty {
                    lists.append(terms)
                    ranges.append(range)
                    owners.append((ordinal, field))
                }
            }
        }
        // Whether a live document holds a holder's term: at once without deletions in its segment, else its first
        // live posting.
        let complete = segments.indices.map { live[$0].cardinality == segments[$0].documentCount }
        func holdsLive(_ holder: (list: Int, index: Int)) -> Bool {
            let (ordinal, field) = owners[holder.list]
            if complete[ordinal] { return lists[holder.list].docFreq[holder.index] > 0 }
            let cursor = PostingCursor(segment: segments[ordinal]), alive = live[ordinal]
            cursor.position(terms: lists[holder.list], index: holder.index, field: field)
            while cursor.next() != PostingCursor.end {
                if alive[cursor.doc] { return true }
            }
            return false
        }
        var top = TopTerms(limit: limit)
        TermListMerge.merge(lists, ranges: ranges) { term, holders in
            // The stand-in for overlong words is no term to suggest.
            guard !term.elementsEqual(Analyzer.overlongBytes) else { return }
            let df = holders.reduce(0) { $0 + Int(lists[$1.list].docFreq[$1.index]) }
            guard top.wouldKeep(term, documentFrequency: df), holders.contains(where: holdsLive) else { return }
            top.offer(term, documentFrequency: df)
        }
        return top.ranked()
    }

    /// Dictionary terms satisfying a predicate (infix and suffix wildcards), scanning the dictionary only.
    public func terms(in scope: FieldScope = .defaultFields, where predicate: (String) -> Bool) -> [TermInfo] {
        collectTerms(scope) { terms in (0..<terms.count).filter { predicate(terms.term($0)) } }
    }

    /// The default typo budget of a folded term (`maxEdits` nil): 1 edit from 5 characters, 2 from 9, none for a
    /// number.
    package static func typoBudget(_ term: String) -> Int { QueryPlanner.typoBudget(term) }

    /// The typo budget of a word of `length` characters: none below 5, 1 from 5, 2 from 9.
    package static func typoBudget(length: Int) -> Int { QueryPlanner.typoBudget(length: length) }

    /// Dictionary terms within `maxEdits` edits of the folded text (nil: 1 from 5 characters, 2 from 9, none for a
    /// number).
    public func fuzzyTerms(_ text: String, maxEdits: Int? = nil, in scope: FieldScope = .defaultFields) -> [TermInfo] {
        let term = QueryPlanner.foldedPrefix(text)
        let edits = min(max(maxEdits ?? QueryPlanner.typoBudget(term), 0), 2)
        let key = Array(term.utf8)
        let planner = QueryPlanner(snapshot: self)
        let fields = planner.resolve(scope)
        let near = planner.nearTerms(key, maxEdits: edits, scope: fields)
        return collectTerms(fields, lists: near.map { lists in lists.map { ($0.terms, $0.indices) } })
    }

    /// The near terms a `.fuzzy` query of `text` expands to, as it keeps them (at most `maxExpansions` (field,
    /// term) pairs, `QueryPlanner.nearest`): for highlighting what a typo-tolerant word found, and no more.
    public func fuzzyExpansions(_ text: String, maxEdits: Int? = nil, in scope: FieldScope = .defaultFields) -> Set<String> {
        let planner = QueryPlanner(snapshot: self)
        guard case .group(let entries, _, _) = planner.plan(.fuzzy(text, maxEdits: maxEdits), scope: planner.resolve(scope))
        else { return [] }
        return Set(entries.map { String(decoding: $0.term, as: UTF8.self) })
    }

    /// The near prefixes a `.fuzzyPrefix` query of `text` expands (`maxEdits` nil: the default typo budget), in
    /// byte order: every term starting with one matches it (for highlighting what a word being typed found).
    public func fuzzyPrefixes(_ text: String, maxEdits: Int? = nil, in scope: FieldScope = .defaultFields) -> [String] {
        let term = QueryPlanner.foldedPrefix(text)
        guard !term.isEmpty else { return [] }
        let edits = min(max(maxEdits ?? QueryPlanner.typoBudget(term), 0), 2)
        let planner = QueryPlanner(snapshot: self)
        return planner.nearestPrefixes(Array(term.utf8), maxEdits: edits, scope: planner.resolve(scope))
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// Builds what typo-tolerant searches over `scope` walk: each segment's vocabulary and the one across
    /// segments (shared with the writer's later snapshots while it covers them), so the first such search after
    /// opening a store or a bulk load does not pay for them. A no-op when they are built already, or when the
    /// scope is one field (whose own dictionary is walked).
    public func prepareFuzzySearch(in scope: FieldScope = .defaultFields) {
        let fields = QueryPlanner(snapshot: self).resolve(scope)
        guard QueryPlanner.walksVocabularies(fields) else { return }
        // The snapshot vocabulary builds its segments' vocabularies; without one (a single segment, or more
        // than it can index), each segment is walked over its own.
        guard vocabularies.vocabulary(for: segments, scope: fields) == nil else { return }
        for segment in segments { _ = segment.vocabulary(for: fields) }
    }

    /// Builds every segment's `LeadingKeys` of `field` (what `documents(_:mayStartWith:limit:)` reads), so the
    /// first search that names documents by how they begin does not pay for them.
    package func prepareLeadingKeys(_ field: FieldID) {
        for segment in segments { _ = segment.leadingKeys(for: field) }
    }

    // MARK: Stats

    /// Estimated bytes per component (postings, positions, skip data, term dictionary, stored, ids, norms,
    /// numeric, vocabulary, live bits), summed over segments: they add up to `stats.estimatedMemoryBytes`.
    public var memoryBreakdown: [String: Int] {
        var total: [String: Int] = [:]
        for segment in segments { total.merge(segment.memoryBreakdown, uniquingKeysWith: +) }
        total["vocabulary", default: 0] += vocabularies.memoryBytes
        total["nearTerms", default: 0] += vocabularies.nearTermsMemoryBytes
        total["liveBits"] = live.reduce(0) { $0 + $1.memoryBytes }
        return total
    }

    public var stats: IndexStats {
        let total = segments.reduce(0) { $0 + $1.documentCount }
        return IndexStats(documents: documentCount, deletedDocuments: total - documentCount,
                          terms: segments.reduce(0) { $0 + $1.termCount }, segments: segments.count,
                          estimatedMemoryBytes: segments.reduce(0) { $0 + $1.memoryBytes } + live.reduce(0) { $0 + $1.memoryBytes }
                              + vocabularies.memoryBytes + vocabularies.nearTermsMemoryBytes)
    }
}

/// A scoring iterator restricted to the documents of a non-scoring filter.
final class FilteredIterator: DocIterator {
    let scoring: DocIterator
    let filter: DocIterator
    init(scoring: DocIterator, filter: DocIterator) {
        self.scoring = scoring
        self.filter = filter
    }
    override func next() -> Int { align(scoring.next()) }
    override func advance(_ target: Int) -> Int { align(scoring.advance(target)) }
    private func align(_ start: Int) -> Int {
        var candidate = start
        while candidate != Self.end {
            let f = filter.advance(candidate)
            if f == candidate { break }
            candidate = scoring.advance(f)
        }
        doc = candidate
        return doc
    }
    override func score() -> Float { scoring.score() }
    override var cost: Int { min(scoring.cost, filter.cost) }
    override func explain() -> Explanation { scoring.explain() }
    override func blockBound() -> (bound: Float, upTo: Int)? { scoring.blockBound() }
}
