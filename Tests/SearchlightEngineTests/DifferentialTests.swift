import XCTest
@testable import SearchlightEngine

/// Seeded random corpora and queries: every operator is checked against a naive reference that scans
/// the analyzed documents directly, and ranked top-k against the full ranked match set.
final class DifferentialTests: XCTestCase {
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
        mutating func chance(_ p: Double) -> Bool { Double(next() % 1000) / 1000 < p }
    }

    static let vocabulary = ["apple", "apply", "ample", "banana", "band", "bandana", "cat", "cart", "dog", "dot",
                             "elephant", "elegant", "zebra", "Report.Numbers", "MyWindow", "中文字", "Café", "cafe",
                             "x11", "alpha", "alphabet"]
    static let domains = ["a", "a.b", "a.b.c", "ab", "b", "b.a"]

    struct ReferenceDocument {
        let id: String
        let domain: String?
        var fieldTokens: [FieldID: [(String, Int)]]
        var numbers: [Double]
    }

    struct Fields {
        let title: FieldID, body: FieldID, tags: FieldID, number: FieldID

        /// The fields every differential corpus uses, registered in `writer`.
        static func register(in writer: IndexWriter) throws -> Fields {
            Fields(title: try writer.registerField("title", .text(weight: 3, primary: true)),
                   body: try writer.registerField("body", .text(weight: 1)),
                   tags: try writer.registerField("tags", .text(weight: 2, searchableByDefault: false)),
                   number: try writer.registerField("number", .numeric))
        }
    }

    func makeDocument(_ g: inout Generator, id: String, fields: Fields) -> Document {
        var values: [(FieldID, FieldValue)] = []
        let words = { (g: inout Generator, n: Int) in (0..<n).map { _ in g.pick(Self.vocabulary) }.joined(separator: " ") }
        values.append((fields.title, .text(words(&g, 1 + g.int(2)))))
        if g.chance(0.8) { values.append((fields.body, .text(words(&g, 1 + g.int(8))))) }
        if g.chance(0.3) { values.append((fields.body, .text(words(&g, 1 + g.int(3))))) }
        if g.chance(0.5) { values.append((fields.tags, .text(words(&g, 1)))) }
        for _ in 0..<g.int(3) { values.append((fields.number, .number(Double(g.int(20))))) }
        return Document(id: id, domain: g.chance(0.8) ? g.pick(Self.domains) : nil, values: values)
    }

    static func reference(_ document: Document, fields: Fields) -> ReferenceDocument {
        let analyzer = Analyzer()
        var tokens: [FieldID: [(String, Int)]] = [:]
        var numbers: [Double] = []
        var next: [FieldID: Int] = [:]
        for (field, value) in document.values {
            switch value {
            case .text(let text) where field != fields.number:
                let first = next[field].map { $0 + Int(SegmentBuilder.valueGap) } ?? 0
                let analyzed = analyzer.tokens(text)
                tokens[field, default: []] += analyzed.map { ($0.term, $0.position + first) }
                next[field] = first + (analyzed.map(\.position).max().map { $0 + 1 } ?? 0)
            case .number(let n): numbers.append(n)
            default: break
            }
        }
        return ReferenceDocument(id: document.id, domain: document.domain, fieldTokens: tokens, numbers: numbers)
    }

    /// The characters of `bytes`, as edits count them: Unicode scalars. Bytes that are not UTF-8 (only the byte
    /// tests make them) split as the fuzzy walk splits any bytes: a lead byte with the continuation bytes its value
    /// announces, a stray byte alone; such a piece that is not a character stands for itself.
    static func characters(_ bytes: [UInt8]) -> [UInt32] {
        var result: [UInt32] = []
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            let length = lead >= 0xF8 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            let piece = Array(bytes[i..<min(i + length, bytes.count)])
            i += piece.count
            if let scalar = String(validating: piece, as: UTF8.self)?.unicodeScalars.first {
                result.append(scalar.value)
            } else {
                result.append(0x8000_0000 | piece.reduce(0) { $0 << 8 | UInt32($1) })
            }
        }
        return result
    }

    /// Whether `a` is within `budget` typo edits of `b` (the query), as the fuzzy walk counts them: optimal string
    /// alignment in characters (Levenshtein edits, and a swap of two adjacent characters one edit), as Lucene's and
    /// tantivy's Levenshtein automata with transpositions count.
    static func withinEdits(_ a: [UInt8], _ b: [UInt8], _ budget: Int) -> Bool {
        withinEdits(characters(a), characters(b), budget)
    }

    static func withinEdits(_ a: [UInt32], _ b: [UInt32], _ budget: Int) -> Bool {
        abs(a.count - b.count) <= budget && alignment(a, b) <= budget
    }

    /// Optimal string alignment distance: the full table, no band.
    static func alignment(_ a: [UInt32], _ b: [UInt32]) -> Int {
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// Whether some prefix of `term` (whole characters) is within `budget` edits of `query` (`withinEdits`): a
    /// fuzzy prefix match.
    static func prefixWithinEdits(_ term: [UInt32], _ query: [UInt32], _ budget: Int) -> Bool {
        (0...term.count).contains { withinEdits(Array(term[..<$0]), query, budget) }
    }

    static func referenceMatches(_ query: Query, _ doc: ReferenceDocument, scope: [FieldID], fields: Fields) -> Bool {
        let analyzer = Analyzer()
        func terms(_ f: FieldID) -> [(String, Int)] { doc.fieldTokens[f] ?? [] }
        switch query {
        case .term(let text), .phrase(let text):
            let q = analyzer.tokens(text, mode: .query)
            guard let first = q.first else { return false }
            return scope.contains { field in
                let tokens = terms(field)
                return tokens.contains { start in
                    start.0 == first.term && q.allSatisfy { t in
                        tokens.contains { $0.0 == t.term && $0.1 == start.1 + t.position - first.position }
                    }
                }
            }
        case .prefix(let text):
            let p = QueryPlanner.foldedPrefix(text)
            return scope.contains { f in terms(f).contains { $0.0.hasPrefix(p) } }
        case .fuzzy(let text, let edits):
            let t = Array(QueryPlanner.foldedPrefix(text).utf8)
            let budget = edits ?? QueryPlanner.typoBudget(QueryPlanner.foldedPrefix(text))
            return scope.contains { f in terms(f).contains { Self.withinEdits(Array($0.0.utf8), t, budget) } }
        case .fuzzyPrefix(let text, let edits):
            let t = Self.characters(Array(QueryPlanner.foldedPrefix(text).utf8))
            let budget = edits ?? QueryPlanner.typoBudget(QueryPlanner.foldedPrefix(text))
            return scope.contains { f in
                terms(f).contains { Self.prefixWithinEdits(Self.characters(Array($0.0.utf8)), t, budget) }
            }
        case .terms(let list):
            return scope.contains { f in terms(f).contains { list.contains($0.0) } }
        case .and(let clauses): return !clauses.isEmpty && clauses.allSatisfy { referenceMatches($0, doc, scope: scope, fields: fields) }
        case .or(let clauses): return clauses.contains { referenceMatches($0, doc, scope: scope, fields: fields) }
        case .not(let a, let b):
            return referenceMatches(a, doc, scope: scope, fields: fields) && !referenceMatches(b, doc, scope: scope, fields: fields)
        case .scoped(let s, let inner):
            let newScope: [FieldID]
            switch s {
            case .defaultFields: newScope = [fields.title, fields.body]
            case .field(let f): newScope = [f]
            case .fields(let fs): newScope = fs
            }
            return referenceMatches(inner, doc, scope: newScope, fields: fields)
        case .range(_, let lower, let upper):
            return doc.numbers.contains { NumericBound.contains($0, lower: lower, upper: upper) }
        case .all: return true
        case .none: return false
        case .boost(let inner, _): return referenceMatches(inner, doc, scope: scope, fields: fields)
        case .documents: return false
        }
    }

    func randomQuery(_ g: inout Generator, depth: Int, fields: Fields) -> Query {
        let word = { (g: inout Generator) -> String in g.pick(Self.vocabulary) }
        let leafKinds = 8
        let kind = depth <= 0 ? g.int(leafKinds) : g.int(leafKinds + 5)
        switch kind {
        case 0, 1: return .term(word(&g))
        case 2: return .prefix(String(word(&g).prefix(1 + g.int(4))))
        case 3: return .phrase(word(&g) + " " + word(&g))
        case 4: return .fuzzy(word(&g), maxEdits: g.chance(0.5) ? nil : g.int(3))
        case 5: return .range(fields.number, lower: g.chance(0.3) ? nil : (g.chance(0.5) ? .inclusive(Double(g.int(20))) : .exclusive(Double(g.int(20)))),
                              upper: g.chance(0.3) ? nil : (g.chance(0.5) ? .inclusive(Double(g.int(20))) : .exclusive(Double(g.int(20)))))
        case 6: return g.chance(0.5) ? .all : .term(word(&g))
        case 7: return .terms([Folding.fold(word(&g)), Folding.fold(word(&g))])
        case 8, 9: return .and((0..<(2 + g.int(2))).map { _ in randomQuery(&g, depth: depth - 1, fields: fields) })
        case 10: return .or((0..<(2 + g.int(2))).map { _ in randomQuery(&g, depth: depth - 1, fields: fields) })
        case 11: return .not(randomQuery(&g, depth: depth - 1, fields: fields), excluding: randomQuery(&g, depth: depth - 1, fields: fields))
        default:
            let scope: FieldScope = g.pick([.field(fields.title), .field(fields.tags), .fields([fields.body, fields.tags]), .defaultFields])
            return .scoped(scope, randomQuery(&g, depth: depth - 1, fields: fields))
        }
    }

    func testRandomizedAgainstReference() throws {
        try randomizedAgainstReference(mergesInBackground: false)
    }

    /// Merges on another thread, installed by the next commit with the deletes made meanwhile; rollbacks and
    /// delete-all while a merge runs.
    func testRandomizedAgainstReferenceWithBackgroundMerges() throws {
        try randomizedAgainstReference(mergesInBackground: true)
    }

    private func randomizedAgainstReference(mergesInBackground: Bool) throws {
        for seed in 1...12 {
            var g = Generator(state: UInt64(seed) * 7919)
            let writer = IndexWriter()
            writer.mergesInBackground = mergesInBackground
            writer.mergePolicy = MergePolicy(maxSegments: 3, mergeFactor: 2, maxDeletedFraction: 0.4)
            let fields = try Fields.register(in: writer)
            var model: [String: ReferenceDocument] = [:]
            var committed = model
            // Committed, so a rollback before the first batch's commit keeps them.
            var snapshot = try writer.commit()
            for step in 0..<(60 + g.int(60)) {
                switch g.int(10) {
                case 0...5:
                    let id = "d\(g.int(40))"
                    let document = makeDocument(&g, id: id, fields: fields)
                    try writer.upsert(document)
                    model[id] = Self.reference(document, fields: fields)
                case 6:
                    let id = "d\(g.int(40))"
                    writer.delete(ids: [id])
                    model[id] = nil
                case 7:
                    let domain = g.pick(Self.domains)
                    writer.delete(domains: [domain])
                    model = model.filter { _, doc in !(doc.domain.map { $0 == domain || $0.hasPrefix(domain + ".") } ?? false) }
                case 8 where mergesInBackground && g.int(3) == 0:
                    writer.rollback()
                    model = committed
                case 9 where mergesInBackground && g.int(8) == 0:
                    writer.deleteAll()
                    model = [:]
                default:
                    snapshot = try writer.commit()
                    committed = model
                }
                if step % 7 == 0 { try check(snapshot, committed, &g, fields: fields, seed: seed) }
            }
            snapshot = try writer.commit()
            try check(snapshot, model, &g, fields: fields, seed: seed)
        }
    }

    /// A plan memo serves the snapshot it was made for: its leaf plans are reused there, and a newer snapshot
    /// (a term's postings changed) plans afresh instead of reading the old places.
    func testPlanMemoServesOneSnapshot() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        try writer.upsert(Document(id: "a", values: [(title, .text("apple pie"))]))
        let first = try writer.commit()
        let memo = PlanMemo(for: first)
        XCTAssertEqual(first.search(.term("apple"), options: SearchOptions(limit: 10, memo: memo)).count, 1)
        XCTAssertEqual(memo.count, 1)
        XCTAssertEqual(first.search(.and([.term("apple"), .prefix("pi")]), options: SearchOptions(limit: 10, memo: memo)).count, 1)
        XCTAssertEqual(memo.count, 2, "the term's plan is reused, the prefix's added")
        try writer.upsert(Document(id: "b", values: [(title, .text("apple tart"))]))
        let second = try writer.commit()
        let hits = second.search(.term("apple"), options: SearchOptions(limit: 10, memo: memo))
        XCTAssertEqual(Set(hits.compactMap { second.id(of: $0.address) }), ["a", "b"])
        XCTAssertEqual(memo.count, 2, "another snapshot does not use the memo")
        XCTAssertEqual(second.maximumMatches(.term("apple")), 2)
        XCTAssertEqual(second.maximumMatches(.and([.term("apple"), .term("tart")])), 1)
        XCTAssertEqual(second.maximumMatches(.term("cherry")), 0)
    }

    /// 1,500 random documents in three committed segments, with multi-block posting lists (more than 128
    /// documents per term) so block-max pruning really skips; the last commit is the caller's.
    func pruningCorpus(_ g: inout Generator) throws -> (IndexWriter, Fields) {
        let writer = IndexWriter()
        let fields = try Fields.register(in: writer)
        for i in 0..<1500 {
            try writer.upsert(makeDocument(&g, id: "d\(i)", fields: fields))
            if i % 500 == 499 { _ = try writer.commit() }
        }
        return (writer, fields)
    }

    /// Multi-block posting lists (more than 128 documents per term) so block-max pruning really skips.
    func testTopKWithBlockMaxPruningEqualsFullRanking() throws {
        var g = Generator(state: 42)
        let (writer, fields) = try pruningCorpus(&g)
        let snapshot = try writer.commit()
        let words = Self.vocabulary
        var queries: [Query] = words.map { .term($0) } + words.map { .prefix(String($0.prefix(2))) }
        // Three fields per term: exercises the per-source (MaxScore) pruning of term groups.
        let allFields: FieldScope = .fields([fields.title, fields.body, fields.tags])
        queries += words.map { .scoped(allFields, .term($0)) }
        queries += words.map { .scoped(allFields, .phrase($0 + " " + g.pick(words))) }
        queries += words.map { .scoped(allFields, .prefix(String($0.prefix(3)))) }
        for _ in 0..<30 {
            queries.append(.and([.term(g.pick(words)), .term(g.pick(words))]))
            queries.append(.or([.term(g.pick(words)), .term(g.pick(words)), .prefix(String(g.pick(words).prefix(3)))]))
            queries.append(.phrase(g.pick(words) + " " + g.pick(words)))
            queries.append(.not(.term(g.pick(words)), excluding: .term(g.pick(words))))
            queries.append(.boost(.and([.term(g.pick(words)), .all]), 2))
        }
        for query in queries {
            let full = snapshot.search(query, limit: 100_000)
            XCTAssertEqual(full.count, snapshot.count(query))
            for k in [1, 10, 20] {
                XCTAssertEqual(snapshot.search(query, limit: k), Array(full.prefix(k)), "top-\(k) of \(query)")
            }
        }
    }

    /// Phrases common in two fields at once, over multi-block lists: a phrase passes over candidates whose terms'
    /// frequencies rule them out (`PhraseSource.next(above:through:)`), with a floor that counts what the other
    /// field can still add. Top-k, plain and rescored, must equal the full ranking.
    func testPhraseTopKWithCandidateFloorsEqualsFullRanking() throws {
        var g = Generator(state: 777)
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        let words = ["red", "fox", "blue", "dog"]
        let text = { (g: inout Generator, n: Int) in (0..<n).map { _ in g.pick(words) }.joined(separator: " ") }
        for i in 0..<2_000 {
            var values: [(FieldID, FieldValue)] = [(title, .text(text(&g, 1 + g.int(4))))]
            if g.chance(0.9) { values.append((body, .text(text(&g, 2 + g.int(g.chance(0.2) ? 60 : 12))))) }
            try writer.upsert(Document(id: "p\(i)", domain: nil, values: values))
            if i % 700 == 699 { _ = try writer.commit() }
        }
        let snapshot = try writer.commit()
        var queries: [Query] = []
        for first in words {
            for second in words {
                queries.append(.phrase(first + " " + second))
                queries.append(.scoped(.field(body), .phrase(first + " " + second)))
                queries.append(.phrase(first + " " + second + " " + g.pick(words)))
            }
        }
        // Every seventh document may rise up to ×3 and is named (`lifted`): while one is ahead, the collector passes
        // a lower threshold, from which the floors are set.
        let rescore: @Sendable (DocAddress, Float) -> Float = { address, score in
            score * (address.doc % 7 == 0 ? Float(address.doc % 3 + 1) : Float(address.doc % 5 + 6) / 10)
        }
        var lifted: [DocAddress] = []
        for (segment, bits) in snapshot.live.enumerated() {
            for doc in stride(from: 0, to: bits.count, by: 7) { lifted.append(DocAddress(segment: UInt32(segment), doc: UInt32(doc))) }
        }
        for query in queries {
            let full = snapshot.search(query, limit: 100_000)
            XCTAssertGreaterThan(full.count, 100, "\(query) is common")
            let rescored = full.map { SearchHit(address: $0.address, score: rescore($0.address, $0.score)) }
                .sorted(by: SearchHit.ranksBefore)
            for k in [1, 5, 20] {
                XCTAssertEqual(snapshot.search(query, limit: k), Array(full.prefix(k)), "top-\(k) of \(query)")
                var options = SearchOptions(limit: k, rescore: rescore, rescoreCeiling: 1)
                options.lifted = lifted
                options.liftedCeiling = 3
                XCTAssertEqual(snapshot.search(query, options: options), Array(rescored.prefix(k)), "rescored top-\(k) of \(query)")
            }
        }
    }

    /// Near ties under a rescore that reaches its ceiling: a word once in documents of 60 to 127 words (exact norms,
    /// about 0.4% apart per word of length), every score doubled with a ceiling of 2, so the block bounds stay as
    /// tight after the rescore as before. The hits are those of rescoring every match. A block skipped with 1% too
    /// little margin passed every other test; it fails this one.
    func testRescoreWhileCollectingKeepsNearTies() throws {
        let snapshot = try RankedPathFixtures.nearTies(documents: 3_000, seed: 0x7E21) { g, words in
            words.insert("alpha", at: g.int(words.count + 1))
        }
        let rescore: @Sendable (DocAddress, Float) -> Float = { _, score in score * 2 }
        for query in [Query.term("alpha"), .term("f7"), .and([.term("alpha"), .term("f3")])] {
            let full = snapshot.search(query, limit: 100_000)
            XCTAssertGreaterThan(full.count, 1_000, "\(query) is common")
            let rescored = full.map { SearchHit(address: $0.address, score: rescore($0.address, $0.score)) }
                .sorted(by: SearchHit.ranksBefore)
            for k in [1, 5, 20, 100] {
                for championLists in [true, false] {
                    var options = SearchOptions(limit: k, rescore: rescore, rescoreCeiling: 2)
                    options.championLists = championLists
                    XCTAssertEqual(snapshot.search(query, options: options), Array(rescored.prefix(k)),
                                   "rescored top-\(k) of \(query), champion lists \(championLists)")
                }
            }
        }
    }

    /// A rescore with a ceiling is applied while collecting, pruning on rescored scores: the hits must be those
    /// of rescoring every match, for documents the ceiling covers and for named ones it does not (`lifted`).
    func testRescoreWhileCollectingEqualsRescoringEveryMatch() throws {
        var g = Generator(state: 4242)
        let (writer, fields) = try pruningCorpus(&g)
        writer.delete(ids: ["d3", "d700", "d1499"])
        let snapshot = try writer.commit()
        @Sendable func hash(_ address: DocAddress) -> UInt64 {
            var h = Generator(state: UInt64(address.segment) << 32 | UInt64(address.doc))
            return h.next()
        }
        // Every seventh document (by hash) may rise up to ×3; the others by at most ×1.2, some falling.
        let isLifted = { (address: DocAddress) in hash(address) % 7 == 0 }
        let rescore: @Sendable (DocAddress, Float) -> Float = { address, score in
            let h = hash(address)
            return score * (h % 7 == 0 ? Float(h % 30 + 1) / 10 : Float(h % 8 + 5) / 10)
        }
        var lifted: [DocAddress] = []
        for (segment, bits) in snapshot.live.enumerated() {
            for doc in 0..<bits.count {
                let address = DocAddress(segment: UInt32(segment), doc: UInt32(doc))
                if isLifted(address) { lifted.append(address) }
            }
        }
        let words = Self.vocabulary
        var queries: [Query] = words.map { .term($0) } + words.map { .prefix(String($0.prefix(2))) }
        let allFields: FieldScope = .fields([fields.title, fields.body, fields.tags])
        queries += words.map { .scoped(allFields, .term($0)) }
        queries += words.map { .scoped(allFields, .prefix(String($0.prefix(3)))) }
        for _ in 0..<30 {
            queries.append(.and([.term(g.pick(words)), .term(g.pick(words))]))
            queries.append(.or([.term(g.pick(words)), .term(g.pick(words)), .prefix(String(g.pick(words).prefix(3)))]))
            queries.append(.phrase(g.pick(words) + " " + g.pick(words)))
            queries.append(.and([.or([.term(g.pick(words)), .boost(.fuzzy(g.pick(words), maxEdits: nil), 0.3)]),
                                 .prefix(String(g.pick(words).prefix(2)))]))
        }
        // Negative boosts make negative scores, whose rescores rise towards 0 (the review's case).
        for word in words.prefix(6) {
            queries.append(.boost(.term(word), -1))
            queries.append(.or([.term(g.pick(words)), .boost(.term(word), -2)]))
        }
        var compared = 0
        for query in queries {
            let everything = snapshot.search(query, limit: 100_000)
            let rescored = everything.map { SearchHit(address: $0.address, score: rescore($0.address, $0.score)) }
                .sorted(by: SearchHit.ranksBefore)
            for k in [1, 5, 20] {
                let expected = Array(rescored.prefix(k))
                var named = SearchOptions(limit: k, rescore: rescore, rescoreCeiling: 1.2)
                named.lifted = lifted
                named.liftedCeiling = 3
                XCTAssertEqual(snapshot.search(query, options: named), expected, "top-\(k) of \(query), lifted named")
                let wide = SearchOptions(limit: k, rescore: rescore, rescoreCeiling: 3)
                XCTAssertEqual(snapshot.search(query, options: wide), expected, "top-\(k) of \(query), one ceiling")
                compared += 1
            }
        }
        XCTAssertEqual(compared, queries.count * 3)
    }

    func check(_ snapshot: IndexSnapshot, _ model: [String: ReferenceDocument], _ g: inout Generator, fields: Fields, seed: Int) throws {
        XCTAssertEqual(snapshot.documentCount, model.count, "seed \(seed)")
        for (id, _) in model.prefix(5) {
            let address = try XCTUnwrap(snapshot.lookup(id: id), "seed \(seed) lookup \(id)")
            XCTAssertEqual(snapshot.id(of: address), id)
        }
        for _ in 0..<25 {
            let query = randomQuery(&g, depth: 2, fields: fields)
            let expected = Set(model.values.filter { Self.referenceMatches(query, $0, scope: [fields.title, fields.body], fields: fields) }.map(\.id))
            let matches = snapshot.matches(query)
            let actual = matches.compactMap { snapshot.id(of: $0) }
            XCTAssertEqual(Set(actual), expected, "seed \(seed) query \(query)")
            XCTAssertEqual(actual.count, Set(actual).count, "duplicates for \(query)")
            XCTAssertEqual(snapshot.count(query), expected.count)
            XCTAssertEqual(matches, matches.sorted())
            let full = snapshot.search(query, limit: 1000)
            XCTAssertEqual(Set(full.compactMap { snapshot.id(of: $0.address) }), expected, "ranked set, query \(query)")
            let k = 1 + g.int(5)
            let top = snapshot.search(query, limit: k)
            XCTAssertEqual(top, Array(full.prefix(k)), "top-\(k) of \(query)")
            XCTAssertGreaterThanOrEqual(snapshot.maximumMatches(query), expected.count, "bound of \(query)")
            // Plans kept in a memo (the bound plans into it first) give the same hits, searched twice.
            let memo = PlanMemo(for: snapshot)
            _ = snapshot.maximumMatches(query, memo: memo)
            for _ in 0..<2 {
                XCTAssertEqual(snapshot.search(query, options: SearchOptions(limit: k, memo: memo)), top, "memo, \(query)")
            }
            for hit in top.prefix(2) {
                let explanation = snapshot.explain(query, hit.address)
                XCTAssertNotNil(explanation)
                XCTAssertEqual(explanation?.value ?? -1, hit.score, accuracy: 1e-4 * max(1, hit.score))
            }
        }
    }

    /// Exact and prefix lookups narrowed by the sampled keys find what a scan of the sorted terms finds:
    /// terms sharing eight bytes or more, shorter than eight, empty, and holding bytes 0x00 and 0xFF.
    func testSampledLookupsEqualScan() {
        var g = Generator(state: 8128)
        let alphabet: [UInt8] = [0x00, 0x01, 0x61, 0x62, 0xC3, 0xFF]
        let stems: [[UInt8]] = [[], Array("libghc-".utf8), Array("libghc-aeson".utf8), [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
                                [0x61, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], Array("ab".utf8)]
        for round in 0..<30 {
            var words = Set<[UInt8]>(g.chance(0.5) ? [[]] : [])
            for _ in 0..<(40 + g.int(1500)) {
                words.insert(g.pick(stems) + (0..<g.int(6)).map { _ in g.pick(alphabet) })
            }
            let sorted = words.sorted { $0.lexicographicallyPrecedes($1) }
            let sampled = Self.dictionary(sorted, runIndexMinimum: 0)
            XCTAssertEqual(sampled.samples.count, (sorted.count + FieldTerms.sampleStride - 1) / FieldTerms.sampleStride)
            XCTAssertTrue(Self.dictionary(sorted).samples.isEmpty || sorted.count >= RunIndex.minimumTerms)
            for _ in 0..<60 {
                // Keys near the terms: a term, a term cut short or extended, or random bytes.
                var key: [UInt8]
                switch g.int(3) {
                case 0: key = g.pick(sorted)
                case 1: key = Array(g.pick(sorted).prefix(g.int(10))) + (g.chance(0.5) ? [g.pick(alphabet)] : [])
                default: key = g.pick(stems) + (0..<g.int(4)).map { _ in g.pick(alphabet) }
                }
                let expectedBound = sorted.firstIndex { !$0.lexicographicallyPrecedes(key) } ?? sorted.count
                let expectedPrefix = sorted.indices.filter { sorted[$0].starts(with: key) }
                key.withUnsafeBufferPointer { buffer in
                    XCTAssertEqual(sampled.lowerBound(buffer), expectedBound, "round \(round): \(key)")
                    XCTAssertEqual(sampled.find(buffer), sorted.firstIndex(of: key), "round \(round): \(key)")
                    let range = sampled.prefixRange(buffer)
                    XCTAssertEqual(Array(range), expectedPrefix, "round \(round): prefix \(key)")
                }
            }
        }
    }

    /// The run index agrees with the binary searches at the byte extremes: an empty term, one-byte terms
    /// between longer ones, bytes 0x00 and 0xFF (the last first-byte run ends at the dictionary's end).
    func testFuzzyRunIndexAtByteExtremes() {
        var g = Generator(state: 7)
        let alphabet: [UInt8] = [0x00, 0x01, 0x61, 0xC3, 0xFE, 0xFF]
        for round in 0..<20 {
            var words = Set<[UInt8]>(g.chance(0.5) ? [[]] : [])
            for _ in 0..<(20 + g.int(300)) {
                words.insert((0..<(1 + g.int(6))).map { _ in g.pick(alphabet) })
            }
            let sorted = words.sorted { $0.lexicographicallyPrecedes($1) }
            let indexed = Self.dictionary(sorted, runIndexMinimum: 0)
            checkFuzzy(indexed, sorted, &g, alphabet: alphabet, queries: 30, maxLength: 5, "round \(round)")
        }
    }

    /// `terms.fuzzy` finds exactly what a brute-force count of edits (`withinEdits`) finds among `sorted` (its
    /// terms), for random queries of up to `maxLength` bytes of `alphabet` and budgets 0 to 2.
    func checkFuzzy<T: SortedTerms>(_ terms: T, _ sorted: [[UInt8]], _ g: inout Generator, alphabet: [UInt8], queries: Int,
                                    maxLength: Int, _ label: String) {
        for _ in 0..<queries {
            let query = (0..<g.int(maxLength + 1)).map { _ in g.pick(alphabet) }
            let edits = g.int(3)
            let expected = sorted.indices.filter { Self.withinEdits(sorted[$0], query, edits) }
            XCTAssertEqual(terms.fuzzy(query, maxEdits: edits), expected, "\(label): \(query) ~\(edits)")
        }
    }

    /// The dictionary's fuzzy walk (shared-prefix rows, pruned runs skipped by galloping) finds exactly the
    /// terms a brute-force count of edits finds (`withinEdits`), on dense dictionaries of short terms over a
    /// small alphabet (long runs sharing a prefix, so the skips are exercised at every depth).
    func testFuzzyDictionaryWalkEqualsBruteForce() {
        var g = Generator(state: 2026)
        for round in 0..<20 {
            let alphabet = Array("abcde".utf8.prefix(2 + g.int(4)))
            var words = Set<[UInt8]>()
            for _ in 0..<(50 + g.int(400)) {
                words.insert((0..<(1 + g.int(9))).map { _ in g.pick(alphabet) })
            }
            let sorted = words.sorted { $0.lexicographicallyPrecedes($1) }
            // Walked with binary searches only, and with the run index of the first two bytes.
            let plain = Self.dictionary(sorted, runIndexMinimum: .max)
            let indexed = Self.dictionary(sorted, runIndexMinimum: 0)
            XCTAssertNil(plain.runs)
            XCTAssertNotNil(indexed.runs)
            for _ in 0..<30 {
                let query = (0..<(g.int(8))).map { _ in g.pick(alphabet) }
                let edits = g.int(3)
                let expected = sorted.indices.filter { Self.withinEdits(sorted[$0], query, edits) }
                XCTAssertEqual(plain.fuzzy(query, maxEdits: edits), expected, "round \(round): \(query) ~\(edits)")
                XCTAssertEqual(indexed.fuzzy(query, maxEdits: edits), expected, "round \(round): \(query) ~\(edits) (run index)")
            }
        }
    }

    /// Edits count characters, not bytes, as the typo budget does: over an alphabet of one- to four-byte
    /// characters, several sharing their lead bytes (é è, ж б, € ₽, two emoji), the walk finds exactly what a
    /// count of character edits finds, plain, with the run index, and through a vocabulary's filter.
    func testFuzzyWalkCountsCharactersNotBytes() {
        var g = Generator(state: 5150)
        let characters = ["a", "b", "é", "è", "ж", "б", "€", "₽", "😀", "😁"].map { Array($0.utf8) }
        for round in 0..<16 {
            let alphabet = Array(characters.prefix(4 + g.int(7)))
            var words = Set<[UInt8]>()
            let wanted = round < 12 ? 50 + g.int(400) : TermBloom.minimumTerms + g.int(1_000)
            while words.count < wanted {
                words.insert((0..<(1 + g.int(7))).flatMap { _ in g.pick(alphabet) })
            }
            let sorted = words.sorted { $0.lexicographicallyPrecedes($1) }
            let plain = Self.dictionary(sorted, runIndexMinimum: .max)
            let indexed = Self.dictionary(sorted, runIndexMinimum: 0)
            let vocabulary = SegmentVocabulary(scope: [1, 2], dictionaries: [indexed, nil], filterMinimum: 0)
            for _ in 0..<30 {
                let query = (0..<g.int(8)).flatMap { _ in g.pick(alphabet) }
                let edits = g.int(3)
                let expected = sorted.indices.filter { Self.withinEdits(sorted[$0], query, edits) }
                let label = "round \(round): \(String(decoding: query, as: UTF8.self)) ~\(edits)"
                XCTAssertEqual(plain.fuzzy(query, maxEdits: edits), expected, label)
                XCTAssertEqual(indexed.fuzzy(query, maxEdits: edits), expected, label + " (run index)")
                XCTAssertEqual(vocabulary.fuzzy(query, maxEdits: edits), expected, label + " (filter)")
            }
        }
    }

    /// The walk's prefix mode finds exactly the terms some prefix of which is within the budget (brute force: the
    /// least edits over a term's prefixes, a swap of adjacent characters one edit, as the
    /// whole-word walk counts it), as disjoint runs each under its near prefix: over ASCII and multi-byte
    /// alphabets, plain, with the run index and through a vocabulary's cache, 480 seeded queries.
    func testFuzzyPrefixWalkEqualsBruteForce() {
        var g = Generator(state: 3031)
        let ascii = ["a", "b", "c", "d"].map { Array($0.utf8) }
        let wide = ["a", "b", "é", "è", "ж", "€", "😀"].map { Array($0.utf8) }
        var matched = 0
        for round in 0..<16 {
            let characters = round.isMultiple(of: 2) ? ascii : wide
            let alphabet = Array(characters.prefix(3 + g.int(characters.count - 2)))
            var words = Set<[UInt8]>()
            for _ in 0..<(30 + g.int(400)) { words.insert((0..<(1 + g.int(8))).flatMap { _ in g.pick(alphabet) }) }
            let sorted = words.sorted { $0.lexicographicallyPrecedes($1) }
            let plain = Self.dictionary(sorted, runIndexMinimum: .max)
            let indexed = Self.dictionary(sorted, runIndexMinimum: 0)
            let vocabulary = SegmentVocabulary(scope: [1, 2], dictionaries: [indexed, nil])
            for _ in 0..<30 {
                let query = (0..<g.int(7)).flatMap { _ in g.pick(alphabet) }
                let edits = g.int(3)
                let label = "round \(round): \(String(decoding: query, as: UTF8.self)) ~\(edits)"
                let units = Self.characters(query)
                let expected = sorted.indices.filter { Self.prefixWithinEdits(Self.characters(sorted[$0]), units, edits) }
                matched += expected.count
                let found = plain.fuzzyPrefixes(query, maxEdits: edits)
                XCTAssertEqual(found.flatMap { Array($0.terms) }, expected, label)
                XCTAssertEqual(indexed.fuzzyPrefixes(query, maxEdits: edits), found, label + " (run index)")
                XCTAssertEqual(vocabulary.nearPrefixes(query, maxEdits: edits), found, label + " (vocabulary)")
                XCTAssertEqual(vocabulary.nearPrefixes(query, maxEdits: edits), found, label + " (cached)")
                for prefix in found {
                    // Each run is every term under its prefix, which is within the budget.
                    let bytes = Array(sorted[prefix.terms.lowerBound].prefix(prefix.length))
                    XCTAssertEqual(Array(sorted.indices.filter { sorted[$0].starts(with: bytes) }), Array(prefix.terms), label)
                    XCTAssertTrue(Self.withinEdits(Self.characters(bytes), units, edits), label + ": \(bytes)")
                }
            }
        }
        XCTAssertGreaterThan(matched, 2_000, "the queries were too far from the terms to test anything")
    }

    /// A segment's vocabulary of several fields is the sorted union of their dictionaries, each term marked
    /// with exactly the fields holding it, and its one fuzzy walk finds the near terms of every field.
    func testSegmentVocabularyIsTheUnionOfItsDictionaries() {
        var g = Generator(state: 4242)
        for round in 0..<20 {
            let alphabet = Array("abcd".utf8.prefix(2 + g.int(3)))
            let fieldCount = 1 + g.int(4)
            var fieldWords: [Set<[UInt8]>?] = []
            for _ in 0..<fieldCount {
                guard g.chance(0.8) else { fieldWords.append(nil); continue }
                var words = Set<[UInt8]>()
                for _ in 0..<(1 + g.int(200)) { words.insert((0..<(1 + g.int(7))).map { _ in g.pick(alphabet) }) }
                fieldWords.append(words)
            }
            let dictionaries = fieldWords.map { words in
                words.map { Self.dictionary($0.sorted { $0.lexicographicallyPrecedes($1) }) }
            }
            let scope = (0..<fieldCount).map { 10 + 3 * $0 }
            let filtered = g.chance(0.5)
            let vocabulary = SegmentVocabulary(scope: scope, dictionaries: dictionaries, runIndexMinimum: g.chance(0.5) ? 0 : .max,
                                               filterMinimum: filtered ? 0 : .max)
            XCTAssertEqual(vocabulary.bloom != nil, filtered)
            let union = fieldWords.reduce(into: Set<[UInt8]>()) { $0.formUnion($1 ?? []) }
                .sorted { $0.lexicographicallyPrecedes($1) }
            let terms = (0..<vocabulary.count).map { index in vocabulary.withTerm(index) { Array($0) } }
            XCTAssertEqual(terms, union, "round \(round)")
            for (index, term) in terms.enumerated() {
                let expected = fieldWords.enumerated().reduce(UInt32(0)) { mask, field in
                    field.element?.contains(term) == true ? mask | 1 << UInt32(field.offset) : mask
                }
                XCTAssertEqual(vocabulary.fields[index], expected, "round \(round): fields of \(term)")
            }
            checkFuzzy(vocabulary, union, &g, alphabet: alphabet, queries: 20, maxLength: 6, "round \(round)")
        }
    }

    /// The fuzzy walk with the vocabulary's filter finds exactly what brute force finds, on vocabularies large
    /// enough to get one by default and dense enough (four letters, terms up to ten) that most prefixes spend
    /// their budget and ask the filter; the filter itself never rejects a term and rarely admits another.
    func testFuzzyWalkWithTheTermFilterEqualsBruteForce() throws {
        var g = Generator(state: 1999)
        for round in 0..<4 {
            let alphabet = Array("abcd".utf8)
            var words = Set<[UInt8]>()
            let wanted = TermBloom.minimumTerms + g.int(3_000)
            while words.count < wanted { words.insert((0..<(1 + g.int(10))).map { _ in g.pick(alphabet) }) }
            let sorted = words.sorted { $0.lexicographicallyPrecedes($1) }
            let vocabulary = SegmentVocabulary(scope: [1, 2], dictionaries: [Self.dictionary(sorted), nil])
            let filter = try XCTUnwrap(vocabulary.bloom, "round \(round)")
            XCTAssertTrue(sorted.allSatisfy { filter.mayContain(TermBloom.hash($0)) }, "no false negative")
            var admitted = 0, absent = 0
            while absent < 2_000 {
                let other = (0..<(11 + g.int(4))).map { _ in g.pick(alphabet) }  // longer than any term
                absent += 1
                if filter.mayContain(TermBloom.hash(other)) { admitted += 1 }
            }
            XCTAssertLessThan(admitted, 100, "round \(round): false positives")
            checkFuzzy(vocabulary, sorted, &g, alphabet: alphabet, queries: 25, maxLength: 10, "round \(round)")
        }
    }

    /// The k-way merge of sorted term lists yields every distinct term once, in byte order, with exactly the
    /// lists holding it (in list order) and its index in each: up to 12 lists, some empty, over a tiny alphabet.
    func testTermListMergeEqualsSortedUnion() {
        var g = Generator(state: 606)
        for round in 0..<30 {
            var lists: [[[UInt8]]] = []
            for _ in 0..<(1 + g.int(12)) {
                var words = Set<[UInt8]>(g.chance(0.2) ? [[]] : [])
                for _ in 0..<g.int(60) { words.insert((0..<(1 + g.int(4))).map { _ in g.pick(Array("abc".utf8)) }) }
                lists.append(words.sorted { $0.lexicographicallyPrecedes($1) })
            }
            let union = lists.reduce(into: Set<[UInt8]>()) { $0.formUnion($1) }.sorted { $0.lexicographicallyPrecedes($1) }
            var merged: [[UInt8]] = []
            TermListMerge.merge(lists.map { Self.dictionary($0) }) { term, holders in
                let word = Array(term)
                merged.append(word)
                let expected = lists.indices.compactMap { l in lists[l].firstIndex(of: word).map { (l, $0) } }
                XCTAssertEqual(holders.map(\.list), expected.map(\.0), "round \(round): lists of \(word)")
                XCTAssertEqual(holders.map(\.index), expected.map(\.1), "round \(round): indices of \(word)")
            }
            XCTAssertEqual(merged, union, "round \(round)")
        }
    }

    /// Exact and prefix lookups narrowed by the run index of the first two bytes agree with a scan of the
    /// sorted terms: keys present and absent, empty, one byte, sharing only a first byte, at the byte extremes
    /// (0x00 and 0xFF), and dictionaries holding the empty term and one-byte terms.
    func testLookupsThroughTheRunIndexEqualAScan() {
        var g = Generator(state: 91)
        let alphabet: [UInt8] = [0x00, 0x01, 0x61, 0x62, 0xC3, 0xFF]
        for round in 0..<30 {
            var words = Set<[UInt8]>(g.chance(0.5) ? [[]] : [])
            for _ in 0..<(1 + g.int(400)) { words.insert((0..<(1 + g.int(5))).map { _ in g.pick(alphabet) }) }
            let sorted = words.sorted { $0.lexicographicallyPrecedes($1) }
            let indexed = Self.dictionary(sorted, runIndexMinimum: 0)
            XCTAssertNotNil(indexed.runs)
            for _ in 0..<60 {
                let key = (0..<g.int(5)).map { _ in g.pick(alphabet) }
                let lower = sorted.firstIndex { !$0.lexicographicallyPrecedes(key) } ?? sorted.count
                let withPrefix = sorted.indices.filter { sorted[$0].starts(with: key) }
                key.withUnsafeBufferPointer { key in
                    XCTAssertEqual(indexed.lowerBound(key), lower, "round \(round): lowerBound \(Array(key))")
                    XCTAssertEqual(indexed.find(key), lower < sorted.count && sorted[lower] == Array(key) ? lower : nil,
                                   "round \(round): find \(Array(key))")
                    XCTAssertEqual(Array(indexed.prefixRange(key)), withPrefix, "round \(round): prefix \(Array(key))")
                }
            }
        }
    }

    /// Galloping from a cursor finds the same place as a binary search over the whole dictionary, for sorted
    /// keys looked up one after another (present, absent, before the first and after the last term).
    func testGallopingLowerBoundEqualsBinarySearch() {
        var g = Generator(state: 77)
        for round in 0..<20 {
            let alphabet = Array("abcd".utf8)
            var words = Set<[UInt8]>()
            for _ in 0..<(1 + g.int(500)) { words.insert((0..<(1 + g.int(6))).map { _ in g.pick(alphabet) }) }
            let sorted = words.sorted { $0.lexicographicallyPrecedes($1) }
            let terms = Self.dictionary(sorted)
            let keys = (0..<(1 + g.int(60))).map { _ in (0..<(g.int(7))).map { _ in g.pick(Array("abcde".utf8)) } }
                .sorted { $0.lexicographicallyPrecedes($1) }
            var cursor = 0
            for key in keys {
                key.withUnsafeBufferPointer { key in
                    cursor = terms.lowerBound(key, from: cursor)
                    XCTAssertEqual(cursor, terms.lowerBound(key), "round \(round)")
                }
            }
        }
    }

    /// A field dictionary of these (sorted, distinct) terms, without postings.
    static func dictionary(_ sorted: [[UInt8]], runIndexMinimum: Int = RunIndex.minimumTerms) -> FieldTerms {
        var bytes: [UInt8] = [], offsets: [UInt32] = [0]
        for word in sorted {
            bytes += word
            offsets.append(UInt32(bytes.count))
        }
        let zeros = [UInt32](repeating: 0, count: sorted.count)
        return FieldTerms(bytes: bytes, offsets: offsets, docFreq: zeros, postingStart: zeros, blockStart: zeros,
                          positionStart: zeros, runIndexMinimum: runIndexMinimum)
    }
}
