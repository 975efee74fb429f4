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

    var count: Int { docFreq.count }

    var memoryBytes: Int {
        bytes.capacity + (offsets.capacity + docFreq.capacity + postingStart.capacity + blockStart.capacity + positionStart.capacity) * 4
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

    /// Indices of terms within `maxEdits` Levenshtein edits (counted on UTF-8 bytes) of `query`.
    /// Sorted terms share prefixes, so the dynamic-programming rows of a shared prefix are reused, and a
    /// prefix whose best row entry already exceeds `maxEdits` skips every term that starts with it.
    func fuzzy(_ query: [UInt8], maxEdits: Int) -> [Int] {
        var result: [Int] = []
        let n = query.count
        let width = n + 1
        // rows[d] is the DP row after the first d bytes of the current term.
        var rows = [Int](repeating: 0, count: width * (Analyzer.maxTermBytes + 2))
        for j in 0...n { rows[j] = j }
        var previousTerm: [UInt8] = []
        var index = 0
        bytes.withUnsafeBufferPointer { all in
            while index < count {
                let start = Int(offsets[index]), end = Int(offsets[index + 1])
                let term = UnsafeBufferPointer(rebasing: all[start..<end])
                if term.count > Analyzer.maxTermBytes || abs(term.count - n) > maxEdits {
                    if term.count - n > maxEdits {
                        // Longer terms can still share a good prefix with later shorter ones; just move on.
                    }
                    index += 1
                    continue
                }
                var common = 0
                let limit = min(previousTerm.count, term.count)
                while common < limit, previousTerm[common] == term[common] { common += 1 }
                var pruned = -1
                var depth = common
                while depth < term.count {
                    let byte = term[depth]
                    let prev = depth * width, cur = (depth + 1) * width
                    rows[cur] = depth + 1
                    var best = rows[cur]
                    for j in 1...max(n, 1) where j <= n {
                        let cost = query[j - 1] == byte ? 0 : 1
                        let value = min(rows[prev + j - 1] + cost, rows[prev + j] + 1, rows[cur + j - 1] + 1)
                        rows[cur + j] = value
                        if value < best { best = value }
                    }
                    depth += 1
                    if best > maxEdits { pruned = depth; break }
                }
                previousTerm = Array(term)
                if pruned >= 0 {
                    // Every term starting with these `pruned` bytes fails too.
                    previousTerm.removeSubrange(pruned...)
                    let next = previousTerm.withUnsafeBufferPointer { prefixRange($0).upperBound }
                    index = max(index + 1, next)
                    continue
                }
                if rows[term.count * width + n] <= maxEdits { result.append(index) }
                index += 1
            }
        }
        return result
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
