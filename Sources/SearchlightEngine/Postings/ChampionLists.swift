import Synchronization

/// For each term and prefix with many postings in a segment's default fields, the documents that rank first for
/// it alone: a ranked search for one word or one prefix reads these few documents instead of decoding thousands
/// of postings ("champion lists": Manning, Raghavan and Schütze, *Introduction to Information Retrieval*, §7.1.3).
///
/// A list keeps the segment's best `capacity` documents by the word's BM25F score without its idf (a factor
/// common to every document, so it changes no order), computed with the segment's own field averages; with each
/// document, what scoring it again takes (its frequency in each field, its primary-field flags); and `bound`, the
/// score of the best document left out. A search scores the listed documents with the snapshot's statistics.
/// When the snapshot holds other segments its field averages differ from this segment's, which changes any
/// document's score by at most a factor (`stretch`), so no document left out scores above idf × stretch × bound.
/// When the k-th hit beats that, the listed documents hold the exact top k; otherwise the search runs in full
/// (`IndexSnapshot.championSearch`).
///
/// A key's list is built by the first ranked search that can use it (`list(_:prefix:in:)`), from the same postings
/// that search would otherwise read, and kept for the segment's life (a key with fewer than `minimumPostings`
/// postings gets none, and is not remembered). Nothing is built while indexing, except that a background merge
/// rebuilds its sources' lists for the merged segment, and only keys that are searched take memory. Never
/// written to disk.
///
/// A key's cover (`Cover`) is a deeper list of the same ranking, `coverCapacity` documents with their scores and
/// nothing to rescore them with: a ranked conjunction of two frequent keys scores the heads of its keys' covers
/// and stops once no document further down can place (`IndexSnapshot.championConjunction`). Covers are built like
/// lists, on first use, and forgotten all at once when they pass `coverBudget` (type-ahead asks for a new prefix
/// at every keystroke); a merge does not rebuild them.
final class ChampionLists: Sendable {
    /// What the lists rank for: the default fields (in the planner's scope order) with their weights and primary
    /// flags, and the ranking parameters. A snapshot whose scope differs does not use them.
    struct Scope: Sendable, Equatable {
        let fields: [Int]
        let weights: [Float]
        let primary: [Bool]
        let parameters: RankingParameters

        /// The scope of `schema`'s default fields; nil when the bound does not hold for it: more fields than a
        /// mask has bits, or a weight or parameter that could make a score negative or not finite.
        init?(schema: Schema, parameters: RankingParameters) {
            fields = schema.defaultFieldNumbers
            let infos = fields.map { schema.info(FieldID(rawValue: UInt16($0))) }
            weights = infos.map { $0?.options.weight ?? 1 }
            primary = infos.map { $0?.options.primary ?? false }
            self.parameters = parameters
            let p = parameters
            guard !fields.isEmpty, fields.count <= ChampionLists.maximumFields,
                  weights.allSatisfy({ $0 > 0 && $0.isFinite }), p.k1 > 0, p.k1.isFinite, p.b >= 0, p.b <= 1,
                  p.primaryPrefixBoost >= 0, p.primaryPrefixBoost.isFinite,
                  p.primaryExactBoost >= 0, p.primaryExactBoost.isFinite else { return nil }
        }
    }

    /// One key's list in one segment.
    final class List: Sendable {
        /// The score without idf of the best document left out; −∞ when every match is listed.
        let bound: Float
        /// One per scope position: the document frequency a query plan takes the idf from, in this segment. A
        /// term's own frequency in the field (0 when absent); for a prefix, the largest of its terms' in the field.
        /// A lone key can then be scored without planning.
        let docFreq: [UInt32]
        /// Per entry, best first: the document, the scope positions where it has the key (a bit each), its flags
        /// (bit 0: the key starts a primary field, bit 1: it equals one).
        let docs: [UInt32]
        let masks: [UInt32]
        let flags: [UInt8]
        /// Frequencies (summed over a prefix's terms) in mask order, and the document's norm code in each of those
        /// fields: scoring a list reads no norm column (a random access per document and field).
        let tfs: [UInt16]
        let norms: [UInt8]

        init(bound: Float, docFreq: [UInt32], docs: [UInt32], masks: [UInt32], flags: [UInt8], tfs: [UInt16],
             norms: [UInt8]) {
            self.bound = bound
            self.docFreq = docFreq.compacted()
            self.docs = docs.compacted()
            self.masks = masks.compacted()
            self.flags = flags.compacted()
            self.tfs = tfs.compacted()
            self.norms = norms.compacted()
        }

