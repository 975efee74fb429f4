/// A search result: a document of the snapshot and its score.
public struct SearchHit: Sendable, Equatable {
    public let address: DocAddress
    public let score: Float
    public init(address: DocAddress, score: Float) {
        self.address = address
        self.score = score
    }

    /// Result order: higher score first, then lower address (deterministic ties).
    @inline(__always)
    static func ranksBefore(_ a: SearchHit, _ b: SearchHit) -> Bool {
        a.score != b.score ? a.score > b.score : a.address < b.address
    }
}

/// Keeps the best `k` hits in a binary heap whose root is the worst kept hit, so a candidate that cannot
/// beat it is rejected with one comparison (`threshold`).
///
/// A large `k` (a rescore's window of hundreds) is kept `buffered` instead, as tantivy's `TopNComputer` keeps
/// it: hits are appended to a buffer of `2k`, and a full buffer is cut to its best `k` by a selection, the worst of
/// them becoming the bar later hits must clear. A heap of hundreds sifts each better hit through eight or more
/// levels on branches no predictor learns; here a hit costs a comparison and a store, and each cut a pass or two
/// over the buffer for every `k` hits. The bar rises only at a cut, so a pruning caller (`threshold`) sees it
/// lag behind a heap's; the hits kept are the same.
///
/// The heap is a raw buffer the collector owns for one search: no copy-on-write checks or bounds checks on
/// the per-candidate path (every document of a rare term reaches `insert`).
struct TopK: ~Copyable {
    let k: Int
    /// Whether hits are buffered and cut (see the type), not kept in a heap.
    let buffered: Bool
    private let heap: UnsafeMutablePointer<SearchHit>
    /// Hits held: at most `k` in a heap, `2k` buffered.
    private var held = 0
    /// Buffered: the worst hit kept at the last cut, which a new hit must rank before (nil before the first cut).
    private var bar: SearchHit?

    /// `buffered` from this `k` on: below it a heap's few levels cost less than the cuts.
    static let bufferedMinimum = 64
    /// ... and up to this one (the buffer takes `2k` hits up front).
    static let bufferedMaximum = 8_192

    init(k: Int, buffered: Bool = false) {
        self.k = max(k, 0)
        self.buffered = buffered && self.k >= Self.bufferedMinimum && self.k <= Self.bufferedMaximum
        heap = .allocate(capacity: max(self.buffered ? 2 * self.k : self.k, 1))
    }

    deinit { heap.deallocate() }

    /// Hits kept (at most `k`).
    var count: Int { min(held, k) }
    /// Whether `threshold` bounds the hits to come: the heap holds `k`, or the buffer was cut.
    var isFull: Bool { buffered ? bar != nil : held >= k }
    /// Score a new hit must beat (ties included: it may win on address) once full.
    var threshold: Float {
        if buffered { return bar?.score ?? -Float.infinity }
        return isFull && k > 0 ? heap[0].score : -Float.infinity
    }

    /// Whether `insert` would keep `hit` (for now: a buffered one may be cut later).
    func admits(_ hit: SearchHit) -> Bool {
        guard k > 0 else { return false }
        if buffered { return bar.map { SearchHit.ranksBefore(hit, $0) } ?? true }
        return held < k || SearchHit.ranksBefore(hit, heap[0])
    }

    mutating func insert(_ hit: SearchHit) {
        guard k > 0 else { return }
        let heap = self.heap
        if buffered {
            if let bar, !SearchHit.ranksBefore(hit, bar) { return }
            if held == 2 * k {
                cut()
                if let bar, !SearchHit.ranksBefore(hit, bar) { return }
            }
            (heap + held).initialize(to: hit)
            held += 1
            return
        }
        if held < k {
            var child = held
            held += 1
            while child > 0 {
                let parent = (child - 1) >> 1
                guard SearchHit.ranksBefore(heap[parent], hit) else { break }
                heap[child] = heap[parent]
                child = parent
            }
            (heap + child).initialize(to: hit)
        } else if SearchHit.ranksBefore(hit, heap[0]) {
            Self.replaceRoot(of: heap, count: held, with: hit)
        }
    }

    /// Buffered: keeps the best `k` of the buffer in its first `k` places, the worst of them at `k - 1` (the new
    /// bar).
    private mutating func cut() {
        guard held > k else { return }
        Self.select(heap, count: held, rank: k - 1)
        held = k
        bar = heap[k - 1]
    }

