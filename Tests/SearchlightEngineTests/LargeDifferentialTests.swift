import XCTest
@testable import SearchlightEngine

/// Every query operator against a naive reference on corpora large enough for the structures a small corpus never
/// builds: posting lists of many 128-document blocks (skips, block-max pruning), frequency and position columns,
/// champion lists and covers, wide-prefix lists (CJK and Cyrillic prefixes among them), and the best-first and
/// cover phrase paths. `DifferentialTests` keeps posting lists within one block; here a few thousand documents
/// over a Zipf-like vocabulary in several segments, with replacements, deletes and a merge, are searched with
/// random queries whose matches are compared with the reference's and whose top-k pages with the full ranking.
final class LargeDifferentialTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator
    typealias Fields = DifferentialTests.Fields
    typealias ReferenceDocument = DifferentialTests.ReferenceDocument

    // MARK: Vocabulary

    /// Words by rank, most frequent first: a few very frequent ones, then (shuffled) families sharing a prefix
    /// (more than `PrefixPostings.minimumExpansions` terms each, so their prefixes get precomputed lists), words the
    /// analyzer splits or folds, and many rare ones.
    struct Vocabulary {
        let words: [String]
        let frequent: [String]
        /// The next twenty by rank: a few hundred documents each in a large segment, several blocks but too few
        /// for a frequency or position column, so conjunctions and phrases seek their postings through the skips.
        let middling: [String]
        /// Prefixes wide enough for a precomputed list in a large segment's body.
        let widePrefixes: [String]
        /// Cumulative Zipf weights (s = 1) by rank.
        let cumulative: [Double]

        init(_ g: inout Generator) {
            frequent = ["the", "and", "of", "data", "report", "apple", "window", "to", "café", "中文"]
            let letters = Array("abcdefghklmnoprstu")
            func suffix(_ g: inout Generator, _ n: Int) -> String { String((0..<n).map { _ in g.pick(letters) }) }
            var families = Set<String>()
            while families.count < 90 { families.insert("inter" + suffix(&g, 2 + g.int(2))) }
            let cyrillic = Array("абвгдежзиклмнопрст")
            var russian = Set<String>()
            while russian.count < 70 { russian.insert("пере" + String((0..<(2 + g.int(2))).map { _ in g.pick(cyrillic) })) }
            // "中" with another ideograph: the index holds the bigram, so the prefix "中" extends to each.
            let han = (0..<70).map { "中" + String(UnicodeScalar(0x4E00 + 0x100 + 7 * $0)!) }
            let odd = ["Report.Numbers", "MyWindow", "Café", "cafe", "x11", "alpha", "alphabet", "apply", "ample",
                       "Zürich", "naïve", "日本語", "interop", "über"]
            var rare = Set<String>()
            while rare.count < 400 { rare.insert(suffix(&g, 3 + g.int(5))) }
            var rest = Array(families) + Array(russian) + han + odd + Array(rare).sorted()
            rest.sort()
            for i in stride(from: rest.count - 1, to: 0, by: -1) { rest.swapAt(i, g.int(i + 1)) }
            words = frequent + rest
            middling = Array(words[frequent.count..<(frequent.count + 20)])
            widePrefixes = ["inter", "inte", "int", "in", "пере", "пер", "中"]
            var total = 0.0
            cumulative = words.indices.map { rank in
                total += 1 / Double(rank + 1)
                return total
            }
        }

        /// A word drawn by its Zipf weight.
        func pick(_ g: inout Generator) -> String {
            let u = Double(g.next() >> 11) / Double(1 << 53) * cumulative[cumulative.count - 1]
            var low = 0, high = cumulative.count - 1
            while low < high {
                let mid = (low + high) / 2
                if cumulative[mid] < u { low = mid + 1 } else { high = mid }
            }
            return words[low]
        }

        func text(_ g: inout Generator, _ n: Int) -> String { (0..<n).map { _ in pick(&g) }.joined(separator: " ") }
    }

    static let domains = ["a", "a.b", "a.b.c", "ab", "b", "b.a"]

    /// A document of Zipf words: a short title, a body of 3 to 25 words (`long`: 10 to 50; now and then 40 to
    /// 100, and a second value), tags, 0 to 2 numbers. Its body texts join `texts` (phrases are drawn from them, so
    /// most match).
    func makeDocument(_ g: inout Generator, _ vocabulary: Vocabulary, id: String, fields: Fields, long: Bool = false,
                      texts: inout [String]) -> Document {
        var values: [(FieldID, FieldValue)] = [(fields.title, .text(vocabulary.text(&g, 1 + g.int(3))))]
        if g.chance(0.9) {
            let body = vocabulary.text(&g, g.chance(0.05) ? 40 + g.int(60) : long ? 10 + g.int(41) : 3 + g.int(23))
            values.append((fields.body, .text(body)))
            texts.append(body)
        }
        if g.chance(0.2) { values.append((fields.body, .text(vocabulary.text(&g, 1 + g.int(4))))) }
        if g.chance(0.4) { values.append((fields.tags, .text(vocabulary.text(&g, 1 + g.int(2))))) }
        for _ in 0..<g.int(3) { values.append((fields.number, .number(Double(g.int(50))))) }
        return Document(id: id, domain: g.chance(0.8) ? g.pick(Self.domains) : nil, values: values)
    }

    // MARK: Reference

    /// A naive reference over the model's documents: per field, each term's documents and, per document, its
    /// positions (hash maps, no blocks or compression); queries evaluated as sets. It answers what
    /// `DifferentialTests.referenceMatches` answers (checked on a sample of documents for every query) in a time
    /// a few thousand documents and hundreds of queries allow.
    struct Reference {
        let documents: [ReferenceDocument]
        let fields: Fields
        /// Per field, term → documents (indexes into `documents`, ascending) holding it.
        var holders: [FieldID: [String: [Int]]] = [:]
        /// Per document, field, term: its positions.
        var positions: [[FieldID: [String: [Int]]]] = []
        /// Each term's characters, as edits count them.
        var characters: [String: [UInt32]] = [:]

        init(_ model: [String: ReferenceDocument], fields: Fields) {
            documents = model.values.sorted { $0.id < $1.id }
            self.fields = fields
            for (index, document) in documents.enumerated() {
                var own: [FieldID: [String: [Int]]] = [:]
                for (field, tokens) in document.fieldTokens {
                    for (term, position) in tokens {
                        if own[field]?[term] == nil { holders[field, default: [:]][term, default: []].append(index) }
                        own[field, default: [:]][term, default: []].append(position)
                    }
                }
                positions.append(own)
            }
            for terms in holders.values {
                for term in terms.keys where characters[term] == nil {
                    characters[term] = DifferentialTests.characters(Array(term.utf8))
                }
            }
        }

        /// The ids of the documents `query` matches, unscoped words looking in the default fields.
        func ids(_ query: Query) -> Set<String> {
            let matched = evaluate(query, scope: [fields.title, fields.body])
            return Set(documents.indices.lazy.filter { matched[$0] }.map { documents[$0].id })
        }

        /// Documents holding a term `accepts` (asked once per term), in any field of `scope`.
        private func holding(_ scope: [FieldID], _ accepts: (String) -> Bool) -> [Bool] {
            var result = [Bool](repeating: false, count: documents.count)
            var answers: [String: Bool] = [:]
            for field in scope {
                for (term, docs) in holders[field] ?? [:] {
                    let accepted = answers[term] ?? accepts(term)
                    answers[term] = accepted
                    if accepted { for doc in docs { result[doc] = true } }
                }
            }
            return result
        }

        /// Per document (in `documents` order), whether `query` matches it.
        func evaluate(_ query: Query, scope: [FieldID]) -> [Bool] {
            let none = [Bool](repeating: false, count: documents.count)
            switch query {
            case .term(let text), .phrase(let text):
                let q = Analyzer().tokens(text, mode: .query)
                guard let first = q.first else { return none }
                var result = none
                for field in scope {
                    for doc in holders[field]?[first.term] ?? [] where !result[doc] {
                        let own = positions[doc][field] ?? [:]
                        result[doc] = (own[first.term] ?? []).contains { start in
                            q.allSatisfy { (own[$0.term] ?? []).contains(start + $0.position - first.position) }
                        }
                    }
                }
                return result
            case .prefix(let text):
                let p = QueryPlanner.foldedPrefix(text)
                return holding(scope) { $0.hasPrefix(p) }
            case .fuzzy(let text, let edits):
                let t = DifferentialTests.characters(Array(QueryPlanner.foldedPrefix(text).utf8))
                let budget = edits ?? QueryPlanner.typoBudget(QueryPlanner.foldedPrefix(text))
                // Lengths further apart than the budget need more edits: no distance is computed for them.
                return holding(scope) { term in
                    let c = characters[term] ?? DifferentialTests.characters(Array(term.utf8))
                    return abs(c.count - t.count) <= budget && DifferentialTests.withinEdits(c, t, budget)
                }
            case .fuzzyPrefix(let text, let edits):
                let t = DifferentialTests.characters(Array(QueryPlanner.foldedPrefix(text).utf8))
                let budget = edits ?? QueryPlanner.typoBudget(QueryPlanner.foldedPrefix(text))
                return holding(scope) { term in
                    DifferentialTests.prefixWithinEdits(characters[term] ?? DifferentialTests.characters(Array(term.utf8)),
                                                        t, budget)
                }
            case .terms(let list):
                return holding(scope) { list.contains($0) }
            case .and(let clauses):
                guard let first = clauses.first else { return none }
                var result = evaluate(first, scope: scope)
                for clause in clauses.dropFirst() {
                    let other = evaluate(clause, scope: scope)
                    for doc in result.indices where result[doc] && !other[doc] { result[doc] = false }
                }
                return result
            case .or(let clauses):
                var result = none
                for clause in clauses {
                    let other = evaluate(clause, scope: scope)
                    for doc in result.indices where other[doc] { result[doc] = true }
                }
                return result
            case .not(let a, let b):
                var result = evaluate(a, scope: scope)
                let excluded = evaluate(b, scope: scope)
                for doc in result.indices where excluded[doc] { result[doc] = false }
                return result
            case .scoped(let s, let inner):
                switch s {
                case .defaultFields: return evaluate(inner, scope: [fields.title, fields.body])
                case .field(let f): return evaluate(inner, scope: [f])
                case .fields(let fs): return evaluate(inner, scope: fs)
                }
            case .range(_, let lower, let upper):
                return documents.map { $0.numbers.contains { NumericBound.contains($0, lower: lower, upper: upper) } }
            case .all: return [Bool](repeating: true, count: documents.count)
            case .none, .documents: return none
            case .boost(let inner, _): return evaluate(inner, scope: scope)
            }
        }
    }

    // MARK: Queries

    /// A phrase of two or three words: mostly consecutive words of an indexed body (so it matches somewhere),
    /// else Zipf words (frequent pairs occur by chance).
    func randomPhrase(_ g: inout Generator, _ vocabulary: Vocabulary, texts: [String]) -> String {
        let length = 2 + g.int(2)
        if g.chance(0.7), !texts.isEmpty {
            let words = g.pick(texts).split(separator: " ")
            if words.count >= length {
                let start = g.int(words.count - length + 1)
                return words[start..<(start + length)].joined(separator: " ")
            }
        }
        return vocabulary.text(&g, length)
    }

    func randomLeaf(_ g: inout Generator, _ vocabulary: Vocabulary, fields: Fields, texts: [String]) -> Query {
        switch g.int(11) {
        case 0, 1:
            guard g.chance(0.3) else { return .term(vocabulary.pick(&g)) }
            return .term(g.pick(g.chance(0.5) ? vocabulary.frequent : vocabulary.middling))
        case 2:
            if g.chance(0.5) { return .prefix(g.pick(vocabulary.widePrefixes)) }
            let word = vocabulary.pick(&g)
            return .prefix(String(word.prefix(1 + g.int(4))))
        case 3, 4: return .phrase(randomPhrase(&g, vocabulary, texts: texts))
        case 5:
            var word = Array(vocabulary.pick(&g))
            if g.chance(0.5), !word.isEmpty { word[g.int(word.count)] = g.pick(Array("aeiouxz")) }
            // Two edits from five characters, one from three: two edits of a two-letter word reach hundreds of
            // terms, past the nearest ones a fuzzy query keeps (`IndexSnapshot.maxExpansions`, a documented cap
            // the reference does not model).
            let most = word.count >= 5 ? 2 : word.count >= 3 ? 1 : 0
            return .fuzzy(String(word), maxEdits: g.chance(0.5) ? nil : min(g.int(3), most))
        case 6:
            func bound() -> NumericBound? {
                g.chance(0.3) ? nil : g.chance(0.5) ? .inclusive(Double(g.int(50))) : .exclusive(Double(g.int(50)))
            }
            return .range(fields.number, lower: bound(), upper: bound())
        case 7: return g.chance(0.5) ? .all : .none
        case 8: return .terms((0..<(1 + g.int(3))).map { _ in Folding.fold(vocabulary.pick(&g)) })
        case 9: return .boost(randomLeaf(&g, vocabulary, fields: fields, texts: texts), g.pick([0.5, 2, 3, -1]))
        default: return .term(g.pick(vocabulary.frequent) + " " + vocabulary.pick(&g))
        }
    }

    func randomQuery(_ g: inout Generator, _ vocabulary: Vocabulary, depth: Int, fields: Fields, texts: [String]) -> Query {
        guard depth > 0, g.chance(0.45) else { return randomLeaf(&g, vocabulary, fields: fields, texts: texts) }
        let sub = { (g: inout Generator) in self.randomQuery(&g, vocabulary, depth: depth - 1, fields: fields, texts: texts) }
        switch g.int(5) {
        case 0, 1: return .and((0..<(2 + g.int(2))).map { _ in sub(&g) })
        case 2: return .or((0..<(2 + g.int(2))).map { _ in sub(&g) })
        case 3: return .not(sub(&g), excluding: sub(&g))
        default:
            let scope: FieldScope = g.pick([.field(fields.title), .field(fields.tags), .field(fields.body),
                                            .fields([fields.body, fields.tags]), .defaultFields,
                                            .fields([fields.title, fields.body, fields.tags])])
            return .scoped(scope, sub(&g))
        }
    }

    /// Queries aimed at the large structures: frequent words alone (champion lists), wide prefixes alone and
    /// scoped (precomputed lists), phrases of frequent words (best-first and cover paths, position columns), two
    /// frequent keys together (covers) and a rare word with a frequent one (frequency columns).
    func targetedQueries(_ g: inout Generator, _ vocabulary: Vocabulary, fields: Fields, texts: [String]) -> [Query] {
        let frequent = vocabulary.frequent
        var queries: [Query] = frequent.map { .term($0) }
        queries += vocabulary.widePrefixes.map { .prefix($0) }
        queries += vocabulary.widePrefixes.map { .scoped(.field(fields.body), .prefix($0)) }
        queries += ["t", "a", "d", "re", "ap", "wi"].map { .prefix($0) }
        for _ in 0..<10 {
            queries.append(.phrase(g.pick(frequent) + " " + g.pick(frequent)))
            queries.append(.phrase(randomPhrase(&g, vocabulary, texts: texts)))
            queries.append(.and([.term(g.pick(frequent)), .term(g.pick(frequent))]))
            queries.append(.and([.term(g.pick(frequent)), .prefix(g.pick(vocabulary.widePrefixes))]))
            queries.append(.and([.term(vocabulary.pick(&g)), .term(g.pick(frequent))]))
            queries.append(.and([.term(vocabulary.pick(&g)), .term(g.pick(vocabulary.middling))]))
            queries.append(.and([.term(g.pick(vocabulary.middling)), .term(g.pick(vocabulary.middling))]))
            queries.append(.phrase(g.pick(vocabulary.middling) + " " + g.pick(frequent)))
        }
        return queries
    }

    // MARK: Checking

    /// What the checks saw of the structures and paths under test, over all queries.
    struct Coverage {
        var championVouched = 0
        /// Lists read that could not vouch for the page (dead documents, a stretched bound): the postings answered.
        var championFellBack = 0
        var conjunctionCovers = 0
        var coverPhrases = 0
        var bestFirstPhrases = 0
        var queries = 0
    }

    /// `top` is the first hits of `full` (to rounding for a lone prefix, whose champion list adds a field's
    /// frequencies before weighting them: `ChampionListsTests.assertSameHits`), best first.
    func assertPrefix(_ top: [SearchHit], of full: [SearchHit], k: Int, query: Query, _ label: String) {
        let expected = Array(full.prefix(k))
        if case .prefix = query {
            ChampionListsTests.assertSameHits(top, expected, exact: false, "\(label) top-\(k) of \(query)")
        } else {
            XCTAssertEqual(top, expected, "\(label) top-\(k) of \(query)")
        }
        XCTAssertTrue(zip(top, top.dropFirst()).allSatisfy { $0.score >= $1.score },
                      "\(label) scores rise in top-\(k) of \(query)")
    }

    /// `actual` equals `expected`; on failure, says which ids are missing and which are extra (not both whole sets).
    func assertSame(_ actual: Set<String>, _ expected: Set<String>, _ message: String) {
        guard actual != expected else { return }
        let missing = expected.subtracting(actual).sorted(), extra = actual.subtracting(expected).sorted()
        XCTFail("\(message): \(missing.count) missing \(missing.prefix(10)), \(extra.count) extra \(extra.prefix(10))")
    }

    func check(_ snapshot: IndexSnapshot, _ reference: Reference, _ queries: [Query], label: String,
               coverage: inout Coverage, _ g: inout Generator) {
        XCTAssertEqual(snapshot.documentCount, reference.documents.count, label)
        for query in queries {
            coverage.queries += 1
            let expected = reference.ids(query)
            // The set evaluation answers as the per-document reference does.
            for _ in 0..<12 where !reference.documents.isEmpty {
                let document = g.pick(reference.documents)
                let scope = [reference.fields.title, reference.fields.body]
                XCTAssertEqual(DifferentialTests.referenceMatches(query, document, scope: scope, fields: reference.fields),
                               expected.contains(document.id), "\(label) reference of \(query) for \(document.id)")
            }
            let full = snapshot.search(query, limit: 100_000)
            let ids = full.compactMap { snapshot.id(of: $0.address) }
            assertSame(Set(ids), expected, "\(label) ranked matches of \(query)")
            XCTAssertEqual(ids.count, full.count, "\(label) ids of \(query)")
            XCTAssertEqual(Set(ids).count, ids.count, "\(label) duplicates in \(query)")
            XCTAssertEqual(snapshot.count(query), expected.count, "\(label) count of \(query)")
            assertSame(Set(snapshot.matches(query).compactMap { snapshot.id(of: $0) }), expected, "\(label) matches of \(query)")
            XCTAssertTrue(zip(full, full.dropFirst()).allSatisfy { SearchHit.ranksBefore($0, $1) }, "\(label) order of \(query)")
            for k in [1, 10, 20] {
                assertPrefix(snapshot.search(query, limit: k), of: full, k: k, query: query, label)
                checkPaths(snapshot, query, full: full, k: k, label: label, coverage: &coverage)
            }
        }
    }

    /// The ranked shortcuts called directly where they apply, each answer compared with the full ranking and
    /// counted: champion lists (lone words and prefixes, default tuning), champion covers (two-clause
    /// conjunctions, thresholds lowered for a corpus this small), phrase covers and best-first phrases (likewise).
    func checkPaths(_ snapshot: IndexSnapshot, _ query: Query, full: [SearchHit], k: Int, label: String,
                    coverage: inout Coverage) {
        let options = SearchOptions(limit: k)
        switch query {
        case .term, .prefix, .phrase:
            var planner = QueryPlanner(snapshot: snapshot)
            if let (hits, vouched) = snapshot.championSearch(query, plan: nil, planner: &planner, window: k, options: options) {
                assertPrefix(hits, of: full, k: k, query: query, "\(label) champion lists")
                if vouched { coverage.championVouched += 1 } else { coverage.championFellBack += 1 }
            }
        default: break
        }
        let (planner, plan, _) = RankedPathFixtures.plan(snapshot, query, options: options)
        switch plan {
        case .and:
            var covers = options
            covers.covers = ChampionConjunctionTests.eager
            var p = planner
            if let hits = snapshot.championConjunction(plan, planner: &p, window: k, options: covers, collecting: nil) {
                assertPrefix(hits, of: full, k: k, query: query, "\(label) champion covers")
                coverage.conjunctionCovers += 1
            }
        case .phrase:
            var cover = options
            cover.phrases = CoverPhraseTests.eager
            var p = planner
            if let hits = snapshot.coverPhrase(plan, planner: &p, window: k, options: cover, collecting: nil) {
                assertPrefix(hits, of: full, k: k, query: query, "\(label) phrase cover")
                coverage.coverPhrases += 1
            }
            var bestFirst = options
            bestFirst.phrases = BestFirstPhraseTests.eager
            p = planner
            if let hits = snapshot.bestFirstPhrase(plan, planner: &p, window: k, options: bestFirst, collecting: nil) {
                assertPrefix(hits, of: full, k: k, query: query, "\(label) best-first phrase")
                coverage.bestFirstPhrases += 1
            }
        default: break
        }
    }

    // MARK: The test

    /// About 5,600 documents written in seven batches (the last five in four segments merged into one, then one
    /// more), some replaced and some deleted by id and by domain, among them the documents champion lists built
    /// earlier put first; checked after the second commit and at the end, with the structures' presence asserted
    /// so the test demonstrably covers them.
    func testLargeRandomizedAgainstReference() throws {
        var g = Generator(state: 0x5EA4_C417)
        let vocabulary = Vocabulary(&g)
        let writer = IndexWriter()
        // Tiers a power of four apart, four segments to a merge: the four small batches merge into one, the
        // two large ones stay apart.
        writer.mergePolicy = MergePolicy(maxSegments: 24, mergeFactor: 4, maxDeletedFraction: 0.6)
        let fields = try Fields.register(in: writer)
        var model: [String: ReferenceDocument] = [:]
        var texts: [String] = []
        var nextID = 0
        var coverage = Coverage()
        var merged = false
        var snapshot = writer.snapshot
        func upsert(_ id: String, long: Bool = false) throws {
            let document = makeDocument(&g, vocabulary, id: id, fields: fields, long: long, texts: &texts)
            try writer.upsert(document)
            model[id] = DifferentialTests.reference(document, fields: fields)
        }
        // Batches: new documents (`long`: longer bodies, so the segments' field averages differ and champion lists
        // stretch their bounds), replacements of existing ids, deletes by id, and deletes by domain.
        let batches: [(new: Int, long: Bool, replaced: Int, deleted: Int, domain: Bool)] =
            [(2_600, false, 0, 0, false), (1_500, true, 250, 120, false), (330, false, 60, 30, false),
             (330, false, 60, 30, true), (330, false, 60, 30, false), (330, false, 40, 30, false),
             (200, false, 40, 20, false)]
        for (number, batch) in batches.enumerated() {
            for _ in 0..<batch.new {
                try upsert("d\(nextID)", long: batch.long)
                nextID += 1
            }
            for _ in 0..<batch.replaced { try upsert("d\(g.int(nextID))") }
            for _ in 0..<batch.deleted {
                let id = "d\(g.int(nextID))"
                writer.delete(ids: [id])
                model[id] = nil
            }
            if batch.domain {
                // A narrow domain: a few hundred documents go, tombstones in every segment.
                writer.delete(domains: ["a.b.c"])
                model = model.filter { $0.value.domain.map { $0 != "a.b.c" } ?? true }
            }
            let before = snapshot.segments.count
            snapshot = try writer.commit()
            if snapshot.segments.count <= before { merged = true }
            if number == 1 {
                let reference = Reference(model, fields: fields)
                var queries = targetedQueries(&g, vocabulary, fields: fields, texts: texts)
                queries += (0..<40).map { _ in randomQuery(&g, vocabulary, depth: 2, fields: fields, texts: texts) }
                check(snapshot, reference, queries, label: "two segments", coverage: &coverage, &g)
                // The best 64 documents of two frequent words and two prefixes go, half deleted and half replaced:
                // their champion lists, built by the searches above and kept for their segments' life, now list
                // dead documents and must not vouch for pages they no longer fill.
                for query in [Query.term(vocabulary.frequent[0]), .term(vocabulary.frequent[3]), .prefix("inter"), .prefix("t")] {
                    for (rank, hit) in snapshot.search(query, limit: 2 * ChampionLists.capacity).enumerated() {
                        guard let id = snapshot.id(of: hit.address), model[id] != nil else { continue }
                        if rank % 2 == 0 {
                            writer.delete(ids: [id])
                            model[id] = nil
                        } else {
                            try upsert(id)
                        }
                    }
                }
            }
        }
        let reference = Reference(model, fields: fields)
        var queries = targetedQueries(&g, vocabulary, fields: fields, texts: texts)
        queries += (0..<240).map { _ in randomQuery(&g, vocabulary, depth: 2, fields: fields, texts: texts) }
        check(snapshot, reference, queries, label: "final", coverage: &coverage, &g)
        assertCovered(snapshot, coverage, merged: merged, fields: fields)
    }

    /// The structures the test is for were built and the shortcut paths answered: a failure here means the corpus
    /// no longer exercises them (the thresholds moved), not that the engine is wrong.
    func assertCovered(_ snapshot: IndexSnapshot, _ coverage: Coverage, merged: Bool, fields: Fields) {
        let segments = snapshot.segments
        XCTAssertGreaterThanOrEqual(segments.count, 3, "several segments")
        XCTAssertTrue(merged, "a commit merged segments")
        XCTAssertTrue(zip(segments, snapshot.live).contains { $0.documentCount > $1.cardinality }, "tombstones")
        // Multi-block postings: a term with several 128-document blocks in the body of some segment.
        let widest = segments.compactMap { $0.terms(fields.body)?.docFreq.max() }.max() ?? 0
        XCTAssertGreaterThan(Int(widest), 4 * Segment.blockSize, "multi-block postings")
        // ... and terms of a few blocks, too rare for a frequency column: a conjunction seeks them through the skips.
        XCTAssertTrue(segments.contains { segment in
            let docFreq = segment.terms(fields.body)?.docFreq ?? []
            return docFreq.contains { $0 > 2 * Segment.blockSize && $0 < FrequencyColumn.minimumDocuments }
        }, "multi-block postings without a column")
        // Wide-prefix lists, non-ASCII ones among them, some of several blocks.
        let prefixKeys = segments.flatMap(\.prefixKeysBuilt)
        XCTAssertFalse(prefixKeys.isEmpty, "prefix lists")
        XCTAssertTrue(prefixKeys.contains { $0.bytes.contains { $0 >= 0x80 } },
                      "non-ASCII prefix lists: \(prefixKeys.map { String(decoding: $0.bytes, as: UTF8.self) })")
        let multiBlockList = segments.contains { segment in
            segment.prefixKeysBuilt.contains { key in
                guard let terms = segment.terms(FieldID(rawValue: UInt16(key.field))) else { return false }
                return key.bytes.withUnsafeBufferPointer { bytes in
                    let list = segment.prefixList(field: key.field, key: bytes, terms: terms, range: terms.prefixRange(bytes),
                                                  primary: key.primary)
                    return (list?.blockLastDoc.count ?? 0) > 1
                }
            }
        }
        XCTAssertTrue(multiBlockList, "a prefix list of several blocks")
        XCTAssertTrue(segments.contains { !$0.columnKeysBuilt.isEmpty }, "frequency columns")
        XCTAssertTrue(segments.contains { $0.positionColumnMemoryBytes > 0 }, "position columns")
        XCTAssertTrue(segments.contains { !($0.championLists?.keysBuilt.terms.isEmpty ?? true) }, "champion lists of terms")
        XCTAssertTrue(segments.contains { !($0.championLists?.keysBuilt.prefixes.isEmpty ?? true) }, "champion lists of prefixes")
        XCTAssertGreaterThan(coverage.championVouched, 0, "champion lists answered: \(coverage)")
        XCTAssertGreaterThan(coverage.championFellBack, 0, "champion lists that could not vouch: \(coverage)")
        XCTAssertGreaterThan(coverage.conjunctionCovers, 0, "champion covers answered: \(coverage)")
        XCTAssertGreaterThan(coverage.coverPhrases, 0, "phrase covers answered: \(coverage)")
        XCTAssertGreaterThan(coverage.bestFirstPhrases, 0, "best-first phrases answered: \(coverage)")
    }
}
