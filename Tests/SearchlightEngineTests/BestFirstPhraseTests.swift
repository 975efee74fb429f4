@testable import SearchlightEngine
import XCTest

/// Ranked phrases scored best bound first (`IndexSnapshot.bestFirstPhrase`): the hits are those of the
/// document-order walk, whatever the segments, deletions, page size, repeated terms, titles the phrase equals, or
/// rescore.
final class BestFirstPhraseTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator

    /// Phrases of two and three common words (frequent: many candidates, fewer matches), a repeated word, a common
    /// word beside a rare one, and phrases scoped to one field.
    static func queries(_ g: inout Generator, body: FieldID) -> [Query] {
        let common = ChampionListsTests.common
        var queries: [Query] = [.phrase("ab ba"), .phrase("ab ab"), .phrase("abc abc abc")]
        for _ in 0..<20 {
            let first = g.pick(common), second = g.pick(common), third = g.pick(common)
            let rare = String((0..<(2 + g.int(3))).map { _ in g.pick(Array("abcd")) })
            queries.append(.phrase(first + " " + second))
            queries.append(.phrase(first + " " + second + " " + third))
            queries.append(.phrase(rare + " " + first))
            queries.append(.scoped(.field(body), .phrase(second + " " + first)))
        }
        return queries
    }

    /// Every candidate count takes the best-first path (and none reads a word's cover first).
    static var eager: PhraseTuning {
        var tuning = PhraseTuning()
        tuning.minimumCandidates = 0
        tuning.shareDivisor = .max
        tuning.minimumCoverCandidates = .max
        return tuning
    }

    /// No phrase takes a shortcut: each is walked in document order.
    static var walked: PhraseTuning {
        var tuning = PhraseTuning()
        tuning.minimumCandidates = .max
        tuning.minimumCoverCandidates = .max
        return tuning
    }

    /// Hits best first and in document order; returns how many searches the best-first path answered.
    @discardableResult
    private func compare(_ snapshot: IndexSnapshot, _ queries: [Query], limits: [Int], label: String,
                         options make: (Int) -> SearchOptions = { SearchOptions(limit: $0) },
                         file: StaticString = #filePath, line: UInt = #line) -> Int {
        RankedPathFixtures.comparePhrasePaths(snapshot, queries, limits: limits, label: label, on: Self.eager, off: Self.walked,
                                              options: make, answered: { answered(snapshot, $0, options: $1) },
                                              file: file, line: line)
    }

    /// Whether the best-first path answered `query` (rather than leaving it to the walk).
    private func answered(_ snapshot: IndexSnapshot, _ query: Query, options: SearchOptions) -> Bool {
        let (given, plan, collecting) = RankedPathFixtures.plan(snapshot, query, options: options)
        var planner = given
        return snapshot.bestFirstPhrase(plan, planner: &planner, window: options.limit, options: options,
                                        collecting: collecting) != nil
    }

    func testOneSegmentMatchesTheWalk() throws {
        let writer = IndexWriter()
        let corpus = try ChampionListsTests.makeCorpus(writer, documents: 4_000, seed: 41)
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.count, 1)
        var g = Generator(state: 11)
        let queries = Self.queries(&g, body: corpus.body)
        let served = compare(snapshot, queries, limits: [1, 7, 20, 50], label: "one segment")
        // Every phrase of words the index holds is answered best first (a phrase of an absent word plans to none).
        XCTAssertGreaterThan(served, queries.count * 4 * 3 / 4, "the best-first path must answer these")
    }

    func testSegmentsAndDeletionsMatchTheWalk() throws {
        let writer = IndexWriter()
        // Longer bodies later: the segments' averages differ from the snapshot's.
        let corpus = try ChampionListsTests.makeCorpus(writer, documents: 6_000, seed: 42, commitEvery: 1_500,
                                                       deleteEvery: 3, longBodiesFrom: 3_000)
        let snapshot = try writer.commit()
        XCTAssertGreaterThan(snapshot.segments.count, 1)
        var g = Generator(state: 12)
        let served = compare(snapshot, Self.queries(&g, body: corpus.body), limits: [1, 20], label: "segments")
        XCTAssertGreaterThan(served, 0, "the best-first path must answer some of these")
    }

    /// A rescore with a ceiling, some documents lifted above it: the answer is the rescored top k.
    func testRescoreAndLiftedDocumentsMatchTheWalk() throws {
        let writer = IndexWriter()
        let corpus = try ChampionListsTests.makeCorpus(writer, documents: 4_000, seed: 43, commitEvery: 2_000)
        let snapshot = try writer.commit()
        var g = Generator(state: 13)
        let served = compare(snapshot, Self.queries(&g, body: corpus.body), limits: [1, 20, 36], label: "rescored",
                                options: RankedPathFixtures.rescored(snapshot))
        XCTAssertGreaterThan(served, 0, "the best-first path must answer some of these")
    }

    /// A rescore that zeroes most scores: the page fills with hits scoring 0, a k-th hit no bound can be below.
    /// The rounds must still end once every candidate is handled (they waited for the k-th hit to beat a bound).
    func testAPageOfZeroScoresEnds() throws {
        let writer = IndexWriter()
        let corpus = try ChampionListsTests.makeCorpus(writer, documents: 4_000, seed: 44, commitEvery: 2_000)
        let snapshot = try writer.commit()
        var g = Generator(state: 14)
        let make = { (limit: Int) -> SearchOptions in
            // Every document but each 500th scores 0 once rescored.
            SearchOptions(limit: limit, rescore: { address, score in address.doc % 500 == 0 ? score : 0 }, rescoreCeiling: 1)
        }
        compare(snapshot, Array(Self.queries(&g, body: corpus.body).prefix(12)), limits: [1, 20], label: "zeroed",
                options: make)
    }

    /// Bounds tie: a thousand documents alike, then five whose title is the phrase. The first round's cut takes the
    /// tied ones, in document order, up to its cap; the page fills with them, and the better documents after the cap
    /// must still be scored (a round cut short does not lower the ceiling of the candidates left).
    func testARoundCutShortByTiesLeavesItsBetterCandidatesToTheNext() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        for i in 0..<1_000 {
            try writer.upsert(Document(id: "tied\(i)", values: [(title, .text("c\(i % 7)")),
                                                                 (body, .text("ab ba ca cb cc cd ce"))]))
        }
        for i in 0..<5 {
            try writer.upsert(Document(id: "best\(i)", values: [(title, .text("ab ba")), (body, .text("ca cb cc cd ce"))]))
        }
        let snapshot = try writer.commit()
        var on = SearchOptions(limit: 5)
        on.phrases = Self.eager
        var off = SearchOptions(limit: 5)
        off.phrases = Self.walked
        let walked = snapshot.search(.phrase("ab ba"), options: off)
        XCTAssertEqual(Set(walked.map { snapshot.id(of: $0.address) }), Set((0..<5).map { "best\($0)" }))
        XCTAssertEqual(snapshot.search(.phrase("ab ba"), options: on), walked)
        XCTAssertTrue(answered(snapshot, .phrase("ab ba"), options: on))
    }

    /// Bounds a little loose: 68 documents hold the phrase once in bodies of distinct lengths (scores about 0.5%
    /// apart), and four in five also hold both words apart in a light second field, which raises their bounds (not
    /// their scores) by about 1%. After a round, the k-th hit then sometimes lies just under the round's cut while a
    /// candidate below the cut scores above it: a round may end the search only when the k-th hit beats every bound
    /// left, with no more than rounding to spare (a 1% looser stop fails six of these searches).
    func testARoundStopsOnlyWhenTheKthHitBeatsEveryBoundLeft() throws {
        var served = 0
        for seed in UInt64(1)...24 {
            let writer = IndexWriter()
            let body = try writer.registerField("body", .text(weight: 1))
            let tags = try writer.registerField("tags", .text(weight: 0.05))
            var g = Generator(state: 0xB0D5 &+ seed)
            for i in 0..<1_000 {
                let holds = i % 14 == 0 && i / 14 < 68
                var words = (0..<(holds ? 58 + i / 14 : 60 + g.int(68))).map { _ in "f\(g.int(50))" }
                if holds { words.insert(contentsOf: ["px", "py"], at: g.int(words.count + 1)) }
                let extra = (0..<g.int(8)).map { _ in "t\(g.int(9))" }
                let tagged = holds && g.int(5) != 0 ? ["px", "tq", "py"] + extra : ["tq"] + extra
                try writer.upsert(Document(id: "d\(i)", values: [(body, .text(words.joined(separator: " "))),
                                                                 (tags, .text(tagged.joined(separator: " ")))]))
            }
            let snapshot = try writer.commit()
            served += compare(snapshot, [.phrase("px py")], limits: Array(1...8), label: "loose bounds \(seed)")
        }
        XCTAssertEqual(served, 24 * 8, "the best-first path must answer every one of these")
    }

    /// A phrase with fewer candidates than the threshold, a filter, or a boost field is left to the walk.
    func testOutsideItsCasesThePathStepsAside() throws {
        let writer = IndexWriter()
        let corpus = try ChampionListsTests.makeCorpus(writer, documents: 2_000, seed: 44)
        let snapshot = try writer.commit()
        XCTAssertFalse(answered(snapshot, .phrase("ab ba"), options: SearchOptions(limit: 20)),
                       "2,000 documents have fewer candidates than the default threshold")
        var filtered = SearchOptions(limit: 20, filter: .term("abc"))
        filtered.phrases = Self.eager
        XCTAssertFalse(answered(snapshot, .phrase("ab ba"), options: filtered))
        var eager = SearchOptions(limit: 20)
        eager.phrases = Self.eager
        XCTAssertFalse(answered(snapshot, .term("ab"), options: eager), "a lone word is no phrase")
        XCTAssertTrue(answered(snapshot, .scoped(.field(corpus.title), .phrase("ab ba")), options: eager))
    }
}
