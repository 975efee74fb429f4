/// The sealed, sorted term dictionary of one field in one segment: all term bytes in one buffer with
/// offsets, and parallel arrays pointing into the segment's postings. A term lookup is one binary
/// search; a prefix is a binary search plus a range.
///
/// A class, though immutable: every lookup fetches a field's dictionary from its segment, and a reference is
/// one retain where a struct of a dozen arrays was a dozen.
final class FieldTerms: SortedTerms, Sendable {
    let bytes: [UInt8]
    /// Start of term `i`; `offsets[count]` is the end of the last term.
    let offsets: [UInt32]
    let docFreq: [UInt32]
    /// Byte offset of the term's first posting block in `Segment.docBytes`.
    let postingStart: [UInt32]
    /// Index of the term's first block in the segment's skip arrays (`UInt32.max`: a single block, no
    /// skip entry).
    let blockStart: [UInt32]
    /// Byte offset of the term's positions in `Segment.positionBytes`.
    let positionStart: [UInt32]
    /// The run index of the first two bytes (`RunIndex`): where the fuzzy walk's widest runs begin and end.
    /// Nil for a small dictionary, whose binary searches stay in cache anyway (and whose memory would grow).
    let runs: RunIndex?
    /// The first eight bytes of every `sampleStride`-th term as a big-endian number (zero-padded), present with
    /// the run index. A lookup searches these few contiguous kilobytes first and then at most a stride of terms,
    /// instead of reading a term's offset and bytes, two cache misses, at every step of a search over thousands.
    let samples: [UInt64]
    static let sampleStride = 16

    var count: Int { docFreq.count }

    /// `runIndexMinimum`: the term count from which a run index is built (tests lower it).
    init(bytes: [UInt8], offsets: [UInt32], docFreq: [UInt32], postingStart: [UInt32], blockStart: [UInt32],
         positionStart: [UInt32], runIndexMinimum: Int = RunIndex.minimumTerms) {
        self.bytes = bytes
        self.offsets = offsets
        self.docFreq = docFreq
        self.postingStart = postingStart
        self.blockStart = blockStart
        self.positionStart = positionStart
        runs = docFreq.count >= runIndexMinimum ? RunIndex(bytes: bytes, offsets: offsets) : nil
        samples = runs == nil ? [] : Self.samples(bytes: bytes, offsets: offsets)
    }

    private static func samples(bytes: [UInt8], offsets: [UInt32]) -> [UInt64] {
        let count = offsets.count - 1
        var samples: [UInt64] = []
        samples.reserveCapacity((count + sampleStride - 1) / sampleStride)
        bytes.withUnsafeBufferPointer { all in
            for index in stride(from: 0, to: count, by: sampleStride) {
                let start = Int(offsets[index])
                samples.append(key(UnsafeBufferPointer(rebasing: all[start..<Int(offsets[index + 1])]), padding: 0))
            }
        }
        return samples
    }

    /// The first eight bytes of `term` as a big-endian number, `padding` filling the bytes past its end. Terms
    /// whose keys (zero-padded) differ are ordered as their keys are.
    @inline(__always)
    static func key(_ term: UnsafeBufferPointer<UInt8>, padding: UInt8) -> UInt64 {
        var key: UInt64 = 0
        for i in 0..<8 { key = key << 8 | UInt64(i < term.count ? term[i] : padding) }
        return key
    }

    /// Narrows `low..<high` (where `lowerBound(key)` lies) by the samples: past every sampled term whose key is
    /// below `lowKey`, and up to the first sampled term whose key is above `highKey`. Unchanged without samples.
    @inline(__always)
    private func narrowed(_ low: Int, _ high: Int, lowKey: UInt64, highKey: UInt64) -> (low: Int, high: Int) {
        let stride = Self.sampleStride
        guard !samples.isEmpty, high - low > 2 * stride else { return (low, high) }
        return samples.withUnsafeBufferPointer { samples in
            // The samples of the terms in low..<high.
            let firstSample = (low + stride - 1) / stride, endSample = (high - 1) / stride + 1
            var lo = firstSample, hi = endSample
            while lo < hi {
                let mid = (lo + hi) >> 1
                if samples[mid] < lowKey { lo = mid + 1 } else { hi = mid }
            }
            // Samples firstSample..<below are terms below the key.
            let below = lo
            hi = endSample
            while lo < hi {
                let mid = (lo + hi) >> 1
                if samples[mid] <= highKey { lo = mid + 1 } else { hi = mid }
            }
            // Sample `above` (when in range) is a term above the key.
            let above = lo
            let newLow = below > firstSample ? max(low, (below - 1) * stride + 1) : low
            let newHigh = above < endSample ? min(high, above * stride) : high
            return (newLow, max(newHigh, newLow))
        }
    }

