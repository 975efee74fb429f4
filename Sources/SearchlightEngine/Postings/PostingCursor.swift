/// Walks the postings of one term in one segment: decodes one 128-document block at a time (`PostingBlocks`), skips whole
/// blocks with the skip data, and reads positions lazily (only phrase queries and primary-field boosts ask).
/// A term with a single block has no skip entry; its bounds are computed from the decoded block.
final class PostingCursor {
    static let end = Int.max

    let segment: Segment
    /// The segment's posting and position streams, held here too: read through a stored property of the cursor,
    /// a block's decoding or a document's positions retain nothing.
    private let docBytes: [UInt8]
    private let positionBytes: [UInt8]
    private(set) var docFreq: Int
    /// First skip entry, or -1 for a single-block term.
    private var firstBlock: Int
    private var blockCount: Int
    private var postingStart: Int
    private var positionStart: Int
    private var field: Int
    private var block = -1
    private var countInBlock = 0
    private var indexInBlock = 0
    /// Decoded documents and term frequencies of the current block (one allocation, freed in deinit), with
    /// room for `capacity` of each.
    private let docs: UnsafeMutablePointer<UInt32>
    private let tfs: UnsafeMutablePointer<UInt32>
    private let capacity: Int
    /// Position-stream cursor: byte offset of the positions of document `positionDoc` of this block.
    private var positionOffset = 0
    private var positionDoc = 0
    /// Bounds of a single-block term, computed on first use (-1: not yet).
    private var singleMaxTf: Int64 = -1
    private var singleMaxImpact: Float = -1
    /// Current document, -1 before the first `next`, `end` when exhausted.
    private(set) var doc = -1