        /// Heap bytes: the arrays' elements, and their headers and the object's (about 32 and 16 bytes).
        var memoryBytes: Int {
            16 + 6 * 32 + 4 + 4 * (docFreq.count + docs.count + masks.count) + flags.count + 2 * tfs.count + norms.count
        }
    }

    /// One key's best `coverCapacity` documents in one segment, for a ranked conjunction
    /// (`IndexSnapshot.championConjunction`): the documents that score best for the key alone, in order, with
    /// their scores, and what any other scores at most.
    final class Cover: Sendable {
        /// The score without idf of the best document left out; −∞ when every match is listed.
        let bound: Float
        /// The listed documents, best first, and each one's score without idf (as `bound` is).
        let docs: [UInt32]
        let scores: [Float]

        init(bound: Float, docs: [UInt32], scores: [Float]) {
            self.bound = bound
            self.docs = docs.compacted()
            self.scores = scores.compacted()
        }

        /// Heap bytes: the arrays' elements and headers, and the object's.
        var memoryBytes: Int { 16 + 2 * 32 + 4 + 8 * docs.count }
    }

    /// Documents kept per list (more when the last ones tie): a page of 20 with room for deletions.
    static let capacity = 32
    /// Documents kept per cover (more when the last ones tie): deep enough that two stopwords' covers vouch for
    /// a page of 20 on debian-en ("the and" needs all 2,048 of each; 512 did not vouch).
    static let coverCapacity = 2_048
    /// Documents kept per phrase cover: a phrase of two frequent words reads one word's ranking until no document
    /// further down can place (`IndexSnapshot.coverPhrase`), which on debian-en takes "for" 2,656 documents deep
    /// for "for the"; at 4,096 the phrase p99 rose from 327–339 to 461–515 µs (covers that ended before they could
    /// vouch). A cover is ranked on first use, about 1.5 ms for a frequent word on debian-en (keeping and sorting the
    /// best twice the depth).
    static let phraseCoverCapacity = 8_192
    /// Bytes of covers kept per kind (terms, prefixes) and segment before they are all forgotten.
    static let coverBudget = 4 << 20
    /// A key gets a list when its postings in the default fields (summed over a prefix's terms) reach this.
    static let minimumPostings = 512
    /// Bits of an entry's mask.
    static let maximumFields = 32

    let scope: Scope
    /// Per scope position: the segment's average field length the lists are ranked with, and the longest value
    /// of the field in the segment (0: no document has the field).
    let averages: [Float]
    let longest: [Float]
    /// Documents ranked at a time (tests vary it: the lists do not depend on it).
    let window: Int

    /// The lists built so far, by key: terms' and prefixes'.
    private let terms = DerivedCache<[UInt8], List>(cost: ChampionLists.cost)
    private let prefixes = DerivedCache<[UInt8], List>(cost: ChampionLists.cost)
    /// The covers built so far, by key, within `coverBudget` each.
    private let coverTerms = DerivedCache<[UInt8], Cover>(budget: ChampionLists.coverBudget, cost: ChampionLists.coverCost)
    private let coverPrefixes = DerivedCache<[UInt8], Cover>(budget: ChampionLists.coverBudget, cost: ChampionLists.coverCost)
    /// The phrase covers built so far, by term, within `coverBudget`.
    private let phraseCovers = DerivedCache<[UInt8], Cover>(budget: ChampionLists.coverBudget, cost: ChampionLists.coverCost)

    /// Heap bytes of a kept cover and its key.
    @Sendable private static func coverCost(_ key: [UInt8], _ cover: Cover?) -> Int {
        32 + 16 + key.count + (cover?.memoryBytes ?? 0)
    }

    /// Heap bytes of a kept list and its key (with the key array's header and the table's share).
    @Sendable private static func cost(_ key: [UInt8], _ list: List?) -> Int { 32 + 16 + key.count + (list?.memoryBytes ?? 0) }

