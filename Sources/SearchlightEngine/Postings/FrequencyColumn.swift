/// A frequent term's postings in one field as four bits per document of the segment: the term's frequency there
/// (0: not there) and, in a primary field, whether the term starts the field.
///
/// A conjunction scores its lead's candidates by seeking each other clause's postings through them
/// (`DocIterator.scoreCandidates`). A term found in a good part of the segment has a posting in nearly every
/// 128-document block, so a few hundred candidates decode most of its blocks to read a few hundred frequencies
/// (on debian-en, "from" in descriptions: 88 blocks for 123 candidates). Its column answers each candidate with
/// one load instead. Derived from the postings by the first search that seeks through the term
/// (`Segment.frequencyColumn`), kept within a budget per segment, never written to disk.
///
/// A document's nibble: outside a primary field, its frequency, `saturated` (15) standing for 15 or more; in a
/// primary field, bit 3 marks a document where the term starts the field and bits 0–2 hold the frequency up to
/// `saturated` (7). A saturated frequency (rare: a word fifteen times in one description) is read from the
/// postings; so is one the postings record as 0, which only a corrupt stream has.
final class FrequencyColumn: @unchecked Sendable {
    // Sound: the nibbles are written once, by `build`, before the column is shared.
    /// A term gets a column when it has at least this many documents in the field (four blocks)...
    static let minimumDocuments = 4 * Segment.blockSize
    /// ... and at least one in `densityDivisor` of the segment's documents, so that a column (half a byte per
    /// document) costs at most a few dozen times the bytes its postings take.
    static let densityDivisor = 64

    /// Whether a term with `docFreq` documents in a field of a segment of `documentCount` gets a column.
    @inline(__always)
    static func worthwhile(docFreq: Int, documentCount: Int) -> Bool {
        docFreq >= minimumDocuments && docFreq * densityDivisor >= documentCount
    }

    /// Two documents per byte, the even one in the low nibble: `byteCount` bytes, owned (freed in deinit) and
    /// never written after the build, so a search reads them through the pointer without an array's checks.
    let nibbles: UnsafePointer<UInt8>
    let byteCount: Int
    /// The frequency bits of a nibble, and the value standing for "that many or more: ask the postings".
    let saturated: UInt8
    /// The starts-the-field bit of a nibble (0 outside a primary field).
    let startsField: UInt8

    /// Heap bytes held: the nibbles and the object's.
    var memoryBytes: Int { 48 + byteCount }

    /// `memoryBytes` of a column for a segment of `documentCount` documents, two to a byte.
    static func memoryBytes(documentCount: Int) -> Int { 48 + byteCount(documentCount: documentCount) }

    private static func byteCount(documentCount: Int) -> Int { (documentCount + 1) / 2 }

    private init(nibbles: UnsafePointer<UInt8>, byteCount: Int, primary: Bool) {
        self.nibbles = nibbles
        self.byteCount = byteCount
        saturated = primary ? 7 : 15
        startsField = primary ? 8 : 0
    }

    deinit { UnsafeMutablePointer(mutating: nibbles).deallocate() }

    /// The nibble of `doc` (0 past the segment's documents).
    @inline(__always)
    func nibble(_ doc: Int) -> UInt8 { view.nibble(doc) }

    /// The column's nibbles as a value: what a loop over many candidates reads, without retaining the column once
    /// per candidate (valid while the column lives).
    struct View {
        let nibbles: UnsafePointer<UInt8>
        let byteCount: Int
        let saturated: UInt8

        /// The nibble of `doc` (0 past the segment's documents).
        @inline(__always)
        func nibble(_ doc: Int) -> UInt8 {
            guard doc >> 1 < byteCount else { return 0 }
            return (nibbles[doc >> 1] >> UInt8(truncatingIfNeeded: (doc & 1) << 2)) & 0x0F
        }
    }

    var view: View { View(nibbles: nibbles, byteCount: byteCount, saturated: saturated) }

    /// The column of term `index` of `terms` (`field`'s dictionary in `segment`), with the starts-the-field bit
    /// when `primary` (it decodes the first position of each posting, which only a primary field's boost reads).
    static func build(segment: Segment, terms: FieldTerms, index: Int, field: Int, primary: Bool) -> FrequencyColumn {
        let documents = segment.documentCount
        let byteCount = byteCount(documentCount: documents)
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: max(byteCount, 1))
        out.initialize(repeating: 0, count: max(byteCount, 1))
        let saturated: UInt32 = primary ? 7 : 15
        let cursor = PostingCursor(segment: segment, terms: terms, index: index, field: field)
        cursor.forEachRemaining { doc, tf in
            // A corrupt posting past the segment's documents is never a candidate: it stays out.
            if doc < documents {
                var value = UInt8(tf == 0 || tf >= saturated ? saturated : tf)
                if primary, cursor.firstPosition() == 0 { value |= 8 }
                out[doc >> 1] |= value << UInt8((doc & 1) << 2)
            }
            return true
        }
        return FrequencyColumn(nibbles: out, byteCount: byteCount, primary: primary)
    }
}
