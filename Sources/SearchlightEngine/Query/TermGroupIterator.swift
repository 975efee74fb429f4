/// A scored text leaf: the union of its per-field sources (one term in several fields, a prefix or fuzzy
/// expansion, or a phrase per field), combined by BM25F: the weighted, length-normalised frequencies of
/// all fields add up before one saturation, so a term in two fields does not score twice.
///
/// Sources not on the current document wait in a binary heap ordered by their document, so a prefix
/// that expands to hundreds of terms costs O(log n) per posting, not O(n) per document.
final class TermGroupIterator: DocIterator {
    let sources: [TermSource]
    let idf: Float
    let boost: Float
    let parameters: RankingParameters
    let label: PlanLabel
    /// Multiplier bound of the primary-field boosts: 1 when no source is primary, the prefix boost when no
    /// primary source can equal its field.
    let primaryFactor: Float
    /// Sources on the current document (`matchCount` of them). Raw buffers, not arrays: no
    /// exclusivity bookkeeping or uniqueness checks on the per-posting path. Freed in deinit.
    private let matching: UnsafeMutablePointer<Int>
    private var matchCount: Int
    /// The other live sources, a min-heap by document (`heapCount` of them).
    private let heap: UnsafeMutablePointer<Int>
    private var heapCount = 0
    /// The sources without reference counting on the per-posting path (the `sources` array keeps them
    /// alive for the iterator's lifetime), and a mirror of each source's current document so heap
    /// comparisons read one Int instead of loading an object. Freed in deinit.
    private let refs: UnsafeMutablePointer<Unmanaged<TermSource>>
    private let docs: UnsafeMutablePointer<Int>
    /// Scratch of `computeWindow`: sources in the window ordered by block bound.
    private let windowOrder: UnsafeMutablePointer<Int>
    private let windowWeights: UnsafeMutablePointer<Float>
    /// Per source, the weighted frequency an essential source must exceed on a document of the current window for
    /// that document to compete (`computeWindow`); read only for the essential sources, and only with `hasPhrase`.
    private let floors: UnsafeMutablePointer<Float>
    /// Scratch of `computeWindow`: each source's block bound, by source.
    private let windowBounds: UnsafeMutablePointer<Float>
    /// Whether a source can use a floor (`TermSource.next(above:through:)`): a phrase, which tells a hopeless
    /// candidate by its terms' frequencies before it decodes their positions.
    private let hasPhrase: Bool
    /// The one allocation the buffers above lie in.
    private let storage: UnsafeMutableRawPointer
    /// A few sources (a term or phrase in a handful of fields) skip the heap: finding the smallest of
    /// their mirrored documents by a scan is cheaper than heap upkeep, and yields the matching sources
    /// already in source order.
    private let linear: Bool
    static let maxLinearSources = 8

    init(sources: [TermSource], idf: Float, boost: Float, parameters: RankingParameters, label: PlanLabel) {
        self.sources = sources
        self.idf = idf
        self.boost = boost
        self.parameters = parameters
        self.label = label
        let prefixFactor = 1 + parameters.primaryPrefixBoost, exactFactor = 1 + parameters.primaryExactBoost
        primaryFactor = sources.reduce(1) { max($0, $1.maximumBoost(prefix: prefixFactor, exact: exactFactor)) }
        // One allocation for the per-source buffers (a search builds and frees a group per clause and segment).
        let n = max(sources.count, 1)
        storage = UnsafeMutableRawPointer.allocate(byteCount: 5 * n * 8 + 3 * n * 4, alignment: 8)
        matching = storage.bindMemory(to: Int.self, capacity: 2 * n)
        heap = matching + n
        refs = (storage + 2 * n * 8).bindMemory(to: Unmanaged<TermSource>.self, capacity: n)
        docs = (storage + 3 * n * 8).bindMemory(to: Int.self, capacity: n)
        for (index, source) in sources.enumerated() {
            (refs + index).initialize(to: Unmanaged.passUnretained(source))
            docs[index] = source.doc
        }
        windowOrder = (storage + 4 * n * 8).bindMemory(to: Int.self, capacity: n)
        windowWeights = (storage + 5 * n * 8).bindMemory(to: Float.self, capacity: 3 * n)
        floors = windowWeights + n
        windowBounds = windowWeights + 2 * n
        hasPhrase = sources.count <= Self.maxScoreSources && sources.contains { $0 is PhraseSource }
        for index in sources.indices { matching[index] = index }
        matchCount = sources.count
        linear = sources.count <= Self.maxLinearSources
    }

