import Foundation

/// When commits merge segments: tiered, so each document is rewritten about log(N / batch) times, with a hard
/// cap on the segment count and reclamation of deleted documents.
///
/// Segments fall into size tiers (`tier = ⌊log_mergeFactor(live documents)⌋`); a tier holding `mergeFactor` or
/// more segments merges its `mergeFactor` smallest, like Lucene's tiered policy. (Merging "the smallest few
/// whenever there are too many" instead keeps re-merging large segments once they outnumber the cap: at a
/// million documents indexed in batches of 1,000 it rewrote every document about 29 times, against about 4.)
/// Above `maxSegments` the smallest are merged regardless of tier.
public struct MergePolicy: Sendable, Equatable {
    // Assignments are clamped as the initializer clamps: a merge factor below 2 made `tier` trap (log 1) or
    // loop (log 0), and a negative deleted fraction rewrote every segment on every round, so merges never settled.

    /// A hard cap: above this many segments, the `mergeFactor` smallest are merged into one.
    public var maxSegments: Int = 24 { didSet { maxSegments = max(maxSegments, 1) } }
    /// How many segments of one tier are merged together (and the tiers' size ratio).
    public var mergeFactor: Int = 4 { didSet { mergeFactor = max(mergeFactor, 2) } }
    /// A segment whose deleted fraction exceeds this is rewritten without its deleted documents (at least 0).
    public var maxDeletedFraction: Double = 0.5 {
        didSet { maxDeletedFraction = Self.clampedDeletedFraction(maxDeletedFraction) }
    }

    /// An idle writer may rewrite up to this many documents per document committed to consolidate segments
    /// (`IndexWriter.mergeWhileIdle()`): a bulk load ends up in few segments, a trickle of small writes never
    /// pays for rewriting a large one.
    public var idleRewriteFactor: Int = 10 { didSet { idleRewriteFactor = max(idleRewriteFactor, 0) } }

    public init(maxSegments: Int = 24, mergeFactor: Int = 4, maxDeletedFraction: Double = 0.5,
                idleRewriteFactor: Int = 10) {
        self.maxSegments = max(maxSegments, 1)
        self.mergeFactor = max(mergeFactor, 2)
        self.maxDeletedFraction = Self.clampedDeletedFraction(maxDeletedFraction)
        self.idleRewriteFactor = max(idleRewriteFactor, 0)
    }

    /// `fraction`, or 0 when it is negative (NaN stays: it never rewrites, as a fraction above 1).
    private static func clampedDeletedFraction(_ fraction: Double) -> Double { fraction < 0 ? 0 : fraction }

    /// The segments an idle writer merges into one: the most of the smallest (by live documents) whose
    /// documents, deleted ones included, add up to at most `budget` and whose merge fits `limits` (`fits`); nil
    /// unless that is two or more.
    func idleMerge(sizes: [Int], live: [Int], budget: Int, bytes: [Int] = [],
                   limits: SegmentLimits = .standard) -> [Int]? {
        var group: [Int] = []
        var total = 0
        for index in sizes.indices.sorted(by: { live[$0] != live[$1] ? live[$0] < live[$1] : $0 < $1 }) {
            guard total + sizes[index] <= budget else { break }
            // One that fits no merge with these (too large, or unmergeable) is passed over, not an end.
            guard Self.fits(group + [index], live: live, bytes: bytes, limits: limits) else { continue }
            total += sizes[index]
            group.append(index)
        }
        return group.count >= 2 ? group.sorted() : nil
    }

    /// Whether merging `group` into one segment stays within `limits`: its live documents, and the sum of its
    /// segments' `bytes` (each an estimate of the segment's largest buffer, so the sum bounds every merged
    /// buffer). A merge that would not fit is never planned, so a large index stops merging instead of failing.
    static func fits(_ group: [Int], live: [Int], bytes: [Int], limits: SegmentLimits) -> Bool {
        var documents = 0, total = 0
        for index in group {
            documents += live[index]
            total += index < bytes.count ? bytes[index] : 0
            guard documents <= limits.maxDocuments, total <= limits.maxBytes else { return false }
        }
        return true
    }

    /// The first of `candidates` (at most `mergeFactor`) whose merge fits, each taken when it fits with those
    /// before it: all of the first `mergeFactor` within the limits, and a segment that fits no merge (too large,
    /// or unmergeable) is passed over rather than keeping the others apart. Nil below two segments.
    private func fittingGroup(_ candidates: [Int], live: [Int], bytes: [Int], limits: SegmentLimits) -> [Int]? {
        var group: [Int] = []
        for index in candidates where group.count < mergeFactor
            && Self.fits(group + [index], live: live, bytes: bytes, limits: limits) {
            group.append(index)
        }
        return group.count >= 2 ? group : nil
    }

    /// The size tier of a segment with `live` documents.
    func tier(_ live: Int) -> Int {
        live <= 1 ? 0 : Int(log(Double(live)) / log(Double(mergeFactor)))
    }

    /// Groups of segment indices to merge (each group becomes one segment), each within `limits` (`fits`, with
    /// `bytes` per segment): a tier or the cap merges fewer segments, or none, rather than too many.
    func merges(sizes: [Int], live: [Int], bytes: [Int] = [], limits: SegmentLimits = .standard) -> [[Int]] {
        var groups: [[Int]] = []
        var taken = Set<Int>()
        for index in sizes.indices where sizes[index] > 0
            && Double(sizes[index] - live[index]) / Double(sizes[index]) > maxDeletedFraction {
            groups.append([index])
            taken.insert(index)
        }
        var candidates = sizes.indices.filter { !taken.contains($0) }.sorted { live[$0] < live[$1] }
        // Tiered: every tier with enough segments merges its smallest.
        let byTier = Dictionary(grouping: candidates, by: { tier(live[$0]) })
        for t in byTier.keys.sorted() {
            var members = byTier[t] ?? []
            while members.count >= mergeFactor {
                guard let group = fittingGroup(members, live: live, bytes: bytes, limits: limits) else { break }
                members.removeAll { group.contains($0) }
                groups.append(group)
                taken.formUnion(group)
            }
        }
        candidates.removeAll { taken.contains($0) }
        // The cap: segments left after this round's merges.
        var remaining = candidates.count + groups.count
        while remaining > maxSegments, candidates.count >= 2 {
            guard let group = fittingGroup(candidates, live: live, bytes: bytes, limits: limits) else { break }
            candidates.removeAll { group.contains($0) }
            groups.append(group)
            remaining -= group.count - 1
        }
        return groups
    }
}
