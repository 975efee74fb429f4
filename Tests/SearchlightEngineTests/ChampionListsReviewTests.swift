@testable import SearchlightEngine
import Foundation
import XCTest
import Synchronization

/// The review's probes (kept as tests): the champion-list path against the full evaluation on randomized corpora and
/// configurations, and the cases the review found (stale scopes, absent fields, parameters set on a snapshot).
final class ChampionListsReviewTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator

    static let common = ["ab", "abc", "abd", "ac", "b", "ba", "bab", "cab", "caa", "aba", "日本", "本日", "λa", "éb"]

    struct Setup {
        var fields: [(String, FieldOptions)]
        var parameters: RankingParameters
        var documents: Int
        var commitEvery: Int?
        var deleteEvery: Int?
        /// Per phase (documents / 1000): length multiplier, so segments' averages differ.
        var lengthScale: [Int]
    }

    static func randomSetup(_ g: inout Generator) -> Setup {
        let count = 1 + g.int(14)
        var fields: [(String, FieldOptions)] = []
        for i in 0..<count {
            let weight = g.pick([Float(0.25), 0.5, 1, 2, 3, 7.5])
            let isDefault = i == 0 || g.chance(0.85)
            fields.append(("f\(i)", .text(weight: weight, searchableByDefault: isDefault, primary: g.chance(0.3))))
        }
        var p = RankingParameters()
        p.b = g.pick([Float(0), 0.3, 0.75, 1])
        p.k1 = g.pick([Float(0.3), 1.2, 3])
        p.primaryPrefixBoost = g.pick([Float(0), 0.5, 2])
        p.primaryExactBoost = g.pick([Float(0), 1, 5])
        return Setup(fields: fields, parameters: p, documents: 1_500 + g.int(2_500),
                     commitEvery: g.pick([nil, 400, 900, 1_700]), deleteEvery: g.pick([nil, 3, 11]),
                     lengthScale: (0..<5).map { _ in g.pick([1, 1, 2, 6, 20]) })
    }

    /// Builds the corpus; returns the writer (committed) and the text field ids.
    static func build(_ setup: Setup, seed: UInt64, writer: IndexWriter = IndexWriter()) throws -> (IndexWriter, [FieldID]) {
        var g = Generator(state: seed)
        writer.parameters = setup.parameters
        let ids = try setup.fields.map { try writer.registerField($0.0, $0.1) }
        func word() -> String {
            g.chance(0.6) ? g.pick(common) : String((0..<(1 + g.int(4))).map { _ in g.pick(Array("abcd")) })
        }
        for i in 0..<setup.documents {
            let scale = setup.lengthScale[min(i / 1_000, setup.lengthScale.count - 1)]
            var values: [(FieldID, FieldValue)] = []
            for (n, id) in ids.enumerated() where n == 0 || g.chance(0.7) {
                let length = n == 0 ? 1 + g.int(3) : scale * (1 + g.int(10))
                values.append((id, .text((0..<length).map { _ in word() }.joined(separator: " "))))
            }
            try writer.upsert(Document(id: "d\(i)", values: values))
            if let d = setup.deleteEvery, i % d == d - 1 { writer.delete(ids: (0..<2).map { _ in "d\(g.int(i + 1))" }) }
            if let c = setup.commitEvery, i % c == c - 1 { _ = try writer.commit() }
        }
        _ = try writer.commit()
        return (writer, ids)
    }

    static var queries: [Query] {
        var q: [Query] = common.map { .term($0) } + common.map { .phrase($0) } + [.term("日"), .phrase("AB")]
        for a in ["a", "b", "c", "d", "日", "λ", "é"] {
            q.append(.prefix(a))
            for b in "abcd" { q.append(.prefix(a + String(b))) }
        }
        q += [.prefix("ab -"), .prefix("ab - ."), .prefix("  ab"), .prefix("AB"), .prefix("日本"), .prefix("λ"),
              .prefix("-ab-"), .prefix("ab*"), .prefix("abc")]
        return q
    }

    struct Outcome {
        var served = 0
        var compared = 0
        var failures: [String] = []
    }

    static func served(_ snapshot: IndexSnapshot, _ query: Query, window: Int, options: SearchOptions) -> Bool {
        var planner = QueryPlanner(snapshot: snapshot)
        let plan = planner.plan(query, scope: planner.resolve(.defaultFields))
        return snapshot.championSearch(query, plan: plan, planner: &planner, window: window, options: options)?.vouched ?? false
    }

    /// Compares fast and full for `query`; exact for terms, to rounding (ties at the end) for prefixes.
    static func compare(_ snapshot: IndexSnapshot, _ query: Query, options: SearchOptions, label: String,
                        into outcome: inout Outcome) {
        var off = options
        off.championLists = false
        let full = snapshot.search(query, options: off)
        let fast = snapshot.search(query, options: options)
        outcome.compared += 1
        let window = options.rescore == nil ? options.limit : max(options.limit, options.rescoreWindow)
        if served(snapshot, query, window: window, options: options) { outcome.served += 1 }
        var isPrefix = false
        if case .prefix = query { isPrefix = true }
        if !isPrefix {
            if fast != full {
                outcome.failures.append("\(label) \(query) limit \(options.limit): fast \(fast.prefix(40)) full \(full.prefix(40))")
            }
            return
        }
        guard fast.count == full.count else {
            outcome.failures.append("\(label) \(query) limit \(options.limit): count \(fast.count) vs \(full.count)")
            return
        }
        for (a, b) in zip(fast, full) where abs(a.score - b.score) > 1e-5 * max(1, b.score) {
            outcome.failures.append("\(label) \(query) limit \(options.limit): score \(a) vs \(b)")
            return
        }
        let last = full.last?.score ?? 0
        let fullSet = Set(full.map(\.address))
        for hit in fast where !fullSet.contains(hit.address) && abs(hit.score - last) > 1e-5 * max(1, last) {
            outcome.failures.append("\(label) \(query) limit \(options.limit): \(hit) not a tie at the end (\(last))")
            return
        }
    }

    static func compareAll(_ snapshot: IndexSnapshot, label: String, limits: [Int] = [1, 3, 10, 20, 32],
                           extraQueries: [Query] = [], into outcome: inout Outcome) {
        // Also keys that get a list (prefixes and terms), so the served path is exercised.
        var keyQueries: [Query] = []
        if let segment = snapshot.segments.first(where: { $0.championLists != nil }),
           let all = segment.championLists?.allLists(in: segment) {
            for i in Swift.stride(from: 0, to: all.terms.count, by: max(1, all.terms.count / 15)) {
                keyQueries.append(.term(all.terms[i].0))
            }
            for i in Swift.stride(from: 0, to: all.prefixes.count, by: max(1, all.prefixes.count / 25)) {
                keyQueries.append(.prefix(all.prefixes[i].0))
            }
        }
        for query in queries + keyQueries + extraQueries {
            for limit in limits {
                compare(snapshot, query, options: SearchOptions(limit: limit), label: label, into: &outcome)
            }
        }
    }

    static func report(_ outcome: Outcome, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        for failure in outcome.failures.prefix(6) { XCTFail(failure, file: file, line: line) }
        if outcome.failures.count > 6 { XCTFail("… \(outcome.failures.count - 6) more", file: file, line: line) }
    }

    /// Randomized configurations: fields, weights, primaries, b, k1, boosts, segments, deletions.
    func testRandomConfigurations() throws {
        let runs = Int(ProcessInfo.processInfo.environment["PROBE_RUNS"] ?? "3") ?? 3
        let first = UInt64(ProcessInfo.processInfo.environment["PROBE_SEED"] ?? "100") ?? 100
        var total = Outcome()
        for seed in first..<(first + UInt64(runs)) {
            var g = Generator(state: seed)
            let setup = Self.randomSetup(&g)
            let (writer, ids) = try Self.build(setup, seed: seed &* 31)
            var snapshot = writer.snapshot
            var outcome = Outcome()
            let label = "seed \(seed) fields \(setup.fields.count) b \(setup.parameters.b) k1 \(setup.parameters.k1) segs \(snapshot.segments.count)"
            Self.compareAll(snapshot, label: label, into: &outcome)
            // A weight changed, then a segment more: old lists are for another scope.
            try writer.setWeight(9, for: ids[0])
            for i in 0..<600 { try writer.upsert(Document(id: "n\(i)", values: [(ids[0], .text("ab abc b \(i % 7)"))])) }
            snapshot = try writer.commit()
            Self.compareAll(snapshot, label: label + " reweighted", limits: [5, 32], into: &outcome)
            total.served += outcome.served
            total.compared += outcome.compared
            total.failures += outcome.failures
        }
        Self.report(total, "random")
    }

    /// Rescore with a small window, filters, boosts: same as full.
    func testRescoreWindows() throws {
        var g = Generator(state: 7)
        let setup = Self.randomSetup(&g)
        let (writer, _) = try Self.build(setup, seed: 77)
        let snapshot = writer.snapshot
        var outcome = Outcome()
        for query in Self.queries {
            for (limit, window) in [(5, 10), (20, 1), (3, 32), (10, 33)] {
                var options = SearchOptions(limit: limit, rescore: { address, score in score * Float(1 + address.doc % 3) },
                                            rescoreWindow: window)
                options.championLists = true
                Self.compare(snapshot, query, options: options, label: "rescore \(window)", into: &outcome)
            }
        }
        Self.report(outcome, "rescore")
    }
}