    deinit {
        storage.deallocate()
    }

    @inline(__always)
    private func less(_ a: Int, _ b: Int) -> Bool { docs[heap[a]] < docs[heap[b]] }

    /// Moves source `index` to its next document and mirrors it.
    @inline(__always)
    private func step(_ index: Int) {
        docs[index] = refs[index]._withUnsafeGuaranteedRef { $0.next() }
    }

    /// Moves source `index` to its first document ≥ `target` and mirrors it.
    @inline(__always)
    private func step(_ index: Int, to target: Int) {
        docs[index] = refs[index]._withUnsafeGuaranteedRef { $0.advance(target) }
    }

    private func push(_ source: Int) {
        let sourceDoc = docs[source]
        guard sourceDoc != Self.end else { return }
        let heap = self.heap
        var child = heapCount
        heapCount += 1
        while child > 0 {
            let parent = (child - 1) >> 1
            guard sourceDoc < docs[heap[parent]] else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = source
    }

    private func popTop() -> Int {
        let heap = self.heap
        let top = heap[0]
        heapCount -= 1
        let count = heapCount
        if count > 0 {
            let last = heap[count]
            let lastDoc = docs[last]
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = -1
                var smallestDoc = lastDoc
                if left < count, docs[heap[left]] < smallestDoc {
                    smallest = left
                    smallestDoc = docs[heap[left]]
                }
                if right < count, docs[heap[right]] < smallestDoc { smallest = right }
                if smallest < 0 { break }
                heap[parent] = heap[smallest]
                parent = smallest
            }
            heap[parent] = last
        }
        return top
    }

    /// Linear mode: the current document is the smallest mirrored one; the sources on it, in source order.
    @inline(__always)
    private func collectLinear() -> Int {
        let n = sources.count
        var current = Self.end
        for i in 0..<n where docs[i] < current { current = docs[i] }
        doc = current
        var count = 0
        if current != Self.end {
            for i in 0..<n where docs[i] == current {
                matching[count] = i
                count += 1
            }
        }
        matchCount = count
        return current
    }

    /// Linear mode: every source not yet at `target` moves to its first document ≥ `target`.
    @inline(__always)
    private func skipLinear(to target: Int) {
        for i in 0..<sources.count where docs[i] < target { step(i, to: target) }
    }

    private func collectMatching() -> Int {
        if linear { return collectLinear() }
        guard heapCount > 0 else {
            doc = Self.end
            return doc
        }
        let current = docs[heap[0]]
        doc = current
        var count = 0
        while heapCount > 0, docs[heap[0]] == current {
            matching[count] = popTop()
            count += 1
        }
        matchCount = count
        // Source order, so float sums (and thus ties) do not depend on the heap's history.
        let matching = self.matching
        if count > 1 {
            for i in 1..<count {
                var j = i
                let value = matching[i]
                while j > 0, matching[j - 1] > value {
                    matching[j] = matching[j - 1]
                    j -= 1
                }
                matching[j] = value
            }
        }
        return doc
    }

    override func next() -> Int {
        if doc == Self.end { return doc }
        if linear {
            for k in 0..<matchCount { step(matching[k]) }
            return collectLinear()
        }
        for k in 0..<matchCount {
            let index = matching[k]
            step(index)
            push(index)
        }
        matchCount = 0
        return collectMatching()
    }

    override func advance(_ target: Int) -> Int {
        if doc >= target { return doc }
        if linear {
            skipLinear(to: target)
            return collectLinear()
        }
        for k in 0..<matchCount {
            let index = matching[k]
            step(index, to: target)
            push(index)
        }
        matchCount = 0
        while heapCount > 0, docs[heap[0]] < target {
            let index = popTop()
            step(index, to: target)
            push(index)
        }
        return collectMatching()
    }

