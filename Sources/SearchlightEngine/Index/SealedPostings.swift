/// The postings half of a segment being sealed: each field's term dictionary, the encoded document and position
/// streams of every term one after another (`PostingBlocks`), and block skip data for terms longer than one block.
///
/// Written term by term in dictionary order, by `SegmentBuilder.seal()` (from its interned terms) and by
/// `SegmentBuilder.mergeWhole(_:)` (from sealed segments' streams); both end each term with `endTerm`, so skip
/// data is computed the same way whichever path built the streams.
struct SealedPostings {
    var docBytes: [UInt8] = []
    var positionBytes: [UInt8] = []
    var skipLastDoc: [UInt32] = [], skipDocOffset: [UInt32] = [], skipPositionOffset: [UInt32] = []
    var skipMaxTf: [UInt32] = [], skipMaxImpact: [Float] = []
    var fieldTerms: [FieldTerms?]
    /// The current term's postings when `gathered` (by `appendStream`), and room to decode a source's term.
    private var pendingDocs: [UInt32] = [], pendingTfs: [UInt32] = []
    private var gathered = false
    private var scratchDocs: [UInt32] = [], scratchTfs: [UInt32] = []

    /// The most bytes a stream or a field's dictionary may hold; checked per term, before an offset is narrowed.
    private let maxBytes: Int

    init(docByteCount: Int, positionByteCount: Int, fieldCount: Int, maxBytes: Int = SegmentLimits.standard.maxBytes) {
        self.maxBytes = maxBytes
        docBytes.reserveCapacity(docByteCount)
        positionBytes.reserveCapacity(positionByteCount)
        fieldTerms = [FieldTerms?](repeating: nil, count: fieldCount)
    }

    /// One field's dictionary as it is written.
    struct FieldBuilder {
        var bytes: [UInt8] = [], offsets: [UInt32] = [0], docFreq: [UInt32] = []
        var postingStart: [UInt32] = [], blockStart: [UInt32] = [], positionStart: [UInt32] = []
        var count: Int { docFreq.count }
    }

    /// Starts the next term of `field` (in dictionary order); its streams are appended next. Throws when the
    /// streams or the dictionary already pass the limit (the term's offsets would not fit).
    mutating func startTerm(_ term: some Sequence<UInt8>, of field: inout FieldBuilder) throws(EngineError) {
        field.bytes.append(contentsOf: term)
        guard field.bytes.count <= maxBytes, docBytes.count <= maxBytes, positionBytes.count <= maxBytes else {
            throw .segmentTooLarge
        }
        field.offsets.append(UInt32(field.bytes.count))
        field.postingStart.append(UInt32(docBytes.count))
        field.positionStart.append(UInt32(positionBytes.count))
    }

    /// Ends the term `field` started: records its document frequency and lays its postings out as
    /// `PostingBlocks` says, with, for a term longer than one block, a skip entry per block (last document,
    /// offsets, largest term frequency and impact). The postings are those `appendStream` gathered or, when it
    /// was not called, the builder's varints appended to `docBytes` since `startTerm`.
    mutating func endTerm(_ field: inout FieldBuilder, docFreq df: Int, norms fieldNorms: [UInt8],
                          impactConstant: Float) throws(EngineError) {
        // The skip offsets below point into these streams: both must fit before any is narrowed.
        guard docBytes.count <= maxBytes, positionBytes.count <= maxBytes else { throw .segmentTooLarge }
        field.docFreq.append(UInt32(df))
        let docBase = Int(field.postingStart[field.postingStart.count - 1])
        if !gathered {
            // Single-block terms (most of them) keep the builder's varints and need no skip entry: the cursor
            // decodes the block.
            guard df > Segment.blockSize else {
                field.blockStart.append(UInt32.max)
                return
            }
            docBytes.withUnsafeBufferPointer { all in
                _ = PostingBlocks.decodeTerm(all, start: docBase, docFreq: df, packed: false,
                                             docs: &pendingDocs, tfs: &pendingTfs)
            }
        }
        gathered = false
        assert(pendingDocs.count == df, "a term's postings and its document frequency differ")
        docBytes.removeSubrange(docBase...)
        let firstSkip = skipLastDoc.count
        field.blockStart.append(df > Segment.blockSize ? UInt32(firstSkip) : UInt32.max)
        pendingDocs.withUnsafeBufferPointer { docs in
            pendingTfs.withUnsafeBufferPointer { tfs in
                PostingBlocks.append(docs: docs, tfs: tfs, to: &docBytes, blockStarts: &skipDocOffset)
            }
        }
        // Block starts lie below the end: once it fits, none was clamped.
        guard docBytes.count <= maxBytes else { throw .segmentTooLarge }
        guard df > Segment.blockSize else { return }
        let positionBase = Int(field.positionStart[field.positionStart.count - 1])
        // A block's positions are skipped in one pass (a value ends at each byte below 0x80, counted eight bytes at
        // a time) rather than posting by posting.
        positionBytes.withUnsafeBufferPointer { allPositions in
            fieldNorms.withUnsafeBufferPointer { norms in
                FieldNorm.lengths.withUnsafeBufferPointer { lengths in
                    let positionStream = UnsafeBufferPointer(rebasing: allPositions[positionBase...])
                    var positionOffset = 0
                    var k = 0
                    while k < df {
                        let blockEnd = min(k + Segment.blockSize, df)
                        skipPositionOffset.append(UInt32(positionBase + positionOffset))
                        var maxTf: UInt32 = 0, maxImpact: Float = 0, positions = 0
                        while k < blockEnd {
                            let doc = Int(pendingDocs[k]), tf = pendingTfs[k]
                            positions += Int(tf)
                            maxTf = max(maxTf, tf)
                            let norm = doc < norms.count ? norms[doc] : 0
                            maxImpact = max(maxImpact, Float(tf) / (lengths[Int(norm)] + impactConstant))
                            k += 1
                        }
                        VarInt.skip(positionStream, &positionOffset, count: positions)
                        skipLastDoc.append(pendingDocs[blockEnd - 1])
                        skipMaxTf.append(maxTf)
                        skipMaxImpact.append(maxImpact)
                    }
                }
            }
        }
        assert(skipDocOffset.count == skipLastDoc.count)
    }

