import XCTest
@testable import SearchlightEngine

/// The merge policy keeps indexing near-linear: each document is rewritten a logarithmic number of times.
final class MergePolicyTests: XCTestCase {
    /// Commits `batches` segments of `size` live documents, merging as the policy says; returns the documents
    /// rewritten by merges and the largest segment count seen.
    func simulate(_ policy: MergePolicy, batches: Int, size: Int) -> (rewritten: Int, maxSegments: Int) {
        var segments: [Int] = []
        var rewritten = 0
        var maxCount = 0
        for _ in 0..<batches {
            segments.append(size)
            let groups = policy.merges(sizes: segments, live: segments)
            let merged = groups.map { $0.reduce(0) { $0 + segments[$1] } }
            rewritten += merged.reduce(0, +)
            let consumed = Set(groups.joined())
            segments = segments.indices.filter { !consumed.contains($0) }.map { segments[$0] } + merged
            maxCount = max(maxCount, segments.count)
        }
        return (rewritten, maxCount)
    }

    func testAMillionDocumentsInBatchesAreRewrittenOnlyLogarithmicallyOften() {
        let policy = MergePolicy()
        let (rewritten, maxCount) = simulate(policy, batches: 1_000, size: 1_000)
        XCTAssertLessThan(Double(rewritten) / 1_000_000, 6, "documents rewritten per document")
        XCTAssertLessThanOrEqual(maxCount, policy.maxSegments + 1)
    }

    func testTheCapStillBoundsTheSegmentCount() {
        let policy = MergePolicy(maxSegments: 3, mergeFactor: 2)
        let (_, maxCount) = simulate(policy, batches: 200, size: 7)
        XCTAssertLessThanOrEqual(maxCount, 4, "at most the cap plus the segment a commit adds")
    }

    func testMostlyDeletedSegmentsAreRewritten() {
        let policy = MergePolicy()
        XCTAssertEqual(policy.merges(sizes: [100, 100], live: [100, 20]), [[1]])
    }

    /// A background merge is published by the next commit, not the one that started it, and carries over the
    /// deletes and replacements made while it ran.
    func testBackgroundMergeIsInstalledByTheNextCommitWithLaterDeletes() throws {
        let writer = IndexWriter()
        writer.mergesInBackground = true
        writer.mergePolicy = MergePolicy(maxSegments: 24, mergeFactor: 2)
        let body = try writer.registerField("body", .text())
        func add(_ id: String, _ text: String = "word") throws { try writer.upsert(Document(id: id, values: [(body, .text(text))])) }
        try add("a"); try add("b")
        XCTAssertEqual(try writer.commit().segments.count, 1)
        try add("c"); try add("d")
        // Two segments of one tier: the merge starts, this snapshot still shows both.
        XCTAssertEqual(try writer.commit().segments.count, 2)
        writer.delete(ids: ["a"])
        try add("c", "other")
        try add("e")
        let snapshot = try writer.commit()
        // The merged segment (a, b, c, d with a and the old c deleted) and the segment of c and e.
        XCTAssertEqual(snapshot.segments.map(\.documentCount).sorted(), [2, 4])
        XCTAssertEqual(Set(snapshot.matches(.term("word")).compactMap { snapshot.id(of: $0) }), ["b", "d", "e"])
        XCTAssertEqual(snapshot.matches(.term("other")).compactMap { snapshot.id(of: $0) }, ["c"])
        XCTAssertEqual(snapshot.documentCount, 4)
    }
}
