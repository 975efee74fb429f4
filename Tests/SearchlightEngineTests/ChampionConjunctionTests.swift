@testable import SearchlightEngine
import Synchronization
import XCTest

/// Ranked two-clause conjunctions answered from the champion covers (`IndexSnapshot.championConjunction`): the
/// hits are those of the full evaluation, whatever the segments, deletions, weights, page size or rescore, both
/// when the covers vouch and when they fall back.
final class ChampionConjunctionTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator

    /// The covers' path taken on small corpora: any lead, and keys of more than 16 matches read a cover.
    static var eager: CoverTuning {
        var tuning = CoverTuning()
        tuning.minimumLead = 0
        tuning.enumeratedMatches = 16
        tuning.budgetDivisor = 1
        return tuning
    }

    /// Two-word conjunctions of common and rare words, a word with a prefix, and what a user query plans: a word
    /// weighted ×1.3 or'ed with its prefix.
    static func queries(_ g: inout Generator) -> [Query] {
        let common = ChampionListsTests.common
        var queries: [Query] = [.and([.term("ab"), .term("ba")]), .and([.term("abc"), .prefix("ca")])]
        for _ in 0..<24 {
            let first = g.pick(common), second = g.pick(common)
            let rare = String((0..<(2 + g.int(3))).map { _ in g.pick(Array("abcd")) })
            queries.append(.and([.term(first), .term(second)]))
            queries.append(.and([.term(first), .term(rare)]))
            queries.append(.and([.term(first), .prefix(String(second.prefix(1 + g.int(2))))]))
            queries.append(.and([.boost(.term(first), 1.3),
                                 .or([.boost(.term(second), 1.3), .prefix(String(second.prefix(2)))])]))
        }
        return queries
    }

    /// Hits with the covers allowed (eagerly) and without them; returns how many searches the covers answered.
    @discardableResult
    private func compare(_ snapshot: IndexSnapshot, _ queries: [Query], limits: [Int], label: String,
                         options make: (Int) -> SearchOptions = { SearchOptions(limit: $0) }) -> (served: Int, total: Int) {
        var served = 0, total = 0
        for query in queries {
            for limit in limits {
                var off = make(limit)
                off.championLists = false
                var on = make(limit)
                on.covers = Self.eager
                let full = snapshot.search(query, options: off)
                let fast = snapshot.search(query, options: on)
                XCTAssertEqual(fast, full, "\(label) \(query) limit \(limit)")
                if answered(snapshot, query, options: on) { served += 1 }
                total += 1
            }
        }
        return (served, total)
    }

    /// Whether the covers answered `query` (rather than leaving it to the full evaluation).
    private func answered(_ snapshot: IndexSnapshot, _ query: Query, options: SearchOptions) -> Bool {
        let (given, plan, collecting) = RankedPathFixtures.plan(snapshot, query, options: options)
        var planner = given
        return snapshot.championConjunction(plan, planner: &planner, window: options.limit, options: options,
                                            collecting: collecting) != nil
    }

    func testOneSegmentMatchesTheFullEvaluation() throws {
        let writer = IndexWriter()
        _ = try ChampionListsTests.makeCorpus(writer, documents: 4_000, seed: 31)
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.count, 1)
        var g = Generator(state: 1)
        let (served, total) = compare(snapshot, Self.queries(&g), limits: [1, 7, 20, 36], label: "one segment")
        // Most pairs are answered from the covers; some fall back (two flat common words need their whole covers).
        XCTAssertGreaterThan(served, total / 2, "the covers must answer most of these")
    }

    func testSegmentsAndDeletionsMatchTheFullEvaluation() throws {
        let writer = IndexWriter()
        // Longer bodies later: the segments' averages differ from the snapshot's (the covers stretch).
        _ = try ChampionListsTests.makeCorpus(writer, documents: 6_000, seed: 32, commitEvery: 1_500, deleteEvery: 3,
                                              longBodiesFrom: 3_000)
        let snapshot = try writer.commit()
        XCTAssertGreaterThan(snapshot.segments.count, 1)
        var g = Generator(state: 2)
        let (served, _) = compare(snapshot, Self.queries(&g), limits: [1, 20], label: "segments")
        XCTAssertGreaterThan(served, 0, "the covers must answer some of these")
    }

    /// A rescore with a ceiling, some documents lifted above it: the covers' answer is the rescored top k.
    func testRescoreAndLiftedDocumentsMatchTheFullEvaluation() throws {
        let writer = IndexWriter()
        _ = try ChampionListsTests.makeCorpus(writer, documents: 4_000, seed: 33, commitEvery: 2_000)
        let snapshot = try writer.commit()
        var g = Generator(state: 3)
        let (served, _) = compare(snapshot, Self.queries(&g), limits: [1, 20, 36], label: "rescored",
                                options: RankedPathFixtures.rescored(snapshot))
        XCTAssertGreaterThan(served, 0, "the covers must answer some of these")
    }

    /// A later round's candidate that ties the k-th rescored hit exactly, at a lower address, takes its place, as it
    /// does in the full evaluation, which meets it first: a hit whose score times its ceiling equals the k-th is
    /// rescored (ties are decided by address, not by the bound).
    func testALaterRoundsTieAtALowerAddressTakesThePlace() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        // Bodies of 20 words (one norm); "ca" and "cb" each in over `ChampionLists.minimumPostings` documents.
        func add(_ id: String, ca: Int, cb: Int) throws {
            let words = Array(repeating: "ca", count: ca) + Array(repeating: "cb", count: cb)
                + Array(repeating: "f", count: 20 - ca - cb)
            try writer.upsert(Document(id: id, values: [(body, .text(words.joined(separator: " ")))]))
        }
        try add("tied", ca: 3, cb: 3)  // third in both covers: read in the second round, first by address
        for i in 0..<600 { try add("both \(i)", ca: 1, cb: 1) }
        for i in 0..<1_000 { try add("neither \(i)", ca: 0, cb: 0) }
        try add("leader", ca: 8, cb: 2)  // heads the "ca" cover: scored in the first round
        try add("ca only", ca: 7, cb: 0)
        try add("cb only 1", ca: 0, cb: 9)
        try add("cb only 2", ca: 0, cb: 8)
        let snapshot = try writer.commit()
        let query = Query.and([.term("ca"), .term("cb")])
        let plain = snapshot.search(query, options: SearchOptions(limit: 5))
        let tied = try XCTUnwrap(plain.first { snapshot.id(of: $0.address) == "tied" })
        let leader = try XCTUnwrap(plain.first { snapshot.id(of: $0.address) == "leader" })
        XCTAssertLessThan(tied.address, leader.address)
        XCTAssertLessThanOrEqual(tied.score, leader.score, "the leader's factor (tied / leader) stays within 1")
        // The leader rescores to exactly the tied document's score, which keeps its own (factor 1, the ceiling);
        // every other document rescores to 0.
        let value = tied.score, y = tied.address, x = leader.address
        let rescore: @Sendable (DocAddress, Float) -> Float = { address, score in
            address == x ? value : address == y ? score : 0
        }
        var covered = SearchOptions(limit: 1, rescore: rescore, rescoreCeiling: 1)
        covered.covers = Self.eager
        var full = covered
        full.championLists = false
        XCTAssertEqual(snapshot.search(query, options: full).map(\.address), [y])
        XCTAssertEqual(snapshot.search(query, options: covered).map(\.address), [y])
        XCTAssertTrue(answered(snapshot, query, options: covered), "the covers must answer it")
        // The second round's other candidates (one "ca" and one "cb" each) score below the leader's rescored score
        // even at the ceiling: they are not rescored. A lifted document elsewhere (it matches neither word) keeps its
        // higher ceiling to itself.
        let asked = Mutex<Set<DocAddress>>([])
        var counted = covered
        counted.lifted = [try XCTUnwrap(snapshot.lookup(id: "neither 0"))]
        counted.liftedCeiling = 3
        counted.rescore = { address, score in
            asked.withLock { _ = $0.insert(address) }
            return rescore(address, score)
        }
        XCTAssertEqual(snapshot.search(query, options: counted).map(\.address), [y])
        XCTAssertEqual(asked.withLock { $0 }, [x, y])
    }

    /// Each word in a field of its own, of independent lengths near one another (59 to 127 words: exact norms, scores
    /// about 0.3% apart): a document just past both covers' heads scores nearly their entries' sum, and it is often
    /// above the k-th hit found when that hit is within 1% of the sum. A round may end the search only when the k-th
    /// hit beats the sum, with no more than rounding to spare (a 1% looser stop fails 49 of 240 searches on 24 seeds).
    func testARoundStopsOnlyWhenTheKthHitBeatsEveryUnseenDocument() throws {
        var served = 0, total = 0
        for seed in UInt64(1)...24 {
            let writer = IndexWriter()
            let left = try writer.registerField("left", .text(weight: 1))
            let right = try writer.registerField("right", .text(weight: 1))
            var g = Generator(state: 0xC0F5 &+ seed)
            for i in 0..<1_500 {
                var values: [(FieldID, FieldValue)] = []
                for (field, word) in [(left, "ca"), (right, "cb")] {
                    var words = (0..<(59 + g.int(68))).map { _ in "f\(g.int(50))" }
                    if g.int(4) != 0 { words.insert(word, at: g.int(words.count + 1)) }
                    values.append((field, .text(words.joined(separator: " "))))
                }
                try writer.upsert(Document(id: "d\(i)", values: values))
            }
            let snapshot = try writer.commit()
            let (s, t) = compare(snapshot, [.and([.term("ca"), .term("cb")])], limits: Array(1...10), label: "fields apart \(seed)")
            served += s
            total += t
        }
        XCTAssertEqual(served, total, "the covers must answer every one of these")
    }

    /// When the covers cannot vouch within the budget (here none: one round of heads only), the search falls back
    /// to the full evaluation, whose hits it returns; a window wider than a cover's first heads is not tried.
    func testSearchesTheCoversCannotVouchForFallBack() throws {
        let writer = IndexWriter()
        _ = try ChampionListsTests.makeCorpus(writer, documents: 4_000, seed: 34)
        let snapshot = try writer.commit()
        var g = Generator(state: 4)
        var tuning = Self.eager
        tuning.budgetDivisor = .max
        var fellBack = 0, answered = 0
        for query in Self.queries(&g) {
            for limit in [7, 36] {
                var options = SearchOptions(limit: limit)
                options.covers = tuning
                if self.answered(snapshot, query, options: options) { answered += 1 } else { fellBack += 1 }
                var off = options
                off.championLists = false
                XCTAssertEqual(snapshot.search(query, options: options), snapshot.search(query, options: off), "\(query)")
            }
        }
        XCTAssertGreaterThan(fellBack, 0, "one round of heads must leave some searches to the full evaluation")
        XCTAssertGreaterThan(answered, 0, "and answer others")
        let query = Query.and([.term("ab"), .term("abc")])
        var wide = SearchOptions(limit: ChampionLists.coverCapacity)
        wide.covers = Self.eager
        XCTAssertFalse(self.answered(snapshot, query, options: wide), "a window of a whole cover is not tried")
        // With the default thresholds, a small corpus's conjunctions are evaluated in full (their leads are short).
        XCTAssertFalse(self.answered(snapshot, query, options: SearchOptions(limit: 20)))
    }

    /// A clause scoped to a field outside the default fields is not what the covers rank (they rank the key over
    /// the default fields): its best documents there may be nowhere near the top of them, so the covers must not
    /// answer it.
    func testAClauseOutsideTheDefaultFieldsIsNotReadFromTheCovers() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        let notes = try writer.registerField("notes", .text(searchableByDefault: false))
        let filler = { (count: Int) in Array(repeating: "zz", count: count).joined(separator: " ") }
        // "qq" in long bodies: its cover over the default fields, low scores, none of them in the notes.
        for i in 0..<1_000 { try writer.upsert(Document(id: "q\(i)", values: [(body, .text("qq " + filler(30)))])) }
        // "ba" alone in the body (its cover's head), "qq" once in long notes.
        for i in 0..<600 {
            try writer.upsert(Document(id: "a\(i)", values: [(body, .text("ba")), (notes, .text("qq " + filler(9)))]))
        }
        // "ba" in a longer body, "qq" thrice in short notes: the best matches, deep in both covers.
        for i in 0..<100 {
            try writer.upsert(Document(id: "b\(i)", values: [(body, .text("ba " + filler(10))), (notes, .text("qq qq qq"))]))
        }
        let snapshot = try writer.commit()
        for query: Query in [.and([.scoped(.field(notes), .term("qq")), .term("ba")]),
                             .and([.term("ba"), .or([.scoped(.field(notes), .term("qq")), .term("zzz")])])] {
            for limit in [1, 5, 20] {
                var off = SearchOptions(limit: limit)
                off.championLists = false
                var on = SearchOptions(limit: limit)
                on.covers = Self.eager
                XCTAssertEqual(snapshot.search(query, options: on), snapshot.search(query, options: off), "\(query) \(limit)")
            }
        }
    }

    /// A key's cover lists its best documents by the key's score alone, best first, and bounds every other one.
    func testACoverHoldsTheKeysBestDocuments() throws {
        let writer = IndexWriter()
        _ = try ChampionListsTests.makeCorpus(writer, documents: 5_000, seed: 35)
        let snapshot = try writer.commit()
        let segment = snapshot.segments[0]
        let lists = try XCTUnwrap(segment.championLists)
        for (key, prefix) in [("ab", false), ("b", false), ("ab", true), ("c", true)] {
            let cover = try XCTUnwrap(lists.cover(Array(key.utf8), prefix: prefix, in: segment), key)
            XCTAssertGreaterThanOrEqual(cover.docs.count, min(ChampionLists.coverCapacity, 1))
            XCTAssertEqual(cover.docs.count, cover.scores.count)
            XCTAssertEqual(Set(cover.docs).count, cover.docs.count, "\(key): no document twice")
            XCTAssertTrue(zip(cover.scores, cover.scores.dropFirst()).allSatisfy { $0 >= $1 }, "\(key): best first")
            // The key alone, fully evaluated: every document outside the cover scores at most idf × bound.
            let lone: Query = prefix ? .prefix(key) : .term(key)
            var off = SearchOptions(limit: 100_000)
            off.championLists = false
            let all = snapshot.search(lone, options: off)
            let planner = QueryPlanner(snapshot: snapshot)
            let idf: Float
            switch planner.plan(lone, scope: planner.resolve(.defaultFields)) {
            case .group(_, let value, _), .prefix(_, _, let value, _): idf = value
            default: return XCTFail("\(key) plans as a group")
            }
            let listed = Set(cover.docs)
            let best = all.filter { !listed.contains($0.address.doc) }.map(\.score).max() ?? -.infinity
            if cover.bound == -.infinity {
                XCTAssertEqual(best, -.infinity, "\(key): every match is listed")
            } else {
                XCTAssertLessThanOrEqual(best, idf * cover.bound * 1.0001, "\(key): an unlisted document beats the bound")
            }
        }
    }
}
