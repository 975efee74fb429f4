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
/// The heap is a raw buffer the collector owns for one search: no copy-on-write checks or bounds checks on
/// the per-candidate path (every document of a rare term reaches `insert`).
struct TopK: ~Copyable {
    let k: Int
    private let heap: UnsafeMutablePointer<SearchHit>
    private(set) var count = 0

    init(k: Int) {
        self.k = max(k, 0)
        heap = .allocate(capacity: max(self.k, 1))
    }

    deinit { heap.deallocate() }

    var isFull: Bool { count >= k }
    /// Score a new hit must beat (ties included: it may win on address) once the heap is full.
    var threshold: Float { isFull && k > 0 ? heap[0].score : -Float.infinity }

    /// Whether `insert` would keep `hit`.
    func admits(_ hit: SearchHit) -> Bool { k > 0 && (count < k || SearchHit.ranksBefore(hit, heap[0])) }

    mutating func insert(_ hit: SearchHit) {
        guard k > 0 else { return }
        let heap = self.heap
        if count < k {
            var child = count
            count += 1
            while child > 0 {
                let parent = (child - 1) >> 1
                guard SearchHit.ranksBefore(heap[parent], hit) else { break }
                heap[child] = heap[parent]
                child = parent
            }
            (heap + child).initialize(to: hit)
        } else if SearchHit.ranksBefore(hit, heap[0]) {
            Self.replaceRoot(of: heap, count: count, with: hit)
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

    /// The kept hits, best first: a heap sort of a copy of the heap (its root, the worst hit, goes last).
    func sorted() -> [SearchHit] {
        var result = Array(UnsafeBufferPointer(start: heap, count: count))
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
    func unordered() -> [SearchHit] { Array(UnsafeBufferPointer(start: heap, count: count)) }
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
    /// The factor of each address, in order: asked for the first page, then for up to `batch` hits at a time of
    /// those that may still place.
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
        // Rescored, a hit scores at most score × ceiling: below the page's worst it cannot place (the bound the
        // collectors use, `RescoreWhileCollecting.mayPlace`). The others are rescored `batch` at a time, the page's
        // worst rising between batches.
        var pending: [SearchHit] = []
        pending.reserveCapacity(Self.batch)
        for hit in hits where SearchHit.ranksBefore(last, hit) {
            guard RescoreWhileCollecting.mayPlace(hit.score, ceiling: ceiling, in: top) else { continue }
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
