/// A blocked Bloom filter of a sorted term list's terms, asked by the fuzzy walk before it searches the list
/// for a term that would complete a prefix exactly.
///
/// Once a prefix has spent its edit budget, only a few exact completions can still match (`FuzzyWalk.visit`),
/// and they are almost never in the list: each such check was a binary search whose probes land on scattered
/// terms. The filter answers most of them with one cache line (about 1% false positives at 12 bits per
/// term), so only the rare hits and false positives are searched. Terms hash with `start` / `step` / `finish`,
/// so a walk hashes a shared prefix once and only each suffix after it.
struct TermBloom: Sendable {
    /// 64-bit words; the count is a power of two.
    private let words: [UInt64]
    private let mask: UInt64

    /// Bits per term (before rounding the word count up to a power of two).
    static let bitsPerTerm = 12

    /// Lists this short are searched directly (the filter would not save a probe).
    static let minimumTerms = 1_024

    init(bytes: [UInt8], offsets: [UInt32]) {
        let count = max(offsets.count - 1, 1)
        var wordCount = 1
        while wordCount * 64 < count * Self.bitsPerTerm { wordCount <<= 1 }
        var words = [UInt64](repeating: 0, count: wordCount)
        let mask = UInt64(wordCount - 1)
        bytes.withUnsafeBufferPointer { all in
            for index in 0..<(offsets.count - 1) {
                let (word, bits) = Self.locate(Self.hash(all[Int(offsets[index])..<Int(offsets[index + 1])]), mask: mask)
                words[word] |= bits
            }
        }
        self.words = words
        self.mask = mask
    }

    var memoryBytes: Int { words.capacity * 8 }

    /// The hash of no bytes (FNV-1a's offset basis).
    static let start: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash after one more byte (FNV-1a).
    @inline(__always)
    static func step(_ hash: UInt64, _ byte: UInt8) -> UInt64 { (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }

    /// The finished hash of a whole term (what `mayContain` takes).
    @inline(__always)
    static func hash(_ term: some Sequence<UInt8>) -> UInt64 { finish(term.reduce(start, step)) }

    /// The final mix (murmur3's), so every bit depends on every byte before the bits are taken apart.
    @inline(__always)
    static func finish(_ hash: UInt64) -> UInt64 {
        var h = hash
        h ^= h >> 33
        h &*= 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h &*= 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }

    /// The word of a finished hash and the four bits it sets there.
    @inline(__always)
    private static func locate(_ hash: UInt64, mask: UInt64) -> (Int, UInt64) {
        let bits: UInt64 = 1 << (hash >> 40 & 63) | 1 << (hash >> 46 & 63) | 1 << (hash >> 52 & 63) | 1 << (hash >> 58)
        return (Int(hash & mask), bits)
    }

    /// False when the term with this finished hash is certainly not in the list.
    @inline(__always)
    func mayContain(_ hash: UInt64) -> Bool {
        let (word, bits) = Self.locate(hash, mask: mask)
        return words[word] & bits == bits
    }
}
