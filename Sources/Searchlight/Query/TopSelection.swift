/// The first elements of an array in an order, without sorting the whole array: a page of `k` sorted results out of
/// `n` matches costs about n·log k comparisons (most candidates are rejected by one comparison with the worst
/// kept element), not the n·log n of a full sort.
package enum TopSelection {
    /// The first `count` elements of `elements` in the order `precedes`, sorted; elements neither of which precedes
    /// the other keep their order in `elements`, exactly as a stable sort's prefix would.
    package static func first<Element>(_ count: Int, of elements: [Element],
                                        by precedes: (Element, Element) -> Bool) -> [Element] {
        // Positions break ties, so the order is total and the selection equals the stable sort's prefix.
        func before(_ a: Int, _ b: Int) -> Bool {
            if precedes(elements[a], elements[b]) { return true }
            if precedes(elements[b], elements[a]) { return false }
            return a < b
        }
        guard count > 0 else { return [] }
        guard count < elements.count else {
            return elements.indices.sorted(by: before).map { elements[$0] }
        }
        // A binary heap of positions whose root is the worst kept one.
        var heap = Array(elements.indices.prefix(count))
        heap.sort { before($1, $0) }  // Sorted worst first: a valid heap with the worst at the root.
        // A candidate comes after every kept position, so it loses a tie: one comparison decides whether it enters.
        for candidate in elements.indices.dropFirst(count) where precedes(elements[candidate], elements[heap[0]]) {
            heap[0] = candidate
            siftDown(&heap, by: before)
        }
        return heap.sorted(by: before).map { elements[$0] }
    }

    /// Restores the heap after its root was replaced: the root sinks below the worse of its children.
    private static func siftDown(_ heap: inout [Int], by before: (Int, Int) -> Bool) {
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var worst = left
            if left + 1 < heap.count, before(heap[left], heap[left + 1]) { worst = left + 1 }
            guard before(heap[parent], heap[worst]) else { return }
            heap.swapAt(parent, worst)
            parent = worst
        }
    }
}