    /// The lists of `segment` for `scope`, none built yet.
    init(segment: Segment, scope: Scope, window: Int = 1 << 16) {
        self.scope = scope
        self.window = max(window, 1)
        // As a snapshot of this segment alone computes them.
        averages = scope.fields.map { field in
            guard field < segment.lengthSum.count, field < segment.fieldDocCount.count else { return 1 }
            return FieldNorm.averageLength(sum: segment.lengthSum[field], documents: UInt64(segment.fieldDocCount[field]))
        }
        longest = scope.fields.map { field in
            guard field < segment.fieldDocCount.count, segment.fieldDocCount[field] > 0, field < segment.norms.count else { return 0 }
            return FieldNorm.lengths[Int(segment.norms[field].max() ?? 0)]
        }
    }

    /// Bytes of the lists built so far.
    var memoryBytes: Int {
        terms.memoryBytes + prefixes.memoryBytes + coverTerms.memoryBytes + coverPrefixes.memoryBytes
            + phraseCovers.memoryBytes + 8 * averages.count
    }

    /// The keys whose lists were built.
    var keysBuilt: (terms: [[UInt8]], prefixes: [[UInt8]]) { (terms.keysWithValues, prefixes.keysWithValues) }

    /// Keys kept: with a list, or remembered as unlistable (a frequency beyond 16 bits) (tests).
    var keysSeen: Int { terms.count + prefixes.count }

    /// The list of `key` (a folded term, or a prefix when `prefix`) in `segment`, the segment these lists are of;
    /// nil when the key has fewer than `minimumPostings` postings in the default fields or a frequency that does
    /// not fit 16 bits. Built on first use and kept (`DerivedCache`: concurrent first uses wait for one build).
    func list(_ key: [UInt8], prefix: Bool, in segment: Segment) -> List? {
        if prefix { return prefixes.value(key) { makeList(prefixPostings(key, segment: segment), segment: segment) } }
        return terms.value(key) { makeList(termPostings(key, segment: segment), segment: segment) }
    }

    /// The cover of `key` (a folded term, or a prefix when `prefix`) in `segment`; nil, as for `list`, when the
    /// key has fewer than `minimumPostings` postings or a frequency beyond 16 bits.
    func cover(_ key: [UInt8], prefix: Bool, in segment: Segment) -> Cover? {
        if prefix { return coverPrefixes.value(key) { makeCover(prefixPostings(key, segment: segment), segment: segment) } }
        return coverTerms.value(key) { makeCover(termPostings(key, segment: segment), segment: segment) }
    }

    /// The deeper cover of term `key` a phrase reads (`phraseCoverCapacity` documents); nil as for `cover`.
    func phraseCover(_ key: [UInt8], in segment: Segment) -> Cover? {
        phraseCovers.value(key) {
            makeCover(termPostings(key, segment: segment), segment: segment, depth: Self.phraseCoverCapacity)
        }
    }

    // MARK: Searching

    /// The largest factor by which a document's score without idf can exceed its value in these lists under a
    /// snapshot whose field averages are `snapshotAverages` (indexed by field). A field's length factor
    /// `1 / (1 − b + b·length/average)` grows with the average, by a ratio that grows with the length: at most
    /// the ratio at the segment's longest value of the field (a field no document has changes nothing). The BM25
    /// saturation grows by at most the factor its weighted frequency grew by.
    func stretch(averages snapshotAverages: [Float]) -> Float {
        let b = scope.parameters.b
        guard b > 0 else { return 1 }
        var stretch: Float = 1
        for (position, field) in scope.fields.enumerated() where longest[position] > 0 {
            let now = field < snapshotAverages.count ? snapshotAverages[field] : 1
            let built = averages[position], length = longest[position]
            guard now > built else { continue }
            stretch = max(stretch, (1 - b + b * length / built) / (1 - b + b * length / now))
        }
        return stretch
    }

    /// Scores the live documents of `list` in segment `ordinal` with the snapshot's length factors (`factors`, by
    /// field) and `idf`, as a term group does, into `top`.
    func collect(_ list: List, ordinal: Int, alive: Bitset, factors: [[Float]], idf: Float, into top: inout TopK) {
        let parameters = scope.parameters
        var t = 0
        for entry in list.docs.indices {
            let doc = Int(list.docs[entry])
            var mask = list.masks[entry]
            guard alive[doc] else {
                t += mask.nonzeroBitCount
                continue
            }
            // Field by field in scope order, as the group's sources add up.
            var weighted: Float = 0
            while mask != 0 {
                let position = mask.trailingZeroBitCount
                mask &= mask - 1
                weighted += Float(list.tfs[t]) * factors[scope.fields[position]][Int(list.norms[t])]
                t += 1
            }
            let flags = list.flags[entry]
            let score = MaterializedGroupIterator.score(weighted, boost: 1, idf: idf, parameters: parameters,
                                                        startsPrimary: flags & 1 != 0, equalsPrimary: flags & 2 != 0)
            top.insert(SearchHit(address: DocAddress(segment: UInt32(ordinal), doc: UInt32(doc)), score: score))
        }
    }