    /// Stores a finished field's dictionary.
    mutating func finish(_ field: FieldBuilder, field number: Int) throws(EngineError) {
        guard docBytes.count <= maxBytes, positionBytes.count <= maxBytes else { throw .segmentTooLarge }
        guard number < fieldTerms.count else { return }
        fieldTerms[number] = FieldTerms(bytes: field.bytes.compacted(), offsets: field.offsets.compacted(),
                                        docFreq: field.docFreq.compacted(), postingStart: field.postingStart.compacted(),
                                        blockStart: field.blockStart.compacted(),
                                        positionStart: field.positionStart.compacted())
    }

    /// Gathers term `index` of `source` (a sealed segment's dictionary), its documents renumbered by `docBase`,
    /// after those gathered since `startTerm`, and appends its positions (copied whole: they are delta-coded per
    /// document). `endTerm` lays the gathered postings out.
    mutating func appendStream(of source: RawTerms, _ index: Int, docBase: UInt32) {
        let df = Int(source.docFreq[index])
        if !gathered {
            pendingDocs.removeAll(keepingCapacity: true)
            pendingTfs.removeAll(keepingCapacity: true)
            gathered = true
        }
        PostingBlocks.decodeTerm(source.docs, start: Int(source.postingStart[index]), docFreq: df, base: docBase,
                                 docs: &scratchDocs, tfs: &scratchTfs)
        pendingDocs.append(contentsOf: scratchDocs)
        pendingTfs.append(contentsOf: scratchTfs)
        let positionCount = scratchTfs.reduce(0) { $0 + Int($1) }
        let positionStart = Int(source.positionStart[index])
        var end = positionStart
        VarInt.skip(source.positions, &end, count: positionCount)
        positionBytes.append(contentsOf: UnsafeBufferPointer(rebasing: source.positions[positionStart..<end]))
    }

    /// One field's dictionary of a sealed segment, and the segment's streams, as raw buffers: a merge reads
    /// them term by term without copying (or retaining) the arrays.
    struct RawTerms {
        let bytes: UnsafeBufferPointer<UInt8>
        let offsets: UnsafeBufferPointer<UInt32>
        let docFreq: UnsafeBufferPointer<UInt32>
        let postingStart: UnsafeBufferPointer<UInt32>
        let positionStart: UnsafeBufferPointer<UInt32>
        let docs: UnsafeBufferPointer<UInt8>
        let positions: UnsafeBufferPointer<UInt8>
        var count: Int { docFreq.count }

        func term(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[Int(offsets[index])..<Int(offsets[index + 1])])
        }

        /// Compares term `i` with term `j` of `other` bytewise (a shorter prefix first).
        func compare(_ i: Int, _ other: RawTerms, _ j: Int) -> Int {
            let x = term(i), y = other.term(j)
            let common = min(x.count, y.count)
            let c = common > 0 ? Int(memcmp(x.baseAddress!, y.baseAddress!, common)) : 0
            return c != 0 ? c : x.count - y.count
        }

        /// Calls `body` with field `field` of each segment (nil where it has no terms), valid only inside.
        static func with<R>(_ segments: [Segment], field: Int, _ body: ([RawTerms?]) -> R) -> R {
            var raw: [RawTerms?] = []
            raw.reserveCapacity(segments.count)
            func nest(_ next: Int) -> R {
                guard next < segments.count else { return body(raw) }
                let segment = segments[next]
                guard field < segment.fieldTerms.count, let terms = segment.fieldTerms[field], terms.count > 0 else {
                    raw.append(nil)
                    return nest(next + 1)
                }
                return terms.bytes.withUnsafeBufferPointer { bytes in
                    terms.offsets.withUnsafeBufferPointer { offsets in
                        terms.docFreq.withUnsafeBufferPointer { docFreq in
                            terms.postingStart.withUnsafeBufferPointer { postingStart in
                                terms.positionStart.withUnsafeBufferPointer { positionStart in
                                    segment.docBytes.withUnsafeBufferPointer { docs in
                                        segment.positionBytes.withUnsafeBufferPointer { positions in
                                            raw.append(RawTerms(bytes: bytes, offsets: offsets, docFreq: docFreq,
                                                                postingStart: postingStart, positionStart: positionStart,
                                                                docs: docs, positions: positions))
                                            return nest(next + 1)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return nest(0)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
