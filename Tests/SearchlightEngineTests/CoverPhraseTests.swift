@testable import SearchlightEngine
import XCTest

/// Ranked phrases read down a word's phrase cover (`IndexSnapshot.coverPhrase`): the hits are those of the
/// document-order walk, whatever the segments, deletions, page size, titles the phrase starts or equals, or
/// rescore; and where the cover cannot vouch, the path steps aside.
final class CoverPhraseTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator

    /// Every phrase with candidates reads a cover first (the best-first path stays off, so a phrase the cover
    /// gives up on is walked).
    static var eager: PhraseTuning {
        var tuning = PhraseTuning()
        tuning.minimumCoverCandidates = 0
        tuning.coverShareDivisor = .max
        tuning.minimumCandidates = .max
        return tuning
    }

    /// Hits through the cover path and in document order; returns how many searches the cover answered.
    @discardableResult
    private func compare(_ snapshot: IndexSnapshot, _ queries: [Query], limits: [Int], label: String,
                         options make: (Int) -> SearchOptions = { SearchOptions(limit: $0) },
                         file: StaticString = #filePath, line: UInt = #line) -> Int {
        RankedPathFixtures.comparePhrasePaths(snapshot, queries, limits: limits, label: label, on: Self.eager, off: BestFirstPhraseTests.walked,
                                              options: make, answered: { answered(snapshot, $0, options: $1) },
                                              file: file, line: line)
    }

    /// Whether the cover path answered `query` (rather than leaving it to another path).
    private func answered(_ snapshot: IndexSnapshot, _ query: Query, options: SearchOptions) -> Bool {
        let (given, plan, collecting) = RankedPathFixtures.plan(snapshot, query, options: options)
        var planner = given
        return snapshot.coverPhrase(plan, planner: &planner, window: options.limit, options: options,
                                    collecting: collecting) != nil
    }

    /// Two-word phrases of common words (which have covers), some with a rare word or scoped to one field.
    private static func queries(_ g: inout Generator, body: FieldID) -> [Query] {
        let common = ChampionListsTests.common
        var queries: [Query] = [.phrase("ab ba"), .phrase("ab ab"), .phrase("abc abd ac")]
        for _ in 0..<25 {
            let first = g.pick(common), second = g.pick(common)
            let rare = String((0..<(2 + g.int(3))).map { _ in g.pick(Array("abcd")) })
            queries.append(.phrase(first + " " + second))
            queries.append(.phrase(first + " " + rare))
            queries.append(.scoped(.field(body), .phrase(second + " " + first)))
        }
        return queries
    }

    func testOneSegmentMatchesTheWalk() throws {
        let writer = IndexWriter()
        let corpus = try ChampionListsTests.makeCorpus(writer, documents: 5_000, seed: 51)
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.count, 1)
        var g = Generator(state: 21)
        let queries = Self.queries(&g, body: corpus.body)
        let served = compare(snapshot, queries, limits: [1, 7, 20], label: "one segment")
        XCTAssertGreaterThan(served, queries.count, "the cover must answer many of these")
    }

    func testSegmentsAndDeletionsMatchTheWalk() throws {
        let writer = IndexWriter()
        // Longer bodies later: the segments' averages differ from the snapshot's (the covers' stretch).
        let corpus = try ChampionListsTests.makeCorpus(writer, documents: 6_000, seed: 52, commitEvery: 2_000,
                                                       deleteEvery: 3, longBodiesFrom: 3_000)
        let snapshot = try writer.commit()
        XCTAssertGreaterThan(snapshot.segments.count, 1)
        var g = Generator(state: 22)
        let served = compare(snapshot, Self.queries(&g, body: corpus.body), limits: [1, 20], label: "segments")
        XCTAssertGreaterThan(served, 0, "the cover must answer some of these")
    }

    /// A rescore with a ceiling, some documents lifted above it: the answer is the rescored top k.
    func testRescoreAndLiftedDocumentsMatchTheWalk() throws {
        let writer = IndexWriter()
        let corpus = try ChampionListsTests.makeCorpus(writer, documents: 4_000, seed: 53, commitEvery: 2_000)
        let snapshot = try writer.commit()
        var g = Generator(state: 23)
        let served = compare(snapshot, Self.queries(&g, body: corpus.body), limits: [1, 20, 36], label: "rescored",
                             options: RankedPathFixtures.rescored(snapshot))
        XCTAssertGreaterThan(served, 0, "the cover must answer some of these")
    }

    /// The key word fills many long bodies, so its cover ranks those first and the short titles that equal the
    /// phrase (boosted as the word alone is not) near the end: they are found because documents where the phrase may
    /// start a primary field are listed whole, not by the cover.
    func testTitlesThePhraseEqualsAreFoundWhereverTheCoverRanksThem() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 2, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        var g = Generator(state: 24)
        for i in 0..<3_000 {
            let words = (0..<(20 + g.int(20))).map { _ in g.chance(0.3) ? "ab" : g.pick(["ca", "cb", "cc", "cd", "ba"]) }
            try writer.upsert(Document(id: "body\(i)", values: [(title, .text("t\(i % 50)")),
                                                                 (body, .text(words.joined(separator: " ")))]))
        }
        for i in 0..<6 {
            try writer.upsert(Document(id: "title\(i)", values: [(title, .text(i < 3 ? "ab ba" : "ab ba cc")),
                                                                  (body, .text("cd cc"))]))
        }
        let snapshot = try writer.commit()
        var on = SearchOptions(limit: 6)
        on.phrases = Self.eager
        var off = SearchOptions(limit: 6)
        off.phrases = BestFirstPhraseTests.walked
        let walked = snapshot.search(.phrase("ab ba"), options: off)
        XCTAssertEqual(Set(walked.prefix(3).map { snapshot.id(of: $0.address) }), Set((0..<3).map { "title\($0)" }))
        XCTAssertEqual(snapshot.search(.phrase("ab ba"), options: on), walked)
        XCTAssertTrue(answered(snapshot, .phrase("ab ba"), options: on))
        // The cover itself ranks those titles below every long body.
        let segment = snapshot.segments[0]
        let cover = try XCTUnwrap(segment.championLists?.phraseCover(Array("ab".utf8), in: segment))
        let titles = Set(walked.prefix(3).map(\.address.doc))
        let ranks = cover.docs.enumerated().filter { titles.contains($0.element) }.map(\.offset)
        XCTAssertTrue(ranks.allSatisfy { $0 >= 2_500 }, "the equal titles rank below nearly every body for the word: \(ranks)")
    }

    /// A phrase that almost never occurs cannot fill the page from the cover's head, nor can one whose documents
    /// all tie (the next entry always allows as much as the k-th hit has): the path gives up, and the search is
    /// still the walk's.
    func testWhereTheCoverCannotVouchThePathStepsAside() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 2, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        for i in 0..<3_000 {
            // "ab" and "ba" in every body, never side by side, but in two documents.
            let text = i % 1_500 == 7 ? "ab ba cc" : "ab cc ba cd"
            try writer.upsert(Document(id: "d\(i)", values: [(title, .text("t\(i % 10)")), (body, .text(text))]))
        }
        let snapshot = try writer.commit()
        var eager = SearchOptions(limit: 20)
        eager.phrases = Self.eager
        var off = SearchOptions(limit: 20)
        off.phrases = BestFirstPhraseTests.walked
        for phrase in ["ab ba", "ab cc"] {
            XCTAssertFalse(answered(snapshot, .phrase(phrase), options: eager), phrase)
            XCTAssertEqual(snapshot.search(.phrase(phrase), options: eager), snapshot.search(.phrase(phrase), options: off))
        }
        XCTAssertEqual(snapshot.search(.phrase("ab ba"), options: off).count, 2)
    }

    /// A filter, a boost field, a lone word, or fewer candidates than the threshold: left to the other paths.
    func testOutsideItsCasesThePathStepsAside() throws {
        let writer = IndexWriter()
        let corpus = try ChampionListsTests.makeCorpus(writer, documents: 5_000, seed: 54)
        let snapshot = try writer.commit()
        var g = Generator(state: 25)
        var eager = SearchOptions(limit: 20)
        eager.phrases = Self.eager
        let answeredQuery = try XCTUnwrap(Self.queries(&g, body: corpus.body).first { answered(snapshot, $0, options: eager) })
        XCTAssertFalse(answered(snapshot, answeredQuery, options: SearchOptions(limit: 20)),
                       "5,000 documents have fewer candidates than the default threshold")
        var filtered = SearchOptions(limit: 20, filter: .term("abc"))
        filtered.phrases = Self.eager
        XCTAssertFalse(answered(snapshot, answeredQuery, options: filtered))
        var boosted = SearchOptions(limit: 20)
        boosted.phrases = Self.eager
        boosted.boostField = corpus.tags
        XCTAssertFalse(answered(snapshot, answeredQuery, options: boosted))
        XCTAssertFalse(answered(snapshot, .term("ab"), options: eager), "a lone word is no phrase")
    }
}
