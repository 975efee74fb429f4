/// A k-way merge of sorted term lists (each strictly ascending): every distinct term once, in byte order, with the
/// lists holding it and its index in each. Builds the vocabularies (`SegmentVocabulary`, `SnapshotVocabulary`) and
/// lists a prefix's completions (`IndexSnapshot.topTerms`, over the prefix's range of each list).
///
/// The lists' current terms sit in a binary heap, so a term costs about log k comparisons instead of a scan of
/// every list; the lists' bytes and offsets are first copied into one buffer each, so a comparison reads raw
/// memory instead of going through each list's arrays.
enum TermListMerge {
    /// One holder of a term: the list and the term's index in it.
    typealias Holder = (list: Int, index: Int)

    /// `ranges`: the terms of each list to merge (nil: all); a holder's index is still the term's in its list.
    static func merge<L: SortedTerms>(_ lists: [L], ranges: [Range<Int>]? = nil,
                                      _ body: (UnsafeBufferPointer<UInt8>, [Holder]) -> Void) {
        let ranges = ranges ?? lists.map { 0..<($0.offsets.count - 1) }
        precondition(ranges.count == lists.count)
        let counts = ranges.map(\.count)
        var offsetBase: [Int] = []
        var allBytes: [UInt8] = [], allOffsets: [Int] = []
        allBytes.reserveCapacity(zip(lists, ranges).reduce(0) { total, entry in
            total + Int(entry.0.offsets[entry.1.upperBound]) - Int(entry.0.offsets[entry.1.lowerBound])
        })
        allOffsets.reserveCapacity(ranges.reduce(0) { $0 + $1.count + 1 })
        for (list, range) in zip(lists, ranges) {
            offsetBase.append(allOffsets.count)
            let start = Int(list.offsets[range.lowerBound]), base = allBytes.count - start
            allBytes.append(contentsOf: list.bytes[start..<Int(list.offsets[range.upperBound])])
            allOffsets.append(contentsOf: list.offsets[range.lowerBound...range.upperBound].map { base + Int($0) })
        }
        // Raw buffers, not captured arrays: the nested functions below would otherwise check exclusive access on
        // every read.
        let head = UnsafeMutableBufferPointer<Int>.allocate(capacity: max(lists.count, 1))
        head.initialize(repeating: 0)
        let heap = UnsafeMutableBufferPointer<Int>.allocate(capacity: max(lists.count, 1))
        defer {
            head.deallocate()
            heap.deallocate()
        }
        var heapCount = 0
        for l in lists.indices where counts[l] > 0 {
            heap[heapCount] = l
            heapCount += 1
        }
        var holders: [Holder] = []
        allBytes.withUnsafeBufferPointer { bytes in
            allOffsets.withUnsafeBufferPointer { offsets in
                /// The current term of list `l`.
                func term(_ l: Int) -> UnsafeBufferPointer<UInt8> {
                    let at = offsetBase[l] + head[l]
                    return UnsafeBufferPointer(rebasing: bytes[offsets[at]..<offsets[at + 1]])
                }
                func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
                    let common = min(a.count, b.count)
                    var i = 0
                    while i < common {
                        if a[i] != b[i] { return Int(a[i]) - Int(b[i]) }
                        i += 1
                    }
                    return a.count - b.count
                }
                /// Heap order: the smaller current term, then the earlier list.
                func before(_ a: Int, _ b: Int) -> Bool {
                    let c = compare(term(a), term(b))
                    return c != 0 ? c < 0 : a < b
                }
                func siftDown(_ start: Int, _ count: Int) {
                    var parent = start
                    while true {
                        let left = 2 * parent + 1, right = left + 1
                        var smallest = parent
                        if left < count, before(heap[left], heap[smallest]) { smallest = left }
                        if right < count, before(heap[right], heap[smallest]) { smallest = right }
                        if smallest == parent { return }
                        heap.swapAt(parent, smallest)
                        parent = smallest
                    }
                }
                for index in stride(from: heapCount / 2 - 1, through: 0, by: -1) { siftDown(index, heapCount) }
                while heapCount > 0 {
                    let current = term(heap[0])
                    holders.removeAll(keepingCapacity: true)
                    // Take every list whose current term is this one (they surface in list order), advancing each.
                    var first = true
                    while heapCount > 0, first || compare(term(heap[0]), current) == 0 {
                        first = false
                        let next = heap[0]
                        holders.append((next, ranges[next].lowerBound + head[next]))
                        head[next] += 1
                        if head[next] == counts[next] {
                            heapCount -= 1
                            heap[0] = heap[heapCount]
                        }
                        if heapCount > 0 { siftDown(0, heapCount) }
                    }
                    body(current, holders)
                }
            }
        }
    }
}
