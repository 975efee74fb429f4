import Synchronization
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

    /// A policy's settings are clamped when assigned as when initialized: a merge factor below two made `tier`
    /// divide by log(1) (a trap) or never end (log(0)), and a negative deleted fraction rewrote every segment
    /// on every merge round, so a writer never settled.
    func testSettingsAssignedAfterInitAreClampedLikeTheInitializers() {
        var policy = MergePolicy()
        policy.mergeFactor = 1
        policy.maxSegments = 0
        policy.maxDeletedFraction = -1
        policy.idleRewriteFactor = -5
        XCTAssertEqual(policy, MergePolicy(maxSegments: 0, mergeFactor: 1, maxDeletedFraction: -1, idleRewriteFactor: -5))
        XCTAssertEqual(policy.mergeFactor, 2)
        XCTAssertEqual(policy.maxSegments, 1)
        XCTAssertEqual(policy.maxDeletedFraction, 0)
        XCTAssertEqual(policy.idleRewriteFactor, 0)
        XCTAssertEqual(policy.merges(sizes: [10, 10], live: [10, 10]), [[0, 1]])
        XCTAssertEqual(policy.merges(sizes: [10], live: [10]), [], "a segment without deletions is never rewritten")
    }

    /// Holds background merges until the test releases them, so their timing is the test's choice.
    final class MergeGate: @unchecked Sendable {
        private var held: [@Sendable () -> Void] = []
        private let lock = NSLock()
        var starter: @Sendable (@escaping @Sendable () -> Void) -> Void {
            { work in self.lock.withLock { self.held.append(work) } }
        }
        var heldCount: Int { lock.withLock { held.count } }
        /// Runs the held merges on this thread.
        func release() {
            let work = lock.withLock { defer { held = [] }; return held }
            for item in work { item() }
        }
    }

    func makeWriter(gate: MergeGate, policy: MergePolicy) throws -> (IndexWriter, (String, String) throws -> Void) {
        let writer = IndexWriter()
        writer.mergesInBackground = true
        writer.startMerge = gate.starter
        writer.mergePolicy = policy
        let body = try writer.registerField("body", .text())
        return (writer, { id, text in try writer.upsert(Document(id: id, values: [(body, .text(text))])) })
    }

    func ids(_ snapshot: IndexSnapshot, _ word: String) -> Set<String> {
        Set(snapshot.matches(.term(word)).compactMap { snapshot.id(of: $0) })
    }

    /// A background merge is published by the first commit after it finishes, not by the one that started it,
    /// and carries over the deletes and replacements made while it ran. Commits made while it runs do not wait.
    func testBackgroundMergeIsInstalledAfterItFinishesWithLaterDeletes() throws {
        let gate = MergeGate()
        let (writer, add) = try makeWriter(gate: gate, policy: MergePolicy(maxSegments: 24, mergeFactor: 2))
        try add("a", "word"); try add("b", "word")
        XCTAssertEqual(try writer.commit().segments.count, 1)
        try add("c", "word"); try add("d", "word")
        // Two segments of one tier: the merge starts, this snapshot still shows both.
        XCTAssertEqual(try writer.commit().segments.count, 2)
        XCTAssertEqual(gate.heldCount, 1)
        writer.delete(ids: ["a"])
        try add("c", "other")
        try add("e", "word")
        // The merge has not finished: the commit publishes without it (and starts no second merge).
        var snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.map(\.documentCount), [2, 2, 2])
        XCTAssertEqual(gate.heldCount, 1)
        XCTAssertEqual(ids(snapshot, "word"), ["b", "d", "e"])
        gate.release()
        snapshot = try writer.commit()
        // The merged segment (a, b, c, d with a and the old c deleted) and the segment of c and e.
        XCTAssertEqual(snapshot.segments.map(\.documentCount).sorted(), [2, 4])
        XCTAssertEqual(ids(snapshot, "word"), ["b", "d", "e"])
        XCTAssertEqual(ids(snapshot, "other"), ["c"])
        XCTAssertEqual(snapshot.documentCount, 4)
    }

    /// A finished background merge is published without a commit: `onMergeFinished` reports it and
    /// `publishFinishedMerges()` publishes the same documents in fewer segments, under a new generation with the
    /// same content generation. Before the merge has finished there is nothing to publish.
    func testAFinishedMergeIsPublishedWithoutACommit() throws {
        let gate = MergeGate()
        let (writer, add) = try makeWriter(gate: gate, policy: MergePolicy(maxSegments: 24, mergeFactor: 2))
        let reports = Mutex(0)
        writer.onMergeFinished = { reports.withLock { $0 += 1 } }
        try add("a", "word"); _ = try writer.commit()
        try add("b", "word")
        let before = try writer.commit()
        XCTAssertEqual(before.segments.count, 2)
        XCTAssertNil(writer.publishFinishedMerges(), "the merge has not run yet")
        XCTAssertEqual(reports.withLock { $0 }, 0)
        gate.release()
        XCTAssertEqual(reports.withLock { $0 }, 1)
        let merged = try XCTUnwrap(writer.publishFinishedMerges())
        XCTAssertEqual(merged.segments.map(\.documentCount), [2])
        XCTAssertEqual(ids(merged, "word"), ["a", "b"])
        XCTAssertEqual(merged.generation, before.generation + 1)
        XCTAssertEqual(merged.contentGeneration, before.contentGeneration)
        XCTAssertEqual(writer.snapshot.generation, merged.generation)
        XCTAssertNil(writer.publishFinishedMerges(), "published once")
    }

    /// A background merge builds the merged segment's vocabulary when its sources had one (typo-tolerant
    /// searches used them), so the first such search after the merge does not; otherwise it builds none.
    func testABackgroundMergeBuildsTheVocabularyItsSourcesHad() throws {
        for searched in [false, true] {
            let gate = MergeGate()
            let (writer, add) = try makeWriter(gate: gate, policy: MergePolicy(maxSegments: 24, mergeFactor: 2))
            try add("a", "word"); _ = try writer.commit()
            try add("b", "wording")
            let sources = try writer.commit().segments
            if searched { for segment in sources { _ = segment.vocabulary(for: [0]) } }
            gate.release()
            let merged = try XCTUnwrap(writer.publishFinishedMerges()).segments
            XCTAssertEqual(merged.count, 1)
            XCTAssertEqual(merged[0].vocabularyScope, searched ? [0] : nil)
        }
    }

    /// Likewise the leading keys and names a user query's ranking built in the sources: the merged segment has
    /// them when it is published, for the same field and scope, and counts the same as a fresh build.
    func testABackgroundMergeBuildsTheLeadingKeysAndNamesItsSourcesHad() throws {
        for searched in [false, true] {
            let gate = MergeGate()
            let (writer, add) = try makeWriter(gate: gate, policy: MergePolicy(maxSegments: 24, mergeFactor: 2))
            try add("a", "nginx"); _ = try writer.commit()
            try add("b", "an nginx module")
            let snapshot = try writer.commit()
            let field = try XCTUnwrap(snapshot.schema.field(named: "body"))
            if searched {
                _ = snapshot.nameMentions(of: field)
                for segment in snapshot.segments { _ = segment.leadingKeys(for: field) }
            }
            gate.release()
            let merged = try XCTUnwrap(writer.publishFinishedMerges())
            XCTAssertEqual(merged.segments.count, 1)
            let segment = merged.segments[0]
            XCTAssertEqual(segment.leadingKeysField, searched ? field : nil)
            XCTAssertEqual(segment.namesKey?.field, searched ? field : nil)
            XCTAssertEqual(segment.namesKey?.scope, searched ? merged.schema.defaultFieldNumbers : nil)
            XCTAssertEqual(merged.nameMentions(of: field)?.count(of: try XCTUnwrap(merged.lookup(id: "a"))), 1)
        }
    }

    /// Uncommitted changes hold a finished merge back (a snapshot cannot show the merge without them); the next
    /// commit installs it with them.
    func testUncommittedChangesHoldAFinishedMergeForTheCommit() throws {
        let gate = MergeGate()
        let (writer, add) = try makeWriter(gate: gate, policy: MergePolicy(maxSegments: 24, mergeFactor: 2))
        try add("a", "word"); _ = try writer.commit()
        try add("b", "word"); _ = try writer.commit()
        gate.release()
        writer.delete(ids: ["a"])
        try add("c", "word")
        XCTAssertNil(writer.publishFinishedMerges())
        XCTAssertEqual(ids(writer.snapshot, "word"), ["a", "b"], "nothing uncommitted became visible")
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.map(\.documentCount).sorted(), [1, 2])
        XCTAssertEqual(ids(snapshot, "word"), ["b", "c"])
    }

    /// The content generation counts commits that changed documents: not empty commits, and not published
    /// merges; `deleteAll` counts.
    func testContentGenerationCountsCommitsThatChangeDocuments() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        try writer.upsert(Document(id: "a", values: [(body, .text("word"))]))
        let first = try writer.commit()
        let empty = try writer.commit()
        XCTAssertEqual(empty.contentGeneration, first.contentGeneration)
        XCTAssertEqual(empty.generation, first.generation + 1)
        writer.delete(ids: ["missing"])
        XCTAssertEqual(try writer.commit().contentGeneration, first.contentGeneration, "deleting nothing changes nothing")
        writer.delete(ids: ["a"])
        let deleted = try writer.commit()
        XCTAssertEqual(deleted.contentGeneration, first.contentGeneration + 1)
        try writer.upsert(Document(id: "b", values: [(body, .text("word"))]))
        _ = try writer.commit()
        writer.deleteAll()
        XCTAssertEqual(try writer.commit().contentGeneration, deleted.contentGeneration + 2)
    }

    /// An idle merge takes the most of the smallest segments that fit the budget, and only two or more.
    func testIdleMergeTakesTheSmallestSegmentsWithinTheBudget() {
        let policy = MergePolicy()
        let sizes = [100, 5, 3, 50]
        XCTAssertEqual(policy.idleMerge(sizes: sizes, live: sizes, budget: 60), [1, 2, 3])
        XCTAssertEqual(policy.idleMerge(sizes: sizes, live: sizes, budget: 8), [1, 2])
        XCTAssertNil(policy.idleMerge(sizes: sizes, live: sizes, budget: 7), "one segment is no merge")
        // Ordered by live documents, paid for by all (deleted ones are read too).
        XCTAssertEqual(policy.idleMerge(sizes: [40, 30, 30], live: [2, 30, 1], budget: 70), [0, 2])
    }

    /// `mergeWhileIdle()` consolidates a bulk load's segments, then pays for a trickle of small writes with the
    /// budget they bring since the last check (here one document rewritten per document committed), never
    /// rewriting the large one; a check that merges nothing drops its credit.
    func testAnIdleWriterMergesWithinItsRewriteBudget() throws {
        let gate = MergeGate()
        let (writer, add) = try makeWriter(
            gate: gate, policy: MergePolicy(maxSegments: 24, mergeFactor: 10, idleRewriteFactor: 1))
        func idleMerge() throws -> Bool {
            guard writer.mergeWhileIdle() else { return false }
            gate.release()
            XCTAssertNotNil(writer.publishFinishedMerges())
            return true
        }
        for batch in 0..<3 {
            for n in 0..<10 { try add("b\(batch)-\(n)", "word") }
            _ = try writer.commit()
        }
        XCTAssertEqual(writer.snapshot.segments.count, 3)
        try add("pending", "word")
        XCTAssertFalse(writer.mergeWhileIdle(), "uncommitted changes")
        writer.rollback()
        XCTAssertTrue(try idleMerge())
        XCTAssertEqual(writer.snapshot.segments.map(\.documentCount), [30])
        XCTAssertEqual(ids(writer.snapshot, "word").count, 30)
        try add("t0", "word"); _ = try writer.commit()
        XCTAssertFalse(try idleMerge(), "one document's budget does not pay for rewriting thirty")
        try add("t1", "word"); _ = try writer.commit()
        try add("t2", "word"); _ = try writer.commit()
        XCTAssertTrue(try idleMerge(), "two documents' budget pays for merging two one-document segments")
        XCTAssertEqual(writer.snapshot.segments.map(\.documentCount).sorted(), [1, 2, 30])
        XCTAssertEqual(ids(writer.snapshot, "word").count, 33)
    }

    /// With the default budget (ten rewrites per document), a bulk load's leftover credit does not let the
    /// single-document writes after it rewrite the large segment: it stays the same object throughout.
    func testSmallWritesAfterABulkLoadNeverRewriteItsSegment() throws {
        let gate = MergeGate()
        let (writer, add) = try makeWriter(gate: gate, policy: MergePolicy())
        func settle() {
            while true {
                gate.release()
                if writer.publishFinishedMerges() != nil { continue }
                guard writer.mergeWhileIdle() else { return }
            }
        }
        for batch in 0..<16 {
            for n in 0..<100 { try add("b\(batch)-\(n)", "word") }
            _ = try writer.commit()
        }
        settle()
        let large = try XCTUnwrap(writer.snapshot.segments.first { $0.documentCount == 1_600 })
        for n in 0..<11 {
            try add("t\(n)", "word")
            _ = try writer.commit()
            settle()
            XCTAssertTrue(writer.snapshot.segments.contains { $0 === large }, "write \(n)")
        }
        XCTAssertEqual(writer.snapshot.documentCount, 1_611)
    }

    /// A commit at the segment cap waits for a running policy merge, but not for an idle merge (which may be
    /// rewriting most of the index): writes go on while one is held.
    func testACommitAtTheCapDoesNotWaitForAnIdleMerge() throws {
        let gate = MergeGate()
        let (writer, add) = try makeWriter(gate: gate, policy: MergePolicy(maxSegments: 3, mergeFactor: 10))
        for n in 0..<3 { try add("a\(n)", "word"); _ = try writer.commit() }
        XCTAssertTrue(writer.mergeWhileIdle())
        let finished = DispatchSemaphore(value: 0)
        let box = UncheckedBox(writer)
        DispatchQueue.global().async {
            for n in 0..<5 {
                try? box.value.upsert(Document(id: "b\(n)", values: [(FieldID(rawValue: 0), .text("word"))]))
                _ = try? box.value.commit()
            }
            finished.signal()
        }
        let done = finished.wait(timeout: .now() + 30) == .success
        XCTAssertTrue(done, "a commit waited for the held idle merge")
        while !done, finished.wait(timeout: .now() + .milliseconds(50)) == .timedOut { gate.release() }
        XCTAssertEqual(writer.snapshot.documentCount, 8)
        gate.release()
        XCTAssertEqual(try writer.commit().documentCount, 8)
    }

    /// A commit drops a segment whose documents were all deleted while a merge of it ran: the merge's group is
    /// discarded (its result would hold only deleted documents), and the other segments keep their documents.
    func testAMergeWhoseSourceWasDroppedIsDiscarded() throws {
        let gate = MergeGate()
        let (writer, add) = try makeWriter(gate: gate, policy: MergePolicy(maxSegments: 24, mergeFactor: 2))
        try add("a", "word"); _ = try writer.commit()
        try add("b", "word"); _ = try writer.commit()  // the merge of a and b starts
        XCTAssertEqual(gate.heldCount, 1)
        writer.delete(ids: ["a"])
        try add("c", "word")
        var snapshot = try writer.commit()  // drops a's segment
        XCTAssertEqual(snapshot.segments.count, 2)
        gate.release()
        snapshot = try writer.commit()
        XCTAssertEqual(ids(snapshot, "word"), ["b", "c"])
        XCTAssertEqual(snapshot.documentCount, 2)
        XCTAssertEqual(snapshot.segments.map(\.documentCount).sorted(), [1, 1], "the merge was not installed")
    }

    /// A rollback while a merge runs keeps it: its sources are among the restored segments.
    func testAMergeSurvivesARollback() throws {
        let gate = MergeGate()
        let (writer, add) = try makeWriter(gate: gate, policy: MergePolicy(maxSegments: 24, mergeFactor: 2))
        try add("a", "word"); _ = try writer.commit()
        try add("b", "word"); _ = try writer.commit()
        try add("c", "word")
        writer.delete(ids: ["a"])
        writer.rollback()
        gate.release()
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.map(\.documentCount), [2])
        XCTAssertEqual(ids(snapshot, "word"), ["a", "b"])
    }

    /// A writer whose background merges start `delay` milliseconds late, with a text field `body`.
    func slowMergeWriter(delay: Int, policy: MergePolicy) throws -> (IndexWriter, FieldID) {
        let writer = IndexWriter()
        writer.mergesInBackground = true
        writer.startMerge = { work in DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay), execute: work) }
        writer.mergePolicy = policy
        return (writer, try writer.registerField("body", .text()))
    }

    /// At the segment cap a commit waits for the running merge (back-pressure), so the count stays bounded
    /// however slow merges are.
    func testACommitAtTheSegmentCapWaitsForTheRunningMerge() throws {
        // A slow merge thread: the commit at the cap must still see it installed.
        let (writer, body) = try slowMergeWriter(delay: 20, policy: MergePolicy(maxSegments: 3, mergeFactor: 2))
        var most = 0
        for number in 0..<40 {
            try writer.upsert(Document(id: "d\(number)", values: [(body, .text("word"))]))
            let snapshot = try writer.commit()
            most = max(most, snapshot.segments.count)
            XCTAssertEqual(snapshot.documentCount, number + 1)
        }
        XCTAssertLessThanOrEqual(most, 4, "the cap plus the segment a commit adds")
        writer.waitForMerges()
        XCTAssertEqual(try writer.commit().documentCount, 40)
    }

    /// `waitForMerges()` returns once the running merge is done, so the next commit installs it.
    func testWaitForMergesLetsTheNextCommitInstallTheMerge() throws {
        let (writer, body) = try slowMergeWriter(delay: 200, policy: MergePolicy(maxSegments: 24, mergeFactor: 2))
        try writer.upsert(Document(id: "a", values: [(body, .text("word"))])); _ = try writer.commit()
        try writer.upsert(Document(id: "b", values: [(body, .text("word"))])); _ = try writer.commit()
        writer.waitForMerges()
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.map(\.documentCount), [2])
        XCTAssertEqual(Set(snapshot.matches(.term("word")).compactMap { snapshot.id(of: $0) }), ["a", "b"])
    }
}