extension ChampionListsReviewTests {
    /// A big segment without any value in one default field (an optional field, e.g. tags), and a small later
    /// segment with it: no document of the big segment has the field, so the snapshot's average for it cannot
    /// stretch their scores, and the big segment's lists keep serving.
    func testAbsentFieldDoesNotStretch() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        let tags = try writer.registerField("tags", .text(weight: 2))
        var g = Generator(state: 5)
        func words(_ n: Int) -> String { (0..<n).map { _ in g.pick(Self.common) }.joined(separator: " ") }
        for i in 0..<4_000 {
            try writer.upsert(Document(id: "d\(i)", values: [(title, .text(words(1 + g.int(3)))), (body, .text(words(3 + g.int(12))))]))
        }
        var snapshot = try writer.commit()
        let queries: [Query] = ["ab", "abc", "b", "ba", "cab"].map { .term($0) } + ["a", "b", "ab", "ca"].map { .prefix($0) }
        let before = queries.filter { Self.served(snapshot, $0, window: 10, options: SearchOptions(limit: 10)) }.count
        // One small commit in which some documents have tags (ten words each).
        for i in 0..<50 {
            try writer.upsert(Document(id: "t\(i)", values: [(title, .text("zz")), (tags, .text("qq qq qq qq qq qq qq qq qq qq"))]))
        }
        snapshot = try writer.commit()
        let stretch = snapshot.segments[0].championLists!.stretch(averages: snapshot.fieldAverages)
        let after = queries.filter { Self.served(snapshot, $0, window: 10, options: SearchOptions(limit: 10)) }.count
        XCTAssertLessThan(stretch, 1.5, "a field with no document in the segment cannot stretch its documents' scores")
        XCTAssertEqual(after, before, "the lists stop serving after an unrelated small commit")
    }

    /// `IndexSnapshot.parameters` is a public var, but `fieldFactors` are fixed at init: a snapshot whose
    /// parameters are set back to those the lists were built with must not read them with other length factors.
    func testMutatedSnapshotParameters() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 1, primary: false))
        let body = try writer.registerField("body", .text(weight: 1))
        // 40 short documents with "ab" three times (first with b = 0.75, listed), 100 long ones with it 20 times
        // (first with b = 0, left out), 2,000 with it once.
        let filler = { (n: Int) in (0..<n).map { "x\($0 % 7)" }.joined(separator: " ") }
        for i in 0..<2_140 {
            let text = i < 40 ? "ab ab ab" : i < 140 ? Array(repeating: "ab", count: 20).joined(separator: " ") + " " + filler(380)
                                                    : "ab " + filler(8)
            try writer.upsert(Document(id: "d\(i)", values: [(title, .text("t")), (body, .text(text))]))
        }
        let built = try writer.commit()          // lists built with b = 0.75
        XCTAssertTrue(Self.served(built, .term("ab"), window: 10, options: SearchOptions(limit: 10)))
        // A snapshot of the same segments (lists for b = 0.75) made with b = 0 (its length factors), whose
        // parameters are then set back to b = 0.75. (A writer drops lists for other parameters when it publishes,
        // so the snapshot is made directly.)
        var zero = built.parameters
        zero.b = 0
        var snapshot = IndexSnapshot(segments: built.segments, live: built.live, schema: built.schema, parameters: zero,
                                     generation: built.generation + 1, contentGeneration: built.contentGeneration)
        snapshot.parameters = built.parameters   // b = 0.75 again, factors still b = 0
        XCTAssertFalse(Self.served(snapshot, .term("ab"), window: 10, options: SearchOptions(limit: 10)))
        var off = SearchOptions(limit: 10)
        off.championLists = false
        let full = snapshot.search(.term("ab"), options: off)
        let fast = snapshot.search(.term("ab"), options: SearchOptions(limit: 10))
        XCTAssertEqual(fast.map(\.address), full.map(\.address), "served: \(Self.served(snapshot, .term("ab"), window: 10, options: SearchOptions(limit: 10)))")
    }

    /// Background merges (lists built on the merge thread) with searches on other threads meanwhile.
    func testBackgroundMergesWithConcurrentSearches() throws {
        let writer = IndexWriter()
        writer.mergesInBackground = true
        writer.mergePolicy = MergePolicy(maxSegments: 3, mergeFactor: 2)
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        var g = Generator(state: 21)
        let queries: [Query] = ["ab", "abc", "b", "ba", "cab", "日本"].map { .term($0) } + ["a", "b", "ab", "ca", "日"].map { .prefix($0) }
        var outcome = Outcome()
        let failures = Mutex<[String]>([])
        for i in 0..<8_000 {
            let scale = (i / 1_500) % 2 == 0 ? 1 : 5
            try writer.upsert(Document(id: "d\(g.int(6_000))", values: [
                (title, .text((0..<(1 + g.int(3))).map { _ in g.pick(Self.common) }.joined(separator: " "))),
                (body, .text((0..<(scale * (2 + g.int(10)))).map { _ in g.pick(Self.common) }.joined(separator: " ")))]))
            if i % 400 == 399 {
                let snapshot = try writer.commit()
                DispatchQueue.concurrentPerform(iterations: 2) { n in
                    var local = Outcome()
                    for query in queries { Self.compare(snapshot, query, options: SearchOptions(limit: 5 + 10 * n), label: "bg \(i)", into: &local) }
                    failures.withLock { $0 += local.failures }
                }
                if let published = writer.publishFinishedMerges() {
                    for query in queries { Self.compare(published, query, options: SearchOptions(limit: 20), label: "published \(i)", into: &outcome) }
                }
            }
        }
        writer.waitForMerges()
        let last = writer.publishFinishedMerges() ?? writer.snapshot
        for query in queries { Self.compare(last, query, options: SearchOptions(limit: 20), label: "final", into: &outcome) }
        outcome.failures += failures.withLock { $0 }
        Self.report(outcome, "background merges")
        XCTAssertTrue(last.segments.allSatisfy { $0.championLists != nil || $0.documentCount < 300 })
    }
}

