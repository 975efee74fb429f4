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

    /// Indices of terms within `maxEdits` Levenshtein edits (counted on UTF-8 bytes) of `query`, ascending.
    ///
    /// The sorted dictionary is walked as a trie: the terms sharing a prefix are a contiguous run, and the
    /// runs of its next byte are found by binary search on that one byte. Each prefix carries the
    /// dynamic-programming row of its edits against the query's prefixes. A prefix whose row exceeds the
    /// budget everywhere is not entered; one whose best entry uses the whole budget can only continue with
    /// a byte that matches the query where the budget is reached, so only those few runs are looked up, not
    /// every child. The walk thus visits the prefixes near the query, not the whole dictionary.
    func fuzzy(_ query: [UInt8], maxEdits: Int) -> [Int] {
        var result: [Int] = []
        guard count > 0, maxEdits >= 0 else { return result }
        let n = query.count
        let width = n + 1
        // Row d: edits between a d-byte prefix and each query prefix; no term deeper than n + maxEdits matches.
        let depthLimit = n + maxEdits + 1
        let rows = UnsafeMutablePointer<Int32>.allocate(capacity: width * (depthLimit + 1))
        defer { rows.deallocate() }
        for j in 0...n { rows[j] = Int32(j) }
        query.withUnsafeBufferPointer { q in
            bytes.withUnsafeBufferPointer { all in
                offsets.withUnsafeBufferPointer { offsets in
                    let walk = FuzzyWalk(query: q, budget: Int32(maxEdits), rows: rows, width: width,
                                         depthLimit: depthLimit, base: all.baseAddress!, offsets: offsets)
                    walk.visit(0, count, depth: 0, into: &result)
                }
            }
        }
        return result
    }
}

/// The state of one `FieldTerms.fuzzy` walk (raw buffers: no bounds or exclusivity checks per byte).
private struct FuzzyWalk {
    let query: UnsafeBufferPointer<UInt8>
    let budget: Int32
    let rows: UnsafeMutablePointer<Int32>
    let width: Int
    let depthLimit: Int
    let base: UnsafePointer<UInt8>
    let offsets: UnsafeBufferPointer<UInt32>

    @inline(__always)
    func length(_ index: Int) -> Int { Int(offsets[index + 1]) - Int(offsets[index]) }

    /// Byte `depth` of term `index` (which is longer than `depth`).
    @inline(__always)
    func byte(_ index: Int, _ depth: Int) -> UInt8 { base[Int(offsets[index]) + depth] }

    /// The first index in `low..<high` whose byte `depth` exceeds `byte` (the terms there share `depth`
    /// bytes and are longer, so that byte is non-decreasing). Gallops forward from `low` before the binary
    /// search: runs are short and the next ones lie close, so probes stay near each other in memory.
    @inline(__always)
    func end(of byte: UInt8, from low: Int, _ high: Int, depth: Int) -> Int {
        // Everything before `low` is ≤ `byte`; `probe` (when < high) is the first index known to exceed it.
        var low = low, probe = low, step = 1
        while probe < high, self.byte(probe, depth) <= byte {
            low = probe + 1
            probe = low + step
            step <<= 1
        }
        var high = min(probe, high)
        while low < high {
            let mid = (low + high) >> 1
            if self.byte(mid, depth) <= byte { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Computes row `depth + 1` for `byte` after row `depth`; returns its smallest entry.
    @inline(__always)
    func extend(_ depth: Int, with byte: UInt8) -> Int32 {
        let previous = rows + depth * width, current = previous + width
        let n = width - 1
        current[0] = Int32(depth + 1)
        var best = current[0]
        var j = 1
        while j <= n {
            let cost: Int32 = query[j - 1] == byte ? 0 : 1
            let value = min(previous[j - 1] + cost, previous[j] + 1, current[j - 1] + 1)
            current[j] = value
            if value < best { best = value }
            j += 1
        }
        return best
    }

    /// Walks the terms `low..<high`, which share their first `depth` bytes (row `depth` holds their edits).
    func visit(_ low: Int, _ high: Int, depth: Int, into result: inout [Int]) {
        var low = low
        let row = rows + depth * width
        let n = width - 1
        // The prefix itself, if it is a term, sorts first.
        if length(low) == depth {
            if row[n] <= budget { result.append(low) }
            low += 1
        }
        guard low < high, depth + 1 < depthLimit else { return }
        var best = row[0]
        for j in 1...max(n, 1) where j <= n { best = min(best, row[j]) }
        if best < budget {
            // Any next byte stays within the budget somewhere: enter every run that does.
            var index = low
            while index < high {
                let next = byte(index, depth)
                let runEnd = end(of: next, from: index + 1, high, depth: depth)
                if extend(depth, with: next) <= budget { visit(index, runEnd, depth: depth + 1, into: &result) }
                index = runEnd
            }
        } else {
            // The budget is spent: only a byte matching the query right where a prefix reaches the budget
            // keeps an entry within it (a substitution, insertion or deletion would exceed it).
            var index = low
            var floor = -1
            while index < high {
                // The smallest such byte above the last one looked up (no allocation: the query is short).
                var smallest = 256
                for j in 1...max(n, 1) where j <= n && row[j - 1] <= budget {
                    let candidate = Int(query[j - 1])
                    if candidate > floor, candidate < smallest { smallest = candidate }
                }
                guard smallest < 256 else { break }
                floor = smallest
                let next = UInt8(smallest)
                let runStart = next == 0 ? index : end(of: next - 1, from: index, high, depth: depth)
                let runEnd = end(of: next, from: runStart, high, depth: depth)
                if runStart < runEnd, extend(depth, with: next) <= budget {
                    visit(runStart, runEnd, depth: depth + 1, into: &result)
                }
                index = runEnd
            }
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