    // MARK: Building

    /// The terms a list of `key` ranks (with their scope positions) and its document frequency per position; nil
    /// when the key has fewer than `minimumPostings` postings in the default fields.
    private typealias Found = (terms: [(Int, QueryPlanner.FoundTerm)], docFreq: [UInt32])

    /// Term `key`: its postings in each default field.
    private func termPostings(_ key: [UInt8], segment: Segment) -> Found? {
        var found: [(Int, QueryPlanner.FoundTerm)] = []
        var docFreq = [UInt32](repeating: 0, count: scope.fields.count)
        var postings = 0
        key.withUnsafeBufferPointer { key in
            for (position, field) in scope.fields.enumerated() {
                guard let dictionary = segment.terms(FieldID(rawValue: UInt16(field))),
                      let index = dictionary.find(key) else { continue }
                found.append((position, .init(field: field, terms: dictionary, index: index, isExact: true)))
                docFreq[position] = dictionary.docFreq[index]
                postings += Int(dictionary.docFreq[index])
            }
        }
        guard postings >= Self.minimumPostings else { return nil }
        return (found, docFreq)
    }

    /// Prefix `key`, read as a prefix query reads it: the key itself when a term, and a wide prefix's precomputed
    /// list or else each longer term. Its postings are counted over every term that starts with it.
    private func prefixPostings(_ key: [UInt8], segment: Segment) -> Found? {
        var ranges: [(position: Int, field: Int, dictionary: FieldTerms, range: Range<Int>)] = []
        var postings = 0
        key.withUnsafeBufferPointer { key in
            for (position, field) in scope.fields.enumerated() {
                guard let dictionary = segment.terms(FieldID(rawValue: UInt16(field))) else { continue }
                let range = dictionary.prefixRange(key)
                guard !range.isEmpty else { continue }
                ranges.append((position, field, dictionary, range))
                // Counted before the terms are gathered, up to the minimum: most keys fall short.
                var index = range.lowerBound
                while index < range.upperBound, postings < Self.minimumPostings {
                    postings += Int(dictionary.docFreq[index])
                    index += 1
                }
            }
        }
        guard postings >= Self.minimumPostings else { return nil }
        var found: [(Int, QueryPlanner.FoundTerm)] = []
        var docFreq = [UInt32](repeating: 0, count: scope.fields.count)
        key.withUnsafeBufferPointer { key in
            for (position, field, dictionary, range) in ranges {
                let (place, largest) = QueryPlanner.prefixPlace(key, range: range, terms: dictionary, segment: segment,
                                                                field: field, primary: scope.primary[position])
                docFreq[position] = UInt32(largest)
                for term in QueryPlanner.foundTerms(place, field: field, terms: dictionary, segment: segment) {
                    found.append((position, term))
                }
            }
        }
        return (found, docFreq)
    }

    /// The list of `found`'s key.
    private func makeList(_ found: Found?, segment: Segment) -> DerivedCache<[UInt8], List>.Outcome {
        guard let found else { return .absent }
        guard let ranked = rank(found.terms, depth: Self.capacity, frequencies: true, segment: segment) else { return .absentForGood }
        let (best, columns) = ranked
        var docs: [UInt32] = [], masks: [UInt32] = [], flags: [UInt8] = [], tfs: [UInt16] = [], norms: [UInt8] = []
        for entry in best.entries {
            var mask: UInt32 = 0
            for (position, tf) in entry.frequencies.enumerated() where tf > 0 {
                mask |= 1 << UInt32(position)
                tfs.append(tf)
                norms.append(columns[position][entry.doc])
            }
            docs.append(UInt32(entry.doc))
            masks.append(mask)
            flags.append(entry.flags)
        }
        return .value(List(bound: best.bound, docFreq: found.docFreq, docs: docs, masks: masks, flags: flags, tfs: tfs,
                           norms: norms))
    }

