/// The postings of a wide prefix in one field of one segment, precomputed: for a prefix with more than
/// `minimumExpansions` longer terms in the field's dictionary, the documents holding any of those terms, each
/// with their summed frequency and, in a primary field, whether one of them starts it (the prefix boost; no other
/// field's score reads it, so elsewhere no position is decoded for it). A prefix query then reads one list
/// per field, with block bounds for top-k pruning, instead of expanding to hundreds of terms and decoding all
/// their postings; and a prefix never needs its expansions capped. Derived from the segment's own postings by
/// the first search for the prefix (`Segment.prefixList`) and kept; nothing is built while indexing (a background
/// merge rebuilds its sources' lists for the merged segment) and nothing is stored on disk. One list per
/// instance: list 0.
///
/// A list holds the strictly longer terms only: the prefix itself, when it is a term, keeps its own postings,
/// so exact-match boosts still see it. Encoding per posting: `varint(doc delta << 3 | starts << 2 | t)` with
/// t = tf when tf ≤ 3, else t = 0 and `varint(tf)` follows (summed frequencies above 1 are common). Blocks of
/// `blockSize` postings keep their last document, byte offset and best-case impact, as the segment's skip
/// entries do.
final class PrefixPostings: Sendable {
    /// A prefix gets a list when more than this many terms extend it (fewer are expanded at query time).
    static let minimumExpansions = 48
    static let blockSize = 128

    /// The prefix: bytes with offsets (`keyOffsets[count]` ends the last).
    let keyBytes: [UInt8]
    let keyOffsets: [UInt32]
    /// Per list: its first block (a list of n postings has ⌈n / blockSize⌉ consecutive blocks), postings and the
    /// largest document frequency among its terms.
    let firstBlock: [UInt32]
    let postingCount: [UInt32]
    let maxDocFreq: [UInt32]
    /// Per block: last document, byte offset in `bytes`, max summed frequency, max `tf / (length + C0)`, and
    /// whether a term starts the field in one of its documents.
    let blockLastDoc: [UInt32]
    let blockOffset: [UInt32]
    let blockMaxTf: [UInt32]
    let blockMaxImpact: [Float]
    let blockStarts: [Bool]
    let bytes: [UInt8]

    var count: Int { postingCount.count }

    /// Heap bytes held: the arrays' elements, and their headers and the object's (about 32 and 16 bytes).
    var memoryBytes: Int {
        16 + 11 * 32 + keyBytes.count + 4 * (keyOffsets.count + firstBlock.count + postingCount.count + maxDocFreq.count)
            + 4 * (blockLastDoc.count + blockOffset.count + blockMaxTf.count + blockMaxImpact.count)
            + blockStarts.count + bytes.count
    }

    private init(keyBytes: [UInt8], keyOffsets: [UInt32], firstBlock: [UInt32], postingCount: [UInt32],
                 maxDocFreq: [UInt32], blockLastDoc: [UInt32], blockOffset: [UInt32], blockMaxTf: [UInt32],
                 blockMaxImpact: [Float], blockStarts: [Bool], bytes: [UInt8]) {
        self.keyBytes = keyBytes.compacted()
        self.keyOffsets = keyOffsets.compacted()
        self.firstBlock = firstBlock.compacted()
        self.postingCount = postingCount.compacted()
        self.maxDocFreq = maxDocFreq.compacted()
        self.blockLastDoc = blockLastDoc.compacted()
        self.blockOffset = blockOffset.compacted()
        self.blockMaxTf = blockMaxTf.compacted()
        self.blockMaxImpact = blockMaxImpact.compacted()
        self.blockStarts = blockStarts.compacted()
        self.bytes = bytes.compacted()
    }

    /// The prefix of list `index`.
    func key(_ index: Int) -> [UInt8] { Array(keyBytes[Int(keyOffsets[index])..<Int(keyOffsets[index + 1])]) }

    /// Reads one posting at `offset`: its document delta, summed frequency and start flag.
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> (delta: UInt32, tf: UInt32, starts: Bool) {
        let code = VarInt.read(bytes, &offset)
        let small = code & 3
        let tf = small != 0 ? small : (offset < bytes.count ? VarInt.read(bytes, &offset) : 0)
        return (code >> 3, tf, code & 4 != 0)
    }

