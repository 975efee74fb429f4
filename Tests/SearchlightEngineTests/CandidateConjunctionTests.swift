import XCTest
@testable import SearchlightEngine

/// A ranked conjunction at the root is evaluated over its lead's candidates (`CandidateConjunction`): its
/// matches and scores must be those of the document-at-a-time `ConjunctionIterator`, bit for bit.
final class CandidateConjunctionTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator

    /// Every match of `iterator` with its score, walking `next`.
    private func walk(_ iterator: DocIterator) -> [(Int, UInt32)] {
        var result: [(Int, UInt32)] = []
        var doc = iterator.next()
        while doc != DocIterator.end {
            result.append((doc, iterator.score().bitPattern))
            doc = iterator.next()
        }
        return result
    }

    /// A precomputed list lists itself whole and scores candidates by a galloping merge: both as its `next`/`advance`
    /// walk gives, on seeded random lists and candidates (dense, sparse, before, among and past the matches).
    func testPrecomputedListListsAndScoresCandidatesAsItsWalk() {
        var g = Generator(state: 0xC0FFEE)
        for round in 0..<300 {
            let universe = 1 + g.int(round % 3 == 0 ? 50 : 5_000)
            var docs: [UInt32] = []
            for doc in 0..<universe where g.int(100) < (round % 2 == 0 ? 60 : 3) { docs.append(UInt32(doc)) }
            let scores = docs.map { _ in Float(g.int(1_000)) / 7 }
            func fresh() -> MaterializedGroupIterator { MaterializedGroupIterator(docs: docs, scores: scores, idf: 1, label: "l") }
            var listedDocs: [UInt32] = [7], listedScores: [Float] = [0.5]
            fresh().listMatches(into: &listedDocs, scores: &listedScores)
            XCTAssertEqual(listedDocs, [7] + docs, "listing appends every match")
            XCTAssertEqual(listedScores.map(\.bitPattern), ([0.5] + scores).map(\.bitPattern))
            var candidates: [UInt32] = []
            for doc in 0..<(universe + 3) where g.int(100) < (round % 5 == 0 ? 90 : 10) { candidates.append(UInt32(doc)) }
            var scored = [Float](repeating: -1, count: candidates.count)
            var matched = [Bool](repeating: false, count: candidates.count)
            candidates.withUnsafeBufferPointer { c in
                scored.withUnsafeMutableBufferPointer { s in
                    matched.withUnsafeMutableBufferPointer { m in fresh().scoreCandidates(c, scores: s.baseAddress!, matched: m.baseAddress!) }
                }
            }
            let walker = fresh()
            for (i, candidate) in candidates.enumerated() {
                let d = walker.doc < Int(candidate) ? walker.advance(Int(candidate)) : walker.doc
                XCTAssertEqual(matched[i], d == Int(candidate), "candidate \(candidate), round \(round)")
                if d == Int(candidate) { XCTAssertEqual(scored[i].bitPattern, walker.score().bitPattern, "candidate \(candidate)") }
            }
        }
    }

    /// A disjunction lists its matches by merging its children's lists: the documents and scores of its `next` walk,
    /// bit for bit, on seeded random disjunctions (terms, prefixes, phrases, boosts, nested conjunctions).
    func testDisjunctionListsWhatItsWalkGives() throws {
        var g = Generator(state: 0xD15C)
        let differential = DifferentialTests(name: "helper", testClosure: { _ in })
        let (writer, fields) = try differential.pruningCorpus(&g)
        let snapshot = try writer.commit()
        let words = DifferentialTests.vocabulary
        var disjunctions = 0
        for _ in 0..<150 {
            let clauses: [Query] = (0..<(2 + g.int(3))).map { _ in
                switch g.int(5) {
                case 0: return .prefix(String(g.pick(words).prefix(1 + g.int(3))))
                case 1: return .boost(.term(g.pick(words)), 1.3)
                case 2: return .phrase(g.pick(words) + " " + g.pick(words))
                case 3: return differential.randomQuery(&g, depth: 1, fields: fields)
                default: return .term(g.pick(words))
                }
            }
            var planner = QueryPlanner(snapshot: snapshot)
            let plan = planner.plan(.or(clauses), scope: planner.resolve(.defaultFields))
            for ordinal in snapshot.segments.indices {
                let listing = planner.iterator(plan, segment: ordinal, scored: true)
                guard listing is DisjunctionIterator else { continue }
                disjunctions += 1
                var docs: [UInt32] = [], scores: [Float] = []
                listing.listMatches(into: &docs, scores: &scores)
                let expected = walk(planner.iterator(plan, segment: ordinal, scored: true))
                XCTAssertEqual(docs.map(Int.init), expected.map { $0.0 }, "matches of \(clauses)")
                XCTAssertEqual(scores.map(\.bitPattern), expected.map { $0.1 }, "scores of \(clauses)")
            }
        }
        XCTAssertGreaterThan(disjunctions, 100, "disjunctions were listed")
    }

    func testCandidateConjunctionEqualsDocumentAtATime() throws {
        var g = Generator(state: 31337)
        let differential = DifferentialTests(name: "helper", testClosure: { _ in })
        let (writer, fields) = try differential.pruningCorpus(&g)
        // Deletions, so a segment's candidates include documents the collector drops.
        writer.delete(ids: stride(from: 0, to: 1500, by: 7).map { "d\($0)" })
        let snapshot = try writer.commit()
        let words = DifferentialTests.vocabulary
        var queries: [Query] = []
        for _ in 0..<60 {
            queries.append(.and([.term(g.pick(words)), .term(g.pick(words))]))
            queries.append(.and([.term(g.pick(words)), .prefix(String(g.pick(words).prefix(1 + g.int(3)))),
                                 .phrase(g.pick(words) + " " + g.pick(words))]))
            // The shape of a user query: boosted words, the last one also as a prefix and a typo.
            queries.append(.and([.boost(.term(g.pick(words)), 1.3),
                                 .or([.boost(.term(g.pick(words)), 1.3), .boost(.fuzzy(g.pick(words), maxEdits: nil), 0.3),
                                      .prefix(String(g.pick(words).prefix(2)))])]))
            queries.append(.and([differential.randomQuery(&g, depth: 1, fields: fields),
                                 differential.randomQuery(&g, depth: 1, fields: fields)]))
            queries.append(.boost(.and([.term(g.pick(words)), .not(.all, excluding: .term(g.pick(words)))]), 2))
        }
        var candidateEvaluations = 0, matches = 0
        for query in queries {
            var planner = QueryPlanner(snapshot: snapshot)
            let plan = planner.plan(query, scope: planner.resolve(.defaultFields))
            for ordinal in snapshot.segments.indices {
                let root = planner.iterator(plan, segment: ordinal, scored: true, root: true)
                let unrooted = planner.iterator(plan, segment: ordinal, scored: true)
                if unrooted is ConjunctionIterator || (unrooted as? BoostIterator)?.child is ConjunctionIterator {
                    XCTAssertFalse(root is ConjunctionIterator || (root as? BoostIterator)?.child is ConjunctionIterator,
                                   "\(query) was walked document at a time at the root")
                    candidateEvaluations += 1
                }
                let expected = walk(unrooted), actual = walk(root)
                matches += expected.count
                XCTAssertEqual(actual.map { $0.0 }, expected.map { $0.0 }, "matches of \(query) in segment \(ordinal)")
                XCTAssertEqual(actual.map { $0.1 }, expected.map { $0.1 }, "scores of \(query) in segment \(ordinal)")
            }
            // Through the search: the top 20 of the full ranking.
            let full = snapshot.search(query, limit: 100_000)
            XCTAssertEqual(full.count, snapshot.count(query), "\(query)")
            XCTAssertEqual(snapshot.search(query, limit: 20), Array(full.prefix(20)), "top 20 of \(query)")
        }
        XCTAssertGreaterThan(candidateEvaluations, 300)
        XCTAssertGreaterThan(matches, 10_000)
    }

    /// The default `scoreCandidates` and a term group's own agree with `advance` and `score` on any candidates,
    /// including ones before, between and after the postings.
    func testScoreCandidatesEqualsSeekingEachCandidate() throws {
        var g = Generator(state: 99)
        let (writer, _) = try DifferentialTests(name: "helper", testClosure: { _ in }).pruningCorpus(&g)
        let snapshot = try writer.commit()
        for word in DifferentialTests.vocabulary {
            var planner = QueryPlanner(snapshot: snapshot)
            let plan = planner.plan(.term(word), scope: planner.resolve(.defaultFields))
            for ordinal in snapshot.segments.indices {
                let count = snapshot.segments[ordinal].documentCount
                let candidates = (0..<count).filter { _ in g.chance(0.3) }.map(UInt32.init) + [UInt32(count + 5)]
                let seeking = planner.iterator(plan, segment: ordinal, scored: true)
                guard !(seeking is EmptyIterator) else { continue }
                var expected: [UInt32?] = []
                for candidate in candidates {
                    let d = seeking.advance(Int(candidate))
                    expected.append(d == Int(candidate) ? seeking.score().bitPattern : nil)
                }
                let group = planner.iterator(plan, segment: ordinal, scored: true)
                XCTAssertTrue(group is TermGroupIterator, "\(word)")
                var scores = [Float](repeating: 0, count: candidates.count)
                var matched = [Bool](repeating: false, count: candidates.count)
                candidates.withUnsafeBufferPointer { c in
                    scores.withUnsafeMutableBufferPointer { s in
                        matched.withUnsafeMutableBufferPointer { m in group.scoreCandidates(c, scores: s.baseAddress!, matched: m.baseAddress!) }
                    }
                }
                let actual = candidates.indices.map { matched[$0] ? scores[$0].bitPattern : nil }
                XCTAssertEqual(actual, expected, "\(word) in segment \(ordinal)")
            }
        }
    }
}