    init(segment: Segment, terms: FieldTerms, index: Int, field: Int) {
        self.segment = segment
        (docBytes, positionBytes) = (segment.docBytes, segment.positionBytes)
        // Most terms (and most prefix expansions) have a handful of documents: size the block buffer
        // to the largest block this term has.
        capacity = max(min(Int(terms.docFreq[index]), Segment.blockSize), 1)
        docs = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * capacity)
        tfs = docs + capacity
        (docFreq, firstBlock, blockCount, postingStart, positionStart, self.field) = (0, -1, 0, 0, 0, field)
        position(terms: terms, index: index, field: field)
    }

    /// A cursor on no term yet, with room for any block: `position` moves it from term to term (one cursor
    /// decoding many terms' postings in turn, as a dense group materialization does).
    init(segment: Segment) {
        self.segment = segment
        (docBytes, positionBytes) = (segment.docBytes, segment.positionBytes)
        capacity = Segment.blockSize
        docs = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * capacity)
        tfs = docs + capacity
        (docFreq, firstBlock, blockCount, postingStart, positionStart, field) = (0, -1, 0, 0, 0, 0)
        doc = Self.end
    }

    /// Moves to before the first posting of term `index` of `terms` (a dictionary of this segment).
    func position(terms: FieldTerms, index: Int, field: Int) {
        self.field = field
        docFreq = Int(terms.docFreq[index])
        precondition(min(docFreq, Segment.blockSize) <= capacity, "a term's blocks must fit the cursor's buffer")
        // A term of one block has no skip entry (its `blockStart` is `UInt32.max`): not read, one cache line fewer
        // for most terms a search opens.
        let start = docFreq > Segment.blockSize ? terms.blockStart[index] : UInt32.max
        firstBlock = start == UInt32.max ? -1 : Int(start)
        postingStart = Int(terms.postingStart[index])
        positionStart = Int(terms.positionStart[index])
        blockCount = (docFreq + Segment.blockSize - 1) / Segment.blockSize
        block = -1
        countInBlock = 0
        indexInBlock = 0
        positionOffset = 0
        positionDoc = 0
        singleMaxTf = -1
        singleMaxImpact = -1
        shallowBlock = 0
        doc = -1
    }

    deinit { docs.deallocate() }

    var tf: UInt32 { tfs[indexInBlock] }

    /// Upper bounds of tf and of `tf / (length + C0)` in the current block.
    var blockMaxTf: UInt32 {
        if firstBlock >= 0 { return segment.skipMaxTf[firstBlock + block] }
        computeSingleBounds()
        return UInt32(singleMaxTf)
    }

    var blockMaxImpact: Float {
        if firstBlock >= 0 { return segment.skipMaxImpact[firstBlock + block] }
        computeSingleBounds()
        return singleMaxImpact
    }

    private func computeSingleBounds() {
        guard singleMaxTf < 0 else { return }
        let norms = field < segment.norms.count ? segment.norms[field] : []
        let c0 = field < segment.impactConstants.count ? segment.impactConstants[field] : 1
        var maxTf: UInt32 = 0
        var maxImpact: Float = 0
        for i in 0..<countInBlock {
            let d = Int(docs[i])
            let norm = d < norms.count ? norms[d] : 0
            maxTf = max(maxTf, tfs[i])
            maxImpact = max(maxImpact, Float(tfs[i]) / (FieldNorm.lengths[Int(norm)] + c0))
        }
        singleMaxTf = Int64(maxTf)
        singleMaxImpact = maxImpact
    }

    /// Upper bounds of tf and of `tf / (length + C0)` over the postings from `first` through `last`, from the skip
    /// data alone: the maxima of the blocks that may hold them, (0, 0) when none can. Nothing is decoded and the
    /// cursor does not move (a separate mark, `shallowBlock`, remembers where the last range began, so ascending
    /// ranges cost a gallop each). Nil for a term of one block, which has no skip data.
    func shallowMaxima(from first: Int, through last: Int) -> (tf: UInt32, impact: Float)? {
        guard firstBlock >= 0 else { return nil }
        let b = BlockSkip.firstBlock(atLeast: first, lastDocs: segment.skipLastDoc, base: firstBlock, from: shallowBlock,
                                     count: blockCount)
        shallowBlock = b
        guard b < blockCount else { return (0, 0) }
        return maxima(fromBlock: b, through: last)
    }

    /// `shallowMaxima` from the current document (the cursor must be on one) through `last`: the current block's
    /// bounds (a single block's computed from its decoded postings) and those of the blocks after it up to `last`.
    func rangeMaxima(through last: Int) -> (tf: UInt32, impact: Float) {
        assert(block >= 0 && doc != Self.end, "a range bound starts at the current document")
        guard firstBlock >= 0 else { return (blockMaxTf, blockMaxImpact) }
        return maxima(fromBlock: block, through: last)
    }

    /// The skip data's maxima of block `b` (of this term) and the blocks after it up to the one holding `last`.
    private func maxima(fromBlock b: Int, through last: Int) -> (tf: UInt32, impact: Float) {
        var skip = firstBlock + b
        let final = firstBlock + blockCount - 1
        var tf = segment.skipMaxTf[skip], impact = segment.skipMaxImpact[skip]
        while skip < final, Int(segment.skipLastDoc[skip]) < last {
            skip += 1
            tf = max(tf, segment.skipMaxTf[skip])
            impact = max(impact, segment.skipMaxImpact[skip])
        }
        return (tf, impact)
    }

    /// The first block the last `shallowMaxima` range may start in.
    private var shallowBlock = 0

    /// Last document of the current block.
    var blockLastDoc: Int { firstBlock >= 0 ? Int(segment.skipLastDoc[firstBlock + block]) : Int(docs[countInBlock - 1]) }

    private func load(_ newBlock: Int) {
        block = newBlock
        countInBlock = newBlock == blockCount - 1 ? docFreq - newBlock * Segment.blockSize : Segment.blockSize
        var previous: UInt32
        var offset: Int
        if firstBlock >= 0 {
            let skip = firstBlock + newBlock
            previous = newBlock == 0 ? 0 : segment.skipLastDoc[skip - 1]
            offset = Int(segment.skipDocOffset[skip])
            positionOffset = Int(segment.skipPositionOffset[skip])
        } else {
            previous = 0
            offset = postingStart
            positionOffset = positionStart
        }
        let count = countInBlock, docFreq = docFreq
        let d = docs, t = tfs
        docBytes.withUnsafeBufferPointer { bytes in
            _ = PostingBlocks.decode(bytes, at: offset, block: newBlock, docFreq: docFreq, count: count,
                                     previous: previous, docs: d, tfs: t)
        }
        indexInBlock = 0
        positionDoc = 0
    }

    /// Moves to the next document.
    @discardableResult
    func next() -> Int {
        if doc == Self.end { return doc }
        if block >= 0, indexInBlock + 1 < countInBlock {
            indexInBlock += 1
        } else if block + 1 < blockCount {
            load(block + 1)
        } else {
            doc = Self.end
            return doc
        }
        doc = Int(docs[indexInBlock])
        return doc
    }

    /// Walks the postings after the current one, block by block, calling `body` with each document and its
    /// frequency (the cursor is on that document, so `body` may read its positions) until `body` returns false or
    /// the postings end (the cursor is then exhausted). A whole list without a call per posting.
    @inline(__always)
    func forEachRemaining(_ body: (Int, UInt32) -> Bool) {
        forEachRemainingBlock { docs, tfs, count in
            let first = countInBlock - count
            for k in 0..<count {
                indexInBlock = first + k
                doc = Int(docs[k])
                guard body(doc, tfs[k]) else { return false }
            }
            return true
        }
    }

    /// `forEachRemaining` a block at a time: `body` gets the documents and frequencies after the current posting
    /// in each block, and their count, with the cursor on the block's last posting; it returns false to stop
    /// there. Exhausted at the end.
    @inline(__always)
    func forEachRemainingBlock(_ body: (UnsafePointer<UInt32>, UnsafePointer<UInt32>, Int) -> Bool) {
        guard doc != Self.end else { return }
        var start = indexInBlock + 1
        if block < 0 {
            guard blockCount > 0 else {
                doc = Self.end
                return
            }
            load(0)
            start = 0
        }
        while true {
            if start < countInBlock {
                indexInBlock = countInBlock - 1
                doc = Int(docs[indexInBlock])
                guard body(docs + start, tfs + start, countInBlock - start) else { return }
            }
            guard block + 1 < blockCount else { break }
            load(block + 1)
            start = 0
        }
        doc = Self.end
    }

    /// Moves to the first document ≥ `target`.
    ///
    /// Inlined where the target lies in the decoded block (most calls: a conjunction's or phrase's candidates
    /// seldom jump a block), a scan that needs no bounds check since the block's last document stops it; the
    /// rest, skipping and decoding blocks, is a call.
    @discardableResult
    @inline(__always)
    func advance(_ target: Int) -> Int {
        if doc >= target { return doc }
        if block >= 0, target <= Int(docs[countInBlock &- 1]) {
            var i = indexInBlock &+ 1
            while Int(docs[i]) < target { i &+= 1 }
            indexInBlock = i
            doc = Int(docs[i])
            return doc
        }
        return advanceAcrossBlocks(target)
    }

    @inline(never)
    private func advanceAcrossBlocks(_ target: Int) -> Int {
        if blockCount == 0 {
            doc = Self.end
            return doc
        }
        if firstBlock < 0 {
            if block < 0 { load(0) }
        } else if block < 0 || Int(segment.skipLastDoc[firstBlock + block]) < target {
            let low = BlockSkip.firstBlock(atLeast: target, lastDocs: segment.skipLastDoc, base: firstBlock,
                                           from: max(block, 0), count: blockCount)
            if low >= blockCount {
                doc = Self.end
                return doc
            }
            if low != block { load(low) }
        }
        // Linear scan inside the block (at most 128 sorted entries).
        var i = indexInBlock
        while i < countInBlock, Int(docs[i]) < target { i += 1 }
        if i >= countInBlock {
            doc = Self.end
            return doc
        }
        indexInBlock = i
        doc = Int(docs[i])
        return doc
    }

    /// Moves the position-stream cursor to the current document.
    @inline(__always)
    private func seekPositions(_ bytes: UnsafeBufferPointer<UInt8>) {
        let target = indexInBlock
        if positionDoc > target {
            positionOffset = firstBlock >= 0 ? Int(segment.skipPositionOffset[firstBlock + block]) : positionStart
            positionDoc = 0
        }
        guard positionDoc < target else { return }
        // The values of the documents in between, skipped in one pass.
        VarInt.skip(bytes, &positionOffset, count: Self.sum(tfs, from: positionDoc, to: target))
        positionDoc = target
    }

    /// The sum of `values[from..<to]`, eight at a time. Lanes wrap: only a corrupt block's frequencies could
    /// overflow them, and a wrong count only misplaces the bounds-checked position reads.
    @inline(__always)
    private static func sum(_ values: UnsafeMutablePointer<UInt32>, from: Int, to: Int) -> Int {
        var i = from
        var total = 0
        if to - i >= 8 {
            var lanes = SIMD8<UInt32>()
            let raw = UnsafeRawPointer(values)
            while i + 8 <= to {
                lanes &+= raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<UInt32>.self)
                i += 8
            }
            total = Int(lanes.wrappedSum())
        }
        while i < to {
            total += Int(values[i])
            i += 1
        }
        return total
    }

    /// Appends the positions of the current document.
    func positions(into out: inout [UInt32]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: decodablePositions))
        let written = out.withUnsafeMutableBufferPointer { decodePositions(to: $0.baseAddress! + start) }
        out.removeLast(out.count - start - written)
    }

    /// How many positions the current document can have: its frequency, but never more than the position
    /// stream has bytes (each position takes at least one), so a corrupt frequency cannot size a huge buffer.
    var decodablePositions: Int { min(Int(tfs[indexInBlock]), positionBytes.count) }

    /// Writes the positions of the current document to `out`, which has room for `decodablePositions` of them;
    /// returns how many were written (fewer only for a truncated stream).
    func decodePositions(to out: UnsafeMutablePointer<UInt32>) -> Int {
        let limit = decodablePositions
        return positionBytes.withUnsafeBufferPointer { bytes in
            seekPositions(bytes)
            return Self.decodePositions(bytes, at: positionOffset, count: limit, into: out)
        }
    }

    /// Decodes `count` delta-coded positions of one document at `offset` of a position stream into `out`; how many
    /// were read (fewer only for a truncated or corrupt stream).
    @inline(__always)
    static func decodePositions(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, count: Int,
                                into out: UnsafeMutablePointer<UInt32>) -> Int {
        var at = offset, position: UInt32 = 0, written = 0
        while written < count, at >= 0, at < bytes.count {
            position &+= VarInt.read(bytes, &at)
            out[written] = position
            written += 1
        }
        return written
    }

    /// Where the current document's positions start in the segment's position stream.
    func currentPositionOffset() -> Int {
        positionBytes.withUnsafeBufferPointer { bytes in
            seekPositions(bytes)
            return positionOffset
        }
    }

    /// The first position of the current document (for primary-field prefix boosts).
    func firstPosition() -> UInt32 {
        positionBytes.withUnsafeBufferPointer { bytes in
            seekPositions(bytes)
            var offset = positionOffset
            return offset < bytes.count && tfs[indexInBlock] > 0 ? VarInt.read(bytes, &offset) : UInt32.max
        }
    }
}
