import XCTest
@testable import SearchlightEngine

/// A wide group that a root conjunction only asks to score its lead's candidates is planned as a
/// `CandidateGroupIterator` (plain terms, one cursor). Its scores must be a `TermGroupIterator`'s over the same
/// terms, bit for bit, and so must the walk it delegates.
final class CandidateGroupIteratorTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator

    /// A corpus where "inter" is a wide prefix of about thirty words in two fields (fewer than a precomputed list
    /// takes), and "rare" leads a conjunction with about a hundred matches per segment. Titles start with an
    /// expansion or are exactly "inter" now and then (the primary boosts). "inter" in titles and "interface" in
    /// bodies are frequent enough for frequency columns. Three segments, with deletions.
    private func corpus() throws -> IndexSnapshot {
        var g = Generator(state: 0x1A7E4)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var expansions = Set<String>()
        while expansions.count < 30 { expansions.insert("inter" + String((0..<(1 + g.int(4))).map { _ in g.pick(letters) })) }
        let family = ["inter", "interface"] + expansions.sorted()
        let filler = ["alpha", "beta", "gamma", "delta", "omega", "kappa", "sigma", "theta", "zeta", "iota"]
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        for i in 0..<6000 {
            var words = (0..<(1 + g.int(10))).map { _ in g.pick(filler) }
            for _ in 0..<g.int(3) where g.chance(0.4) { words.insert(g.pick(family), at: g.int(words.count + 1)) }
            if g.chance(0.4) { words.append("interface") }
            if g.chance(0.05) { words.insert("rare", at: g.int(words.count + 1)) }
            var values: [(FieldID, FieldValue)] = [(body, .text(words.joined(separator: " ")))]
            if g.chance(0.02) {
                values.append((title, .text("inter")))
            } else if g.chance(0.35) {
                values.append((title, .text("inter " + g.pick(filler) + (g.chance(0.1) ? " rare" : ""))))
            } else if g.chance(0.2) {
                values.append((title, .text(g.pick(family) + " " + g.pick(filler) + (g.chance(0.3) ? " rare" : ""))))
            } else {
                values.append((title, .text(g.pick(filler))))
            }
            try writer.upsert(Document(id: "d\(i)", values: values))
            if i % 2000 == 1999 { _ = try writer.commit() }
        }
        writer.delete(ids: stride(from: 0, to: 6000, by: 11).map { "d\($0)" })
        return try writer.commit()
    }

    /// The queries: the word and the prefix, as a user query plans them (boosted words, the last one also exact and
    /// fuzzy), and with the prefix first.
    private let queries: [Query] = [
        .and([.term("rare"), .prefix("inter")]),
        .and([.prefix("inter"), .term("rare")]),
        .and([.boost(.term("rare"), 1.3),
              .or([.boost(.term("inter"), 1.3), .boost(.fuzzy("inter", maxEdits: 1), 0.3), .prefix("inter")])]),
    ]

    private func walk(_ iterator: DocIterator) -> [(Int, UInt32)] { CandidateConjunctionTests.walk(iterator) }

    private func scored(_ iterator: DocIterator, _ candidates: ArraySlice<UInt32>) -> [UInt32?] {
        CandidateConjunctionTests.scored(iterator, candidates).map { $0?.bitPattern }
    }

    /// Planned for a batched clause with a small driver, the prefix is a `CandidateGroupIterator`; unbatched, the
    /// same group is a `TermGroupIterator`. Both score seeded random candidates alike, bit for bit, in one batch or
    /// in several ascending ones, and walk and list alike.
    func testScoresAndWalkEqualTheTermGroup() throws {
        let snapshot = try corpus()
        var g = Generator(state: 77)
        var planner = QueryPlanner(snapshot: snapshot)
        let plan = planner.plan(.prefix("inter"), scope: planner.resolve(.defaultFields))
        var scoredMatches = 0
        for ordinal in snapshot.segments.indices {
            let count = snapshot.segments[ordinal].documentCount
            for round in 0..<12 {
                let density = [0.01, 0.05, 0.3, 0.9][round % 4]
                let candidates = (0..<count).filter { _ in g.chance(density) }.map(UInt32.init) + [UInt32(count + 3)]
                let batched = planner.iterator(plan, segment: ordinal, scored: true, driver: 100, batched: true)
                let reference = planner.iterator(plan, segment: ordinal, scored: true, driver: 100)
                XCTAssertTrue(batched is CandidateGroupIterator, "batched: \(type(of: batched))")
                XCTAssertTrue(reference is TermGroupIterator, "unbatched: \(type(of: reference))")
                // Up to three ascending batches (the later ones start the terms' seeks over).
                var cuts = [0, candidates.count]
                for _ in 0..<(round % 3) { cuts.append(g.int(candidates.count + 1)) }
                cuts.sort()
                var actual: [UInt32?] = [], expected: [UInt32?] = []
                for (from, to) in zip(cuts, cuts.dropFirst()) where from < to {
                    actual += scored(batched, candidates[from..<to])
                    expected += scored(reference, candidates[from..<to])
                }
                XCTAssertEqual(actual, expected, "segment \(ordinal), round \(round)")
                scoredMatches += expected.compactMap { $0 }.count
            }
            let walked = planner.iterator(plan, segment: ordinal, scored: true, driver: 100, batched: true)
            let reference = planner.iterator(plan, segment: ordinal, scored: true, driver: 100)
            let expected = walk(reference)
            let actual = walk(walked)
            XCTAssertEqual(actual.map(\.0), expected.map(\.0), "walk of segment \(ordinal)")
            XCTAssertEqual(actual.map(\.1), expected.map(\.1), "walked scores of segment \(ordinal)")
            XCTAssertGreaterThan(expected.count, 500)
            // Leading after all (a clause of few postings), it lists what the term group lists.
            var listedDocs: [UInt32] = [], listedScores: [Float] = []
            var groupDocs: [UInt32] = [], groupScores: [Float] = []
            planner.iterator(plan, segment: ordinal, scored: true, driver: 100, batched: true)
                .listMatches(into: &listedDocs, scores: &listedScores)
            planner.iterator(plan, segment: ordinal, scored: true, driver: 100).listMatches(into: &groupDocs, scores: &groupScores)
            XCTAssertEqual(listedDocs, groupDocs, "listing of segment \(ordinal)")
            XCTAssertEqual(listedScores.map { $0.bitPattern }, groupScores.map { $0.bitPattern }, "listed scores of segment \(ordinal)")
            XCTAssertEqual(listedDocs.count, expected.count)
        }
        XCTAssertGreaterThan(scoredMatches, 10_000)
    }

    /// A ranked conjunction at the root (whose wide clause is a `CandidateGroupIterator`) matches and scores as the
    /// document-at-a-time conjunction, and a search's top k are the full ranking's.
    func testRootConjunctionEqualsDocumentAtATime() throws {
        let snapshot = try corpus()
        for query in queries {
            var planner = QueryPlanner(snapshot: snapshot)
            let plan = planner.plan(query, scope: planner.resolve(.defaultFields))
            for ordinal in snapshot.segments.indices {
                let root = planner.iterator(plan, segment: ordinal, scored: true, root: true)
                XCTAssertTrue(root is CandidateConjunctionIterator || (root as? BoostIterator)?.child is CandidateConjunctionIterator,
                              "\(query): \(type(of: root))")
                let expected = walk(planner.iterator(plan, segment: ordinal, scored: true)), actual = walk(root)
                XCTAssertGreaterThan(expected.count, 20, "\(query) in segment \(ordinal)")
                XCTAssertEqual(actual.map(\.0), expected.map(\.0), "matches of \(query) in segment \(ordinal)")
                XCTAssertEqual(actual.map(\.1), expected.map(\.1), "scores of \(query) in segment \(ordinal)")
            }
            let full = snapshot.search(query, limit: 100_000)
            XCTAssertEqual(full.count, snapshot.count(query), "\(query)")
            for k in [1, 5, 20] {
                XCTAssertEqual(snapshot.search(query, limit: k), Array(full.prefix(k)), "top \(k) of \(query)")
            }
        }
    }
}
