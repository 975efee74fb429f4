/// A frequent term's positions in one field reached by document: which documents of the segment hold the term
/// (a bit each, with a running count every 64 documents to rank one among them), and for each of its postings
/// where the positions start in the segment's position stream, how many there are, and which residues modulo 16
/// they take (`mask`).
///
/// A phrase scored at scattered candidates (best bound first, or read down a word's cover) checks each one on
/// its own. Through the postings that is a block found and decoded per term for every candidate, and the position
/// stream skipped from the block's start to the candidate: about 190 ns a candidate for two words on debian-en,
/// six times what the document-order walk pays per candidate. Through the terms' columns it is a bit, a count
/// and an entry read per term, and the candidate's own positions decoded (none for a term there once: the column
/// holds that position). The document-order walk of a rare word beside frequent ones reads the frequent ones'
/// columns the same way (`PhraseSource.findByColumns`), and when every word's column exists it ANDs their
/// presence bits, so only documents holding every word are looked at (`PhraseSource.findByPresence`). Derived
/// from the postings by the first search that needs one (`Segment.positionColumn`), kept within a budget per
/// segment, never written to disk. About five bytes per posting and a fifth of a byte per document of the segment.
///
/// The masks rule most candidates out before any position is decoded: a phrase can start at `p` only if each
/// term holds `p` plus its offset, so the terms' masks, each rotated back by its offset, must share a bit
/// (`PositionColumn.aligned`). Of the 5,208 documents of debian-en holding both "can" and "used", 307 pass for
/// the phrase's 4; of the 17,639 holding "library" and "this", 1,787 pass for its 629 (with residues modulo 32,
/// 86 and 1,071, for two bytes more per posting: fewer columns would fit the segment's budget).
final class PositionColumn: @unchecked Sendable {
    // Sound: every buffer is written once, by `build`, before the column is shared.
    /// A bit per document: whether it holds the term.
    private let present: UnsafePointer<UInt64>
    /// Per 64 documents: the postings before them.
    private let ranks: UnsafePointer<UInt32>
    private let words: Int
    /// Per posting: where its positions start, as an offset into `Segment.positionBytes` from its group's base
    /// (`bases`, per `groupSize` postings); its frequency, `saturated` standing for that many or more, for a frequency
    /// of 0 (only a corrupt stream has one), for a start too far from its base, or for a lone position past 65,535
    /// (each read through the postings); and in its entry's two mask bytes, a bit per residue modulo 16 of its
    /// positions (all set when saturated), or for a frequency of 1 the position itself. A word is once in most
    /// descriptions that hold it, so most checks of a phrase's candidate then read no position stream at all: its
    /// positions are in the columns.
    private let bases: UnsafePointer<UInt32>
    /// Per posting, `entryStride` bytes side by side: its count, its mask (low byte first), then its start's offset
    /// from its group's base (low byte first). The walk reads them together for each candidate holding the term, so
    /// one cache line serves where separate arrays took two or three.
    private let entries: UnsafePointer<UInt8>
    static let entryStride = 5
    private let postings: Int
    static let saturated: UInt8 = 255
    static let groupSize = 32
    /// A bit per residue of a position modulo 16.
    typealias Residues = UInt16
    /// Segments past this many documents build none: in the million-item index (one segment) the phrase workload
    /// built 37 MB of them, and its first executions' p99 rose from 8 to 21 ms, for no gain in the timed ones
    /// (BENCHMARKS.md §AN).
    static let maximumSegmentDocuments = 131_072

    /// Heap bytes held.
    var memoryBytes: Int { Self.memoryBytes(documentCount: words * 64, postings: postings) }

    static func memoryBytes(documentCount: Int, postings: Int) -> Int {
        64 + 12 * ((documentCount + 63) / 64) + 4 * ((postings + groupSize - 1) / groupSize)
            + entryStride * postings
    }

    private init(present: UnsafePointer<UInt64>, ranks: UnsafePointer<UInt32>, words: Int, bases: UnsafePointer<UInt32>,
                 entries: UnsafePointer<UInt8>, postings: Int) {
        (self.present, self.ranks, self.words, self.bases, self.entries, self.postings)
            = (present, ranks, words, bases, entries, postings)
    }

    deinit {
        UnsafeMutablePointer(mutating: present).deallocate()
        UnsafeMutablePointer(mutating: ranks).deallocate()
        UnsafeMutablePointer(mutating: bases).deallocate()
        UnsafeMutablePointer(mutating: entries).deallocate()
    }

    /// Words of `present`: the segment's documents, 64 to a word.
    var wordCount: Int { words }

    /// Which of documents `64 * word ..< 64 * (word + 1)` hold the term, a bit each (none past the segment).
    @inline(__always)
    func presence(_ word: Int) -> UInt64 { word >= 0 && word < words ? present[word] : 0 }