    var memoryBytes: Int {
        bytes.capacity + (offsets.capacity + docFreq.capacity + postingStart.capacity + blockStart.capacity + positionStart.capacity) * 4
            + (runs?.memoryBytes ?? 0) + samples.capacity * 8
    }

    func term(_ index: Int) -> String {
        String(decoding: bytes[Int(offsets[index])..<Int(offsets[index + 1])], as: UTF8.self)
    }

    /// Calls `body` with the raw term bytes and offsets (one pointer pair for a whole search, not an array
    /// access per probe).
    @inline(__always)
    func withRaw<R>(_ body: (UnsafePointer<UInt8>, UnsafePointer<UInt32>) -> R) -> R {
        bytes.withUnsafeBufferPointer { all in
            offsets.withUnsafeBufferPointer { offsets in
                // No bytes at all: every term is empty and the base is never read.
                body(all.baseAddress ?? UnsafePointer(bitPattern: 1)!, offsets.baseAddress!)
            }
        }
    }

    /// Lexicographic byte comparison of term `index` with `key`.
    @inline(__always)
    static func compare(_ base: UnsafePointer<UInt8>, _ offsets: UnsafePointer<UInt32>, _ index: Int,
                        _ key: UnsafeBufferPointer<UInt8>) -> Int {
        let start = Int(offsets[index]), length = Int(offsets[index + 1]) - start
        let common = min(length, key.count)
        if common > 0 {
            let c = memcmp(base + start, key.baseAddress!, common)
            if c != 0 { return Int(c) }
        }
        return length - key.count
    }

    /// Lexicographic byte comparison of term `index` with `key`.
    @inline(__always)
    func compare(_ index: Int, _ key: UnsafeBufferPointer<UInt8>) -> Int {
        withRaw { base, offsets in Self.compare(base, offsets, index, key) }
    }

    /// The indices `low...high` between which `lowerBound(key)` lies: the run of the key's first two bytes
    /// from the run index when there is one (a few terms instead of the whole dictionary), else everything.
    @inline(__always)
    func bounds(_ key: UnsafeBufferPointer<UInt8>) -> (low: Int, high: Int) {
        guard let runs, !key.isEmpty else { return (0, count) }
        let first = key[0]
        var low = Int(runs.firstByte[Int(first)]), high = Int(runs.firstByte[Int(first) + 1])
        if key.count >= 2, low < high {
            let second = key[1]
            // Within the first byte's run: a one-byte term first, then the runs of each second byte.
            let pairLow = second == 0 ? low : runs.endOfSecond(second - 1, first: first, low, high)
            high = runs.endOfSecond(second, first: first, low, high)
            low = pairLow
        }
        return (low, high)
    }

    /// First term index whose bytes are ≥ `key`.
    func lowerBound(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        let packed = Self.key(key, padding: 0)
        var (low, high) = bounds(key)
        (low, high) = narrowed(low, high, lowKey: packed, highKey: packed)
        return withRaw { base, offsets in
            while low < high {
                let mid = (low + high) >> 1
                if Self.compare(base, offsets, mid, key) < 0 { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }

    /// `lowerBound(key)` for a key known to sort at or after term `start`: galloping forward from `start`, so
    /// looking up sorted keys one after another costs about the log of the distance between them.
    func lowerBound(_ key: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let count = self.count
        return withRaw { base, offsets in
            guard start < count, Self.compare(base, offsets, start, key) < 0 else { return start }
            var low = start + 1, step = 1, high = start + 1
            while high < count, Self.compare(base, offsets, high, key) < 0 {
                low = high + 1
                step <<= 1
                high = start + step
            }
            high = min(high, count)
            while low < high {
                let mid = (low + high) >> 1
                if Self.compare(base, offsets, mid, key) < 0 { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }

    /// The index of the exact term, if present.
    func find(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        let index = lowerBound(key)
        return index < count && compare(index, key) == 0 ? index : nil
    }

    /// Indices of the terms that start with `prefix`.
    func prefixRange(_ prefix: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = lowerBound(prefix)
        // The terms with the prefix end within the run of its first two bytes, and before the first sampled
        // term above every term that starts with it.
        var low = start
        var high = narrowed(start, max(bounds(prefix).high, start), lowKey: 0, highKey: Self.key(prefix, padding: 0xFF)).high
        return withRaw { base, offsets in
            while low < high {
                let mid = (low + high) >> 1
                let termStart = Int(offsets[mid]), length = Int(offsets[mid + 1]) - termStart
                var hasPrefix = length >= prefix.count
                if hasPrefix {
                    var i = 0
                    while i < prefix.count, base[termStart + i] == prefix[i] { i += 1 }
                    hasPrefix = i == prefix.count
                }
                if hasPrefix { low = mid + 1 } else { high = mid }
            }
            return start..<low
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