    /// Calls `body` with each posting of list `index` in document order (document, summed frequency, whether a
    /// term starts the field there) until it returns false.
    @inline(__always)
    func forEachPosting(_ index: Int, _ body: (_ doc: Int, _ tf: UInt32, _ starts: Bool) -> Bool) {
        var remaining = Int(postingCount[index])
        let first = Int(firstBlock[index])
        guard remaining > 0 else { return }
        bytes.withUnsafeBufferPointer { bytes in
            var offset = Int(blockOffset[first])
            var doc: UInt32 = 0
            while remaining > 0, offset < bytes.count {
                let (delta, tf, starts) = Self.decode(bytes, &offset)
                doc &+= delta
                guard body(Int(doc), tf, starts) else { return }
                remaining -= 1
            }
        }
    }

    // MARK: Building

    /// The list of the prefix `key` of `field`'s dictionary `terms` in `segment`, whose strictly longer terms are
    /// `expansions` (more than `minimumExpansions`), recording where they start the field when it is `primary`; nil
    /// when the segment or the list is too large for its encoding (document deltas keep three bits for flags, byte
    /// offsets are 32-bit).
    static func build(segment: Segment, field: Int, terms: FieldTerms, key: [UInt8], expansions: Range<Int>,
                      primary: Bool) -> PrefixPostings? {
        guard segment.documentCount < 1 << 29, expansions.count > minimumExpansions else { return nil }
        let builder = ListBuilder(segment: segment, field: field, terms: terms, recordsStarts: primary)
        var largest: UInt32 = 0
        for index in expansions { largest = max(largest, builder.add(term: index)) }
        let postings = builder.finish()
        guard !builder.overflowed else { return nil }
        // The builder owns the buffer the bytes are copied from.
        return withExtendedLifetime(builder) {
            PrefixPostings(keyBytes: key, keyOffsets: [0, UInt32(key.count)], firstBlock: [0],
                           postingCount: [postings], maxDocFreq: [largest], blockLastDoc: builder.blockLastDoc,
                           blockOffset: builder.blockOffset, blockMaxTf: builder.blockMaxTf,
                           blockMaxImpact: builder.blockMaxImpact, blockStarts: builder.blockStarts,
                           bytes: Array(UnsafeBufferPointer(start: builder.bytes, count: builder.written)))
        }
    }

    /// Accumulates one list at a time over the segment's documents (summed frequencies, and bitsets of the
    /// touched documents and of those where a term starts the field); `finish` appends it, encoded, to the
    /// field's output and clears the accumulators. A class: its buffers are raw and freed in deinit.
    private final class ListBuilder {
        let segment: Segment
        let field: Int
        let terms: FieldTerms
        /// Whether the list records where a term starts the field (a primary field's; it decodes positions).
        let recordsStarts: Bool
        let documentCount: Int
        let words: Int
        let sums: UnsafeMutablePointer<UInt32>
        let touched: UnsafeMutablePointer<UInt64>
        let starts: UnsafeMutablePointer<UInt64>
        let cursor: PostingCursor
        /// The field's norms, and `length + C0` per norm code (a block's impact bound is the max of `tf` over it).
        let norms: [UInt8]
        let shiftedLengths: [Float]
        /// The output: encoded postings (`written` bytes in a buffer that doubles) and the blocks so far.
        private(set) var bytes: UnsafeMutablePointer<UInt8>
        private(set) var written = 0
        private var capacity: Int
        private(set) var blockLastDoc: [UInt32] = [], blockOffset: [UInt32] = [], blockMaxTf: [UInt32] = []
        private(set) var blockMaxImpact: [Float] = [], blockStarts: [Bool] = []
        /// Whether the lists outgrew 32-bit byte offsets (the field then gets none).
        private(set) var overflowed = false

        init(segment: Segment, field: Int, terms: FieldTerms, recordsStarts: Bool) {
            self.segment = segment
            self.field = field
            self.terms = terms
            self.recordsStarts = recordsStarts
            documentCount = segment.documentCount
            words = (documentCount + 63) >> 6
            sums = .allocate(capacity: max(documentCount, 1))
            sums.initialize(repeating: 0, count: max(documentCount, 1))
            touched = .allocate(capacity: max(words, 1))
            touched.initialize(repeating: 0, count: max(words, 1))
            starts = .allocate(capacity: max(words, 1))
            starts.initialize(repeating: 0, count: max(words, 1))
            cursor = PostingCursor(segment: segment)
            norms = field < segment.norms.count ? segment.norms[field] : []
            let c0 = field < segment.impactConstants.count ? segment.impactConstants[field] : 1
            shiftedLengths = FieldNorm.lengths.map { $0 + c0 }
            capacity = 1 << 16
            bytes = .allocate(capacity: capacity)
        }