extension ChampionListsReviewTests {
    /// Prefix keys with equal terms (`l`, `li`, …, `libra` when every l-term starts with `libra`) get equal lists;
    /// some fields hold the stem or a shorter prefix as a term; some ranges are wide enough for prefix lists
    /// (more than 48 terms), others not. Every prefix of every term is compared.
    func testSharedPrefixKeys() throws {
        var total = Outcome()
        for seed: UInt64 in 1...6 {
            var g = Generator(state: seed)
            let writer = IndexWriter()
            writer.parameters.b = g.pick([Float(0), 0.75, 1])
            let fields = try (0..<(1 + g.int(3))).map { try writer.registerField("f\($0)", .text(weight: g.pick([Float(1), 2, 0.5]), primary: g.chance(0.5))) }
            let suffixCount = g.pick([3, 30, 70])
            let stems = ["libra", "xyzzy", "日本語"]
            var vocabulary: [[String]] = fields.map { _ in [] }
            for (n, _) in fields.enumerated() {
                for stem in stems {
                    vocabulary[n] += (0..<suffixCount).map { "\(stem)\(String(UnicodeScalar(UInt8(97 + $0 % 26))))\($0 / 26 == 0 ? "" : String($0 / 26))" }
                    if g.chance(0.5) { vocabulary[n].append(stem) }                     // the stem itself a term here
                    if g.chance(0.3) { vocabulary[n].append(String(stem.dropLast())) }  // a shorter prefix a term here
                }
            }
            for i in 0..<2_500 {
                var values: [(FieldID, FieldValue)] = []
                for (n, id) in fields.enumerated() where g.chance(0.8) {
                    values.append((id, .text((0..<(1 + g.int(4))).map { _ in g.pick(vocabulary[n]) }.joined(separator: " "))))
                }
                if values.isEmpty { values.append((fields[0], .text("zz"))) }
                try writer.upsert(Document(id: "d\(i)", values: values))
                if i == 1_700, g.chance(0.5) { _ = try writer.commit() }
            }
            let snapshot = try writer.commit()
            var queries: [Query] = []
            for stem in stems {
                let characters = Array(stem + "ab")
                for length in 1...characters.count { queries.append(.prefix(String(characters.prefix(length)))) }
                queries.append(.term(stem))
            }
            for query in queries {
                for limit in [1, 5, 20, 32] {
                    Self.compare(snapshot, query, options: SearchOptions(limit: limit), label: "shared \(seed)", into: &total)
                }
            }
        }
        Self.report(total, "shared prefixes")
    }

