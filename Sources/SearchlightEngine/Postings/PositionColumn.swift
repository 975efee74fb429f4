/// A frequent term's positions in one field reached by document: which documents of the segment hold the term
/// (a bit each, with a running count every 64 documents to rank one among them), and for each of its postings
/// where the positions start in the segment's position stream and how many there are.
///
/// A phrase scored at scattered candidates (best bound first, or read down a word's cover) checks each one on
/// its own. Through the postings that is a block found and decoded per term for every candidate, and the position
/// stream skipped from the block's start to the candidate: about 190 ns a candidate for two words on debian-en,
/// six times what the document-order walk pays per candidate. Through the terms' columns it is a bit, a count
/// and an entry read per term, and the candidate's own positions decoded. Derived from the postings by the first
/// search that checks scattered candidates (`Segment.positionColumn`), kept within a budget per segment, never
/// written to disk. Five bytes per posting and about a fifth of a byte per document of the segment.
final class PositionColumn: @unchecked Sendable {
    // Sound: every buffer is written once, by `build`, before the column is shared.
    /// A bit per document: whether it holds the term.
    private let present: UnsafePointer<UInt64>
    /// Per 64 documents: the postings before them.
    private let ranks: UnsafePointer<UInt32>
    private let words: Int
    /// Per posting: where its positions start (an offset into `Segment.positionBytes`), and its frequency,
    /// `saturated` standing for that many or more (read through the postings).
    private let starts: UnsafePointer<UInt32>
    private let counts: UnsafePointer<UInt8>
    private let postings: Int
    static let saturated: UInt8 = 255
    /// Segments past this many documents build none: in the million-item index (one segment) the phrase workload
    /// built 37 MB of them, and its first executions' p99 rose from 8 to 21 ms, for no gain in the timed ones
    /// (BENCHMARKS.md §AN).
    static let maximumSegmentDocuments = 131_072

    /// Heap bytes held.
    var memoryBytes: Int { Self.memoryBytes(documentCount: words * 64, postings: postings) }

    static func memoryBytes(documentCount: Int, postings: Int) -> Int {
        64 + 12 * ((documentCount + 63) / 64) + 5 * postings
    }

    private init(present: UnsafePointer<UInt64>, ranks: UnsafePointer<UInt32>, words: Int, starts: UnsafePointer<UInt32>,
                 counts: UnsafePointer<UInt8>, postings: Int) {
        (self.present, self.ranks, self.words, self.starts, self.counts, self.postings) = (present, ranks, words, starts, counts, postings)
    }

    deinit {
        UnsafeMutablePointer(mutating: present).deallocate()
        UnsafeMutablePointer(mutating: ranks).deallocate()
        UnsafeMutablePointer(mutating: starts).deallocate()
        UnsafeMutablePointer(mutating: counts).deallocate()
    }

    /// How many positions `doc` has (0: the term is not there, `saturated`: that many or more) and where they start.
    @inline(__always)
    func entry(_ doc: Int) -> (count: UInt8, start: Int) {
        let word = doc >> 6
        guard doc >= 0, word < words else { return (0, 0) }
        let bits = present[word], bit = UInt64(1) << UInt64(doc & 63)
        guard bits & bit != 0 else { return (0, 0) }
        let rank = Int(ranks[word]) + (bits & (bit &- 1)).nonzeroBitCount
        guard rank < postings else { return (0, 0) }
        return (counts[rank], Int(starts[rank]))
    }

    /// The column of term `index` of `terms` (`field`'s dictionary in `segment`): one pass over its postings.
    static func build(segment: Segment, terms: FieldTerms, index: Int, field: Int) -> PositionColumn {
        let documents = segment.documentCount
        let words = (documents + 63) / 64
        let capacity = max(Int(terms.docFreq[index]), 1)
        let present = UnsafeMutablePointer<UInt64>.allocate(capacity: max(words, 1))
        present.initialize(repeating: 0, count: max(words, 1))
        let ranks = UnsafeMutablePointer<UInt32>.allocate(capacity: max(words, 1))
        let starts = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        let counts = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        var postings = 0, previous = -1
        let cursor = PostingCursor(segment: segment, terms: terms, index: index, field: field)
        cursor.forEachRemaining { doc, tf in
            // Postings past the segment's documents, out of order or beyond the term's frequency (only a corrupt
            // stream has them) stay out; a frequency of 0 is read through the postings, as a saturated one is.
            guard doc < documents, doc > previous, postings < capacity else { return true }
            previous = doc
            present[doc >> 6] |= UInt64(1) << UInt64(doc & 63)
            starts[postings] = UInt32(truncatingIfNeeded: cursor.currentPositionOffset())
            counts[postings] = tf == 0 || tf >= UInt32(saturated) ? saturated : UInt8(tf)
            postings += 1
            return true
        }
        var running: UInt32 = 0
        for word in 0..<words {
            ranks[word] = running
            running &+= UInt32(present[word].nonzeroBitCount)
        }
        return PositionColumn(present: present, ranks: ranks, words: words, starts: starts, counts: counts,
                              postings: postings)
    }
}