extension MergePolicyTests {
    /// Seeded random writes (upserts one by one and in pipelined batches, deletes by id and by domain, commits,
    /// rollbacks, deleteAll) against a dictionary model, with background merges finished, published and idle
    /// merges started at random points: every snapshot answers as the model did at its commit (documents, stored
    /// values, numbers, domains, counts, term matches), and keeps answering so after later writes and merges.
    func testRandomWritesAndMergesMatchAModelAndSnapshotsNeverChange() throws {
        for seed in UInt64(1)...12 {
            var rng = SeededLCG(seed: seed)
            let gate = MergeGate()
            let writer = IndexWriter()
            writer.mergesInBackground = seed % 3 != 0
            writer.startMerge = gate.starter
            writer.mergePolicy = MergePolicy(maxSegments: 3 + Int(seed % 4), mergeFactor: 2 + Int(seed % 3),
                                             idleRewriteFactor: 10)
            let body = try writer.registerField("body", .text())
            let rank = try writer.registerField("rank", .numeric)
            _ = try writer.commit()  // (a rollback returns to the last commit's schema)
            // Deletes reach by dotted components (`a.b` takes `a.b.c`, never `a.bc`), also of domains only below.
            let domains = ["a", "a.b", "ab", "c.d", "a.b.c", "a.bc"]
            let deletable = domains + ["c", "b", "a.b.c.d"]
            typealias Entry = (domain: String, word: Int, rank: Double)
            var model: [String: Entry] = [:], committed: [String: Entry] = [:]
            var history: [(IndexSnapshot, [String: Entry])] = []
            func document(_ id: String, _ entry: Entry) -> Document {
                Document(id: id, domain: entry.domain,
                         values: [(body, .text("w\(entry.word) common")), (rank, .number(entry.rank))])
            }
            func check(_ snapshot: IndexSnapshot, _ expected: [String: Entry], _ step: String) {
                XCTAssertEqual(snapshot.documentCount, expected.count, step)
                XCTAssertEqual(snapshot.stats.documents, expected.count, step)
                XCTAssertEqual(ids(snapshot, "common"), Set(expected.keys), step)
                for word in 0..<4 {
                    XCTAssertEqual(ids(snapshot, "w\(word)"), Set(expected.filter { $0.value.word == word }.keys), step)
                }
                for number in 0..<24 {
                    let id = "d\(number)"
                    guard let entry = expected[id] else {
                        XCTAssertNil(snapshot.lookup(id: id), "\(step) \(id)")
                        continue
                    }
                    guard let address = snapshot.lookup(id: id) else { return XCTFail("\(step) \(id) missing") }
                    XCTAssertEqual(snapshot.document(at: address), document(id, entry), "\(step) \(id)")
                    XCTAssertEqual(snapshot.domain(of: address), entry.domain, "\(step) \(id)")
                    XCTAssertEqual(snapshot.numbers(rank, of: address), [entry.rank], "\(step) \(id)")
                }
            }
            for step in 0..<400 {
                let label = "seed \(seed) step \(step)"
                switch rng.below(16) {
                case 0...4:
                    let id = "d\(rng.below(24))"
                    let entry = (domains[rng.below(domains.count)], rng.below(4), Double(rng.below(100)))
                    try writer.upsert(document(id, entry))
                    model[id] = entry
                case 5:
                    writer.analysisThreads = 1 + rng.below(2)
                    var batch: [Document] = []
                    for _ in 0..<(1 + rng.below(150)) {
                        let id = "d\(rng.below(24))"
                        let entry = (domains[rng.below(domains.count)], rng.below(4), Double(rng.below(100)))
                        batch.append(document(id, entry))
                        model[id] = entry
                    }
                    try writer.upsert(contentsOf: batch)
                case 6:
                    let id = "d\(rng.below(24))"
                    writer.delete(ids: [id])
                    model[id] = nil
                case 7:
                    let deleted = (0...rng.below(2)).map { _ in deletable[rng.below(deletable.count)] }
                    writer.delete(domains: deleted)
                    model = model.filter { entry in
                        !deleted.contains { IndexWriter.domain(entry.value.domain, isWithin: $0) }
                    }
                case 8...10:
                    // At the cap a commit waits for the running merge: let it run.
                    if writer.snapshot.segments.count >= writer.mergePolicy.maxSegments { gate.release() }
                    let snapshot = try writer.commit()
                    committed = model
                    check(snapshot, committed, label + " commit")
                    history.append((snapshot, committed))
                case 11: gate.release()
                case 12:
                    if let snapshot = writer.publishFinishedMerges() {
                        check(snapshot, committed, label + " published merge")
                        history.append((snapshot, committed))
                    }
                case 13:
                    writer.rollback()
                    model = committed
                case 14: writer.mergeWhileIdle()
                default:
                    if rng.below(8) == 0 {
                        writer.deleteAll()
                        model = [:]
                    }
                }
            }
            gate.release()
            for (number, (snapshot, expected)) in history.enumerated() {
                check(snapshot, expected, "seed \(seed) snapshot \(number) afterwards")
            }
        }
    }
}

/// Hands a non-Sendable value to another thread in a test that serializes its use.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