    /// Reorders `base[0..<count]` so that `base[rank]` is the hit that ranks `rank`-th (from 0) and every hit
    /// before it ranks before it (quickselect, the median of three as pivot; a range that shrinks too slowly is
    /// sorted instead, so no input makes it quadratic).
    static func select(_ base: UnsafeMutablePointer<SearchHit>, count: Int, rank: Int) {
        precondition(rank >= 0 && rank < count, "select: rank out of range")
        var low = 0, high = count - 1
        var rounds = 2 * (Int.bitWidth - count.leadingZeroBitCount) + 4
        @inline(__always) func swapAt(_ i: Int, _ j: Int) {
            let t = base[i]
            base[i] = base[j]
            base[j] = t
        }
        while high > low {
            if rounds == 0 {
                var rest = UnsafeMutableBufferPointer(start: base + low, count: high - low + 1)
                rest.sort(by: SearchHit.ranksBefore)
                return
            }
            rounds -= 1
            // The median of three at `high` as the pivot.
            let middle = low + (high - low) / 2
            if SearchHit.ranksBefore(base[middle], base[low]) { swapAt(low, middle) }
            if SearchHit.ranksBefore(base[high], base[low]) { swapAt(low, high) }
            if SearchHit.ranksBefore(base[middle], base[high]) { swapAt(middle, high) }
            let pivot = base[high]
            var store = low
            for i in low..<high where SearchHit.ranksBefore(base[i], pivot) {
                swapAt(i, store)
                store += 1
            }
            swapAt(store, high)
            if store == rank { return }
            if rank < store { high = store - 1 } else { low = store + 1 }
        }
    }

    /// Puts `hit` in place of the root of the heap `heap[0..<count]` (root: the worst hit) and sifts it down,
    /// the worst of the others rising.
    @inline(__always)
    private static func replaceRoot(of heap: UnsafeMutablePointer<SearchHit>, count: Int, with hit: SearchHit) {
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var worst = -1
            var worstHit = hit
            if left < count, SearchHit.ranksBefore(worstHit, heap[left]) {
                worst = left
                worstHit = heap[left]
            }
            if right < count, SearchHit.ranksBefore(worstHit, heap[right]) { worst = right }
            if worst < 0 { break }
            heap[parent] = heap[worst]
            parent = worst
        }
        heap[parent] = hit
    }

    /// The kept hits, best first: a heap sort of a copy of the heap (its root, the worst hit, goes last), or
    /// the buffer's best `k` sorted.
    mutating func sorted() -> [SearchHit] {
        if buffered {
            cut()
            var result = Array(UnsafeBufferPointer(start: heap, count: held))
            result.sort(by: SearchHit.ranksBefore)
            return result
        }
        var result = Array(UnsafeBufferPointer(start: heap, count: held))
        result.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var end = buffer.count
            while end > 1 {
                end -= 1
                let moved = base[end]
                base[end] = base[0]
                Self.replaceRoot(of: base, count: end, with: moved)
            }
        }
        // No hit ranks before the one ahead of it (a NaN score, which compares false both ways, passes).
        assert(zip(result, result.dropFirst()).allSatisfy { !SearchHit.ranksBefore($1, $0) })
        return result
    }

    /// The kept hits in no particular order, for a caller that ranks them again (`WindowRescore`).
    mutating func unordered() -> [SearchHit] {
        cut()
        return Array(UnsafeBufferPointer(start: heap, count: held))
    }
}