    /// The cover of `found`'s key.
    private func makeCover(_ found: Found?, segment: Segment,
                           depth: Int = ChampionLists.coverCapacity) -> DerivedCache<[UInt8], Cover>.Outcome {
        guard let found else { return .absent }
        guard let (best, _) = rank(found.terms, depth: depth, frequencies: false, segment: segment) else { return .absentForGood }
        return .value(Cover(bound: best.bound, docs: best.entries.map { UInt32($0.doc) }, scores: best.entries.map(\.score)))
    }

    /// The best `depth` documents for `terms` (more when the last ones tie), with their flags and frequencies when
    /// `frequencies`, and the norm columns read; nil when a frequency does not fit 16 bits.
    private func rank(_ terms: [(Int, QueryPlanner.FoundTerm)], depth: Int, frequencies: Bool, segment: Segment)
        -> (best: (entries: [(doc: Int, flags: UInt8, frequencies: [UInt16], score: Float)], bound: Float),
            columns: [[UInt8]])? {
        // Per scope position, the length factors of the 256 norm codes under `averages`, one table after another.
        var factorTable: [Float] = []
        for (weight, average) in zip(scope.weights, averages) {
            factorTable += FieldNorm.lengthFactors(weight: weight, average: average, b: scope.parameters.b)
        }
        let columns = scope.fields.map { Self.normColumn(segment, field: $0) }
        guard let best = Ranking.withScratch(stride: Self.recordStride(positions: scope.fields.count),
                                             records: min(segment.documentCount, window), {
            Ranking(segment: segment, scope: scope, factorTable: factorTable, columns: columns, window: window,
                    scratch: $0, depth: depth, keepsFrequencies: frequencies).rank(terms)
        }) else { return nil }
        return (best, columns)
    }

    /// `field`'s norm codes in `segment`, one per document (0 where the column stops short, as for a field added
    /// after the documents).
    static func normColumn(_ segment: Segment, field: Int) -> [UInt8] {
        let column = field < segment.norms.count ? segment.norms[field] : []
        if column.count >= segment.documentCount { return column }
        return column + [UInt8](repeating: 0, count: segment.documentCount - column.count)
    }

    /// Bytes per ranking record: weight (Float) at 0, stamp (UInt32) at 4, flags at 8, then a UInt16 frequency per
    /// scope position from 10, rounded up to 8.
    static func recordStride(positions: Int) -> Int { (10 + 2 * positions + 7) & ~7 }

    /// Idle ranking scratches (`Ranking.withScratch`), kept for the process's life: at most 4, of up to 65,536
    /// records each (about 1.5 MB for the default fields). Tests seed one.
    static let scratchPool = ScratchPool<Scratch>(limit: 4) { $0.capacity }

    /// The records a ranking accumulates into, kept between builds (a build needs up to a window of them, about
    /// 1.5 MB, which a fresh allocation would also have to clear). A record is the current window's only when it
    /// carries the window's stamp, and stamps only grow, so a reused scratch needs no clearing.
    final class Scratch: @unchecked Sendable {
        // `@unchecked Sendable` is sound: a scratch is used by one build at a time (taken out of the pool).
        let stride: Int
        let capacity: Int
        let records: UnsafeMutableRawPointer
        let touched: UnsafeMutablePointer<UInt32>
        /// The last window's stamp (0: none yet).
        var stamp: UInt32 = 0

        init(stride: Int, capacity: Int) {
            self.stride = stride
            self.capacity = max(capacity, 1)
            records = .allocate(byteCount: stride * self.capacity, alignment: 8)
            records.initializeMemory(as: UInt8.self, repeating: 0, count: stride * self.capacity)
            touched = .allocate(capacity: self.capacity)
        }

        deinit {
            records.deallocate()
            touched.deallocate()
        }

        /// The stamp of a new window. On wrapping around, the records are cleared: none may carry it already.
        func nextStamp() -> UInt32 {
            stamp &+= 1
            if stamp == 0 {
                records.initializeMemory(as: UInt8.self, repeating: 0, count: stride * capacity)
                stamp = 1
            }
            return stamp
        }
    }

    /// Accumulates one key's postings over the segment, a window of documents at a time, and keeps its best
    /// documents.
    ///
    /// Each document of the window has one record (weighted frequency, the window it was last touched for,
    /// primary flags, and a frequency per scope position), so a posting touches one cache line, and a record
    /// left by an earlier window is reset when first touched for the next one: no pass clears the records.
    private struct Ranking {
        let segment: Segment
        let scope: Scope
        let factorTable: [Float]
        /// Per scope position, the field's norm codes (`normColumn`).
        let columns: [[UInt8]]
        let window: Int
        let scratch: Scratch
        /// Documents kept (`capacity` for a list, `coverCapacity` for a cover), and whether with their flags and
        /// frequencies (a list's; a cover needs only documents and scores).
        let depth: Int
        let keepsFrequencies: Bool

