/// The documents a shortcut that reads ranked lists in rounds (`championConjunction`, `coverPhrase`) has taken so
/// far, and those it added this round: a list hands out documents in score order, and a round's documents are
/// scored in ascending order, so each is marked once and the round's are drained by their bits, with no sort.
/// Two bits per document, owned here (a class over raw words: no copy-on-write check per document).
final class CandidateRounds {
    /// Documents taken in any round, and those taken in this one (between the words `low` and `high`).
    private let taken: UnsafeMutablePointer<UInt64>
    private let round: UnsafeMutablePointer<UInt64>
    private let words: Int
    private let documentCount: Int
    private var low: Int
    private var high = 0
    private let alive: Bitset
    /// Documents taken so far.
    private(set) var count = 0

    /// Rounds over the live documents (`alive`) of a segment of `documentCount`.
    init(documentCount: Int, alive: Bitset) {
        self.documentCount = documentCount
        words = (documentCount + 63) >> 6
        taken = .allocate(capacity: max(words, 1))
        taken.initialize(repeating: 0, count: max(words, 1))
        round = .allocate(capacity: max(words, 1))
        round.initialize(repeating: 0, count: max(words, 1))
        low = words
        self.alive = alive
    }

    deinit {
        taken.deallocate()
        round.deallocate()
    }

    /// Adds `doc` to this round unless it was taken before, lies past the segment or is deleted.
    @inline(__always)
    func add(_ doc: UInt32) {
        let d = Int(doc), word = d >> 6, bit = UInt64(1) << UInt64(d & 63)
        guard d < documentCount, taken[word] & bit == 0, alive[d] else { return }
        taken[word] |= bit
        round[word] |= bit
        count += 1
        low = min(low, word)
        high = max(high, word)
    }

    /// Appends this round's documents, ascending, to `out` (emptied first) and starts the next round.
    func drain(into out: inout [UInt32]) {
        out.removeAll(keepingCapacity: true)
        guard low <= high else { return }
        for word in low...high where round[word] != 0 {
            var bits = round[word]
            round[word] = 0
            while bits != 0 {
                out.append(UInt32(word << 6 | bits.trailingZeroBitCount))
                bits &= bits - 1
            }
        }
        (low, high) = (words, 0)
    }
}
