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
    /// prefix whose best row entry already exceeds `maxEdits` skips every term that starts with it (found by
    /// galloping forward from the current term, not by a search of the whole dictionary: the skipped runs
    /// are short). No allocation per term: the previous term is remembered by position.
    func fuzzy(_ query: [UInt8], maxEdits: Int) -> [Int] {
        var result: [Int] = []
        let n = query.count
        let width = n + 1
        let count = self.count
        guard count > 0 else { return result }
        // rows[d * width + j]: edits between the first d bytes of the current term and the first j of the query.
        let rows = UnsafeMutablePointer<Int32>.allocate(capacity: width * (Analyzer.maxTermBytes + 2))
        defer { rows.deallocate() }
        for j in 0...n { rows[j] = Int32(j) }
        let k = Int32(maxEdits)
        query.withUnsafeBufferPointer { q in
        bytes.withUnsafeBufferPointer { all in
        offsets.withUnsafeBufferPointer { offsets in
            let base = all.baseAddress!
            // The bytes whose rows are computed: `previousLength` bytes at `previousStart`.
            var previousStart = 0, previousLength = 0
            var index = 0
            while index < count {
                let start = Int(offsets[index]), end = Int(offsets[index + 1])
                let length = end - start
                if length > Analyzer.maxTermBytes || abs(length - n) > maxEdits {
                    index += 1
                    continue
                }
                let term = base + start
                var common = 0
                let limit = min(previousLength, length)
                let previous = base + previousStart
                while common < limit, previous[common] == term[common] { common += 1 }
                var pruned = -1
                var depth = common
                while depth < length {
                    let byte = term[depth]
                    let prev = rows + depth * width, cur = rows + (depth + 1) * width
                    cur[0] = Int32(depth + 1)
                    var best = cur[0]
                    var j = 1
                    while j <= n {
                        let cost: Int32 = q[j - 1] == byte ? 0 : 1
                        let value = min(prev[j - 1] + cost, prev[j] + 1, cur[j - 1] + 1)
                        cur[j] = value
                        if value < best { best = value }
                        j += 1
                    }
                    depth += 1
                    if best > k { pruned = depth; break }
                }
                previousStart = start
                if pruned >= 0 {
                    // Every term starting with these `pruned` bytes fails too: skip the run of them.
                    previousLength = pruned
                    index = Self.endOfRun(from: index, prefix: term, length: pruned, base: base, offsets: offsets,
                                          count: count)
                    continue
                }
                previousLength = length
                if rows[length * width + n] <= k { result.append(index) }
                index += 1
            }
        }
        }
        }
        return result
    }

    /// The first index after `index` (whose term starts with the `length` bytes at `prefix`) of a term that
    /// does not start with them: gallop forward, then binary search.
    @inline(__always)
    private static func endOfRun(from index: Int, prefix: UnsafePointer<UInt8>, length: Int,
                                 base: UnsafePointer<UInt8>, offsets: UnsafeBufferPointer<UInt32>, count: Int) -> Int {
        func hasPrefix(_ i: Int) -> Bool {
            let start = Int(offsets[i])
            guard Int(offsets[i + 1]) - start >= length else { return false }
            let term = base + start
            var b = 0
            while b < length {
                if term[b] != prefix[b] { return false }
                b += 1
            }
            return true
        }
        // Invariant: `low` has the prefix; `high` does not (or is `count`).
        var low = index, step = 1, high = index + 1
        while high < count, hasPrefix(high) {
            low = high
            step <<= 1
            high = index + step
        }
        if high > count { high = count }
        while high - low > 1 {
            let mid = (low + high) >> 1
            if hasPrefix(mid) { low = mid } else { high = mid }
        }
        return high
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