    override var cost: Int { sources.reduce(0) { $0 + $1.cost } }

    /// The saturated frequency stays below k1 + 1, so no document scores more than this.
    override var maxScore: Float { max(boost * idf * (parameters.k1 + 1) * primaryFactor, 0) }

    // MARK: Block-max MaxScore over sources

    /// Sources that the current window lets produce a competitive document (bit per source); the others
    /// are only advanced to the candidates of these (MaxScore with per-block bounds).
    private var essentialMask: UInt64 = 0
    /// Last document of the window the mask was computed for, and the threshold it assumed.
    private var windowEnd = -1
    private var windowThreshold: Float = -.infinity

    /// Up to this many sources (a term or phrase in a few fields) use per-source pruning. Wider groups
    /// (prefix expansions) would re-split on almost every document: each window ends at the first block
    /// end among all sources, and most expansions are tiny single-block lists.
    static let maxScoreSources = 8

    @inline(__always)
    private func saturatedBound(_ weighted: Float, factor: Float) -> Float {
        boost * idf * weighted * (parameters.k1 + 1) / (weighted + parameters.k1) * factor
    }

    /// The primary-boost ceiling of `source` over its current block window.
    @inline(__always)
    private func ceiling(_ source: TermSource) -> Float {
        source.primary ? source.boostCeiling(prefix: 1 + parameters.primaryPrefixBoost, exact: 1 + parameters.primaryExactBoost) : 1
    }

    /// Splits the sources for the window starting at `from`: the window ends where the first current
    /// block ends; the sources inside it, smallest block bound first, are non-essential while the bound of
    /// all of them together cannot beat `threshold` (so a document matching only those cannot compete).
    private func computeWindow(from: Int, threshold: Float) {
        windowThreshold = threshold
        var upTo = Self.end - 1
        // Each live source's block window once (its bound kept in `windowBounds`), read without reference counting.
        let n = sources.count, bounds = windowBounds
        // The sources' own documents, not the mirrors: candidate scoring moves sources without mirroring them.
        let current = { (index: Int) in self.refs[index]._withUnsafeGuaranteedRef { $0.doc } }
        for index in 0..<n where current(index) != Self.end && current(index) >= 0 {
            guard let window = refs[index]._withUnsafeGuaranteedRef({ $0.blockWindow() }) else {
                // No bound: every source is essential for this document only.
                essentialMask = n >= 64 ? UInt64.max : (1 << UInt64(n)) - 1
                windowEnd = from
                return
            }
            bounds[index] = window.weight
            upTo = min(upTo, window.lastDoc)
        }
        windowEnd = upTo
        // Insertion sort by bound into the scratch buffers (a handful of sources).
        let order = windowOrder, weights = windowWeights
        var count = 0
        for index in 0..<n where current(index) != Self.end && current(index) >= 0 && current(index) <= upTo {
            let bound = bounds[index]
            var j = count
            while j > 0, weights[j - 1] > bound {
                weights[j] = weights[j - 1]
                order[j] = order[j - 1]
                j -= 1
            }
            weights[j] = bound
            order[j] = index
            count += 1
        }
        var weighted: Float = 0
        var factor: Float = 1
        var mask: UInt64 = 0
        var k = 0
        // A phrase group keeps every source essential: each then passes over its own candidates with a floor, and a
        // source the others have not reached yet adds nothing there (`step(_:floored:)`), where a non-essential
        // source's block bound would be left room for on every document.
        while k < count, !hasPhrase {
            let w = weighted + weights[k]
            let f = max(factor, refs[order[k]]._withUnsafeGuaranteedRef { ceiling($0) })
            guard saturatedBound(w, factor: f) * 1.0001 <= threshold else { break }
            weighted = w
            factor = f
            k += 1
        }
        for j in k..<count { mask |= 1 << UInt64(order[j]) }
        essentialMask = mask
        guard hasPhrase, k < count else { return }
        // A document of the window beats `threshold` only if its weighted sum beats `needed`; the non-essential
        // sources and the other essential ones add at most their block bounds to an essential source's own weight.
        var essentialWeight: Float = 0
        var allFactor = factor
        for j in k..<count {
            essentialWeight += weights[j]
            allFactor = max(allFactor, refs[order[j]]._withUnsafeGuaranteedRef { ceiling($0) })
        }
        let needed = competitiveWeight(threshold, factor: allFactor)
        for j in k..<count { floors[order[j]] = needed - weighted - (essentialWeight - weights[j]) }
    }

