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
struct TopK {
    let k: Int
    private(set) var heap: [SearchHit] = []

    init(k: Int) {
        self.k = k
        heap.reserveCapacity(min(k, 4096))
    }

    var isFull: Bool { heap.count >= k }
    /// Score a new hit must beat (ties included: it may win on address) once the heap is full.
    var threshold: Float { isFull ? heap[0].score : -Float.infinity }

    mutating func insert(_ hit: SearchHit) {
        guard k > 0 else { return }
        if heap.count < k {
            heap.append(hit)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) >> 1
                guard SearchHit.ranksBefore(heap[parent], heap[child]) else { break }
                heap.swapAt(parent, child)
                child = parent
            }
        } else if SearchHit.ranksBefore(hit, heap[0]) {
            heap[0] = hit
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var worst = parent
                if left < heap.count, SearchHit.ranksBefore(heap[worst], heap[left]) { worst = left }
                if right < heap.count, SearchHit.ranksBefore(heap[worst], heap[right]) { worst = right }
                if worst == parent { break }
                heap.swapAt(parent, worst)
                parent = worst
            }
        }
    }

    func sorted() -> [SearchHit] { heap.sorted(by: SearchHit.ranksBefore) }
}

/// Options of a ranked search.
public struct SearchOptions: Sendable {
    /// Number of hits to return.
    public var limit: Int
    /// A non-scoring query every hit must also match.
    public var filter: Query?
    /// A numeric field used as a query-independent score multiplier (first value; 1 when missing,
    /// negative values count as 0): rankingHint, recency or engagement precomputed by the caller.
    public var boostField: FieldID?
    /// Rescores the best `rescoreWindow` candidates (after `boostField`); results are re-sorted.
    public var rescore: (@Sendable (DocAddress, Float) -> Float)?
    public var rescoreWindow: Int

    public init(limit: Int = 20, filter: Query? = nil, boostField: FieldID? = nil,
                rescore: (@Sendable (DocAddress, Float) -> Float)? = nil, rescoreWindow: Int = 100) {
        self.limit = limit
        self.filter = filter
        self.boostField = boostField
        self.rescore = rescore
        self.rescoreWindow = rescoreWindow
    }
}
