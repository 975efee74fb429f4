/// The distinct terms of several fields of one segment (a scope, such as the default free-text fields), sorted,
/// each with the fields whose dictionaries hold it.
///
/// A typo-tolerant word is looked up in every field of its scope. Walking each field's dictionary repeats the
/// same walk near the same prefixes once per field; one walk over the union finds the near terms of all of
/// them, and only those few are then looked up in the fields that hold them. Built on first use and cached by
/// the segment (`Segment.vocabulary(for:)`), since segments never change.
struct SegmentVocabulary: NearTermsCaching, Sendable {
    /// The fields, in the order of `fields`' bits.
    let scope: [Int]
    let bytes: [UInt8]
    /// Start of term `i`; `offsets[count]` is the end of the last term.
    let offsets: [UInt32]
    /// Per term: bit `i` set when the dictionary of `scope[i]` holds it.
    let fields: [UInt32]
    let runs: RunIndex?
    let bloom: TermBloom?
    /// The near terms found by the walks of this vocabulary so far (`nearTerms(_:maxEdits:)`).
    let nearTermsCache = NearTermsCache()

    /// The most fields a vocabulary covers (one bit each).
    static let maximumScope = 32

    var count: Int { fields.count }

    var memoryBytes: Int { bytes.capacity + offsets.capacity * 4 + fields.capacity * 4 + (runs?.memoryBytes ?? 0)
            + (bloom?.memoryBytes ?? 0) }

    /// The union of the dictionaries `dictionaries[i]` (of field `scope[i]`; nil when the segment lacks it): a
    /// k-way merge of the sorted lists.
    init(scope: [Int], dictionaries: [FieldTerms?], runIndexMinimum: Int = RunIndex.minimumTerms,
         filterMinimum: Int = TermBloom.minimumTerms) {
        precondition(scope.count == dictionaries.count && scope.count <= Self.maximumScope)
        self.scope = scope
        var bytes: [UInt8] = [], offsets: [UInt32] = [0], fields: [UInt32] = []
        let present = dictionaries.enumerated().compactMap { bit, terms in terms.map { (bit: bit, terms: $0) } }
        let total = present.reduce(0) { $0 + $1.terms.count }
        offsets.reserveCapacity(total + 1)
        fields.reserveCapacity(total)
        TermListMerge.merge(present.map(\.terms)) { term, holders in
            bytes.append(contentsOf: term)
            var mask: UInt32 = 0
            for holder in holders { mask |= 1 << UInt32(present[holder.list].bit) }
            offsets.append(UInt32(bytes.count))
            fields.append(mask)
        }
        self.bytes = bytes
        self.offsets = offsets
        self.fields = fields
        runs = fields.count >= runIndexMinimum ? RunIndex(bytes: bytes, offsets: offsets) : nil
        bloom = fields.count >= filterMinimum ? TermBloom(bytes: bytes, offsets: offsets) : nil
    }
}