    /// The weighted frequency at or below which a document cannot beat `threshold` by the collectors' margin
    /// (`saturatedBound(w, factor) * 1.0001 <= threshold`): the saturation inverted, with a little more margin for
    /// rounding. −∞ when nothing can be ruled out, +∞ when nothing can compete.
    private func competitiveWeight(_ threshold: Float, factor: Float) -> Float {
        let ceiling = boost * idf * (parameters.k1 + 1) * factor
        let target = threshold / 1.0002
        guard ceiling > 0, target > 0 else { return -.infinity }
        guard target < ceiling else { return .infinity }
        return target * parameters.k1 / (ceiling - target)
    }

    /// Moves source `index` to its next document, passing over the window's documents where it cannot reach its
    /// floor when `floored` (the essential mask, or 0) has its bit.
    ///
    /// Before the next document of every other source, its floor leaves room for nothing else: another source passed
    /// over any document there either without a match (it adds nothing, neither weight nor boost) or below its own
    /// floor (the document cannot compete whatever this one adds). That floor depends on no block bound, so it holds
    /// past the window's end too. From there on it leaves room for the others' block bounds and boosts.
    @inline(__always)
    private func step(_ index: Int, floored: UInt64) {
        guard floored & (1 << UInt64(index)) != 0 else { return step(index) }
        let floor = floors[index], last = windowEnd
        // Every other source, in the window or past it: each reached its document by passing over the ones before.
        var until = Self.end
        for other in 0..<sources.count where other != index { until = min(until, docs[other]) }
        // There only this source adds weight or a primary boost (a phrase group, the one that floors, has no
        // non-essential source).
        let alone = refs[index]._withUnsafeGuaranteedRef { ceiling($0) }
        let raised = until > doc ? max(competitiveWeight(windowThreshold, factor: alone), floor) : floor
        docs[index] = refs[index]._withUnsafeGuaranteedRef { $0.next(above: floor, raised: raised, until: until, through: last) }
    }

    /// Skips every source to `target` or beyond (none is on the current document).
    private func skipAll(to target: Int) {
        if linear { return skipLinear(to: target) }
        while heapCount > 0, docs[heap[0]] < target {
            let index = popTop()
            step(index, to: target)
            push(index)
        }
    }

    override func nextCompetitive(_ threshold: Float) -> Int {
        // One source has nothing to split (the collector's block skipping covers it); a phrase still passes over
        // the candidates whose frequencies rule them out.
        guard sources.count > 1, sources.count <= Self.maxScoreSources else {
            guard hasPhrase, doc != Self.end else { return next() }
            let floor = competitiveWeight(threshold, factor: ceiling(sources[0]))
            for k in 0..<matchCount {
                let index = matching[k]
                docs[index] = refs[index]._withUnsafeGuaranteedRef { $0.next(above: floor, through: Self.end - 1) }
            }
            return collectLinear()
        }
        if doc == Self.end { return doc }
        // The floors hold for the window's threshold and any higher one. No collector passes a lower threshold
        // later today (a rescoring one raises it once no lifted document is ahead), but the check keeps them safe if one does.
        let floored = hasPhrase && threshold >= windowThreshold ? essentialMask : 0
        if linear {
            for k in 0..<matchCount { step(matching[k], floored: floored) }
        } else {
            for k in 0..<matchCount {
                let index = matching[k]
                step(index, floored: floored)
                push(index)
            }
        }
        matchCount = 0
        while true {
            let candidate: Int
            if linear {
                var smallest = Self.end
                for i in 0..<sources.count where docs[i] < smallest { smallest = docs[i] }
                candidate = smallest
            } else {
                candidate = heapCount > 0 ? docs[heap[0]] : Self.end
            }
            if candidate == Self.end { break }
            // A stale, lower threshold only keeps more sources essential (safe); recompute within a window
            // only when the threshold rose noticeably, not on every top-k insertion.
            if candidate > windowEnd || threshold > windowThreshold * 1.1 + 1e-6 {
                computeWindow(from: candidate, threshold: threshold)
            }
            var lead = Self.end
            var mask = essentialMask
            while mask != 0 {
                let index = mask.trailingZeroBitCount
                mask &= mask - 1
                lead = min(lead, docs[index])
            }
            if lead > windowEnd {
                // Nothing in this window can compete.
                guard windowEnd < Self.end - 1 else { break }
                skipAll(to: windowEnd + 1)
                continue
            }
            skipAll(to: lead)
            return collectMatching()
        }
        heapCount = 0
        doc = Self.end
        return doc
    }