    /// How many positions `doc` has (0: the term is not there, `saturated`: that many or more, or read through the
    /// postings), where they start, their residues modulo 16 (none when absent), and when it has one, the position.
    @inline(__always)
    func entry(_ doc: Int) -> Entry {
        let word = doc >> 6
        guard doc >= 0, word < words else { return Entry(count: 0, start: 0, mask: 0, position: 0) }
        let bits = present[word], bit = UInt64(1) << UInt64(doc & 63)
        guard bits & bit != 0 else { return Entry(count: 0, start: 0, mask: 0, position: 0) }
        let rank = Int(ranks[word]) + (bits & (bit &- 1)).nonzeroBitCount
        guard rank < postings else { return Entry(count: 0, start: 0, mask: 0, position: 0) }
        let at = entries + Self.entryStride * rank
        let count = at[0], stored = Residues(at[1]) | Residues(at[2]) << 8
        // A lone position is the entry's own: where it starts in the stream (another load) is not read.
        if count == 1 { return Entry(count: 1, start: 0, mask: 1 << (stored & 15), position: UInt32(stored)) }
        let delta = Int(at[3]) | Int(at[4]) << 8
        return Entry(count: count, start: Int(bases[rank / Self.groupSize]) + delta, mask: stored, position: 0)
    }

    /// A document's entry: its positions' count (0 when absent, `saturated`), where they start in the position
    /// stream (not read when `count` is 1: then 0), their residues modulo 16, and, when `count` is 1, the position
    /// itself (else 0).
    struct Entry {
        let count: UInt8
        let start: Int
        let mask: Residues
        let position: UInt32
    }

    /// `mask` rotated back by a term's `offset` in a phrase: the residues modulo 16 where the phrase may start,
    /// as far as this term knows. A phrase may occur only where every term's share a bit.
    @inline(__always)
    static func aligned(_ mask: Residues, offset: UInt32) -> Residues {
        let shift = Residues(truncatingIfNeeded: offset & 15)
        return shift == 0 ? mask : mask >> shift | mask << (16 - shift)
    }

    /// The residues modulo 16 of `count` delta-coded positions at `offset` of a position stream.
    static func mask(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, count: Int) -> Residues {
        var at = offset, position: UInt32 = 0, mask: Residues = 0
        for _ in 0..<count where at >= 0 && at < bytes.count {
            position &+= VarInt.read(bytes, &at)
            mask |= 1 << Residues(truncatingIfNeeded: position & 15)
        }
        return mask
    }

    /// The first of the delta-coded positions at `offset` of a position stream, when it lies in the stream and
    /// fits a mask's two bytes.
    static func firstPosition(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32? {
        guard offset >= 0, offset < bytes.count else { return nil }
        var at = offset
        let position = VarInt.read(bytes, &at)
        return position <= UInt32(Residues.max) ? position : nil
    }

    /// The column of term `index` of `terms` (`field`'s dictionary in `segment`): one pass over its postings.
    static func build(segment: Segment, terms: FieldTerms, index: Int, field: Int) -> PositionColumn {
        let documents = segment.documentCount
        let words = (documents + 63) / 64
        let capacity = max(Int(terms.docFreq[index]), 1)
        let present = UnsafeMutablePointer<UInt64>.allocate(capacity: max(words, 1))
        present.initialize(repeating: 0, count: max(words, 1))
        let ranks = UnsafeMutablePointer<UInt32>.allocate(capacity: max(words, 1))
        let bases = UnsafeMutablePointer<UInt32>.allocate(capacity: (capacity + groupSize - 1) / groupSize)
        let entries = UnsafeMutablePointer<UInt8>.allocate(capacity: entryStride * capacity)
        var postings = 0, previous = -1
        let cursor = PostingCursor(segment: segment, terms: terms, index: index, field: field)
        segment.positionBytes.withUnsafeBufferPointer { bytes in
            cursor.forEachRemaining { doc, tf in
                // Postings past the segment's documents, out of order or beyond the term's frequency (only a corrupt
                // stream has them) stay out; a frequency of 0 is read through the postings, as a saturated one is.
                guard doc < documents, doc > previous, postings < capacity else { return true }
                previous = doc
                present[doc >> 6] |= UInt64(1) << UInt64(doc & 63)
                let start = cursor.currentPositionOffset()
                if postings % groupSize == 0 { bases[postings / groupSize] = UInt32(truncatingIfNeeded: start) }
                let delta = start - Int(bases[postings / groupSize])
                let far = delta < 0 || delta > Int(UInt16.max)
                let offset = far ? 0 : UInt16(delta)
                // A lone position is kept whole when it fits the mask's two bytes, else read through the postings.
                let lone = far || tf != 1 ? nil : firstPosition(bytes, at: start)
                let count = far || tf == 0 || tf >= UInt32(saturated) || (tf == 1 && lone == nil)
                    ? saturated : UInt8(tf)
                let stored: Residues = count == saturated ? .max
                    : lone.map { Residues($0) } ?? mask(bytes, at: start, count: Int(tf))
                let at = entries + entryStride * postings
                (at[0], at[1], at[2], at[3], at[4])
                    = (count, UInt8(truncatingIfNeeded: stored), UInt8(truncatingIfNeeded: stored >> 8),
                       UInt8(truncatingIfNeeded: offset), UInt8(truncatingIfNeeded: offset >> 8))
                postings += 1
                return true
            }
        }
        var running: UInt32 = 0
        for word in 0..<words {
            ranks[word] = running
            running &+= UInt32(present[word].nonzeroBitCount)
        }
        return PositionColumn(present: present, ranks: ranks, words: words, bases: bases, entries: entries,
                              postings: postings)
    }
}
