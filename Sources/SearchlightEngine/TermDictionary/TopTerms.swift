/// The `limit` terms with the most documents among those offered, ties to the smaller bytes: a binary heap whose
/// root is the worst kept term, so an offered term that cannot beat it costs one comparison and no copy (a prefix's
/// completions offer thousands of terms for a few dozen places).
struct TopTerms {
    let limit: Int
    private var heap: [(term: [UInt8], documentFrequency: Int)] = []

    init(limit: Int) { self.limit = max(limit, 0) }

    /// Whether `a` ranks before `b`: more documents, then the smaller bytes.
    private static func ranksBefore(_ a: (term: [UInt8], documentFrequency: Int),
                                    _ b: (term: [UInt8], documentFrequency: Int)) -> Bool {
        a.documentFrequency != b.documentFrequency ? a.documentFrequency > b.documentFrequency
            : a.term.lexicographicallyPrecedes(b.term)
    }

    /// Whether `offer` would keep the term: a caller can skip a costlier check of a term that would not place.
    func wouldKeep(_ term: UnsafeBufferPointer<UInt8>, documentFrequency df: Int) -> Bool {
        guard limit > 0 else { return false }
        guard heap.count == limit else { return true }
        let worst = heap[0]
        return df > worst.documentFrequency || df == worst.documentFrequency && term.lexicographicallyPrecedes(worst.term)
    }

    /// Offers a term (its bytes valid only during the call); kept when among the best `limit` so far.
    mutating func offer(_ term: UnsafeBufferPointer<UInt8>, documentFrequency df: Int) {
        guard wouldKeep(term, documentFrequency: df) else { return }
        if heap.count == limit {
            heap[0] = (Array(term), df)
            siftDown(0)
        } else {
            heap.append((Array(term), df))
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) >> 1
                guard Self.ranksBefore(heap[parent], heap[child]) else { break }
                heap.swapAt(parent, child)
                child = parent
            }
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var worst = parent
            if left < heap.count, Self.ranksBefore(heap[worst], heap[left]) { worst = left }
            if right < heap.count, Self.ranksBefore(heap[worst], heap[right]) { worst = right }
            if worst == parent { return }
            heap.swapAt(parent, worst)
            parent = worst
        }
    }

    /// The kept terms, best first.
    func ranked() -> [(term: String, documentFrequency: Int)] {
        heap.sorted(by: Self.ranksBefore).map { (String(decoding: $0.term, as: UTF8.self), $0.documentFrequency) }
    }
}