/// A second ranking stage over a search's best `window` hits (Lucene's `QueryRescorer`, Elasticsearch's
/// `rescore`): each of them scores its first-stage score times `factor(address)`, and the search returns the
/// best `limit` by that, ties by address. A `limit` past `window` widens the window to it.
///
/// The window is selected from, not sorted: the first stage's order is never built when a second stage follows.
/// With a `ceiling` of the factor (it lies in 0...ceiling), only the hits that could still place are rescored:
/// the best `limit` by the first stage are rescored first, and another hit whose score times the ceiling cannot
/// reach the worst of the page so far is passed over (a factor may be costly: renown reads a name's mentions).
package struct WindowRescore: Sendable {
    package let window: Int
    package let ceiling: Float?
    /// The factor of each address, in order (asked once or twice per search, for the hits that may place).
    package let factors: @Sendable ([DocAddress]) -> [Float]

    /// Factors asked for together: a factor that reads memory far apart (renown) overlaps its reads.
    package init(window: Int, ceiling: Float? = nil, factors: @Sendable @escaping ([DocAddress]) -> [Float]) {
        self.window = window
        self.ceiling = ceiling.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
        self.factors = factors
    }

    package init(window: Int, ceiling: Float? = nil, factor: @Sendable @escaping (DocAddress) -> Float) {
        self.init(window: window, ceiling: ceiling) { $0.map(factor) }
    }

    /// The best `limit` of `hits` (the window, in any order) by rescored score, best first.
    func best(_ limit: Int, of hits: some Collection<SearchHit>) -> [SearchHit] {
        var top = TopK(k: limit)
        func rescore(_ hits: [SearchHit]) {
            guard !hits.isEmpty else { return }
            let factors = factors(hits.map(\.address))
            precondition(factors.count == hits.count, "one factor per address")
            for (hit, factor) in zip(hits, factors) {
                assert(ceiling.map { factor >= 0 && factor <= $0 } ?? true, "a factor outside 0...ceiling")
                top.insert(SearchHit(address: hit.address, score: hit.score * factor))
            }
        }
        guard let ceiling, limit > 0, hits.count > limit else {
            rescore(Array(hits))
            return top.sorted()
        }
        // The first stage's best `limit`, rescored: the page's worst so far.
        var leaders = TopK(k: limit)
        for hit in hits { leaders.insert(hit) }
        let leading = leaders.sorted()
        rescore(leading)
        let last = leading[leading.count - 1]
        // Rescored, a hit scores at most score × ceiling (0 for a negative score): below the page's worst it
        // cannot place. The others are rescored `batch` at a time, the page's worst rising between batches.
        var pending: [SearchHit] = []
        pending.reserveCapacity(Self.batch)
        for hit in hits where SearchHit.ranksBefore(last, hit) {
            if !hit.score.isNaN, (hit.score > 0 ? hit.score * ceiling : 0) < top.threshold { continue }
            pending.append(hit)
            if pending.count == Self.batch {
                rescore(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        rescore(pending)
        return top.sorted()
    }

    /// Hits whose factors are asked for together past the first page.
    static let batch = 32
}

/// Options of a ranked search.
public struct SearchOptions: Sendable {
    /// Number of hits to return.
    public var limit: Int
    /// A non-scoring query every hit must also match.
    public var filter: Query?
    /// A numeric field used as a query-independent score multiplier (first value; 1 when missing,
    /// negative and NaN values count as 0): rankingHint, recency or engagement precomputed by the caller.
    public var boostField: FieldID?
    /// Rescores the best `rescoreWindow` candidates (after `boostField`); results are re-sorted.
    public var rescore: (@Sendable (DocAddress, Float) -> Float)?
    public var rescoreWindow: Int
    /// A ceiling of the rescore's factor: `rescore(address, score)` is `score` times a factor from 0 to
    /// `rescoreCeiling` (so at most `score * rescoreCeiling` for a score ≥ 0, and at most 0 for a negative one,
    /// which a negative boost makes). With it, documents are rescored as they are collected and pruning works
    /// on rescored scores: the hits are exactly the best `limit` by rescored score, and `rescoreWindow` is not
    /// used. Nil (or not positive and finite): the rescore can lift a hit by any amount, and only the window is
    /// rescored.
    public var rescoreCeiling: Float?
    /// Documents (ascending) the rescore may lift above `rescoreCeiling`, up to `liftedCeiling`: a signal that
    /// only a few named documents can earn keeps the ceiling of all the others tight.
    package var lifted: [DocAddress] = []
    package var liftedCeiling: Float = 1
    /// Leaf plans shared with the caller's other searches of this snapshot (`PlanMemo`).
    public var memo: PlanMemo?
    /// Whether a lone term or prefix may be answered from the segments' champion lists (same hits; tests
    /// turn it off to compare).
    package var championLists = true
    /// When a ranked conjunction is answered from the champion covers (`IndexSnapshot.championConjunction`);
    /// tests lower the thresholds so small corpora take that path.
    package var covers = CoverTuning()
    /// When a ranked phrase is read down a word's cover (`IndexSnapshot.coverPhrase`) or scored best bound first
    /// (`IndexSnapshot.bestFirstPhrase`).
    package var phrases = PhraseTuning()
    /// A second stage over the best `windowRescore.window` hits (`WindowRescore`); the search then returns the
    /// best `limit` by it.
    package var windowRescore: WindowRescore?

    public init(limit: Int = 20, filter: Query? = nil, boostField: FieldID? = nil,
                rescore: (@Sendable (DocAddress, Float) -> Float)? = nil, rescoreWindow: Int = 100,
                rescoreCeiling: Float? = nil, memo: PlanMemo? = nil) {
        self.memo = memo
        self.rescoreCeiling = rescoreCeiling
        self.limit = limit
        self.filter = filter
        self.boostField = boostField
        self.rescore = rescore
        self.rescoreWindow = rescoreWindow
    }
}

/// The thresholds of `IndexSnapshot.championConjunction`.
package struct CoverTuning: Sendable {
    /// Matches of the rarer clause below which the full evaluation is cheap enough (its lead is listed fast).
    package var minimumLead = 8_192
    /// A key with at most this many matches in the snapshot names them all instead of reading a cover.
    package var enumeratedMatches = 1_024
    /// Candidates scored, at most, per this many matches of the rarer clause (the listing the full evaluation
    /// pays for); a deeper read falls back to it.
    package var budgetDivisor = 4

    package init() {}
}
