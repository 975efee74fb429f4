/// How one term's postings are laid out in a sealed segment's document stream (`Segment.docBytes`), written by
/// sealing and merges and read by `PostingCursor` (one block) and by merges and format conversion (a whole term).
///
/// A term of more than one block (it has skip entries) stores each full block of 128 postings bit-packed: a
/// byte with the width of its document gaps, a byte with the width of its frequencies minus one, then the gaps
/// and the frequencies (`BitPacking`, 16 bytes per bit of width each; the first gap is from the previous block's
/// last document, or from 0). Its last, partial block and every term of one block (most terms, with a handful of
/// postings) are LEB128 varints instead, as the segment builder writes them: per posting
/// `varint(doc gap << 1 | tf == 1)`, then `varint(tf)` only when tf > 1. Frequent terms, whose blocks queries
/// decode by the thousand, get the branch-free layout; rare ones keep the bytes-per-posting minimum.
enum PostingBlocks {
    /// Whether block `block` of a term with `docFreq` postings is bit-packed.
    @inline(__always)
    static func isPacked(block: Int, docFreq: Int) -> Bool {
        docFreq > Segment.blockSize && block < docFreq / Segment.blockSize
    }

    /// The largest encoded size of a packed block: two width bytes and 32-bit gaps and frequencies.
    static let maximumPackedBytes = 2 + 2 * 16 * 32

