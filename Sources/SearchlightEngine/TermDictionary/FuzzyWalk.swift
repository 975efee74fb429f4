/// The Levenshtein walk of a sorted term list (a `FieldTerms` dictionary or a `SegmentVocabulary`): the terms
/// within an edit budget of a query, found without scanning the list. Raw buffers: no bounds or exclusivity
/// checks per byte.
///
/// Edits are counted in characters (Unicode scalars), as the typo budget is, and as Lucene's and tantivy's
/// Levenshtein automata count them: "привт" is one edit from "привет", not two. The walk still moves a byte at a
/// time through the sorted bytes; inside a multi-byte character it only gathers bytes, and the character's edits
/// are computed once its last byte is known.
///
/// Two adjacent characters swapped ("tuilp" for "tulip", the commonest typo) also count as one edit, as Lucene's
/// and tantivy's fuzzy queries count them with transpositions: optimal string alignment, each row of the walk
/// also reading the row two characters up, so a swap and another edit (or swap) elsewhere are two. As there, an
/// edit inside a swapped pair is not counted as part of the swap ("ab" to "bxa" is three).
///
/// In prefix mode (`nearPrefixes`) a term matches when some prefix of it is within the budget, as tantivy's
/// `FuzzyTermQuery::new_prefix` and Meilisearch match a word still being typed: the walk records each such prefix
/// (a near prefix) with the run of terms under it, and does not descend below it.
struct FuzzyWalk {
    /// The terms under a near prefix: `terms`, all starting with the same `length` bytes, whose edits to the query
    /// are within the budget.
    struct NearPrefix: Equatable {
        let terms: Range<Int>
        let length: Int
    }

    /// The query's UTF-8 bytes (suffix lookups and the filter's hashes are by byte).
    let query: UnsafeBufferPointer<UInt8>
    /// The query's characters, each its UTF-8 bytes packed into one value (`unit`).
    let units: UnsafeBufferPointer<UInt32>
    /// `unitStarts[j]`: the byte offset of character `j` in `query` (`unitStarts[units.count] == query.count`).
    let unitStarts: UnsafeBufferPointer<Int>
    let budget: Int32
    /// Row `level` (a prefix of `level` characters): its edits against each query prefix of 0...n characters.
    let rows: UnsafeMutablePointer<Int32>
    /// `levelUnits[level]`: the last character of the prefix of `level` characters (1...), for the swaps.
    let levelUnits: UnsafeMutablePointer<UInt32>
    /// Room for one lookup key of a swap at the spent budget's edge: a character and a suffix of the query.
    let swapKey: UnsafeMutablePointer<UInt8>
    let width: Int
    /// No term of `levelLimit` or more characters is within the budget.
    let levelLimit: Int
    let base: UnsafePointer<UInt8>
    let offsets: UnsafeBufferPointer<UInt32>
    let runs: RunIndex?
    /// The list's filter, asked before each search for an exact completion (nil: search every time).
    let bloom: TermBloom?
    /// `prefixHashes[d]`: the filter hash of the `d` bytes the terms being visited share.
    let prefixHashes: UnsafeMutablePointer<UInt64>
    /// Prefix mode: the result holds near prefixes (first term, end, byte length), not term indices.
    let prefixMode: Bool

    /// Bytes in the UTF-8 sequence `lead` starts; 1 for ASCII and for a byte that starts none (a stray
    /// continuation byte or 0xF8...0xFF), which then stands alone. Terms are valid UTF-8; the rule only has to be
    /// the same for the query and the terms.
    @inline(__always)
    static func unitLength(_ lead: UInt8) -> Int {
        lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : lead < 0xF8 ? 4 : 1
    }

