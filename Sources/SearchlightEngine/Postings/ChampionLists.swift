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
/// (`IndexSnapshot.championSearch`). Built with the prefix lists when a segment is sealed, merged or loaded;
/// never written to disk.
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

    /// The lists of one kind of key (terms, or prefixes), keys sorted bytewise.
    struct Lists: Sendable {
        let keyBytes: [UInt8]
        /// Start of key `i` in `keyBytes`; `keyOffsets[keyCount]` ends the last.
        let keyOffsets: [UInt32]
        /// The list of key `i`: keys with the same terms (`libr` and `libra` when every term with the first
        /// starts with the second) share one.
        let keyList: [UInt32]
        /// Entries of list `i`: `entryStart[i]..<entryStart[i + 1]`, best first; its frequencies start at
        /// `tfStart[i]` (one per bit of each entry's mask).
        let entryStart: [UInt32]
        let tfStart: [UInt32]
        /// Per list: the score without idf of the best document left out; −∞ when every match is listed.
        let bound: [Float]
        /// Per list, one per scope position (`list × positions + position`): the document frequency a query plan
        /// takes the idf from, in this segment. A term's own frequency in the field (0 when absent); for a prefix,
        /// the largest of its terms' in the field. A lone key can then be scored without planning.
        let docFreq: [UInt32]
        /// Per entry: the document, the scope positions where it has the key (a bit each), its flags (bit 0: the
        /// key starts a primary field, bit 1: it equals one).
        let docs: [UInt32]
        let masks: [UInt32]
        let flags: [UInt8]
        /// Frequencies (summed over a prefix's terms) in mask order, and the document's norm code in each of those
        /// fields: scoring a list reads no norm column (a random access per document and field).
        let tfs: [UInt16]
        let norms: [UInt8]

        var keyCount: Int { keyList.count }

        var memoryBytes: Int {
            keyBytes.count + 4 * (keyOffsets.count + keyList.count + entryStart.count + tfStart.count + bound.count)
                + 4 * (docFreq.count + docs.count + masks.count) + flags.count + 2 * tfs.count + norms.count
        }

        /// The list of `key`, if it has one.
        func find(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
            SortedKeys.index(of: key, bytes: keyBytes, offsets: keyOffsets).map { Int(keyList[$0]) }
        }

        /// The key at `index` (in key order).
        func key(_ index: Int) -> [UInt8] { Array(keyBytes[Int(keyOffsets[index])..<Int(keyOffsets[index + 1])]) }
    }

    /// Documents kept per list (more when the last ones tie): a page of 20 with room for deletions.
    static let capacity = 32
    /// A key gets a list when its postings in the default fields (summed over a prefix's terms) reach this.
    static let minimumPostings = 512
    /// Bits of an entry's mask.
    static let maximumFields = 32

    let scope: Scope
    /// Per scope position: the segment's average field length the lists were ranked with, and the longest value
    /// of the field in the segment (0: no document has the field).
    let averages: [Float]
    let longest: [Float]
    let terms: Lists
    let prefixes: Lists

    var memoryBytes: Int { terms.memoryBytes + prefixes.memoryBytes + 8 * averages.count }

    private init(scope: Scope, averages: [Float], longest: [Float], terms: Lists, prefixes: Lists) {
        self.scope = scope
        self.averages = averages
        self.longest = longest
        self.terms = terms
        self.prefixes = prefixes
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

    /// The list of `key` among the prefixes' lists (`prefix`) or the terms', if it has one. These accessors read
    /// `terms` and `prefixes` in place: a copy of a `Lists` retains and releases its thirteen arrays.
    func find(_ key: UnsafeBufferPointer<UInt8>, prefix: Bool) -> Int? { prefix ? prefixes.find(key) : terms.find(key) }

    /// `Lists.bound` of list `list`.
    func bound(prefix: Bool, list: Int) -> Float { prefix ? prefixes.bound[list] : terms.bound[list] }

    /// `Lists.docFreq` of list `list` at scope position `position`.
    func docFreq(prefix: Bool, list: Int, position: Int) -> Int {
        let at = list * scope.fields.count + position
        return Int(prefix ? prefixes.docFreq[at] : terms.docFreq[at])
    }

    /// `collect` of list `list` among the prefixes' lists or the terms'.
    func collect(prefix: Bool, list: Int, ordinal: Int, alive: Bitset, factors: [[Float]], idf: Float,
                 into top: inout TopK) {
        if prefix {
            collect(prefixes, list, ordinal: ordinal, alive: alive, factors: factors, idf: idf, into: &top)
        } else {
            collect(terms, list, ordinal: ordinal, alive: alive, factors: factors, idf: idf, into: &top)
        }
    }

    /// Scores the live documents of list `index` of `lists` in segment `ordinal` with the snapshot's length
    /// factors (`factors`, by field) and `idf`, as a term group does, into `top`.
    func collect(_ lists: Lists, _ index: Int, ordinal: Int, alive: Bitset, factors: [[Float]],
                 idf: Float, into top: inout TopK) {
        let parameters = scope.parameters
        var t = Int(lists.tfStart[index])
        for entry in Int(lists.entryStart[index])..<Int(lists.entryStart[index + 1]) {
            let doc = Int(lists.docs[entry])
            var mask = lists.masks[entry]
            guard alive[doc] else {
                t += mask.nonzeroBitCount
                continue
            }
            // Field by field in scope order, as the group's sources add up.
            var weighted: Float = 0
            while mask != 0 {
                let position = mask.trailingZeroBitCount
                mask &= mask - 1
                weighted += Float(lists.tfs[t]) * factors[scope.fields[position]][Int(lists.norms[t])]
                t += 1
            }
            let flags = lists.flags[entry]
            let score = MaterializedGroupIterator.score(weighted, boost: 1, idf: idf, parameters: parameters,
                                                        startsPrimary: flags & 1 != 0, equalsPrimary: flags & 2 != 0)
            top.insert(SearchHit(address: DocAddress(segment: UInt32(ordinal), doc: UInt32(doc)), score: score))
        }
    }

    // MARK: Building

    /// The lists of `segment` for `scope` (nil when the segment is empty), ranked `window` documents at a time
    /// (tests vary it: the lists do not depend on it).
    static func build(segment: Segment, scope: Scope, window: Int = 1 << 16) -> ChampionLists? {
        let documents = segment.documentCount
        guard documents > 0 else { return nil }
        let b = scope.parameters.b
        // As a snapshot of this segment alone computes them.
        let averages: [Float] = scope.fields.map { field in
            guard field < segment.lengthSum.count, field < segment.fieldDocCount.count else { return 1 }
            return FieldNorm.averageLength(sum: segment.lengthSum[field], documents: UInt64(segment.fieldDocCount[field]))
        }
        let longest: [Float] = scope.fields.map { field in
            guard field < segment.fieldDocCount.count, segment.fieldDocCount[field] > 0, field < segment.norms.count else { return 0 }
            return FieldNorm.lengths[Int(segment.norms[field].max() ?? 0)]
        }
        let factors: [[Float]] = zip(scope.weights, averages).map { weight, average in
            FieldNorm.lengthFactors(weight: weight, average: average, b: b)
        }
        let dictionaries = scope.fields.map { segment.terms(FieldID(rawValue: UInt16($0))) }
        // A key whose postings reach the minimum over the fields reaches its share of it in one of them.
        let share = UInt64((minimumPostings + scope.fields.count - 1) / scope.fields.count)
        var builder = Builder(segment: segment, scope: scope, factors: factors, window: max(window, 1))

        // Terms.
        var termKeys = Set<[UInt8]>()
        for case let dictionary? in dictionaries {
            for index in 0..<dictionary.count where UInt64(dictionary.docFreq[index]) >= share {
                termKeys.insert(Array(dictionary.bytes[Int(dictionary.offsets[index])..<Int(dictionary.offsets[index + 1])]))
            }
        }
        let terms = builder.lists(termKeys.sorted { $0.lexicographicallyPrecedes($1) }) { key in
            var found: [(Int, QueryPlanner.FoundTerm)] = []
            var docFreq = [UInt32](repeating: 0, count: dictionaries.count)
            key.withUnsafeBufferPointer { key in
                for (position, dictionary) in dictionaries.enumerated() {
                    guard let dictionary, let index = dictionary.find(key) else { continue }
                    found.append((position, .init(field: scope.fields[position], terms: dictionary, index: index, isExact: true)))
                    docFreq[position] = dictionary.docFreq[index]
                }
            }
            return (found, nil, docFreq)
        }

        // Prefixes: each field's heavy prefixes are candidates; each is read as a prefix query reads it.
        var prefixKeys = Set<[UInt8]>()
        var cumulative: [[UInt64]] = []
        for dictionary in dictionaries {
            guard let dictionary else {
                cumulative.append([])
                continue
            }
            let sums = Self.cumulativeFrequencies(dictionary)
            Self.heavyPrefixes(dictionary, sums: sums, minimum: share) { prefixKeys.insert($0) }
            cumulative.append(sums)
        }
        let prefixes = builder.lists(prefixKeys.sorted { $0.lexicographicallyPrecedes($1) }) { key in
            var found: [(Int, QueryPlanner.FoundTerm)] = []
            var docFreq = [UInt32](repeating: 0, count: dictionaries.count)
            // The terms' ranges per field; nil when the prefix is itself a term (its list is its own).
            var signature: [Int]? = []
            key.withUnsafeBufferPointer { key in
                for (position, dictionary) in dictionaries.enumerated() {
                    guard let dictionary else { continue }
                    let range = dictionary.prefixRange(key)
                    guard !range.isEmpty else { continue }
                    let field = scope.fields[position]
                    let (place, largest) = QueryPlanner.prefixPlace(key, range: range, terms: dictionary, segment: segment,
                                                                    field: field)
                    docFreq[position] = UInt32(largest)
                    switch place {
                    case .list(_, let exact) where exact >= 0, .terms(_, let exact) where exact >= 0: signature = nil
                    default: signature?.append(contentsOf: [position, range.lowerBound, range.upperBound])
                    }
                    for term in QueryPlanner.foundTerms(place, field: field, terms: dictionary, segment: segment) {
                        found.append((position, term))
                    }
                }
            }
            return (found, signature, docFreq)
        } postings: { key in
            // Every term's postings, as a prefix expanded into its terms reads them.
            var total: UInt64 = 0
            key.withUnsafeBufferPointer { key in
                for (position, dictionary) in dictionaries.enumerated() {
                    guard let dictionary else { continue }
                    let range = dictionary.prefixRange(key)
                    total += cumulative[position][range.upperBound] - cumulative[position][range.lowerBound]
                }
            }
            return total
        }
        builder.release()
        return ChampionLists(scope: scope, averages: averages, longest: longest, terms: terms, prefixes: prefixes)
    }

    /// `sums[i]`: the document frequencies of the dictionary's first `i` terms added up.
    private static func cumulativeFrequencies(_ dictionary: FieldTerms) -> [UInt64] {
        var sums = [UInt64](repeating: 0, count: dictionary.count + 1)
        for index in 0..<dictionary.count { sums[index + 1] = sums[index] + UInt64(dictionary.docFreq[index]) }
        return sums
    }

    /// Calls `body` with every prefix (ending on a whole character) of the dictionary's terms whose terms' document
    /// frequencies add up to `minimum` or more. One pass in term order: the prefixes of the current term are a
    /// stack, each closed (its terms counted) when a term no longer starts with it.
    static func heavyPrefixes(_ dictionary: FieldTerms, sums: [UInt64], minimum: UInt64, _ body: ([UInt8]) -> Void) {
        var open: [(length: Int, start: Int)] = []
        dictionary.bytes.withUnsafeBufferPointer { bytes in
            var previous = 0..<0
            func close(downTo length: Int, at end: Int) {
                while let top = open.last, top.length > length {
                    open.removeLast()
                    if sums[end] - sums[top.start] >= minimum {
                        body(Array(bytes[previous.lowerBound..<(previous.lowerBound + top.length)]))
                    }
                }
            }
            for index in 0..<dictionary.count {
                let term = Int(dictionary.offsets[index])..<Int(dictionary.offsets[index + 1])
                var common = 0
                let limit = min(term.count, previous.count)
                while common < limit, bytes[term.lowerBound + common] == bytes[previous.lowerBound + common] { common += 1 }
                close(downTo: common, at: index)
                var length = common + 1
                while length <= term.count {
                    // Whole characters only: the byte after the prefix does not continue a UTF-8 sequence.
                    if length == term.count || bytes[term.lowerBound + length] & 0xC0 != 0x80 { open.append((length, index)) }
                    length += 1
                }
                previous = term
            }
            close(downTo: 0, at: dictionary.count)
        }
    }

    /// Accumulates one key's postings at a time over the segment, a window of documents at a time, and keeps its
    /// best documents.
    ///
    /// Each document of the window has one record (weighted frequency, the key and window it was last touched
    /// for, primary flags, and a frequency per scope position), so a posting touches one cache line, and a record
    /// left by an earlier window is reset when first touched for the next one: no pass clears the records.
    private struct Builder {
        let segment: Segment
        let scope: Scope
        /// `stride` bytes per document of a window: weight (Float) at 0, stamp (UInt32) at 4, flags at 8, then a
        /// UInt16 frequency per scope position from 10.
        let records: UnsafeMutableRawPointer
        let stride: Int
        /// The current window's number (over all keys): a record with another stamp holds nothing of it.
        var stamp: UInt32 = 0
        /// The documents the current window touched (relative to its start).
        let touched: UnsafeMutablePointer<UInt32>

        static let frequencyOffset = 10
        /// Documents per window (by default 65,536: records of a few fields, about 1 MB).
        let window: Int
        /// The flags and per-position frequencies (at `keptFrequencies[offset...]`) of the documents that entered
        /// the heap, by document.
        var kept: [Int: (flags: UInt8, offset: Int)] = [:]
        var keptFrequencies: [UInt16] = []
        /// Cursors for the terms of a key (as many as the widest key so far).
        var cursors: [PostingCursor] = []
        /// Each scope position's norms (`documentCount` bytes) and length factors (256), one after another.
        let norms: UnsafeMutablePointer<UInt8>
        let factorTable: UnsafeMutablePointer<Float>

        /// One term's postings (or a prefix list's), read a window at a time.
        struct Stream {
            let cursor: PostingCursor?
            let list: PrefixPostings?
            var doc: Int
            /// A list's read position: byte offset and postings left.
            var offset = 0
            var remaining = 0

            /// A term's stream reads with `cursor` (repositioned to it); a list's needs none.
            init(_ term: QueryPlanner.FoundTerm, cursor: PostingCursor?) {
                if let lists = term.prefixes {
                    self.cursor = nil
                    list = lists
                    remaining = Int(lists.postingCount[term.index])
                    offset = remaining > 0 ? Int(lists.blockOffset[Int(lists.firstBlock[term.index])]) : 0
                    doc = 0
                    return
                }
                let cursor = cursor!
                cursor.position(terms: term.terms, index: term.index, field: term.field)
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

        init(segment: Segment, scope: Scope, factors: [[Float]], window: Int) {
            self.window = window
            self.segment = segment
            self.scope = scope
            // Flat copies: the per-posting path reads them through raw pointers, with no array kept alive per
            // term and window.
            let documents = segment.documentCount
            norms = .allocate(capacity: max(documents * scope.fields.count, 1))
            norms.initialize(repeating: 0, count: max(documents * scope.fields.count, 1))
            for (position, field) in scope.fields.enumerated() where field < segment.norms.count {
                let column = segment.norms[field]
                for doc in 0..<min(documents, column.count) { norms[position * documents + doc] = column[doc] }
            }
            factorTable = .allocate(capacity: 256 * max(scope.fields.count, 1))
            for position in scope.fields.indices {
                for code in 0..<256 { factorTable[position * 256 + code] = factors[position][code] }
            }
            stride = (Self.frequencyOffset + 2 * scope.fields.count + 7) & ~7
            let count = max(min(segment.documentCount, window), 1)
            records = .allocate(byteCount: stride * count, alignment: 8)
            records.initializeMemory(as: UInt8.self, repeating: 0, count: stride * count)
            touched = .allocate(capacity: count)
        }

        func release() {
            records.deallocate()
            touched.deallocate()
            norms.deallocate()
            factorTable.deallocate()
        }

        /// The lists of `keys` (sorted), each read from the terms `found` gives (with their scope positions, a
        /// signature: keys whose terms are the same have equal ones, nil when not known; and the key's document
        /// frequency per scope position, as `Lists.docFreq` keeps it); only keys whose `postings` reach the minimum
        /// get one.
        mutating func lists(_ keys: [[UInt8]], found: ([UInt8]) -> ([(Int, QueryPlanner.FoundTerm)], [Int]?, [UInt32]),
                            postings: (([UInt8]) -> UInt64)? = nil) -> Lists {
            var keyBytes: [UInt8] = [], keyOffsets: [UInt32] = [0], keyList: [UInt32] = []
            var entryStart: [UInt32] = [0], tfStart: [UInt32] = [0]
            var bound: [Float] = [], listDocFreq: [UInt32] = [], docs: [UInt32] = [], masks: [UInt32] = []
            var entryFlags: [UInt8] = [], tfs: [UInt16] = [], entryNorms: [UInt8] = []
            let documents = segment.documentCount
            var previous: [Int]? = nil
            for key in keys {
                // Counted before the terms are gathered when `postings` can: most candidates fall short.
                if let postings, postings(key) < UInt64(minimumPostings) {
                    previous = nil
                    continue
                }
                let (terms, signature, docFreq) = found(key)
                guard postings != nil || terms.reduce(0, { $0 + UInt64($1.1.postings) }) >= UInt64(minimumPostings) else {
                    previous = nil
                    continue
                }
                // A prefix with the same terms as the key before (its single longer prefix, in key order) shares
                // that key's list.
                if let signature, signature == previous {
                    keyBytes += key
                    keyOffsets.append(UInt32(keyBytes.count))
                    keyList.append(keyList[keyList.count - 1])
                    continue
                }
                previous = nil
                guard let best = rank(terms) else { continue }
                previous = signature
                keyBytes += key
                keyOffsets.append(UInt32(keyBytes.count))
                keyList.append(UInt32(bound.count))
                bound.append(best.bound)
                listDocFreq += docFreq
                for entry in best.entries {
                    var mask: UInt32 = 0
                    for (position, tf) in entry.frequencies.enumerated() where tf > 0 {
                        mask |= 1 << UInt32(position)
                        tfs.append(tf)
                        entryNorms.append(norms[position * documents + entry.doc])
                    }
                    docs.append(UInt32(entry.doc))
                    masks.append(mask)
                    entryFlags.append(entry.flags)
                }
                entryStart.append(UInt32(docs.count))
                tfStart.append(UInt32(tfs.count))
            }
            return Lists(keyBytes: keyBytes.compacted(), keyOffsets: keyOffsets.compacted(), keyList: keyList.compacted(),
                         entryStart: entryStart.compacted(),
                         tfStart: tfStart.compacted(), bound: bound.compacted(), docFreq: listDocFreq.compacted(),
                         docs: docs.compacted(), masks: masks.compacted(), flags: entryFlags.compacted(),
                         tfs: tfs.compacted(), norms: entryNorms.compacted())
        }

        /// Accumulates `terms` (scored as `MaterializedGroupIterator` scores them) and returns the best
        /// `capacity` documents, best first, with the score of the next one (−∞: none); nil when a frequency
        /// does not fit the list's 16 bits.
        ///
        /// The segment is taken `window` documents at a time, every term's postings there before the next
        /// window: the records of a window stay in cache, where records for the whole segment (16 MB at a
        /// million documents) made nearly every posting a cache miss. A document's contributions still add up in
        /// term order.
        private mutating func rank(_ terms: [(Int, QueryPlanner.FoundTerm)])
            -> (entries: [(doc: Int, flags: UInt8, frequencies: [UInt16])], bound: Float)? {
            var overflow = false
            let documents = segment.documentCount
            let records = self.records, stride = self.stride, touched = self.touched
            // One cursor per term, reused from key to key (a cursor holds a block's buffers).
            while cursors.count < terms.count { cursors.append(PostingCursor(segment: segment)) }
            var streams = terms.enumerated().map { number, term in
                Stream(term.1, cursor: term.1.prefixes == nil ? cursors[number] : nil)
            }
            var top = TopK(k: 2 * capacity + 1)
            var windowStart = 0
            while windowStart < documents {
                let windowEnd = min(windowStart + window, documents)
                stamp &+= 1
                let stamp = self.stamp
                var touchedCount = 0
                for (number, (position, term)) in terms.enumerated() {
                    let primary = scope.primary[position]
                    // A term (not a list) that is the key itself can equal the field.
                    let canEqual = term.isExact && term.prefixes == nil
                    let frequencyAt = Self.frequencyOffset + 2 * position
                    let norms = self.norms + position * documents, factor = factorTable + position * 256
                    // One posting: the weight and flags `MaterializedGroupIterator.forEachPosting` gives it.
                    streams[number].read(upTo: windowEnd, starts: primary) { doc, tf, starts in
                        let norm = Int(norms[doc])
                        let termFlags: UInt8 = starts ? (canEqual && Int(FieldNorm.lengths[norm]) == 1 ? 3 : 1) : 0
                        let record = records + (doc - windowStart) * stride
                        if record.load(fromByteOffset: 4, as: UInt32.self) != stamp {
                            // First posting of this window here: the record still holds an earlier one's. Weight
                            // 0 and the stamp, then zeroes (the stride is a multiple of 8).
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
                for k in 0..<touchedCount {
                    let local = Int(touched[k])
                    let record = records + local * stride
                    let flags = record.load(fromByteOffset: 8, as: UInt8.self)
                    let score = MaterializedGroupIterator.score(record.load(as: Float.self), boost: 1, idf: 1,
                                                                parameters: scope.parameters,
                                                                startsPrimary: flags & 1 != 0, equalsPrimary: flags & 2 != 0)
                    let hit = SearchHit(address: DocAddress(segment: 0, doc: UInt32(windowStart + local)), score: score)
                    guard top.admits(hit) else { continue }
                    top.insert(hit)
                    // Its frequencies now, while the record is this window's.
                    kept[windowStart + local] = (flags, keptFrequencies.count)
                    for position in scope.fields.indices {
                        keptFrequencies.append(record.load(fromByteOffset: Self.frequencyOffset + 2 * position, as: UInt16.self))
                    }
                }
                windowStart = windowEnd
            }
            defer {
                kept.removeAll(keepingCapacity: true)
                keptFrequencies.removeAll(keepingCapacity: true)
            }
            guard !overflow else { return nil }
            let best = top.sorted()
            // A tie across the end of the list is kept whole (up to twice the capacity), so that the first
            // document left out scores strictly less than the last one listed: otherwise no page whose last hit
            // is in the tie could be vouched for.
            var count = min(capacity, best.count)
            while count < best.count, count < 2 * capacity, best[count].score == best[count - 1].score { count += 1 }
            if count < best.count, best[count].score == best[count - 1].score { count = capacity }
            let entries = best.prefix(count).map { hit -> (doc: Int, flags: UInt8, frequencies: [UInt16]) in
                let doc = Int(hit.address.doc)
                let known = kept[doc]!
                return (doc, known.flags, Array(keptFrequencies[known.offset..<(known.offset + scope.fields.count)]))
            }
            return (entries, count < best.count ? best[count].score : -.infinity)
        }
    }
}
