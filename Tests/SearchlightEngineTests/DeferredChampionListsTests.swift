@testable import SearchlightEngine
import Foundation
import Synchronization
import XCTest

/// Champion lists built after the commit (`IndexWriter.inlineChampionListMinimum`): however the deferred builds are
/// ordered, held back or raced by scope changes, merges, deletions and restores, every search gives the hits of
/// the full evaluation, and every segment ends with lists for the writer's current scope (written by the review).
final class DeferredChampionListsTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator
    static let common = ["ab", "abc", "abd", "ac", "b", "ba", "bab", "cab", "caa", "aba"]

    static var queries: [Query] {
        var queries: [Query] = common.map { .term($0) }
        for a in "abcd" {
            queries.append(.prefix(String(a)))
            for b in "abcd" { queries.append(.prefix(String([a, b]))) }
        }
        return queries
    }

    /// Every query at several page sizes, with the lists allowed and without: the same hits.
    static func compare(_ snapshot: IndexSnapshot, _ label: String, limits: [Int] = [1, 7, 32],
                        file: StaticString = #filePath, line: UInt = #line) {
        ChampionListsTests.assertListsAgree(snapshot, queries, limits: limits, label, file: file, line: line)
    }

    static func addBatch(_ writer: IndexWriter, _ g: inout Generator, fields: [FieldID], from: Int, count: Int) throws {
        func word() -> String {
            g.chance(0.6) ? g.pick(common) : String((0..<(2 + g.int(4))).map { _ in g.pick(Array("abcd")) })
        }
        for i in from..<(from + count) {
            var values: [(FieldID, FieldValue)] = []
            for field in fields where g.chance(0.8) {
                values.append((field, .text((0..<(1 + g.int(8))).map { _ in word() }.joined(separator: " "))))
            }
            // Some upserts replace earlier documents.
            let id = g.chance(0.2) && i > 0 ? "d\(g.int(i))" : "d\(i)"
            try writer.upsert(Document(id: id, values: values))
        }
    }

    /// Every segment's lists are for `scope` (or there are none when scope is nil).
    static func allListed(_ snapshot: IndexSnapshot) -> (missing: Int, wrong: Int) {
        let scope = ChampionLists.Scope(schema: snapshot.schema, parameters: snapshot.parameters)
        var missing = 0, wrong = 0
        for segment in snapshot.segments {
            guard let lists = segment.championLists else { if scope != nil { missing += 1 }; continue }
            if lists.scope != scope { wrong += 1 }
        }
        return (missing, wrong)
    }

    /// Builds held back and run in random order and subsets while commits, merges, deletes and scope changes go
    /// on: every snapshot's searches equal the full evaluation, and once the held builds have run and a commit
    /// has published, every segment has lists of the current scope.
    func testHeldBuildsInRandomOrderAcrossScopeChanges() throws {
        // One seed by default (about 12 s in a debug build); PROBE_RUNS for more.
        let runs = Int(ProcessInfo.processInfo.environment["PROBE_RUNS"] ?? "1") ?? 1
        for seed: UInt64 in 1...UInt64(max(runs, 1)) {
            var g = Generator(state: seed)
            let held = Mutex<[@Sendable () -> Void]>([])
            let started = Mutex(0)
            let writer = IndexWriter()
            writer.startListBuild = { work in
                started.withLock { $0 += 1 }
                held.withLock { $0.append(work) }
            }
            writer.inlineChampionListMinimum = g.pick([0, 700, 32_768])
            writer.mergePolicy = MergePolicy(maxSegments: 3 + g.int(3), mergeFactor: 2 + g.int(2))
            var fields = [try writer.registerField("title", .text(weight: 3, primary: true)),
                          try writer.registerField("body", .text(weight: 1))]
            var next = 0
            func runSome() {
                var work = held.withLock { q -> [@Sendable () -> Void] in defer { q = [] }; return q }
                var keep: [@Sendable () -> Void] = []
                while !work.isEmpty {
                    let w = work.remove(at: g.int(work.count))
                    if g.chance(0.5) { w() } else { keep.append(w) }
                }
                held.withLock { $0.append(contentsOf: keep) }
            }
            for step in 0..<30 {
                switch g.int(10) {
                case 0: try writer.setWeight(g.pick([Float(0.5), 1, 2, 3]), for: g.pick(fields))
                case 1: writer.parameters.b = g.pick([Float(0), 0.5, 0.75, 1])
                case 2: if fields.count < 4 { fields.append(try writer.registerField("f\(fields.count)", .text(weight: 2))) }
                case 3: writer.delete(ids: (0..<40).map { _ in "d\(g.int(max(next, 1)))" })
                case 4: if g.chance(0.3) { writer.deleteAll() }
                default: break
                }
                let count = g.pick([50, 300, 600, 900])
                try Self.addBatch(writer, &g, fields: fields, from: next, count: count)
                next += count
                let snapshot = try writer.commit()
                if g.chance(0.6) { runSome() }
                Self.compare(snapshot, "seed \(seed) step \(step)")
            }
            // Drain: run whatever is held, publish, run again.
            for _ in 0..<3 {
                let work = held.withLock { q -> [@Sendable () -> Void] in defer { q = [] }; return q }
                for w in work { w() }
                _ = try writer.commit()
            }
            let work = held.withLock { q -> [@Sendable () -> Void] in defer { q = [] }; return q }
            for w in work { w() }
            let snapshot = writer.snapshot
            let (missing, wrong) = Self.allListed(snapshot)
            XCTAssertEqual(missing, 0, "seed \(seed): segments left without lists")
            XCTAssertEqual(wrong, 0, "seed \(seed): segments with lists of another scope")
            Self.compare(snapshot, "seed \(seed) final")
        }
    }

    /// A held build of scope A, then B, then A again (setWeight back and forth): whichever order they run in,
    /// a build for a scope no longer asked for is dropped, so the segment ends with lists of the current scope
    /// as soon as the builds have run (not only after the next publish), and keeps them.
    func testScopeABAWithHeldBuilds() throws {
        for order in [[0, 1, 2], [2, 1, 0], [1, 0, 2], [0, 2, 1], [2, 0, 1], [1, 2, 0]] {
            let held = Mutex<[@Sendable () -> Void]>([])
            let writer = IndexWriter()
            writer.startListBuild = { work in held.withLock { $0.append(work) } }
            let title = try writer.registerField("title", .text(weight: 3, primary: true))
            let body = try writer.registerField("body", .text(weight: 1))
            var g = Generator(state: 9)
            try Self.addBatch(writer, &g, fields: [title, body], from: 0, count: 800)
            _ = try writer.commit()
            try writer.setWeight(1.5, for: title)
            _ = try writer.commit()
            try writer.setWeight(3, for: title)
            let snapshot = try writer.commit()
            let work = held.withLock { $0 }
            XCTAssertEqual(work.count, 3)
            for i in order { work[i]() }
            held.withLock { $0 = [] }
            let (early, stale) = Self.allListed(snapshot)
            XCTAssertEqual(early, 0, "order \(order)")
            XCTAssertEqual(stale, 0, "a stale build landed, order \(order)")
            _ = try writer.commit()
            XCTAssertTrue(held.withLock { $0.isEmpty }, "the lists were current: nothing to rebuild, order \(order)")
            let (missing, wrong) = Self.allListed(writer.snapshot)
            XCTAssertEqual(missing, 0, "order \(order)")
            XCTAssertEqual(wrong, 0, "order \(order)")
            Self.compare(snapshot, "order \(order)")
        }
    }

    /// Real threads: small commits, background merges, scope changes, while another thread compares fast and
    /// full on the latest snapshot; at the end every segment gets lists of the current scope.
    func testBackgroundMergesWithDeferredBuildsConcurrently() throws {
        let writer = IndexWriter()
        writer.mergesInBackground = true
        writer.mergePolicy = MergePolicy(maxSegments: 4, mergeFactor: 2)
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        let latest = Mutex<IndexSnapshot?>(nil)
        let stop = Atomic<Bool>(false)
        let failures = Mutex<[String]>([])
        let searched = Atomic<Int>(0)
        let searcher = Thread {
            while !stop.load(ordering: .relaxed) {
                guard let snapshot = latest.withLock({ $0 }) else { usleep(1000); continue }
                for query in DeferredChampionListsTests.queries {
                    var off = SearchOptions(limit: 7)
                    off.championLists = false
                    let full = snapshot.search(query, options: off)
                    let fast = snapshot.search(query, options: SearchOptions(limit: 7))
                    if case .term = query, fast != full { failures.withLock { $0.append("\(query) \(snapshot.generation)") } }
                    if fast.count != full.count { failures.withLock { $0.append("count \(query)") } }
                }
                searched.add(1, ordering: .relaxed)
            }
        }
        searcher.start()
        var g = Generator(state: 77)
        var next = 0
        for step in 0..<60 {
            if step % 13 == 5 { try writer.setWeight(g.pick([Float(1), 2, 3]), for: title) }
            if step % 17 == 3 { writer.parameters.k1 = g.pick([Float(1.2), 1.5, 2]) }
            if step == 40 { writer.deleteAll() }
            let count = g.pick([100, 400, 700])
            try Self.addBatch(writer, &g, fields: [title, body], from: next, count: count)
            next += count
            let snapshot = try writer.commit()
            latest.withLock { $0 = snapshot }
            if step % 7 == 0 { _ = writer.publishFinishedMerges() }
        }
        writer.waitForMerges()
        _ = try writer.commit()
        _ = writer.publishFinishedMerges()
        let final = try writer.commit()
        latest.withLock { $0 = final }
        let deadline = Date().addingTimeInterval(60)
        while Self.allListed(writer.snapshot) != (0, 0), Date() < deadline { usleep(20_000) }
        stop.store(true, ordering: .relaxed)
        while !searcher.isFinished { usleep(1000) }
        let (missing, wrong) = Self.allListed(writer.snapshot)
        XCTAssertEqual(missing, 0)
        XCTAssertEqual(wrong, 0)
        XCTAssertEqual(failures.withLock { $0 }, [])
        Self.compare(writer.snapshot, "final")
        XCTAssertGreaterThan(searched.load(ordering: .relaxed), 0, "the searching thread must have compared snapshots")
    }

    /// Restore from a store, then small commits: the restored segments and the new small ones all get lists.
    func testRestoreThenSmallCommits() throws {
        let directory = makeStoreDirectory(self)
        var options = StoreOptions()
        options.protectionClass = "NSFileProtectionComplete"
        var g = Generator(state: 5)
        do {
            let opened = try DurableStore.open(directory: directory, options: options)
            let title = try opened.writer.registerField("title", .text(weight: 3, primary: true))
            let body = try opened.writer.registerField("body", .text(weight: 1))
            var snapshot = opened.writer.snapshot
            for batch in 0..<3 {
                try Self.addBatch(opened.writer, &g, fields: [title, body], from: batch * 1_000, count: 1_000)
                snapshot = try opened.writer.commit()
            }
            try opened.store.checkpoint(snapshot, clientStates: [:])
            opened.store.close()
        }
        let held = Mutex<[@Sendable () -> Void]>([])
        let reopened = try DurableStore.open(directory: directory, options: options)
        reopened.writer.startListBuild = { work in held.withLock { $0.append(work) } }
        for batch in 0..<4 {
            try Self.addBatch(reopened.writer, &g, fields: [FieldID(rawValue: 0), FieldID(rawValue: 1)], from: 3_000 + batch * 200, count: 200)
            let snapshot = try reopened.writer.commit()
            Self.compare(snapshot, "after restore, batch \(batch)")
        }
        reopened.writer.parameters.b = 0.5
        _ = try reopened.writer.commit()
        for w in held.withLock({ $0 }) { w() }
        held.withLock { $0 = [] }
        let deadline = Date().addingTimeInterval(60)
        while Self.allListed(reopened.writer.snapshot) != (0, 0), Date() < deadline { usleep(20_000) }
        let (missing, wrong) = Self.allListed(reopened.writer.snapshot)
        XCTAssertEqual(missing, 0)
        XCTAssertEqual(wrong, 0)
        Self.compare(reopened.writer.snapshot, "restored final")
        reopened.store.close()
    }
}

extension DeferredChampionListsTests {
    /// Churn with the real starter (200 commits of 200 documents, merges among them): once the builds have run,
    /// every segment has lists of the current scope, whether its build started before or after a merge.
    func testChurnBacklog() throws {
        let outstanding = Atomic<Int>(0)
        let writer = IndexWriter()
        writer.startListBuild = { work in
            outstanding.add(1, ordering: .relaxed)
            Segment.startInBackground { work(); outstanding.subtract(1, ordering: .relaxed) }
        }
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        var g = Generator(state: 3)
        for batch in 0..<200 {
            try Self.addBatch(writer, &g, fields: [title, body], from: (batch % 50) * 200, count: 200)
            _ = try writer.commit()
        }
        let deadline = Date().addingTimeInterval(120)
        while outstanding.load(ordering: .relaxed) > 0, Date() < deadline { usleep(10_000) }
        _ = try writer.commit()
        while outstanding.load(ordering: .relaxed) > 0, Date() < deadline { usleep(10_000) }
        let (missing, wrong) = Self.allListed(writer.snapshot)
        XCTAssertEqual(missing, 0)
        XCTAssertEqual(wrong, 0)
    }
}
