@testable import SearchlightEngine
import Foundation
import Synchronization
import XCTest

/// Champion lists across a writer's life: whatever scope changes, merges, deletions and restores happen between
/// searches (which build each key's list on first use), every search gives the hits of the full evaluation, and
/// every published segment has lists for the writer's current scope, with lists of an earlier scope dropped.
final class ChampionListsLifecycleTests: XCTestCase {
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

    /// Segments without lists, and segments with lists of another scope than the snapshot's.
    static func allListed(_ snapshot: IndexSnapshot) -> (missing: Int, wrong: Int) {
        let scope = ChampionLists.Scope(schema: snapshot.schema, parameters: snapshot.parameters)
        var missing = 0, wrong = 0
        for segment in snapshot.segments {
            guard let lists = segment.championLists else { if scope != nil { missing += 1 }; continue }
            if lists.scope != scope { wrong += 1 }
        }
        return (missing, wrong)
    }

    /// Commits, merges, deletes and scope changes in random order, with searches between them: every snapshot's
    /// searches equal the full evaluation, and every snapshot's segments have lists of its scope.
    func testRandomCommitsMergesAndScopeChanges() throws {
        // One seed by default; PROBE_RUNS for more.
        let runs = Int(ProcessInfo.processInfo.environment["PROBE_RUNS"] ?? "1") ?? 1
        for seed: UInt64 in 1...UInt64(max(runs, 1)) {
            var g = Generator(state: seed)
            let writer = IndexWriter()
            writer.mergePolicy = MergePolicy(maxSegments: 3 + g.int(3), mergeFactor: 2 + g.int(2))
            var fields = [try writer.registerField("title", .text(weight: 3, primary: true)),
                          try writer.registerField("body", .text(weight: 1))]
            var next = 0
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
                let (missing, wrong) = Self.allListed(snapshot)
                XCTAssertEqual(missing, 0, "seed \(seed) step \(step): segments without lists")
                XCTAssertEqual(wrong, 0, "seed \(seed) step \(step): segments with lists of another scope")
                Self.compare(snapshot, "seed \(seed) step \(step)")
            }
        }
    }

    /// A scope A, then B, then A again (setWeight back and forth): each commit drops the lists built for the
    /// scope before, so a snapshot of the earlier scope no longer finds lists for it and reads the postings, with
    /// the same hits; lists are built again for the current scope.
    func testScopeABA() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        var g = Generator(state: 9)
        try Self.addBatch(writer, &g, fields: [title, body], from: 0, count: 1_500)
        let first = try writer.commit()
        Self.compare(first, "A")
        let built = try XCTUnwrap(first.segments[0].championLists)
        XCTAssertGreaterThan(built.keysSeen, 0)
        try writer.setWeight(1.5, for: title)
        let second = try writer.commit()
        let rebuilt = try XCTUnwrap(second.segments[0].championLists)
        XCTAssertFalse(rebuilt === built)
        XCTAssertEqual(rebuilt.keysSeen, 0, "lists of scope A kept for scope B")
        XCTAssertEqual(Self.allListed(first).wrong, 1, "the older snapshot's segment now has lists of B")
        Self.compare(first, "A after B was set")
        Self.compare(second, "B")
        try writer.setWeight(3, for: title)
        let third = try writer.commit()
        XCTAssertEqual(third.segments[0].championLists?.keysSeen, 0, "lists of scope B kept for scope A")
        XCTAssertEqual(Self.allListed(third).wrong, 0)
        Self.compare(third, "A again")
        Self.compare(second, "B after A was set again")
        // A commit that changes no scope keeps the lists built.
        let seen = try XCTUnwrap(third.segments[0].championLists).keysSeen
        XCTAssertGreaterThan(seen, 0)
        _ = try writer.commit()
        XCTAssertEqual(writer.snapshot.segments[0].championLists?.keysSeen, seen)
    }

    /// Real threads: small commits, background merges, scope changes, while another thread compares fast and
    /// full on the latest snapshot (building lists as it goes); every segment published has lists of the
    /// current scope.
    func testBackgroundMergesWithConcurrentSearches() throws {
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
                for query in ChampionListsLifecycleTests.queries {
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
        usleep(50_000)
        stop.store(true, ordering: .relaxed)
        while !searcher.isFinished { usleep(1000) }
        let (missing, wrong) = Self.allListed(writer.snapshot)
        XCTAssertEqual(missing, 0)
        XCTAssertEqual(wrong, 0)
        XCTAssertEqual(failures.withLock { $0 }, [])
        Self.compare(writer.snapshot, "final")
        XCTAssertGreaterThan(searched.load(ordering: .relaxed), 0, "the searching thread must have compared snapshots")
    }

    /// A background merge builds, for the merged segment, the prefix and champion lists that searches built in
    /// the segments it merges, before it is published: the searches after it find the keys in use listed (and
    /// get the full evaluation's hits), while keys never searched get none.
    func testBackgroundMergesCarryTheListsInUse() throws {
        let writer = IndexWriter()
        writer.mergesInBackground = true
        // Two segments of a tier merge; never a commit waiting for a merge (back-pressure at the cap).
        writer.mergePolicy = MergePolicy(maxSegments: 10, mergeFactor: 2)
        // Merges are held until the searches have run, then run here.
        let held = Mutex<[@Sendable () -> Void]>([])
        writer.startMerge = { work in held.withLock { $0.append(work) } }
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        var g = Generator(state: 21)
        // Bodies of many distinct words, so that short prefixes are wide (more than 48 longer terms).
        func add(_ range: Range<Int>) throws {
            for i in range {
                let words = (0..<6).map { _ in g.pick(Self.common) + String(g.int(90)) }
                try writer.upsert(Document(id: "d\(i)", values: [(title, .text("ab " + g.pick(Self.common))),
                                                                 (body, .text(words.joined(separator: " ")))]))
            }
            _ = try writer.commit()
        }
        try add(0..<800)
        try add(800..<1_600)
        try add(1_600..<2_400)
        let before = writer.snapshot
        XCTAssertEqual(before.segments.count, 3)
        XCTAssertEqual(held.withLock { $0.count }, 1, "no merge started")
        for segment in before.segments {
            XCTAssertEqual(segment.prefixListsSeen, 0)
            XCTAssertEqual(segment.championLists?.keysSeen, 0)
        }
        for query: Query in [.term("ab"), .prefix("a"), .prefix("ca")] { _ = before.search(query, limit: 10) }
        for segment in before.segments { XCTAssertEqual(segment.championLists?.keysBuilt.terms, [Array("ab".utf8)]) }
        let searchedPrefixes = Set(before.segments.flatMap { $0.prefixKeysBuilt.map { "\($0.field):\(String(decoding: $0.bytes, as: UTF8.self))" } })
        XCTAssertEqual(searchedPrefixes, ["\(body.rawValue):a", "\(body.rawValue):ca"])
        for work in held.withLock({ $0 }) { work() }
        let after = try XCTUnwrap(writer.publishFinishedMerges())
        let merged = try XCTUnwrap(after.segments.first { $0.documentCount >= 1_600 }, "no merge")
        let lists = try XCTUnwrap(merged.championLists)
        XCTAssertEqual(Set(lists.keysBuilt.terms), [Array("ab".utf8)])
        XCTAssertEqual(Set(lists.keysBuilt.prefixes), [Array("a".utf8), Array("ca".utf8)])
        XCTAssertEqual(Set(merged.prefixKeysBuilt.map { "\($0.field):\(String(decoding: $0.bytes, as: UTF8.self))" }), searchedPrefixes)
        XCTAssertEqual(Set(merged.prefixKeysBuilt.map(\.primary)), [false], "the body is not primary")
        XCTAssertEqual(lists.keysSeen, 3, "keys never searched got lists")
        // Searching a carried key again builds nothing.
        _ = after.search(.term("ab"), limit: 10)
        XCTAssertEqual(lists.keysSeen, 3)
        Self.compare(after, "after the merge")
    }

    /// Restore from a store, then small commits and a parameter change: the restored segments and the new small
    /// ones all have lists of the current scope, and searches agree with the full evaluation throughout.
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
        let reopened = try DurableStore.open(directory: directory, options: options)
        Self.compare(reopened.writer.snapshot, "restored")
        for batch in 0..<4 {
            try Self.addBatch(reopened.writer, &g, fields: [FieldID(rawValue: 0), FieldID(rawValue: 1)], from: 3_000 + batch * 200, count: 200)
            let snapshot = try reopened.writer.commit()
            Self.compare(snapshot, "after restore, batch \(batch)")
        }
        reopened.writer.parameters.b = 0.5
        _ = try reopened.writer.commit()
        let (missing, wrong) = Self.allListed(reopened.writer.snapshot)
        XCTAssertEqual(missing, 0)
        XCTAssertEqual(wrong, 0)
        Self.compare(reopened.writer.snapshot, "restored final")
        reopened.store.close()
    }
}
