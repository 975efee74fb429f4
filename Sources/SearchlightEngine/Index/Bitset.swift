/// A fixed-size bit set: live documents of a segment (tombstones are cleared bits) and document sets.
/// A value type, so a snapshot's copy never changes when the writer clears more bits (copy on write).
public struct Bitset: Sendable, Equatable {
    private(set) var words: [UInt64]
    public let count: Int

    /// A set of `count` bits, all set or all clear.
    public init(count: Int, allSet: Bool) {
        self.count = count
        words = [UInt64](repeating: allSet ? ~0 : 0, count: (count + 63) >> 6)
        if allSet, count & 63 != 0 { words[words.count - 1] = (1 << UInt64(count & 63)) - 1 }
    }

    /// A bit set from its words, as the durable store saved them (bits past `count` are cleared).
    init(words: [UInt64], count: Int) {
        self.count = count
        self.words = words
        if count & 63 != 0, !self.words.isEmpty { self.words[self.words.count - 1] &= (1 << UInt64(count & 63)) - 1 }
    }

    @inline(__always)
    public subscript(index: Int) -> Bool {
        get { words[index >> 6] & (1 << UInt64(index & 63)) != 0 }
        set {
            if newValue { words[index >> 6] |= 1 << UInt64(index & 63) } else { words[index >> 6] &= ~(1 << UInt64(index & 63)) }
        }
    }

    /// Number of set bits.
    public var cardinality: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    var memoryBytes: Int { words.capacity * 8 }

    /// The set bits in increasing order.
    public var indices: [Int] {
        var result: [Int] = []
        for (w, word) in words.enumerated() {
            var bits = word
            while bits != 0 {
                result.append(w << 6 | bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return result
    }
}