        static let frequencyOffset = 10


        /// Calls `body` with a scratch of at least `records` records of `stride` bytes, taken from the pool or made.
        static func withScratch<R>(stride: Int, records: Int, _ body: (Scratch) -> R) -> R {
            let wanted = max(records, 1)
            let scratch = ChampionLists.scratchPool.take { $0.stride == stride && $0.capacity >= wanted }
                ?? Scratch(stride: stride, capacity: wanted)
            let result = body(scratch)
            ChampionLists.scratchPool.give(scratch)
            return result
        }

        /// One term's postings (or a prefix list's), read a window at a time.
        struct Stream {
            let cursor: PostingCursor?
            let list: PrefixPostings?
            var doc: Int
            /// A list's read position: byte offset and postings left.
            var offset = 0
            var remaining = 0

            /// A term's stream reads with a cursor of its own; a list's needs none.
            init(_ term: QueryPlanner.FoundTerm, segment: Segment) {
                if let lists = term.prefixes {
                    cursor = nil
                    list = lists
                    remaining = Int(lists.postingCount[term.index])
                    offset = remaining > 0 ? Int(lists.blockOffset[Int(lists.firstBlock[term.index])]) : 0
                    doc = 0
                    return
                }
                let cursor = PostingCursor(segment: segment, terms: term.terms, index: term.index, field: term.field)
                self.cursor = cursor
                list = nil
                doc = cursor.next()
            }

            /// Calls `body` with each posting before document `end`: document, frequency, and whether the term
            /// (for a list: one of its terms) starts the field, asked only when `starts` (it decodes positions).
            @inline(__always)
            mutating func read(upTo end: Int, starts wanted: Bool, _ body: (Int, UInt32, Bool) -> Void) {
                if let cursor {
                    while doc != PostingCursor.end, doc < end {
                        body(doc, cursor.tf, wanted && cursor.firstPosition() == 0)
                        doc = cursor.next()
                    }
                    return
                }
                guard let list, remaining > 0 else { return }
                list.bytes.withUnsafeBufferPointer { bytes in
                    while remaining > 0, offset < bytes.count {
                        // The next posting, decoded ahead of knowing whether it is in this window: its delta
                        // applies to `doc`, the last one read.
                        var next = offset
                        let (delta, tf, starts) = PrefixPostings.decode(bytes, &next)
                        let at = doc + Int(delta)
                        guard at < end else { return }
                        body(at, tf, wanted && starts)
                        doc = at
                        offset = next
                        remaining -= 1
                    }
                }
            }
        }

