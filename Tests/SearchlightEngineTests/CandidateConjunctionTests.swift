import XCTest
@testable import SearchlightEngine

/// A ranked conjunction at the root is evaluated over its lead's candidates (`CandidateConjunction`): its
/// matches and scores must be those of the document-at-a-time `ConjunctionIterator`, bit for bit.
final class CandidateConjunctionTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator

    /// Every match of `iterator` with its score, walking `next`.
    static func walk(_ iterator: DocIterator) -> [(Int, UInt32)] {
        var result: [(Int, UInt32)] = []
        var doc = iterator.next()
        while doc != DocIterator.end {
            result.append((doc, iterator.score().bitPattern))
            doc = iterator.next()
        }
        return result
    }

    /// The seeded corpus of `DifferentialTests.pruningCorpus`, committed, with the helper that draws random queries
    /// over its fields.
    private func committedCorpus(_ g: inout Generator) throws
        -> (differential: DifferentialTests, snapshot: IndexSnapshot, fields: DifferentialTests.Fields) {
        let differential = DifferentialTests(name: "helper", testClosure: { _ in })
        let (writer, fields) = try differential.pruningCorpus(&g)
        return (differential, try writer.commit(), fields)
    }

    /// Collects the top `k` of a `CandidateConjunctionIterator` over `children` as a search does (once the heap is
    /// full, the k-th hit's score goes to `nextCompetitive`) and checks them, bit for bit, against the k best of
    /// `all` (every match with its score, from `walk`); returns how many candidates its bounds dropped.
    private func checkPrunedTopK(_ children: [DocIterator], batch: Int, k: Int, of all: [(Int, UInt32)], _ label: String,
                                 file: StaticString = #filePath, line: UInt = #line) -> Int {
        let ranked = all.map { SearchHit(address: DocAddress(segment: 0, doc: UInt32($0.0)), score: Float(bitPattern: $0.1)) }
            .sorted(by: SearchHit.ranksBefore)
        let iterator = CandidateConjunctionIterator(children, batch: batch, wholeList: 8)
        var top = TopK(k: k)
        var doc = iterator.next()
        while doc != DocIterator.end {
            top.insert(SearchHit(address: DocAddress(segment: 0, doc: UInt32(doc)), score: iterator.score()))
            doc = top.isFull ? iterator.nextCompetitive(top.threshold) : iterator.next()
        }
        let hits = top.sorted()
        XCTAssertEqual(hits.map(\.address), ranked.prefix(k).map(\.address), label, file: file, line: line)
        XCTAssertEqual(hits.map(\.score.bitPattern), ranked.prefix(k).map(\.score.bitPattern), label, file: file, line: line)
        return iterator.prunedCandidates
    }

    /// `iterator.scoreCandidates` on `candidates`: each one's score (nil where it does not match).
    static func scored(_ iterator: DocIterator, _ candidates: ArraySlice<UInt32>) -> [Float?] {
        var scores = [Float](repeating: 0, count: candidates.count)
        var matched = [Bool](repeating: false, count: candidates.count)
        candidates.withUnsafeBufferPointer { c in
            scores.withUnsafeMutableBufferPointer { s in
                matched.withUnsafeMutableBufferPointer { m in iterator.scoreCandidates(c, scores: s.baseAddress!, matched: m.baseAddress!) }
            }
        }
        return zip(scores, matched).map { $1 ? $0 : nil }
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
            let merged = Self.scored(fresh(), candidates[...])
            let walker = fresh()
            for (i, candidate) in candidates.enumerated() {
                let d = walker.doc < Int(candidate) ? walker.advance(Int(candidate)) : walker.doc
                XCTAssertEqual(merged[i] != nil, d == Int(candidate), "candidate \(candidate), round \(round)")
                if d == Int(candidate) { XCTAssertEqual(merged[i]?.bitPattern, walker.score().bitPattern, "candidate \(candidate)") }
            }
        }
    }

    /// A disjunction lists its matches by merging its children's lists: the documents and scores of its `next` walk,
    /// bit for bit, on seeded random disjunctions (terms, prefixes, phrases, boosts, nested conjunctions).
    func testDisjunctionListsWhatItsWalkGives() throws {
        var g = Generator(state: 0xD15C)
        let (differential, snapshot, fields) = try committedCorpus(&g)
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
                let expected = Self.walk(planner.iterator(plan, segment: ordinal, scored: true))
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
                let expected = Self.walk(unrooted), actual = Self.walk(root)
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
        let snapshot = try committedCorpus(&g).snapshot
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
                let actual = Self.scored(group, candidates[...]).map { $0?.bitPattern }
                XCTAssertEqual(actual, expected, "\(word) in segment \(ordinal)")
            }
        }
    }

    /// A clause's `scoreBound` over a range bounds every score it then gives a candidate there, and scoring ascending
    /// batches one after another gives the scores of one pass over all the candidates, bit for bit: on seeded
    /// random clauses (terms in several fields, prefixes, wide expansions, boosts, disjunctions, phrases).
    func testScoreBoundsHoldForTheBatchesAfterThem() throws {
        var g = Generator(state: 0xB0B)
        let (differential, snapshot, fields) = try committedCorpus(&g)
        let words = DifferentialTests.vocabulary
        var bounded = 0, checked = 0
        for round in 0..<120 {
            let clause: Query
            switch round % 6 {
            case 0: clause = .prefix(String(g.pick(words).prefix(1)))
            case 1: clause = .prefix(String(g.pick(words).prefix(2)))
            case 2: clause = .boost(.term(g.pick(words)), 1.3)
            case 3: clause = .or([.term(g.pick(words)), .term(g.pick(words))])
            case 4: clause = differential.randomQuery(&g, depth: 1, fields: fields)
            default: clause = .term(g.pick(words))
            }
            var planner = QueryPlanner(snapshot: snapshot)
            let plan = planner.plan(clause, scope: planner.resolve(.defaultFields))
            for ordinal in snapshot.segments.indices {
                let count = snapshot.segments[ordinal].documentCount
                let candidates = (0..<count).filter { _ in g.chance(round % 2 == 0 ? 0.6 : 0.1) }.map(UInt32.init)
                guard !candidates.isEmpty else { continue }
                let whole = Self.scored(planner.iterator(plan, segment: ordinal, scored: true), candidates[...])
                let batched = planner.iterator(plan, segment: ordinal, scored: true)
                var start = 0
                while start < candidates.count {
                    // Narrow and wide batches (a wide one spans several blocks of a frequent term's postings).
                    let end = min(start + 1 + g.int(g.chance(0.3) ? 400 : 40), candidates.count)
                    // Some ranges reach past their candidates, as a batch's may not (its bound must still hold).
                    let first = Int(candidates[start]), last = Int(candidates[end - 1]) + (g.chance(0.2) ? 3 : 0)
                    let bound = g.chance(0.8) ? batched.scoreBound(from: first, through: last) : nil
                    let batch = Self.scored(batched, candidates[start..<end])
                    if bound != nil { bounded += 1 }
                    for i in 0..<(end - start) {
                        XCTAssertEqual(batch[i] == nil, whole[start + i] == nil, "\(clause): candidate \(candidates[start + i])")
                        guard let score = batch[i], let expected = whole[start + i] else { continue }
                        XCTAssertEqual(score.bitPattern, expected.bitPattern, "\(clause): candidate \(candidates[start + i])")
                        if let bound {
                            checked += 1
                            XCTAssertLessThanOrEqual(score, bound + abs(bound) * 0.00001,
                                                     "\(clause): candidate \(candidates[start + i]) in \(first)...\(last)")
                        }
                    }
                    start = end
                }
            }
        }
        XCTAssertGreaterThan(bounded, 500, "ranges were bounded")
        XCTAssertGreaterThan(checked, 10_000, "scores were checked against bounds")
    }

    /// Collected as a search collects it (the top-k threshold passed to `nextCompetitive` once the heap is full), a
    /// conjunction pruned batch by batch keeps exactly the k best of its full ranking, bit for bit; walked with
    /// `next` and `advance` it gives every match. Small batches, so that the test corpus prunes.
    func testPrunedBatchesKeepExactlyTheTopK() throws {
        var g = Generator(state: 0x70BC)
        let (differential, snapshot, fields) = try committedCorpus(&g)
        let words = DifferentialTests.vocabulary
        var pruned = 0, compared = 0
        for round in 0..<300 {
            var clauses: [Query] = [.term(g.pick(words)), .term(g.pick(words))]
            switch round % 5 {
            case 0: clauses.append(.prefix(String(g.pick(words).prefix(1 + g.int(2)))))
            case 1: clauses[0] = .boost(clauses[0], 1.7)
            case 2: clauses[1] = .or([.term(g.pick(words)), .prefix(String(g.pick(words).prefix(2)))])
            case 3: clauses.append(differential.randomQuery(&g, depth: 1, fields: fields))
            default: break
            }
            let k = [1, 3, 10][round % 3]
            var planner = QueryPlanner(snapshot: snapshot)
            let plan = planner.plan(.and(clauses), scope: planner.resolve(.defaultFields))
            for ordinal in snapshot.segments.indices {
                guard let reference = planner.iterator(plan, segment: ordinal, scored: true) as? ConjunctionIterator,
                      let fresh = planner.iterator(plan, segment: ordinal, scored: true) as? ConjunctionIterator,
                      let walked = planner.iterator(plan, segment: ordinal, scored: true) as? ConjunctionIterator else { continue }
                let all = Self.walk(reference)
                pruned += checkPrunedTopK(fresh.children, batch: 4 + g.int(5), k: k, of: all,
                                          "top \(k) of \(clauses) in segment \(ordinal)")
                compared += 1
                // Unpruned, with jumps: `advance` gives the first match at or after its target, with its score.
                let jumping = CandidateConjunctionIterator(walked.children, batch: 4 + g.int(5), wholeList: 8)
                var position = 0
                var target = g.int(40)
                while true {
                    let d = jumping.advance(target)
                    while position < all.count, all[position].0 < target { position += 1 }
                    guard position < all.count else {
                        XCTAssertEqual(d, DocIterator.end, "\(clauses): past the last match")
                        break
                    }
                    XCTAssertEqual(d, all[position].0, "\(clauses): advance to \(target)")
                    XCTAssertEqual(jumping.score().bitPattern, all[position].1, "\(clauses): at \(d)")
                    if g.chance(0.5) {
                        let next = jumping.next()
                        position += 1
                        XCTAssertEqual(next, position < all.count ? all[position].0 : DocIterator.end, "\(clauses): next after \(d)")
                        if next == DocIterator.end { break }
                        target = next + 1 + g.int(30)
                    } else {
                        target = d + 1 + g.int(30)
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 500, "conjunctions were collected")
        XCTAssertGreaterThan(pruned, 1_000, "bounds dropped candidates before they were scored")
    }

    /// Near ties: two words once each in documents of 60 to 127 words (lengths below 128 are exact norms), so that
    /// neighbouring lengths score about 0.4% apart and many candidates beat the k-th hit by less than 1%. Pruned
    /// batch by batch, the conjunction still keeps exactly the k best, bit for bit. A bound applied with 1% too
    /// little margin passed every other test; it fails this one.
    func testPrunedBatchesKeepNearTies() throws {
        let snapshot = try RankedPathFixtures.nearTies(documents: 1_200, seed: 0x7E1E) { g, words in
            words.insert("alpha", at: g.int(words.count + 1))
            words.insert("beta", at: g.int(words.count + 1))
            if g.chance(0.3) { words.insert("beta", at: g.int(words.count + 1)) }
        }
        var g = Generator(state: 0x7E1E)
        var pruned = 0, compared = 0
        for round in 0..<24 {
            let k = [1, 3, 10, 40][round % 4]
            var planner = QueryPlanner(snapshot: snapshot)
            let words: [Query] = round % 2 == 0 ? [.term("alpha"), .term("beta")] : [.term("beta"), .term("alpha")]
            let plan = planner.plan(.and(words), scope: planner.resolve(.defaultFields))
            let reference = try XCTUnwrap(planner.iterator(plan, segment: 0, scored: true) as? ConjunctionIterator)
            let fresh = try XCTUnwrap(planner.iterator(plan, segment: 0, scored: true) as? ConjunctionIterator)
            pruned += checkPrunedTopK(fresh.children, batch: 4 + g.int(13), k: k, of: Self.walk(reference),
                                      "top \(k), round \(round)")
            compared += 1
        }
        XCTAssertEqual(compared, 24)
        XCTAssertGreaterThan(pruned, 1_000, "bounds dropped candidates before they were scored")
    }

    /// A range's bound covers every block the range touches: a term whose best posting sits in its last block, and a
    /// precomputed group whose best match comes last, are bounded over a range from the first document by at least
    /// that match's score; ranges that end before it, by less. Batches that end on a candidate the clause does not
    /// match still score the next batch's first match.
    func testBoundsReachTheBestBlockOfTheirRange() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        let filler = Array(repeating: "filler", count: 30).joined(separator: " ")
        for i in 0..<600 {
            // "common" once in a long body of every even document, but three times alone in document 550's.
            let text = i == 550 ? "common common common" : i % 2 == 0 ? "common \(filler)" : filler
            try writer.upsert(Document(id: "d\(i)", values: [(title, .text("t\(i)")), (body, .text(text))]))
        }
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.count, 1)
        var planner = QueryPlanner(snapshot: snapshot)
        let plan = planner.plan(.term("common"), scope: planner.resolve(.defaultFields))
        // Every even document, one scoring far above the others: a precomputed group of 300 matches.
        let listed = (0..<300).map { UInt32(2 * $0) }
        let listedScores = listed.map { $0 == 550 ? Float(9) : Float(1 + ($0 % 7)) / 8 }
        let clauses: [(name: String, best: Int, make: () -> DocIterator)] = [
            ("term", 550, { planner.iterator(plan, segment: 0, scored: true) }),
            ("precomputed", 550, { MaterializedGroupIterator(docs: listed, scores: listedScores, idf: 1, label: "l") }),
        ]
        for (name, best, make) in clauses {
            let scorer = make()
            XCTAssertEqual(scorer.advance(best), best)
            let bestScore = scorer.score()
            let bound = try XCTUnwrap(make().scoreBound(from: 0, through: 599), name)
            XCTAssertGreaterThanOrEqual(bound, bestScore, "\(name): the bound over everything reaches document \(best)")
            let early = try XCTUnwrap(make().scoreBound(from: 0, through: 300), name)
            XCTAssertLessThan(early, bestScore, "\(name): a range before document \(best) is bounded below it")
            // Odd documents do not match: batches of two (an even and an odd one) score the matches of one pass.
            let candidates = (400..<600).map(UInt32.init)
            let expected = Self.scored(make(), candidates[...])
            XCTAssertEqual(expected.compactMap { $0 }.count, 100, name)
            let batched = make()
            for start in stride(from: 0, to: candidates.count, by: 2) {
                let batch = Self.scored(batched, candidates[start..<(start + 2)])
                XCTAssertEqual(batch.map { $0?.bitPattern }, expected[start..<(start + 2)].map { $0?.bitPattern },
                               "\(name) at \(candidates[start])")
            }
        }
    }
}
