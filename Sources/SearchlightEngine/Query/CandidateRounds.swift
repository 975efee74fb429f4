/// The documents a shortcut that reads ranked lists in rounds (`championConjunction`, `coverPhrase`) has taken so
/// far, and those it added this round: a list hands out documents in score order, and a round's documents are
/// scored in ascending order, so each is marked once and the round's are drained by their bits, with no sort.
struct CandidateRounds {
    /// Documents taken in any round; in this round, a bit per document, between the words `low` and `high`.
    private var taken: Bitset
    private var round: [UInt64]
    private var low: Int
    private var high = 0
    private let alive: Bitset
    /// Documents taken so far.
    private(set) var count = 0

    /// Rounds over the live documents (`alive`) of a segment of `documentCount`.
    init(documentCount: Int, alive: Bitset) {
        taken = Bitset(count: documentCount, allSet: false)
        round = [UInt64](repeating: 0, count: (documentCount + 63) >> 6)
        low = round.count
        self.alive = alive
    }

    /// Adds `doc` to this round unless it was taken before, lies past the segment or is deleted.
    mutating func add(_ doc: UInt32) {
        let d = Int(doc)
        guard d < taken.count, alive[d], !taken[d] else { return }
        taken[d] = true
        round[d >> 6] |= 1 << UInt64(d & 63)
        count += 1
        low = min(low, d >> 6)
        high = max(high, d >> 6)
    }

    /// Appends this round's documents, ascending, to `out` (emptied first) and starts the next round.
    mutating func drain(into out: inout [UInt32]) {
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
        (low, high) = (round.count, 0)
    }
}