        /// Accumulates `terms` (scored as `MaterializedGroupIterator` scores them) and returns the best
        /// `depth` documents, best first, with the score of the next one (−∞: none); nil when a frequency
        /// does not fit the list's 16 bits.
        ///
        /// The segment is taken `window` documents at a time, every term's postings there before the next
        /// window: the records of a window stay in cache, where records for the whole segment (16 MB at a
        /// million documents) made nearly every posting a cache miss. A document's contributions still add up in
        /// term order.
        func rank(_ terms: [(Int, QueryPlanner.FoundTerm)])
            -> (entries: [(doc: Int, flags: UInt8, frequencies: [UInt16], score: Float)], bound: Float)? {
            var overflow = false
            let documents = segment.documentCount
            let records = scratch.records, stride = scratch.stride, touched = scratch.touched
            var streams = terms.map { Stream($0.1, segment: segment) }
            // The flags and per-position frequencies (at `keptFrequencies[offset...]`) of the documents that
            // entered the heap, by document.
            var kept: [Int: (flags: UInt8, offset: Int)] = [:]
            var keptFrequencies: [UInt16] = []
            var top = TopK(k: keepsFrequencies ? 2 * depth + 1 : 0)
            // A cover keeps no frequencies: every scored document's rank key, selected once at the end
            // (`CoverSelection`), rather than a heap of twice the depth kept and then heap-sorted.
            var keys: [UInt64] = []
            var windowStart = 0
            while windowStart < documents {
                let windowEnd = min(windowStart + window, documents)
                let stamp = scratch.nextStamp()
                var touchedCount = 0
                for (number, (position, term)) in terms.enumerated() {
                    let primary = scope.primary[position]
                    // A term (not a list) that is the key itself can equal the field.
                    let canEqual = term.isExact && term.prefixes == nil
                    let frequencyAt = Self.frequencyOffset + 2 * position
                    columns[position].withUnsafeBufferPointer { norms in
                        factorTable.withUnsafeBufferPointer { table in
                            let factor = table.baseAddress! + position * 256
                            // One posting: the weight and flags `MaterializedGroupIterator.forEachPosting` gives it.
                            streams[number].read(upTo: windowEnd, starts: primary) { doc, tf, starts in
                                let norm = Int(norms[doc])
                                let termFlags: UInt8 = starts ? (canEqual && Int(FieldNorm.lengths[norm]) == 1 ? 3 : 1) : 0
                                let record = records + (doc - windowStart) * stride
                                if record.load(fromByteOffset: 4, as: UInt32.self) != stamp {
                                    // First posting of this window here: the record still holds an earlier one's.
                                    // Weight 0 and the stamp, then zeroes (the stride is a multiple of 8).
                                    record.storeBytes(of: UInt64(stamp) << 32, as: UInt64.self)
                                    var offset = 8
                                    while offset < stride {
                                        record.storeBytes(of: 0 as UInt64, toByteOffset: offset, as: UInt64.self)
                                        offset += 8
                                    }
                                    touched[touchedCount] = UInt32(truncatingIfNeeded: doc - windowStart)
                                    touchedCount += 1
                                }
                                record.storeBytes(of: record.load(as: Float.self) + Float(tf) * factor[norm], as: Float.self)
                                record.storeBytes(of: record.load(fromByteOffset: 8, as: UInt8.self) | termFlags,
                                                  toByteOffset: 8, as: UInt8.self)
                                let sum = UInt32(record.load(fromByteOffset: frequencyAt, as: UInt16.self)) &+ tf
                                if sum > UInt32(UInt16.max) { overflow = true }
                                record.storeBytes(of: UInt16(truncatingIfNeeded: sum), toByteOffset: frequencyAt, as: UInt16.self)
                            }
                        }
                    }
                }
                for k in 0..<touchedCount {
                    let local = Int(touched[k])
                    let record = records + local * stride
                    let flags = record.load(fromByteOffset: 8, as: UInt8.self)
                    let score = MaterializedGroupIterator.score(record.load(as: Float.self), boost: 1, idf: 1,
                                                                parameters: scope.parameters,
                                                                startsPrimary: flags & 1 != 0, equalsPrimary: flags & 2 != 0)
                    guard keepsFrequencies else {
                        keys.append(CoverSelection.key(score: score, doc: windowStart + local))
                        continue
                    }
                    let hit = SearchHit(address: DocAddress(segment: 0, doc: UInt32(windowStart + local)), score: score)
                    guard top.admits(hit) else { continue }
                    top.insert(hit)
                    // Its frequencies now, while the record is this window's (a cover keeps none).
                    guard keepsFrequencies else { continue }
                    kept[windowStart + local] = (flags, keptFrequencies.count)
                    for position in scope.fields.indices {
                        keptFrequencies.append(record.load(fromByteOffset: Self.frequencyOffset + 2 * position, as: UInt16.self))
                    }
                }
                windowStart = windowEnd
            }
            guard !overflow else { return nil }
            let best = keepsFrequencies ? top.sorted() : CoverSelection.best(keys, count: 2 * depth + 1)
            // A tie across the end of the list is kept whole (up to twice the depth), so that the first
            // document left out scores strictly less than the last one listed: otherwise no page whose last hit
            // is in the tie could be vouched for.
            var count = min(depth, best.count)
            while count < best.count, count < 2 * depth, best[count].score == best[count - 1].score { count += 1 }
            if count < best.count, best[count].score == best[count - 1].score { count = depth }
            let entries = best.prefix(count).map { hit -> (doc: Int, flags: UInt8, frequencies: [UInt16], score: Float) in
                let doc = Int(hit.address.doc)
                guard keepsFrequencies else { return (doc, 0, [], hit.score) }
                let known = kept[doc]!
                return (doc, known.flags, Array(keptFrequencies[known.offset..<(known.offset + scope.fields.count)]),
                        hit.score)
            }
            return (entries, count < best.count ? best[count].score : -.infinity)
        }
    }
}