    /// Massive ties: few document shapes, so lists end in ties longer than twice the capacity.
    func testTies() throws {
        var total = Outcome()
        for seed: UInt64 in 1...4 {
            var g = Generator(state: seed)
            let writer = IndexWriter()
            let title = try writer.registerField("title", .text(weight: 2, primary: true))
            let body = try writer.registerField("body", .text(weight: 1))
            for i in 0..<3_000 {
                let t = g.pick(["ab", "ab abc", "abc", "b"])
                let b = g.pick(["ab", "ab ab", "abd b", "b b b"])
                try writer.upsert(Document(id: "d\(i)", values: [(title, .text(t)), (body, .text(b))]))
                if i % 1_000 == 999 { _ = try writer.commit() }
                if seed % 2 == 0, i % 5 == 0 { writer.delete(ids: ["d\(g.int(i + 1))"]) }
            }
            let snapshot = try writer.commit()
            for query: Query in [.term("ab"), .term("abc"), .term("b"), .prefix("a"), .prefix("ab"), .prefix("b")] {
                for limit in [1, 5, 20, 32] {
                    Self.compare(snapshot, query, options: SearchOptions(limit: limit), label: "ties \(seed)", into: &total)
                }
            }
        }
        Self.report(total, "ties")
    }
}

extension ChampionListsReviewTests {
    /// Ranking parameters are not stored: a writer reopened from a store loads its segments before the caller
    /// sets its own parameters. The next commit finds the restored segments' lists ranked for other parameters
    /// and drops them; lists built from then on are for the writer's parameters and serve again.
    func testRestoredListsAreRebuiltForTheWritersParameters() throws {
        let directory = makeStoreDirectory(self)
        var options = StoreOptions()
        options.protectionClass = "NSFileProtectionComplete"
        var custom = RankingParameters()
        custom.k1 = 2
        do {
            let opened = try DurableStore.open(directory: directory, options: options)
            opened.writer.parameters = custom
            let body = try opened.writer.registerField("body", .text(weight: 1))
            var g = Generator(state: 4)
            for i in 0..<3_000 {
                try opened.writer.upsert(Document(id: "d\(i)", values: [(body, .text((0..<(2 + g.int(9))).map { _ in g.pick(Self.common) }.joined(separator: " ")))]))
            }
            let snapshot = try opened.writer.commit()
            XCTAssertTrue(Self.served(snapshot, .term("ab"), window: 10, options: SearchOptions(limit: 10)))
            try opened.store.checkpoint(snapshot, clientStates: [:])
            opened.store.close()
        }
        let reopened = try DurableStore.open(directory: directory, options: options)
        reopened.writer.parameters = custom   // as soon as the caller can
        try reopened.writer.upsert(Document(id: "x", values: [(FieldID(rawValue: 0), .text("zz"))]))
        let snapshot = try reopened.writer.commit()
        XCTAssertEqual(snapshot.segments.compactMap { $0.championLists?.scope.parameters.k1 }.first, custom.k1)
        XCTAssertTrue(Self.served(snapshot, .term("ab"), window: 10, options: SearchOptions(limit: 10)),
                      "restored segment's lists are for the default parameters")
        reopened.store.close()
    }
}