    /// The query's characters (`unitLength` bytes each, packed big-endian, so two are equal exactly when their
    /// bytes are) and their byte offsets, with the end offset last. An incomplete last sequence is one unit.
    static func units(of query: [UInt8]) -> (units: [UInt32], starts: [Int]) {
        var units: [UInt32] = [], starts: [Int] = []
        units.reserveCapacity(query.count)
        starts.reserveCapacity(query.count + 1)
        var i = 0
        while i < query.count {
            starts.append(i)
            let end = min(i + unitLength(query[i]), query.count)
            var unit: UInt32 = 0
            while i < end {
                unit = unit << 8 | UInt32(query[i])
                i += 1
            }
            units.append(unit)
        }
        starts.append(query.count)
        return (units, starts)
    }

    /// Edits between two strings of characters (`units(of:)`), a swap of adjacent characters counting as one
    /// (optimal string alignment): how near an expansion is.
    static func distance(_ a: [UInt32], _ b: [UInt32]) -> Int {
        // Rows i − 2, i − 1 and i of the table over b's prefixes.
        var before = [Int](repeating: 0, count: b.count + 1), previous = Array(0...b.count)
        var row = previous
        for i in a.indices {
            row[0] = i + 1
            for j in b.indices {
                var value = min(previous[j + 1] + 1, row[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] { value = min(value, before[j - 1] + 1) }
                row[j + 1] = value
            }
            (before, previous, row) = (previous, row, before)
        }
        return previous[b.count]
    }

    /// Indices of terms within `maxEdits` edits (counted in characters; a swap of adjacent characters counts as
    /// one) of `query`, ascending.
    ///
    /// The sorted dictionary is walked as a trie: the terms sharing a prefix are a contiguous run, and the
    /// runs of its next byte are found by binary search on that one byte. Each prefix of whole characters carries
    /// the dynamic-programming row of its edits against the query's prefixes. A prefix whose row exceeds the
    /// budget everywhere is not entered; one whose best entry uses the whole budget can only be completed by
    /// the rest of the query after a position where the budget is reached, so those few terms are looked up
    /// directly, not walked. The walk thus visits the prefixes near the query, not the whole dictionary. The
    /// runs of the first two bytes, the widest, come from the `RunIndex` when the dictionary has one.
    static func matches(_ query: [UInt8], maxEdits: Int, bytes: [UInt8], offsets: [UInt32], runs: RunIndex?,
                        bloom: TermBloom? = nil) -> [Int] {
        let (units, starts) = Self.units(of: query)
        return walk(query, units: units, starts: starts, maxEdits: maxEdits, bytes: bytes, offsets: offsets,
                    runs: runs, bloom: bloom, prefixMode: false)
    }

    /// The near prefixes of `query` within `maxEdits` (counted as `matches` counts them), ascending and disjoint:
    /// every term of the list that has a prefix within the budget lies under exactly one, the shortest such
    /// prefix of its run. The walk is `matches`' with each prefix that is itself within the budget recorded
    /// instead of entered; where the budget is spent, the runs under prefix + the rest of the query are searched.
    static func nearPrefixes(_ query: [UInt8], maxEdits: Int, bytes: [UInt8], offsets: [UInt32],
                             runs: RunIndex?) -> [NearPrefix] {
        let (units, starts) = Self.units(of: query)
        let found = walk(query, units: units, starts: starts, maxEdits: maxEdits, bytes: bytes, offsets: offsets,
                         runs: runs, bloom: nil, prefixMode: true)
        var prefixes: [NearPrefix] = []
        prefixes.reserveCapacity(found.count / 3)
        for i in stride(from: 0, to: found.count, by: 3) {
            prefixes.append(NearPrefix(terms: found[i]..<found[i + 1], length: found[i + 2]))
        }
        // A run found twice, or inside another (a suffix lookup's, a swap's): the outer one, the shorter prefix.
        prefixes.sort { ($0.terms.lowerBound, -$0.terms.count) < ($1.terms.lowerBound, -$1.terms.count) }
        var merged: [NearPrefix] = []
        merged.reserveCapacity(prefixes.count)
        for prefix in prefixes where merged.last.map({ prefix.terms.lowerBound >= $0.terms.upperBound }) ?? true {
            merged.append(prefix)
        }
        return merged
    }

    /// The walk of `matches`, or of `nearPrefixes` in prefix mode: term indices, or near
    /// prefixes as (first term, end, byte length) triples.
    private static func walk(_ query: [UInt8], units: [UInt32], starts: [Int], maxEdits: Int, bytes: [UInt8],
                             offsets: [UInt32], runs: RunIndex?, bloom: TermBloom?, prefixMode: Bool) -> [Int] {
        var result: [Int] = []
        let count = offsets.count - 1
        guard count > 0, maxEdits >= 0 else { return result }
        let n = units.count
        let width = n + 1
        // No term of n + maxEdits + 1 or more characters matches; a character is at most 4 bytes.
        let levelLimit = n + maxEdits + 1
        let rows = UnsafeMutablePointer<Int32>.allocate(capacity: width * (levelLimit + 1))
        defer { rows.deallocate() }
        let prefixHashes = UnsafeMutablePointer<UInt64>.allocate(capacity: 4 * (levelLimit + 1))
        defer { prefixHashes.deallocate() }
        let levelUnits = UnsafeMutablePointer<UInt32>.allocate(capacity: levelLimit + 1)
        defer { levelUnits.deallocate() }
        levelUnits[0] = 0
        let swapKey = UnsafeMutablePointer<UInt8>.allocate(capacity: max(query.count, 1))
        defer { swapKey.deallocate() }
        prefixHashes[0] = TermBloom.start
        for j in 0...n { rows[j] = Int32(j) }
        query.withUnsafeBufferPointer { q in
            units.withUnsafeBufferPointer { units in
                starts.withUnsafeBufferPointer { starts in
                    bytes.withUnsafeBufferPointer { all in
                        offsets.withUnsafeBufferPointer { offsets in
                            let walk = FuzzyWalk(query: q, units: units, unitStarts: starts, budget: Int32(maxEdits),
                                                 rows: rows, levelUnits: levelUnits, swapKey: swapKey,
                                                 width: width, levelLimit: levelLimit,
                                                 base: all.baseAddress!, offsets: offsets, runs: runs, bloom: bloom,
                                                 prefixHashes: prefixHashes, prefixMode: prefixMode)
                            walk.visit(0, count, depth: 0, level: 0, into: &result)
                        }
                    }
                }
            }
        }
        return result
    }

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
        // The two widest depths come from the run index.
        if depth < 2, let runs {
            if depth == 0 { return runs.endOfFirst(byte, low, high) }
            return low < high ? runs.endOfSecond(byte, first: self.byte(low, 0), low, high) : low
        }
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

    /// Computes row `level + 1` for the character `unit` after row `level`; returns its smallest entry.
    @inline(__always)
    func extend(_ level: Int, with unit: UInt32) -> Int32 {
        let previous = rows + level * width, current = previous + width
        let n = width - 1
        levelUnits[level + 1] = unit
        // A swap of the prefix's last character and `unit` against query characters j − 2, j − 1: from row
        // level − 1, cell j − 2 (inside that row's band, or cell 0, wherever cell j is inside this one's).
        let last = levelUnits[level]
        let swaps = level > 0 && last != unit
        let before = swaps ? previous - width : previous
        current[0] = Int32(level + 1)
        var best = current[0]
        // Only the band of the row can be within the budget; its neighbours get budget + 1, which every cell
        // outside the band exceeds or equals, so the band's cells compare to the budget exactly as the full
        // row's would (a saturating DP).
        let (lower, upper) = band(level + 1)
        guard lower <= upper else { return best }
        if lower > 1 { current[lower - 1] = budget + 1 }
        var j = lower
        while j <= upper {
            let cost: Int32 = units[j - 1] == unit ? 0 : 1
            var value = min(previous[j - 1] + cost, previous[j] + 1, current[j - 1] + 1)
            if swaps, j >= 2, units[j - 2] == unit, units[j - 1] == last { value = min(value, before[j - 2] + 1) }
            current[j] = value
            if value < best { best = value }
            j += 1
        }
        if upper < n { current[upper + 1] = budget + 1 }
        return best
    }

    /// The cells `lower...upper` (besides cell 0) of row `level` that can be within the budget: a prefix of
    /// `level` characters is at least |level − j| edits from a query prefix of `j`.
    @inline(__always)
    func band(_ level: Int) -> (Int, Int) {
        (max(1, level - Int(budget)), min(width - 1, level + Int(budget)))
    }

    /// Cell `j` of row `level`, or budget + 1 outside the band (where the row holds stale values).
    @inline(__always)
    func cell(_ row: UnsafeMutablePointer<Int32>, _ j: Int, level: Int) -> Int32 {
        if j == 0 { return row[0] }
        let (lower, upper) = band(level)
        return j >= lower && j <= upper ? row[j] : budget + 1
    }

    /// Walks the terms `low..<high`, which share their first `depth` bytes: `level` whole characters, whose edits
    /// row `level` holds.
    func visit(_ low: Int, _ high: Int, depth: Int, level: Int, into result: inout [Int]) {
        var low = low
        let row = rows + level * width
        let n = width - 1
        if prefixMode, cell(row, n, level: level) <= budget {
            // A near prefix: every term under it matches.
            result += [low, high, depth]
            return
        }
        // The prefix itself, if it is a term, sorts first.
        if length(low) == depth {
            if cell(row, n, level: level) <= budget { result.append(low) }
            low += 1
        }
        guard low < high, level + 1 < levelLimit else { return }
        var best = row[0]
        let (lower, upper) = band(level)
        if lower <= upper { for j in lower...upper { best = min(best, row[j]) } }
        if best < budget {
            // Any next character stays within the budget somewhere: enter every run that does.
            var index = low
            while index < high {
                let next = byte(index, depth)
                let runEnd = end(of: next, from: index + 1, high, depth: depth)
                let length = Self.unitLength(next)
                if length == 1 {
                    if extend(level, with: UInt32(next)) <= budget {
                        prefixHashes[depth + 1] = TermBloom.step(prefixHashes[depth], next)
                        visit(index, runEnd, depth: depth + 1, level: level + 1, into: &result)
                    }
                } else {
                    prefixHashes[depth + 1] = TermBloom.step(prefixHashes[depth], next)
                    visitCharacter(index, runEnd, depth: depth + 1, level: level, unit: UInt32(next),
                                   remaining: length - 1, into: &result)
                }
                index = runEnd
            }
        } else {
            // The budget is spent at every query position. The edits of prefix + suffix against the query are
            // the least, over the query positions j, of row[j] plus the suffix's edits against query[j...]; so a
            // term of this run matches only if its suffix IS query[j...] for a j where the row reaches the
            // budget. Those few terms are looked up directly instead of walking down the run byte by byte.
            let first = result.count
            let top = min(upper, n - 1)
            if prefixMode {
                // The runs under prefix + query[j...]: nested or apart, merged by `nearPrefixes`.
                if row[0] <= budget { addRun(suffix: 0, in: low, high, depth: depth, to: &result) }
                if lower <= top {
                    for j in lower...top where row[j] <= budget { addRun(suffix: j, in: low, high, depth: depth, to: &result) }
                }
                addSwapsAtEdge(low, high, depth: depth, level: level, into: &result)
                return
            }
            // Only cell 0 and the band can be within the budget (`cell`); the empty suffix (j = n) was the prefix itself.
            if row[0] <= budget, let index = find(suffix: 0, in: low, high, depth: depth) { result.append(index) }
            if lower <= top {
                for j in lower...top where row[j] <= budget {
                    if let index = find(suffix: j, in: low, high, depth: depth) { result.append(index) }
                }
            }
            addSwapsAtEdge(low, high, depth: depth, level: level, into: &result)
            // Longer suffixes (smaller j) do not sort first in general: keep the result ascending.
            if result.count - first > 1 { result[first...].sort() }
        }
    }

    /// With the budget spent at prefix `level` (terms `low..<high`, sharing `depth` bytes), one more edit can still
    /// be in it: a swap of the prefix's last character with the next, from row `level − 1` where it was one edit
    /// cheaper. The term (or run, in prefix mode) is then the prefix, query character j − 2 and exactly query[j...],
    /// where the prefix's last character is query character j − 1.
    func addSwapsAtEdge(_ low: Int, _ high: Int, depth: Int, level: Int, into result: inout [Int]) {
        guard level > 0 else { return }
        let n = width - 1
        guard n >= 2 else { return }
        let before = rows + (level - 1) * width, last = levelUnits[level]
        for j in 2...n where units[j - 1] == last && units[j - 2] != last
            && cell(before, j - 2, level: level - 1) < budget {
            // The key: character j − 2's bytes, then the query's from character j.
            let first = unitStarts[j - 2], firstLength = unitStarts[j - 1] - first
            let rest = unitStarts[j], restLength = query.count - rest
            swapKey.update(from: query.baseAddress! + first, count: firstLength)
            (swapKey + firstLength).update(from: query.baseAddress! + rest, count: restLength)
            if prefixMode {
                addRun(swapKey, firstLength + restLength, in: low, high, depth: depth, to: &result)
            } else if let index = find(swapKey, firstLength + restLength, in: low, high, depth: depth) {
                result.append(index)
            }
        }
    }

    /// Walks the terms `low..<high`, which share their first `depth` bytes, inside a multi-byte character: `level`
    /// whole characters, then the bytes packed in `unit` so far, with `remaining` more to come. Row `level + 1` is
    /// computed once the character is whole.
    func visitCharacter(_ low: Int, _ high: Int, depth: Int, level: Int, unit: UInt32, remaining: Int,
                        into result: inout [Int]) {
        var low = low
        if length(low) == depth {
            // A term that ends inside a character is not UTF-8 (the analyzer never makes one); like a query
            // (`units(of:)`), it ends with that partial character.
            _ = extend(level, with: unit)
            if cell(rows + (level + 1) * width, width - 1, level: level + 1) <= budget {
                if prefixMode { result += [low, low + 1, depth] } else { result.append(low) }
            }
            low += 1
        }
        var index = low
        while index < high {
            let next = byte(index, depth)
            let runEnd = end(of: next, from: index + 1, high, depth: depth)
            let packed = unit << 8 | UInt32(next)
            if remaining == 1 {
                if extend(level, with: packed) <= budget {
                    prefixHashes[depth + 1] = TermBloom.step(prefixHashes[depth], next)
                    visit(index, runEnd, depth: depth + 1, level: level + 1, into: &result)
                }
            } else {
                prefixHashes[depth + 1] = TermBloom.step(prefixHashes[depth], next)
                visitCharacter(index, runEnd, depth: depth + 1, level: level, unit: packed, remaining: remaining - 1,
                               into: &result)
            }
            index = runEnd
        }
    }

    /// The index in `low..<high` (terms sharing their first `depth` bytes, all longer) of the term whose bytes after
    /// `depth` are exactly those of the query's characters `j...`, if any.
    @inline(__always)
    func find(suffix j: Int, in low: Int, _ high: Int, depth: Int) -> Int? {
        let start = unitStarts[j]
        return find(query.baseAddress! + start, query.count - start, in: low, high, depth: depth)
    }

    /// The index in `low..<high` (terms sharing their first `depth` bytes, all longer) of the term whose bytes after
    /// `depth` are exactly `key`, if any.
    @inline(__always)
    func find(_ key: UnsafePointer<UInt8>, _ keyLength: Int, in low: Int, _ high: Int, depth: Int) -> Int? {
        // The terms here (all longer than `depth`) go on with bytes from the first one's to the last one's: a suffix
        // starting outside that range is not among them. Two loads, where the filter hashes the whole suffix.
        guard low < high, key[0] >= byte(low, depth), key[0] <= byte(high - 1, depth) else { return nil }
        if let bloom {
            // The whole term would be the shared prefix and then the suffix: almost never in the list.
            var hash = prefixHashes[depth]
            for k in 0..<keyLength { hash = TermBloom.step(hash, key[k]) }
            guard bloom.mayContain(TermBloom.finish(hash)) else { return nil }
        }
        var lower = low, upper = high
        if depth == 1, runs != nil, low < high {
            // The run of the suffix's first byte, from the run index: a few terms instead of a letter's thousands.
            let first = key[0]
            lower = first == 0 ? low : end(of: first - 1, from: low, high, depth: 1)
            upper = end(of: first, from: lower, high, depth: 1)
        }
        while lower < upper {
            let mid = (lower + upper) >> 1
            if compare(mid, depth: depth, key, keyLength) < 0 { lower = mid + 1 } else { upper = mid }
        }
        return lower < high && compare(lower, depth: depth, key, keyLength) == 0 ? lower : nil
    }

    /// Appends, as a near prefix, the run in `low..<high` (terms sharing their first `depth` bytes, all longer) of
    /// the terms whose bytes after `depth` start with those of the query's characters `j...`, if any.
    func addRun(suffix j: Int, in low: Int, _ high: Int, depth: Int, to result: inout [Int]) {
        let start = unitStarts[j]
        addRun(query.baseAddress! + start, query.count - start, in: low, high, depth: depth, to: &result)
    }

    /// Appends, as a near prefix, the run in `low..<high` (terms sharing their first `depth` bytes, all longer) of
    /// the terms whose bytes after `depth` start with `key`, if any.
    func addRun(_ key: UnsafePointer<UInt8>, _ keyLength: Int, in low: Int, _ high: Int, depth: Int,
                to result: inout [Int]) {
        guard low < high, key[0] >= byte(low, depth), key[0] <= byte(high - 1, depth) else { return }
        var lower = low, upper = high
        while lower < upper {
            let mid = (lower + upper) >> 1
            if compare(mid, depth: depth, prefix: key, keyLength) < 0 { lower = mid + 1 } else { upper = mid }
        }
        var end = lower
        upper = high
        while end < upper {
            let mid = (end + upper) >> 1
            if compare(mid, depth: depth, prefix: key, keyLength) == 0 { end = mid + 1 } else { upper = mid }
        }
        if end > lower { result += [lower, end, depth + keyLength] }
    }

    /// Comparison of term `index`'s bytes after `depth`, cut to `keyLength`, with `key`: 0 when they start with it.
    @inline(__always)
    func compare(_ index: Int, depth: Int, prefix key: UnsafePointer<UInt8>, _ keyLength: Int) -> Int {
        let start = Int(offsets[index]) + depth
        let length = Int(offsets[index + 1]) - start
        let term = base + start
        for i in 0..<min(length, keyLength) where term[i] != key[i] { return Int(term[i]) - Int(key[i]) }
        return length < keyLength ? -1 : 0
    }

    /// Lexicographic comparison of term `index`'s bytes after `depth` with `key`.
    @inline(__always)
    func compare(_ index: Int, depth: Int, _ key: UnsafePointer<UInt8>, _ keyLength: Int) -> Int {
        let start = Int(offsets[index]) + depth
        let length = Int(offsets[index + 1]) - start
        // Inline: the bytes compared are few (a query's tail), and most probes differ at the first one.
        let term = base + start
        var i = 0
        let common = min(length, keyLength)
        while i < common {
            if term[i] != key[i] { return Int(term[i]) - Int(key[i]) }
            i += 1
        }
        return length - keyLength
    }
}