    /// Best possible score of the documents up to the end of the sources' current blocks.
    override func blockBound() -> (bound: Float, upTo: Int)? {
        // A wide group (a prefix walked lazily under a rare clause) would loop over hundreds of sources for a
        // window that ends at the first of their many tiny blocks: no bound (its `maxScore` still serves).
        guard doc >= 0, doc != Self.end, sources.count <= Self.maxScoreSources else { return nil }
        var weighted: Float = 0
        var upTo = Self.end - 1
        // The window ends where the first current block ends; only sources with a document inside the
        // window contribute their block maximum. The sources are read through `refs` (no reference counting
        // per call; `sources` keeps them alive).
        var unbounded = false
        for index in 0..<sources.count {
            refs[index]._withUnsafeGuaranteedRef { source in
                guard source.doc != Self.end, source.doc >= 0 else { return }
                if let window = source.blockWindow() { upTo = min(upTo, window.lastDoc) } else { unbounded = true }
            }
            if unbounded { return nil }
        }
        var factor: Float = 1
        for index in 0..<sources.count {
            refs[index]._withUnsafeGuaranteedRef { source in
                guard source.doc != Self.end, source.doc >= 0, source.doc <= upTo else { return }
                if let window = source.blockWindow() {
                    weighted += window.weight
                    factor = max(factor, ceiling(source))
                } else {
                    unbounded = true
                }
            }
            if unbounded { return nil }
        }
        let bound = saturatedBound(weighted, factor: factor)
        return (bound, upTo)
    }

    override func score() -> Float {
        var weighted: Float = 0
        var flags: UInt8 = 0
        let doc = self.doc
        for k in 0..<matchCount {
            refs[matching[k]]._withUnsafeGuaranteedRef { source in
                let norm = source.norm(doc)
                weighted += Float(source.frequency) * source.fieldFactor[Int(norm)]
                flags |= source.primaryFlags(norm: norm)
            }
        }
        return MaterializedGroupIterator.score(weighted, boost: boost, idf: idf, parameters: parameters,
                                               startsPrimary: flags & PostingRuns.startsPrimary != 0,
                                               equalsPrimary: flags & PostingRuns.equalsPrimary != 0)
    }

