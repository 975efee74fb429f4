/// The distinct terms of a scope's fields across several segments, sorted, each with the segments holding it
/// and, per segment, the fields (the bits of that segment's `SegmentVocabulary`).
///
/// A typo-tolerant word walks every segment's vocabulary near the same prefixes; most of that walk repeats, since
/// segments share most of their terms. One walk over the union of the segments finds the near terms of all of
/// them. Kept by a writer's `VocabularyCache` across its snapshots while the segments it covers hold most of the
/// documents; segments added since are walked one by one.
struct SnapshotVocabulary: NearTermsCaching, Sendable {
    let scope: [Int]
    /// The segments covered (held, so their identities stay unique while the vocabulary lives).
    let segments: [Segment]
    /// The position in `segments` of each covered segment, by identity.
    let positions: [ObjectIdentifier: Int]
    let bytes: [UInt8]
    /// Start of term `i`; `offsets[count]` is the end of the last term.
    let offsets: [UInt32]
    /// Per term: where its entries start in `entrySegment` / `entryFields` (`count + 1` values).
    let entryStart: [UInt32]
    /// Per entry: the position in `segments` of a segment holding the term.
    let entrySegment: [UInt16]
    /// Per entry: the scope positions (bits) of the fields holding it in that segment.
    let entryFields: [UInt32]
    let runs: RunIndex?
    let bloom: TermBloom?
    /// The near terms found by the walks of this vocabulary so far (`nearTerms(_:maxEdits:)`).
    let nearTermsCache = NearTermsCache()

    /// The most segments one vocabulary covers (positions are 16 bits).
    static let maximumSegments = Int(UInt16.max)

    var count: Int { offsets.count - 1 }

    var memoryBytes: Int {
        bytes.capacity + (offsets.capacity + entryStart.capacity + entryFields.capacity) * 4 + entrySegment.capacity * 2
            + (runs?.memoryBytes ?? 0)
            + (bloom?.memoryBytes ?? 0)
    }

    /// The union of `vocabularies` (of `segments`, same order, all of `scope`): a k-way merge of the sorted lists.
    init(scope: [Int], segments: [Segment], vocabularies: [SegmentVocabulary], runIndexMinimum: Int = RunIndex.minimumTerms,
         filterMinimum: Int = TermBloom.minimumTerms) {
        precondition(segments.count == vocabularies.count && segments.count <= Self.maximumSegments)
        precondition(vocabularies.allSatisfy { $0.scope == scope })
        self.scope = scope
        self.segments = segments
        positions = Dictionary(uniqueKeysWithValues: segments.enumerated().map { (ObjectIdentifier($1), $0) })
        var bytes: [UInt8] = [], offsets: [UInt32] = [0], entryStart: [UInt32] = [0]
        var entrySegment: [UInt16] = [], entryFields: [UInt32] = []
        let total = vocabularies.reduce(0) { $0 + $1.count }
        entrySegment.reserveCapacity(total)
        entryFields.reserveCapacity(total)
        TermListMerge.merge(vocabularies) { term, holders in
            bytes.append(contentsOf: term)
            for holder in holders {
                entrySegment.append(UInt16(holder.list))
                entryFields.append(vocabularies[holder.list].fields[holder.index])
            }
            offsets.append(UInt32(bytes.count))
            entryStart.append(UInt32(entrySegment.count))
        }
        self.bytes = bytes
        self.offsets = offsets
        self.entryStart = entryStart
        self.entrySegment = entrySegment
        self.entryFields = entryFields
        runs = offsets.count - 1 >= runIndexMinimum ? RunIndex(bytes: bytes, offsets: offsets) : nil
        bloom = offsets.count - 1 >= filterMinimum ? TermBloom(bytes: bytes, offsets: offsets) : nil
    }
}
