/// The sealed, sorted term dictionary of one field in one segment: all term bytes in one buffer with
/// offsets, and parallel arrays pointing into the segment's postings. A term lookup is one binary
/// search; a prefix is a binary search plus a range.
struct FieldTerms: Sendable {
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
    }

    var memoryBytes: Int {
        bytes.capacity + (offsets.capacity + docFreq.capacity + postingStart.capacity + blockStart.capacity + positionStart.capacity) * 4
            + (runs?.memoryBytes ?? 0)
    }

    /// Calls `body` with the bytes of term `index`.
    @inline(__always)
    func withTerm<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let start = Int(offsets[index]), end = Int(offsets[index + 1])
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    func term(_ index: Int) -> String {
        String(decoding: bytes[Int(offsets[index])..<Int(offsets[index + 1])], as: UTF8.self)
    }

    /// Lexicographic byte comparison of term `index` with `key`.
    @inline(__always)
    func compare(_ index: Int, _ key: UnsafeBufferPointer<UInt8>) -> Int {
        withTerm(index) { term in
            let common = min(term.count, key.count)
            if common > 0 {
                let c = memcmp(term.baseAddress!, key.baseAddress!, common)
                if c != 0 { return Int(c) }
            }
            return term.count - key.count
        }
    }

    /// First term index whose bytes are ≥ `key`.
    func lowerBound(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) >> 1
            if compare(mid, key) < 0 { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// `lowerBound(key)` for a key known to sort at or after term `start`: galloping forward from `start`, so
    /// looking up sorted keys one after another costs about the log of the distance between them.
    func lowerBound(_ key: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < count, compare(start, key) < 0 else { return start }
        var low = start + 1, step = 1, high = start + 1
        while high < count, compare(high, key) < 0 {
            low = high + 1
            step <<= 1
            high = start + step
        }
        high = min(high, count)
        while low < high {
            let mid = (low + high) >> 1
            if compare(mid, key) < 0 { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The index of the exact term, if present.
    func find(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        let index = lowerBound(key)
        return index < count && compare(index, key) == 0 ? index : nil
    }

    /// Indices of the terms that start with `prefix`.
    func prefixRange(_ prefix: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = lowerBound(prefix)
        var low = start, high = count
        while low < high {
            let mid = (low + high) >> 1
            let hasPrefix = withTerm(mid) { term in
                term.count >= prefix.count
                    && (prefix.count == 0 || memcmp(term.baseAddress!, prefix.baseAddress!, prefix.count) == 0)
            }
            if hasPrefix { low = mid + 1 } else { high = mid }
        }
        return start..<low
    }

    /// Indices of terms within `maxEdits` Levenshtein edits (counted on UTF-8 bytes) of `query`, ascending
    /// (`FuzzyWalk`).
    func fuzzy(_ query: [UInt8], maxEdits: Int) -> [Int] {
        FuzzyWalk.matches(query, maxEdits: maxEdits, bytes: bytes, offsets: offsets, runs: runs)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