    /// Term at a time over the candidates: each source (in source order, as `score()` sums) seeks through
    /// them once, skipping the candidates before its next document, and adds its weighted frequency; then each
    /// matched candidate's sum is saturated as `score()` does. No heap, mirrors or block windows per candidate.
    override func scoreCandidates(_ candidates: UnsafeBufferPointer<UInt32>, scores: UnsafeMutablePointer<Float>,
                                  matched: UnsafeMutablePointer<Bool>) {
        let count = candidates.count
        guard count > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { flagBuffer in
            // bit 0: some source matched, bit 1: a primary field starts with the query, bit 2: one equals it.
            let flags = flagBuffer.baseAddress!
            flags.initialize(repeating: 0, count: count)
            scores.update(repeating: 0, count: count)
            for index in 0..<sources.count {
                refs[index]._withUnsafeGuaranteedRef { source in
                    // A frequent term reads its column: one load per candidate, no block decoded.
                    if count >= Self.minimumColumnCandidates, let posting = source as? PostingSource,
                       let column = posting.frequencyColumn() {
                        posting.fieldFactor.withUnsafeBufferPointer { factor in
                            posting.norms.withUnsafeBufferPointer { norms in
                                Self.scoreCandidates(candidates, cursor: posting.cursor, column: column, factor: factor,
                                                     norms: norms, primary: posting.primary, isExact: posting.isExact,
                                                     scores: scores, flags: flags)
                            }
                        }
                        posting.doc = posting.cursor.doc
                        return
                    }
                    // A phrase checks each candidate alone: `advance` would match positions up to its next occurrence.
                    if let phrase = source as? PhraseSource {
                        phrase.prepareScatteredChecks(count)
                        for i in 0..<count where phrase.lands(on: Int(candidates[i])) {
                            let norm = phrase.norm(Int(candidates[i]))
                            scores[i] += Float(phrase.frequency) * phrase.fieldFactor[Int(norm)]
                            flags[i] |= 1 | phrase.primaryFlags(norm: norm) << 1
                        }
                        return
                    }
                    var i = 0
                    while i < count {
                        let target = Int(candidates[i])
                        let d = source.doc < target ? source.advance(target) : source.doc
                        if d == Self.end { break }
                        if d != target {
                            i = Self.gallop(candidates, from: i + 1, atLeast: d)
                            continue
                        }
                        let norm = source.norm(target)
                        scores[i] += Float(source.frequency) * source.fieldFactor[Int(norm)]
                        // Bit 0 marks the match; the primary flags ride one bit higher.
                        flags[i] |= 1 | source.primaryFlags(norm: norm) << 1
                        i += 1
                    }
                }
            }
            Self.saturate(count, scores: scores, flags: flags, matched: matched, boost: boost, idf: idf, parameters: parameters)
        }
    }

    /// The last step of `scoreCandidates`: each of `count` candidates matched when bit 0 of its flags is set, and its
    /// summed weighted frequency in `scores` becomes its score as `score()` saturates it (bit 1: a primary field
    /// starts with the query, bit 2: one equals it).
    @inline(__always)
    static func saturate(_ count: Int, scores: UnsafeMutablePointer<Float>, flags: UnsafePointer<UInt8>,
                         matched: UnsafeMutablePointer<Bool>, boost: Float, idf: Float, parameters: RankingParameters) {
        for i in 0..<count {
            let bits = flags[i]
            matched[i] = bits & 1 != 0
            guard bits & 1 != 0 else { continue }
            scores[i] = MaterializedGroupIterator.score(scores[i], boost: boost, idf: idf, parameters: parameters,
                                                        startsPrimary: bits & 2 != 0, equalsPrimary: bits & 4 != 0)
        }
    }

    /// Block-max bounds over the range of the sources that may have a posting in it (`PostingSource.weightBound`):
    /// no source is scored. Terms only: a phrase or a wide prefix's list, a wide group or a negative boost gives none.
    override func scoreBound(from first: Int, through last: Int) -> Float? {
        guard boost >= 0, sources.count <= Self.maxScoreSources else { return nil }
        var weighted: Float = 0
        var factor: Float = 1
        for index in 0..<sources.count {
            guard let posting = sources[index] as? PostingSource else { return nil }
            let (weight, present) = posting.weightBound(from: first, through: last)
            guard present else { continue }
            weighted += weight
            factor = max(factor, ceiling(posting))
        }
        return saturatedBound(weighted, factor: factor)
    }

    /// Candidates fewer than this seek the postings even where a term has a column: a block or two decoded costs
    /// less than building a column would.
    static let minimumColumnCandidates = 4

