/// When commits merge segments: keep the count logarithmic and reclaim deleted documents.
public struct MergePolicy: Sendable, Equatable {
    /// Above this many segments, the `mergeFactor` smallest are merged into one.
    public var maxSegments: Int = 8
    public var mergeFactor: Int = 4
    /// A segment whose deleted fraction exceeds this is rewritten without its deleted documents.
    public var maxDeletedFraction: Double = 0.5

    public init(maxSegments: Int = 8, mergeFactor: Int = 4, maxDeletedFraction: Double = 0.5) {
        self.maxSegments = max(maxSegments, 1)
        self.mergeFactor = max(mergeFactor, 2)
        self.maxDeletedFraction = maxDeletedFraction
    }

    /// Groups of segment indices to merge (each group becomes one segment).
    func merges(sizes: [Int], live: [Int]) -> [[Int]] {
        var groups: [[Int]] = []
        var taken = Set<Int>()
        for index in sizes.indices where sizes[index] > 0
            && Double(sizes[index] - live[index]) / Double(sizes[index]) > maxDeletedFraction {
            groups.append([index])
            taken.insert(index)
        }
        var remaining = sizes.count - taken.count + groups.count
        var candidates = sizes.indices.filter { !taken.contains($0) }.sorted { live[$0] < live[$1] }
        while remaining > maxSegments, candidates.count >= 2 {
            let group = Array(candidates.prefix(mergeFactor))
            candidates.removeFirst(group.count)
            groups.append(group)
            remaining -= group.count - 1
        }
        return groups
    }
}