    /// Appends a term's postings (`docs` ascending, every frequency at least 1) in the layout above, packed or
    /// (`packed` false, the layout of format versions before 4) all varints, and each block's start in `out` to
    /// `blockStarts` (terms of more than one block only).
    static func append(docs: UnsafeBufferPointer<UInt32>, tfs: UnsafeBufferPointer<UInt32>, packed: Bool = true,
                       to out: inout [UInt8], blockStarts: inout [UInt32]) {
        let count = docs.count
        assert(tfs.count == count)
        let blocks = count > Segment.blockSize
        var previous: UInt32 = 0
        var start = 0
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Segment.blockSize) { scratch in
            let values = scratch.baseAddress!
            while start < count {
                let end = min(start + Segment.blockSize, count)
                if blocks { blockStarts.append(UInt32(clamping: out.count)) }  // (callers check the end fits)
                if packed, isPacked(block: start / Segment.blockSize, docFreq: count) {
                    // The gaps, and the bits they and the frequencies need (ors have the largest's top bit).
                    var maxGap: UInt32 = 0, maxTf: UInt32 = 0
                    for i in start..<end {
                        values[i - start] = docs[i] &- (i == start ? previous : docs[i - 1])
                        maxGap |= values[i - start]
                        maxTf |= tfs[i] &- 1
                    }
                    let gapWidth = BitPacking.width(of: maxGap), tfWidth = BitPacking.width(of: maxTf)
                    out.append(UInt8(gapWidth))
                    out.append(UInt8(tfWidth))
                    BitPacking.pack(values, width: gapWidth, to: &out)
                    if tfWidth > 0 {
                        for i in start..<end { values[i - start] = tfs[i] &- 1 }
                        BitPacking.pack(values, width: tfWidth, to: &out)
                    }
                } else {
                    appendVarints(docs: UnsafeBufferPointer(rebasing: docs[start..<end]),
                                  tfs: UnsafeBufferPointer(rebasing: tfs[start..<end]), after: previous, to: &out)
                }
                previous = docs[end - 1]
                start = end
            }
        }
    }

    /// Appends postings as the segment builder's varints, per posting `varint(doc gap << 1 | tf == 1)`, then
    /// `varint(tf)` only when tf > 1, the first gap from `previous`.
    static func appendVarints(docs: UnsafeBufferPointer<UInt32>, tfs: UnsafeBufferPointer<UInt32>, after previous: UInt32,
                              to out: inout [UInt8]) {
        var doc = previous
        for i in docs.indices {
            let tf = tfs[i]
            VarInt.append((docs[i] &- doc) << 1 | (tf == 1 ? 1 : 0), to: &out)
            if tf != 1 { VarInt.append(tf, to: &out) }
            doc = docs[i]
        }
    }

    /// Decodes block `block` of a term with `docFreq` postings, which starts at `offset` in `bytes`, into `docs`
    /// and `tfs` (`count` postings: 128 but for a term's last block), the gaps added to `previous`. Never reads
    /// outside `bytes`: a truncated or corrupt block decodes to wrong postings, not past the buffer. Returns
    /// where the block ends.
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, block: Int, docFreq: Int, count: Int,
                       previous: UInt32, docs: UnsafeMutablePointer<UInt32>, tfs: UnsafeMutablePointer<UInt32>) -> Int {
        if isPacked(block: block, docFreq: docFreq) {
            return decodePacked(bytes, at: offset, previous: previous, docs: docs, tfs: tfs)
        }
        // A posting takes at most ten bytes (two five-byte varints): with that much room the block is decoded
        // without bounds checks, eight one-byte postings at a time where it can.
        if offset <= bytes.count, bytes.count - offset >= 10 * count, let base = bytes.baseAddress {
            return VarInt.decodePostings(from: base + offset, count: count, previous: previous, docs: docs, tfs: tfs)
                - base
        }
        return decodeVarintChecked(bytes, at: offset, count: count, previous: previous, docs: docs, tfs: tfs)
    }

    /// A packed block: from `bytes` in place when its bytes and the unpacking's slack lie inside, else from a
    /// zero-padded copy of what is left. A width above 32 (corrupt) reads as 32.
    @inline(__always)
    private static func decodePacked(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, previous: UInt32,
                                     docs: UnsafeMutablePointer<UInt32>, tfs: UnsafeMutablePointer<UInt32>) -> Int {
        guard let base = bytes.baseAddress, offset >= 0, bytes.count - offset >= 2 else {
            return decodePackedCopy(bytes, at: offset, previous: previous, docs: docs, tfs: tfs)
        }
        let gapWidth = min(Int(base[offset]), 32), tfWidth = min(Int(base[offset + 1]), 32)
        let size = 2 + 16 * (gapWidth + tfWidth)
        guard bytes.count - offset >= size + BitPacking.slack else {
            return decodePackedCopy(bytes, at: offset, previous: previous, docs: docs, tfs: tfs)
        }
        let raw = UnsafeRawPointer(base + offset + 2)
        _ = BitPacking.unpackDeltas(raw, width: gapWidth, previous: previous, into: docs)
        BitPacking.unpack(raw + 16 * gapWidth, width: tfWidth, adding: 1, into: tfs)
        return offset + size
    }

    @inline(never)
    private static func decodePackedCopy(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, previous: UInt32,
                                         docs: UnsafeMutablePointer<UInt32>, tfs: UnsafeMutablePointer<UInt32>) -> Int {
        let room = maximumPackedBytes + BitPacking.slack
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { padded in
            padded.initialize(repeating: 0)
            let available = max(0, min(bytes.count - max(offset, 0), maximumPackedBytes))
            if available > 0 {
                for i in 0..<available { padded[i] = bytes[offset + i] }
            }
            let end = decodePacked(UnsafeBufferPointer(padded), at: 0, previous: previous, docs: docs, tfs: tfs)
            return max(offset, 0) + min(end, available)
        }
    }

    /// Varint postings with a bounds check per byte (past the end: the previous document, frequency 0).
    private static func decodeVarintChecked(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, count: Int,
                                            previous: UInt32, docs: UnsafeMutablePointer<UInt32>,
                                            tfs: UnsafeMutablePointer<UInt32>) -> Int {
        var offset = max(start, 0), doc = previous
        for i in 0..<count {
            guard offset < bytes.count else {
                docs[i] = doc
                tfs[i] = 0
                continue
            }
            let code = VarInt.read(bytes, &offset)
            doc &+= code >> 1
            docs[i] = doc
            tfs[i] = code & 1 != 0 ? 1 : (offset < bytes.count ? VarInt.read(bytes, &offset) : 0)
        }
        return offset
    }

    /// Decodes all `docFreq` postings of the term at `start` (`packed` false: all varints, as the segment builder
    /// and format versions before 4 write them) into `docs` and `tfs`, replacing their contents, each document
    /// renumbered by `base` (a merge's offset). Returns where the term's postings end.
    @discardableResult
    static func decodeTerm(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, docFreq: Int, packed: Bool = true,
                           base: UInt32 = 0, docs: inout [UInt32], tfs: inout [UInt32]) -> Int {
        docs.removeAll(keepingCapacity: true)
        tfs.removeAll(keepingCapacity: true)
        guard docFreq > 0 else { return start }
        docs.append(contentsOf: repeatElement(0, count: docFreq))
        tfs.append(contentsOf: repeatElement(0, count: docFreq))
        var offset = start
        docs.withUnsafeMutableBufferPointer { d in
            tfs.withUnsafeMutableBufferPointer { t in
                // Every gap is relative, the first one to 0: starting from `base` renumbers them all.
                var previous = base
                var first = 0, block = 0
                while first < docFreq {
                    let count = min(Segment.blockSize, docFreq - first)
                    let d0 = d.baseAddress! + first, t0 = t.baseAddress! + first
                    if packed {
                        offset = decode(bytes, at: offset, block: block, docFreq: docFreq, count: count,
                                        previous: previous, docs: d0, tfs: t0)
                    } else {
                        offset = decodeVarintChecked(bytes, at: offset, count: count, previous: previous, docs: d0, tfs: t0)
                    }
                    previous = d0[count - 1]
                    first += count
                    block += 1
                }
            }
        }
        return offset
    }
}
