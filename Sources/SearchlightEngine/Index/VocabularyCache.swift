import Synchronization

/// The `SnapshotVocabulary` of a writer's snapshots: built on a typo-tolerant search's first use and kept while
/// the segments it covers hold most of a snapshot's documents (at least `minimumCoverage`), so commits that add a
/// few small segments do not rebuild it; those segments are walked one by one until a merge or growth leaves
/// too much uncovered. Shared by every snapshot of one writer.
final class VocabularyCache: Sendable {
    private let current = Mutex<SnapshotVocabulary?>(nil)

    /// The share of a snapshot's documents the cached vocabulary must cover to be used.
    static let minimumCoverage = 0.75

    init() {}

    /// The vocabulary for `segments` (those it does not cover are walked separately), or nil when one walk per
    /// segment is as good (a single segment, or one holding `minimumCoverage` of the documents beside small
    /// ones) or the scope is too wide for the fields' bits.
    func vocabulary(for segments: [Segment], scope: [Int]) -> SnapshotVocabulary? {
        guard scope.count > 1, scope.count <= SegmentVocabulary.maximumScope else { return nil }
        // A single segment is walked on its own; a union cached for earlier segments would only keep them alive.
        guard Self.isUnion(segments) else {
            current.withLock { $0 = nil }
            return nil
        }
        return current.withLock { cached in
            if let vocabulary = cached, vocabulary.scope == scope, Self.covers(vocabulary, segments) { return vocabulary }
            // One segment holding most documents (a bulk load's, after a few commits): a union would repeat its
            // vocabulary (138 M instructions on 64,000 items, on the first typo-tolerant query after a commit),
            // while walking it and the few small segments each on its own costs a walk per segment.
            // The union cached before (which covers too little) goes: it holds segments merges may have replaced.
            if Self.oneHoldsMost(segments) {
                cached = nil
                return nil
            }
            let built = SnapshotVocabulary(scope: scope, segments: segments,
                                           vocabularies: segments.map { $0.vocabulary(for: scope) })
            cached = built
            return built
        }
    }

    /// Drops the cached vocabulary when no search over `segments` (a new snapshot's) would use it: it holds the
    /// segments it covers, so after a merge replaced them it kept their memory until the next typo-tolerant search.
    func release(unlessServing segments: [Segment]) {
        current.withLock { cached in
            guard let vocabulary = cached else { return }
            if !Self.isUnion(segments) || !Self.covers(vocabulary, segments) || Self.oneHoldsMost(segments) {
                cached = nil
            }
        }
    }

    /// Whether `segments` are searched through a union vocabulary at all (a single one is walked on its own).
    private static func isUnion(_ segments: [Segment]) -> Bool {
        segments.count >= 2 && segments.count <= SnapshotVocabulary.maximumSegments
    }

    /// Whether `vocabulary` covers at least `minimumCoverage` of `segments`' documents (the rest walked apart).
    private static func covers(_ vocabulary: SnapshotVocabulary, _ segments: [Segment]) -> Bool {
        let total = segments.reduce(0) { $0 + $1.documentCount }
        let covered = segments.reduce(0) { vocabulary.positions[ObjectIdentifier($1)] != nil ? $0 + $1.documentCount : $0 }
        return Double(covered) >= minimumCoverage * Double(total)
    }

    /// Whether one of `segments` holds `minimumCoverage` of their documents: walking it and the rest apart is cheaper.
    private static func oneHoldsMost(_ segments: [Segment]) -> Bool {
        let total = segments.reduce(0) { $0 + $1.documentCount }
        return Double(segments.reduce(0) { max($0, $1.documentCount) }) >= minimumCoverage * Double(total)
    }

    /// The number of segments the cached vocabulary covers (0: none cached).
    var coveredSegments: Int { current.withLock { $0?.segments.count ?? 0 } }

    /// Bytes of the cached vocabulary (0 before a typo-tolerant search built one).
    var memoryBytes: Int { current.withLock { $0?.memoryBytes ?? 0 } }
    /// Bytes of the near terms its vocabulary keeps (`NearTermsCache`).
    var nearTermsMemoryBytes: Int { current.withLock { $0?.nearTermsCache.memoryBytes ?? 0 } }
}