        deinit {
            sums.deallocate()
            touched.deallocate()
            starts.deallocate()
            bytes.deallocate()
        }

        @inline(__always)
        private func add(doc: Int, tf: UInt32, startsField: () -> Bool) {
            let (sum, overflow) = sums[doc].addingReportingOverflow(tf)
            sums[doc] = overflow ? UInt32.max : sum
            let bit: UInt64 = 1 << UInt64(doc & 63)
            touched[doc >> 6] |= bit
            if starts[doc >> 6] & bit == 0, startsField() { starts[doc >> 6] |= bit }
        }

        /// Adds term `index`'s postings; returns its document frequency.
        func add(term index: Int) -> UInt32 {
            cursor.position(terms: terms, index: index, field: field)
            var doc = cursor.next()
            let recordsStarts = self.recordsStarts
            while doc != PostingCursor.end, doc < documentCount {
                add(doc: doc, tf: cursor.tf) { recordsStarts && cursor.firstPosition() == 0 }
                doc = cursor.next()
            }
            return terms.docFreq[index]
        }

        /// Makes room for `more` bytes of output.
        private func reserve(_ more: Int) {
            guard written + more > capacity else { return }
            let grown = max(2 * capacity, written + more)
            let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            moved.update(from: bytes, count: written)
            bytes.deallocate()
            bytes = moved
            capacity = grown
        }

        /// Appends the list accumulated so far, encoded in document order, and clears the accumulators;
        /// returns its number of postings.
        func finish() -> UInt32 {
            var postings = 0
            for word in 0..<words { postings += touched[word].nonzeroBitCount }
            // At most five bytes per varint, two varints per posting; offsets are 32-bit.
            guard written + 10 * postings <= Int(UInt32.max) else {
                overflowed = true
                for doc in 0..<documentCount { sums[doc] = 0 }
                for word in 0..<words {
                    touched[word] = 0
                    starts[word] = 0
                }
                return 0
            }
            reserve(10 * postings)
            let out = bytes
            var at = written
            @inline(__always)
            func append(_ value: UInt32) {
                var v = value
                while v >= 0x80 {
                    out[at] = UInt8(truncatingIfNeeded: v) | 0x80
                    at += 1
                    v >>= 7
                }
                out[at] = UInt8(v)
                at += 1
            }
            var count: UInt32 = 0
            var inBlock = 0, previous: UInt32 = 0
            var maxTf: UInt32 = 0, maxImpact: Float = 0, anyStarts = false
            norms.withUnsafeBufferPointer { norms in
                shiftedLengths.withUnsafeBufferPointer { lengths in
                    for word in 0..<words {
                        var bits = touched[word]
                        guard bits != 0 else { continue }
                        let startBits = starts[word]
                        touched[word] = 0
                        starts[word] = 0
                        while bits != 0 {
                            let doc = word << 6 | bits.trailingZeroBitCount
                            let bit: UInt64 = 1 << UInt64(doc & 63)
                            bits &= bits - 1
                            if inBlock == 0 { blockOffset.append(UInt32(at)) }
                            let tf = sums[doc]
                            sums[doc] = 0
                            let delta = UInt32(doc) - (count == 0 ? 0 : previous)
                            let startsBit: UInt32 = startBits & bit != 0 ? 4 : 0
                            append(delta << 3 | startsBit | (tf <= 3 ? tf : 0))
                            if tf > 3 { append(tf) }
                            if startsBit != 0 { anyStarts = true }
                            previous = UInt32(doc)
                            count += 1
                            inBlock += 1
                            maxTf = max(maxTf, tf)
                            maxImpact = max(maxImpact, Float(tf) / lengths[doc < norms.count ? Int(norms[doc]) : 0])
                            if inBlock == PrefixPostings.blockSize {
                                blockLastDoc.append(previous)
                                blockMaxTf.append(maxTf)
                                blockMaxImpact.append(maxImpact)
                                blockStarts.append(anyStarts)
                                inBlock = 0
                                maxTf = 0
                                maxImpact = 0
                                anyStarts = false
                            }
                        }
                    }
                }
            }
            if inBlock > 0 {
                blockLastDoc.append(previous)
                blockMaxTf.append(maxTf)
                blockMaxImpact.append(maxImpact)
                blockStarts.append(anyStarts)
            }
            written = at
            return count
        }
    }
}