    /// `scoreCandidates` for one term's postings (`cursor`, on the term) through its frequency column, adding what
    /// the seek through its postings adds. A saturated frequency is read from the postings, which the candidates'
    /// order lets the cursor walk forward to. `factor` and `norms` are the field's, `primary` whether it is the
    /// primary field, `isExact` whether the term is the query text.
    @inline(__always)
    static func scoreCandidates(_ candidates: UnsafeBufferPointer<UInt32>, cursor: PostingCursor, column: FrequencyColumn,
                                factor: UnsafeBufferPointer<Float>, norms: UnsafeBufferPointer<UInt8>, primary: Bool,
                                isExact: Bool, scores: UnsafeMutablePointer<Float>, flags: UnsafeMutablePointer<UInt8>) {
        let saturated = column.saturated, startsField = column.startsField
        withExtendedLifetime(column) {
            for i in 0..<candidates.count {
                let doc = Int(candidates[i])
                let value = column.nibble(doc)
                guard value != 0 else { continue }
                let norm = doc < norms.count ? norms[doc] : 0
                let tf = value & saturated
                if tf == saturated {
                    guard cursor.advance(doc) == doc else { continue }
                    scores[i] += Float(cursor.tf) * factor[Int(norm)]
                    let starts = primary && cursor.firstPosition() == 0
                    flags[i] |= 1 | (starts ? TermSource.startFlags(norm: norm, span: 1, isExact: isExact) << 1 : 0)
                    continue
                }
                scores[i] += Float(tf) * factor[Int(norm)]
                flags[i] |= 1 | (value & startsField != 0 ? TermSource.startFlags(norm: norm, span: 1, isExact: isExact) << 1 : 0)
            }
        }
    }

    /// A few sources (the linear mode) are listed by decoding each one's postings in turn, then merging them by
    /// document (`PostingRuns`), the weights summed in source order as `score()` sums them. More sources walk `next`.
    override func listMatches(into docs: inout [UInt32], scores: inout [Float]) {
        guard linear else { return super.listMatches(into: &docs, scores: &scores) }
        // A source's cost bounds its matches.
        let runs = PostingRuns(runs: sources.count, capacity: sources.reduce(0) { $0 + $1.cost })
        for index in 0..<sources.count {
            runs.startRun()
            refs[index]._withUnsafeGuaranteedRef { source in
                if let posting = source as? PostingSource {
                    // A term's postings, block by block.
                    let fits = posting.appendRemaining(to: runs)
                    assert(fits, "a source gave more postings than its cost")
                    return
                }
                source.fieldFactor.withUnsafeBufferPointer { factor in
                    var d = source.next()
                    while d != Self.end {
                        let norm = source.norm(d)
                        let flags = source.primaryFlags(norm: norm)
                        // A source's cost bounds its postings, so the runs have room for every one.
                        guard runs.append(d, weight: Float(source.frequency) * factor[Int(norm)], flags: flags) else {
                            assertionFailure("a source gave more postings than its cost")
                            return
                        }
                        d = source.next()
                    }
                }
            }
        }
        runs.merge(boost: boost, idf: idf, parameters: parameters, into: &docs, scores: &scores)
    }

    override func explain() -> Explanation {
        var details: [Explanation] = []
        var weighted: Float = 0
        var primaryPrefix = false, primaryExact = false
        for k in 0..<matchCount {
            let source = sources[matching[k]]
            let norm = source.norm(doc)
            let part = Float(source.frequency) * source.fieldFactor[Int(norm)]
            weighted += part
            details.append(Explanation(
                value: part,
                summary: "field#\(source.field): freq \(source.frequency) × weight/lengthNorm (length \(FieldNorm.lengths[Int(norm)]))"))
            let flags = source.primaryFlags(norm: norm)
            if flags & PostingRuns.startsPrimary != 0 { primaryPrefix = true }
            if flags & PostingRuns.equalsPrimary != 0 { primaryExact = true }
        }
        let saturated = weighted * (parameters.k1 + 1) / (weighted + parameters.k1)
        details.insert(Explanation(value: idf, summary: "idf"), at: 0)
        details.append(Explanation(value: saturated, summary: "saturated BM25F frequency (k1 \(parameters.k1))"))
        if boost != 1 { details.append(Explanation(value: boost, summary: "boost")) }
        if primaryPrefix { details.append(Explanation(value: 1 + parameters.primaryPrefixBoost, summary: "primary field starts with the query")) }
        if primaryExact { details.append(Explanation(value: 1 + parameters.primaryExactBoost, summary: "primary field equals the query")) }
        return Explanation(value: score(), summary: "BM25F \(label)", details: details)
    }
}
