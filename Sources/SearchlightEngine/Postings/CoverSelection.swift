/// The best documents of a champion cover's ranking, chosen from every scored document at once: a cover keeps
/// twice its depth (16,385 for a phrase cover), and a heap that size, filled from tens of thousands of documents
/// and then heap-sorted, took about 1.5 ms per frequent word on debian-en, most of a phrase's first execution.
///
/// A document's key orders it as `SearchHit.ranksBefore` does within a segment (score descending, document
/// ascending) as one unsigned integer: scores here are finite and not negative (a cover's scope has positive
/// weights and parameters), and such floats order as their bit patterns do.
enum CoverSelection {
    /// The rank key of a document's score (a negative or non-finite score, which a cover's scope rules out, ranks
    /// as 0, and so does -0, whose sign bit would otherwise rank it first).
    @inline(__always)
    static func key(score: Float, doc: Int) -> UInt64 {
        assert(score >= 0 && score.isFinite, "a cover's scores are finite and not negative")
        let bits = score > 0 && score.isFinite ? score.bitPattern : 0
        return UInt64(UInt32.max - bits) << 32 | UInt64(UInt32(truncatingIfNeeded: doc))
    }

    /// The best `count` of `keys` (all when fewer) as hits of segment 0, best first: the keys past the bucket, of
    /// their top 16 bits, where `count` is reached are dropped in one pass, and the rest sorted.
    static func best(_ keys: [UInt64], count: Int) -> [SearchHit] {
        var kept = keys
        if keys.count > count {
            var buckets = [Int](repeating: 0, count: 1 << 16)
            for key in keys { buckets[Int(key >> 48)] += 1 }
            var last = 0, taken = 0
            while last < buckets.count {
                taken += buckets[last]
                if taken >= count { break }
                last += 1
            }
            kept = keys.filter { Int($0 >> 48) <= last }
        }
        kept.sort()
        return kept.prefix(count).map { key in
            SearchHit(address: DocAddress(segment: 0, doc: UInt32(truncatingIfNeeded: key)),
                      score: Float(bitPattern: UInt32.max - UInt32(truncatingIfNeeded: key >> 32)))
        }
    }
}
