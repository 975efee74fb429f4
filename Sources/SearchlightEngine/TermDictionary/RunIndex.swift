/// Where the runs of a sorted term dictionary's first byte and first two bytes begin.
///
/// The fuzzy walk (`FieldTerms.fuzzy`) splits the terms sharing a prefix into the runs of their next byte.
/// The runs of the first two bytes are the widest (a whole dictionary, then thousands of terms per letter),
/// and a typo budget enters nearly all of them, so finding their ends by binary search over the dictionary
/// was most of a walk's memory traffic. This index answers those two depths from a few kilobytes instead.
struct RunIndex: Sendable {
    /// Dictionaries with fewer terms have none (about 2 KB each, for searches that fit in cache anyway).
    static let minimumTerms = 1024

    /// `firstByte[b]`: the first term that is non-empty and starts with a byte ≥ `b` (`[256]`: the term count).
    let firstByte: [UInt32]
    /// The distinct first two bytes (`b0 << 8 | b1`) of the terms of two bytes or more, ascending.
    let pairKeys: [UInt16]
    /// The first term of each pair in `pairKeys`.
    let pairStarts: [UInt32]
    /// `pairsOf[b]`: the first pair whose first byte is ≥ `b` (`[256]`: the pair count).
    let pairsOf: [UInt32]

    init(bytes: [UInt8], offsets: [UInt32]) {
        let count = max(offsets.count - 1, 0)
        var firstByte = [UInt32](repeating: UInt32(count), count: 257)
        var pairKeys: [UInt16] = [], pairStarts: [UInt32] = []
        var next = 0
        for index in 0..<count {
            let start = Int(offsets[index]), length = Int(offsets[index + 1]) - start
            guard length > 0 else { continue }
            let b0 = Int(bytes[start])
            while next <= b0 {
                firstByte[next] = UInt32(index)
                next += 1
            }
            guard length >= 2 else { continue }
            let key = UInt16(b0) << 8 | UInt16(bytes[start + 1])
            if pairKeys.last != key {
                pairKeys.append(key)
                pairStarts.append(UInt32(index))
            }
        }
        var pairsOf = [UInt32](repeating: 0, count: 257)
        var pair = 0
        for byte in 0...256 {
            while pair < pairKeys.count, Int(pairKeys[pair] >> 8) < byte { pair += 1 }
            pairsOf[byte] = UInt32(pair)
        }
        self.firstByte = firstByte
        self.pairKeys = pairKeys
        self.pairStarts = pairStarts
        self.pairsOf = pairsOf
    }

    var memoryBytes: Int { (firstByte.capacity + pairsOf.capacity + pairStarts.capacity) * 4 + pairKeys.capacity * 2 }

    /// The first term index in `low..<high` whose first byte exceeds `byte` (the terms there are non-empty).
    @inline(__always)
    func endOfFirst(_ byte: UInt8, _ low: Int, _ high: Int) -> Int {
        min(max(Int(firstByte[Int(byte) + 1]), low), high)
    }

    /// The first term index in `low..<high` whose second byte exceeds `byte`, when the terms there all start
    /// with `first` and have at least two bytes.
    @inline(__always)
    func endOfSecond(_ byte: UInt8, first: UInt8, _ low: Int, _ high: Int) -> Int {
        let key = UInt16(first) << 8 | UInt16(byte)
        var lower = Int(pairsOf[Int(first)]), upper = Int(pairsOf[Int(first) + 1])
        while lower < upper {
            let mid = (lower + upper) >> 1
            if pairKeys[mid] <= key { lower = mid + 1 } else { upper = mid }
        }
        // The first pair above `key` (possibly of a later first byte, which starts at or after `high`).
        let end = lower < pairStarts.count ? Int(pairStarts[lower]) : Int(firstByte[256])
        return min(max(end, low), high)
    }
}
