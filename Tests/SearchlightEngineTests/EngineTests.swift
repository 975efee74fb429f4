import Foundation
import Synchronization
import XCTest
@testable import SearchlightEngine

final class EngineTests: XCTestCase {
    var writer: IndexWriter!
    var title: FieldID!, body: FieldID!, keywords: FieldID!, size: FieldID!, blob: FieldID!

    override func setUpWithError() throws {
        writer = IndexWriter()
        title = try writer.registerField("title", .text(weight: 4, primary: true))
        body = try writer.registerField("body", .text(weight: 1))
        keywords = try writer.registerField("keywords", .text(weight: 2))
        size = try writer.registerField("size", .numeric)
        blob = try writer.registerField("blob", .stored)
    }

    func doc(_ id: String, _ t: String, _ b: String = "", domain: String? = nil, size s: [Double] = [], keywords k: [String] = []) -> Document {
        var values: [(FieldID, FieldValue)] = [(title, .text(t))]
        if !b.isEmpty { values.append((body, .text(b))) }
        for word in k { values.append((keywords, .text(word))) }
        for n in s { values.append((size, .number(n))) }
        return Document(id: id, domain: domain, values: values)
    }

    func ids(_ snapshot: IndexSnapshot, _ query: Query) -> [String] {
        snapshot.search(query, limit: 100).compactMap { snapshot.id(of: $0.address) }
    }

    /// Terms that occur dozens of times in one document (more positions than a phrase's first buffers
    /// hold): the phrase is found where it lines up, counted once per start, and nowhere else.
    func testPhraseInDocumentsWithManyPositions() throws {
        let repeated = Array(repeating: "alpha beta", count: 40).joined(separator: " ")
        let apart = Array(repeating: "alpha gamma beta", count: 40).joined(separator: " ")
        let late = Array(repeating: "alpha", count: 50).joined(separator: " ") + " beta"
        let twice = "alpha beta " + Array(repeating: "gamma", count: 30).joined(separator: " ") + " alpha beta"
        try writer.upsert(doc("repeated", "x", repeated))
        try writer.upsert(doc("apart", "x", apart))
        try writer.upsert(doc("late", "x", late))
        try writer.upsert(doc("twice", "x", twice))
        let s = try writer.commit()
        XCTAssertEqual(Set(ids(s, .phrase("alpha beta"))), ["repeated", "late", "twice"])
        XCTAssertEqual(Set(ids(s, .phrase("beta alpha"))), ["repeated", "apart"])
        XCTAssertEqual(Set(ids(s, .phrase("alpha gamma beta"))), ["apart"])
        XCTAssertEqual(Set(ids(s, .phrase("gamma alpha"))), ["twice"])
        func frequency(_ id: String) throws -> String {
            let address = try XCTUnwrap(s.lookup(id: id))
            let explanation = try XCTUnwrap(s.explain(.scoped(.field(body), .phrase("alpha beta")), address))
            return "\(explanation)"
        }
        for (id, count) in [("repeated", 40), ("twice", 2), ("late", 1)] {
            let text = try frequency(id)
            XCTAssertTrue(text.contains("freq \(count) "), "\(id): \(text)")
        }
    }

    /// The rarer term (which leads) has a few positions, the other more than the first buffers hold: the buffers
    /// grow while the starts found so far are kept.
    func testPhraseKeepsItsStartsWhenTheBuffersGrow() throws {
        let grow = Array(repeating: "delta epsilon", count: 3).joined(separator: " ") + " "
            + Array(repeating: "epsilon", count: 38).joined(separator: " ")
        try writer.upsert(doc("grow", "x", grow))
        try writer.upsert(doc("other", "x", "epsilon"))
        let s = try writer.commit()
        let address = try XCTUnwrap(s.lookup(id: "grow"))
        let explanation = try XCTUnwrap(s.explain(.scoped(.field(body), .phrase("delta epsilon")), address))
        XCTAssertTrue("\(explanation)".contains("freq 3 "), "\(explanation)")
        // The phrase's label, made only for the explanation, names its words as the analyzer folds them, whether the
        // text was planned without the analyzer or through it.
        XCTAssertTrue("\(explanation)".contains("BM25F \"delta epsilon\""), "\(explanation)")
        let analyzed = try XCTUnwrap(s.explain(.scoped(.field(body), .phrase("Delta, EPSILON")), address))
        XCTAssertTrue("\(analyzed)".contains("BM25F \"delta epsilon\""), "\(analyzed)")
        XCTAssertEqual(ids(s, .phrase("epsilon delta")), ["grow"])
        XCTAssertEqual(ids(s, .phrase("delta delta")), [])
    }

    /// A NaN static boost counts as 0, like a negative one: the NaN document ranks last and the order stays total
    /// (a NaN score compares false both ways, which broke the collector's ordering).
    func testNaNStaticBoostCountsAsZero() throws {
        let rank = try writer.registerField("rank", .numeric)
        try writer.upsert(Document(id: "nan", values: [(title, .text("hello")), (rank, .number(.nan))]))
        try writer.upsert(Document(id: "two", values: [(title, .text("hello")), (rank, .number(2))]))
        try writer.upsert(Document(id: "one", values: [(title, .text("hello world")), (rank, .number(1))]))
        let s = try writer.commit()
        let hits = s.search(.term("hello"), options: SearchOptions(limit: 10, boostField: rank))
        XCTAssertEqual(hits.compactMap { s.id(of: $0.address) }, ["two", "one", "nan"])
        XCTAssertEqual(hits.last?.score, 0)
        XCTAssertFalse(hits.contains { $0.score.isNaN })
    }

    /// The default scope holds text fields only, even when a numeric field's options claim otherwise (the flag
    /// is a public var), as a snapshot reloaded from disk has it.
    func testDefaultScopeHoldsTextFieldsOnly() throws {
        var options = FieldOptions.numeric
        options.searchableByDefault = true
        let rank = try writer.registerField("rank", options)
        XCTAssertFalse(writer.schema.defaultFields.contains(rank))
        XCTAssertEqual(writer.schema.defaultFields, [title, body, keywords])
        try writer.upsert(Document(id: "a", values: [(title, .text("hello there")), (rank, .number(3))]))
        let s = try writer.commit()
        XCTAssertEqual(QueryPlanner(snapshot: s).resolve(.defaultFields), [title, body, keywords].map { Int($0.rawValue) })
        XCTAssertEqual(ids(s, .term("hello")), ["a"])
        // Registering a field again with new options updates the scope; a weight change leaves it alone.
        _ = try writer.registerField("body", .text(weight: 1, searchableByDefault: false))
        XCTAssertEqual(writer.schema.defaultFields, [title, keywords])
        try writer.setWeight(3, for: keywords)
        XCTAssertEqual(writer.schema.defaultFields, [title, keywords])
        _ = try writer.registerField("body", .text(weight: 1))
        XCTAssertEqual(writer.schema.defaultFields, [title, body, keywords])
    }

    func testStoredValuesRoundTrip() throws {
        let document = Document(id: "x", domain: "mail.inbox", values: [
            (title, .text("Hello")), (keywords, .text("a")), (keywords, .text("b")), (size, .number(2.5)),
            (size, .number(-1)), (blob, .bytes([0, 255, 7])),
        ])
        try writer.upsert(document)
        let snapshot = try writer.commit()
        let address = try XCTUnwrap(snapshot.lookup(id: "x"))
        XCTAssertEqual(snapshot.document(at: address), document)
        XCTAssertEqual(snapshot.text(keywords, of: address), ["a", "b"])
        XCTAssertEqual(snapshot.numbers(size, of: address), [2.5, -1])
        XCTAssertEqual(snapshot.domain(of: address), "mail.inbox")
        XCTAssertNil(snapshot.lookup(id: "y"))
    }

    /// A wide prefix in a conjunction with a rare word is walked lazily (seeking to the rare word's
    /// documents) instead of being materialized; matches and scores stay those of the materialized prefix
    /// plus the word's own score, for full and pruned (small top-k) rankings, over several segments.
    func testWidePrefixDrivenByRareWordScoresLikeMaterialized() throws {
        var state: UInt64 = 7
        func random(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        for i in 0..<900 {
            let words = (0..<(1 + random(4))).map { _ in "serv\(random(40))" }
            let rare = i % 37 == 0 ? " web" : ""
            try writer.upsert(doc("d\(i)", words.joined(separator: " ") + rare, random(3) == 0 ? "serve servers" : "other text"))
            if i % 300 == 299 { _ = try writer.commit() }
        }
        let s = try writer.commit()
        let query = Query.and([.term("web"), .prefix("serv")])
        let prefixOnly = s.search(.prefix("serv"), options: SearchOptions(limit: 1000, filter: .term("web")))
        let webOnly = Dictionary(uniqueKeysWithValues: s.search(.term("web"), limit: 1000).map { ($0.address, $0.score) })
        var expected = prefixOnly.map { SearchHit(address: $0.address, score: webOnly[$0.address]! + $0.score) }
        expected.sort(by: SearchHit.ranksBefore)
        XCTAssertGreaterThan(expected.count, 10)
        XCTAssertEqual(s.search(query, limit: 1000), expected)
        for k in [1, 5, 20] { XCTAssertEqual(s.search(query, limit: k), Array(expected.prefix(k)), "top-\(k)") }
        // Materialized (no rare clause drives it), the prefix prunes by its chunk bounds, alone and in an AND
        // with a common word: the top k are still the first k of the full ranking.
        // With children's score bounds, conjunctions and disjunctions skip to documents that could compete
        // (the user query's shape: a boosted word AND (the boosted last word OR its prefix)); every hit kept
        // has its exact score.
        let userShape = Query.and([.boost(.term("other"), 1.3), .or([.boost(.term("serv1"), 1.3), .prefix("serv")])])
        for wide in [Query.prefix("serv"), .and([.term("other"), .prefix("serv")]), .or([.term("text"), .prefix("serv")]),
                     userShape, .or([.boost(.term("serv1"), 1.3), .prefix("serv")])] {
            let full = s.search(wide, limit: 1000)
            XCTAssertGreaterThan(full.count, 300)
            for k in [1, 5, 20, 100] {
                let top = s.search(wide, limit: k)
                XCTAssertEqual(top, Array(full.prefix(k)), "top-\(k) of \(wide)")
                for hit in top { XCTAssertEqual(s.explain(wide, hit.address)?.value ?? -1, hit.score, accuracy: 1e-4 * hit.score) }
            }
        }
    }

    func testOperators() throws {
        try writer.upsert(contentsOf: [
            doc("1", "Quick brown fox", "jumps over the lazy dog", size: [1]),
            doc("2", "Lazy dog", "sleeps all day", size: [5, 50]),
            doc("3", "Brown bear", "the quick bear eats", size: [10]),
            doc("4", "MyWindowController", "Report.Numbers and 中文字 text", keywords: ["Ünïcödé"]),
        ])
        let s = try writer.commit()
        XCTAssertEqual(Set(ids(s, .term("quick"))), ["1", "3"])
        XCTAssertEqual(Set(ids(s, .term("QUICK"))), ["1", "3"])
        XCTAssertEqual(Set(ids(s, .prefix("bro"))), ["1", "3"])
        XCTAssertEqual(Set(ids(s, .prefix("mywin"))), ["4"])
        XCTAssertEqual(Set(ids(s, .prefix("quick br"))), ["1", "3"])
        XCTAssertEqual(Set(ids(s, .scoped(.field(title), .prefix("quick br")))), ["1"])
        XCTAssertEqual(Set(ids(s, .phrase("lazy dog"))), ["1", "2"])
        XCTAssertEqual(Set(ids(s, .phrase("dog lazy"))), [])
        XCTAssertEqual(Set(ids(s, .term("window controller"))), ["4"])
        XCTAssertEqual(Set(ids(s, .term("Report.Numbers"))), ["4"])
        XCTAssertEqual(Set(ids(s, .term("文字"))), ["4"])
        XCTAssertEqual(Set(ids(s, .term("文"))), ["4"])
        XCTAssertEqual(Set(ids(s, .term("unicode"))), ["4"])
        XCTAssertEqual(Set(ids(s, .fuzzy("quikc", maxEdits: 2))), ["1", "3"])
        XCTAssertEqual(Set(ids(s, .fuzzy("sleep", maxEdits: nil))), ["2"])
        XCTAssertEqual(Set(ids(s, .fuzzy("bear", maxEdits: nil))), ["3"])  // < 5 characters: exact only
        XCTAssertEqual(Set(ids(s, .and([.term("brown"), .term("quick")]))), ["1", "3"])
        XCTAssertEqual(Set(ids(s, .or([.term("fox"), .term("bear")]))), ["1", "3"])
        XCTAssertEqual(Set(ids(s, .not(.term("brown"), excluding: .term("fox")))), ["3"])
        XCTAssertEqual(Set(ids(s, .scoped(.field(title), .term("dog")))), ["2"])
        XCTAssertEqual(Set(ids(s, .scoped(.fields([body]), .term("quick")))), ["3"])
        XCTAssertEqual(Set(ids(s, .range(size, lower: .inclusive(5), upper: .exclusive(10)))), ["2"])
        XCTAssertEqual(Set(ids(s, .range(size, lower: .exclusive(10), upper: nil))), ["2"])
        XCTAssertEqual(Set(ids(s, .range(size, lower: nil, upper: .inclusive(1)))), ["1"])
        XCTAssertEqual(s.count(.all), 4)
        XCTAssertEqual(s.count(.none), 0)
        let set = s.documentSet(.term("dog"))
        XCTAssertEqual(Set(ids(s, .and([.documents(set), .term("lazy")]))), ["1", "2"])
        XCTAssertEqual(Set(ids(s, .terms(["bear", "fox"]))), ["1", "3"])
        XCTAssertEqual(Set(s.search(.term("brown"), limit: 10, filter: .range(size, lower: .inclusive(5), upper: nil))
            .compactMap { s.id(of: $0.address) }), ["3"])
        XCTAssertEqual(s.search(.term("lazy"), limit: 1).count, 1)
    }

    func testRankingTitleAboveBodyAndExactPrimaryBoost() throws {
        try writer.upsert(contentsOf: [
            doc("body", "Something else entirely", "a text editor for terminals"),
            doc("title", "Editor", "something"),
            doc("titlelong", "Editor for documents and more", "nothing"),
        ])
        let s = try writer.commit()
        XCTAssertEqual(ids(s, .term("editor")), ["title", "titlelong", "body"])
        let explanation = try XCTUnwrap(s.explain(.term("editor"), try XCTUnwrap(s.lookup(id: "title"))))
        XCTAssertTrue(explanation.description.contains("primary field equals the query"), explanation.description)
        XCTAssertNil(s.explain(.term("editor"), DocAddress(segment: 9, doc: 0)))
    }

    func testStaticBoostAndRescore() throws {
        let rank = try writer.registerField("rank", .numeric)
        try writer.upsert(Document(id: "a", values: [(title, .text("apple pie")), (rank, .number(1))]))
        try writer.upsert(Document(id: "b", values: [(title, .text("apple pie")), (rank, .number(3))]))
        let s = try writer.commit()
        let boosted = s.search(.term("apple"), options: SearchOptions(limit: 2, boostField: rank))
        XCTAssertEqual(boosted.compactMap { s.id(of: $0.address) }, ["b", "a"])
        XCTAssertEqual(boosted[0].score, boosted[1].score * 3, accuracy: 1e-4)
        let rescored = s.search(.term("apple"), options: SearchOptions(limit: 2, rescore: { address, score in
            address.doc == 0 ? score * 10 : score }))
        XCTAssertEqual(rescored.first?.address.doc, 0)
        let sorted = s.sorted(s.matches(.all), by: rank, ascending: false)
        XCTAssertEqual(sorted.compactMap { s.id(of: $0) }, ["b", "a"])
    }

    /// BM25F as specified, computed here by hand: w = Σ tf · weight / (1 − b + b · length / average length) over
    /// the fields, score = idf · w · (k1 + 1) / (w + k1), idf = ln(1 + (N − df + 0.5) / (df + 0.5)) with df the
    /// largest field document frequency, times 1.5 when the primary field starts with the term and 2 more when it
    /// is the term. Title weight 4 (primary), body 1; k1 1.2, b 0.75.
    func testBM25FScoresFollowTheFormula() throws {
        try writer.upsert(contentsOf: [doc("a", "apple pie", "apple apple banana"), doc("b", "banana", "apple cherry cherry cherry"),
                                       doc("c", "apple", "cherry"), doc("d", "cherry tart", "banana bread")])
        let s = try writer.commit()
        let titleAverage = (2.0 + 1 + 1 + 2) / 4, bodyAverage = (3.0 + 4 + 1 + 2) / 4
        func part(_ tf: Double, weight: Double, length: Double, average: Double) -> Double {
            tf * weight / (1 - 0.75 + 0.75 * length / average)
        }
        let idf = log(1 + (4 - 2 + 0.5) / (2 + 0.5))
        func score(_ w: Double, boost: Double) -> Double { idf * w * 2.2 / (w + 1.2) * boost }
        let expected: [String: Double] = [
            "a": score(part(1, weight: 4, length: 2, average: titleAverage) + part(2, weight: 1, length: 3, average: bodyAverage),
                       boost: 1.5),
            "b": score(part(1, weight: 1, length: 4, average: bodyAverage), boost: 1),
            "c": score(part(1, weight: 4, length: 1, average: titleAverage), boost: 1.5 * 2),
        ]
        let hits = s.search(.term("apple"), limit: 10)
        XCTAssertEqual(hits.compactMap { s.id(of: $0.address) }, ["c", "a", "b"])
        for hit in hits {
            let id = try XCTUnwrap(s.id(of: hit.address))
            let want = try XCTUnwrap(expected[id])
            XCTAssertEqual(Double(hit.score), want, accuracy: want * 1e-5, id)
        }
    }

    /// A limit or rescore window past the document count (`Int.max` for "all") is that count: nothing is sized by
    /// it, and every match comes back, ranked as with an exact limit.
    func testLimitsPastTheDocumentCountAreEveryMatch() throws {
        try writer.upsert(contentsOf: [doc("1", "alpha beta", ""), doc("2", "alpha", ""), doc("3", "gamma", "")])
        let s = try writer.commit()
        let exact = s.search(.term("alpha"), limit: 2)
        for limit in [Int.max, 1 << 40] {
            XCTAssertEqual(s.search(.term("alpha"), limit: limit), exact)
            for ceiling in [nil, Float(1)] {
                let options = SearchOptions(limit: limit, rescore: { _, score in score }, rescoreWindow: .max,
                                            rescoreCeiling: ceiling)
                XCTAssertEqual(s.search(.term("alpha"), options: options).map(\.address), exact.map(\.address))
            }
            XCTAssertEqual(s.search(.and([.term("alpha"), .prefix("be")]), limit: limit).count, 1)
        }
    }

    /// The typo budget counts characters and so do the edits: a Cyrillic or Greek word one letter short is one
    /// edit away (two of its UTF-8 bytes), and a word of five such letters has a budget of one.
    func testFuzzyEditsCountCharacters() throws {
        try writer.upsert(contentsOf: [doc("1", "привет мир", ""), doc("2", "καλημέρα κόσμε", ""), doc("3", "превед", "")])
        let s = try writer.commit()
        XCTAssertEqual(Set(ids(s, .fuzzy("привт", maxEdits: nil))), ["1"])  // 5 letters: 1 edit, a dropped "е"
        XCTAssertEqual(Set(ids(s, .fuzzy("приветт", maxEdits: nil))), ["1"])
        XCTAssertEqual(Set(ids(s, .fuzzy("привет", maxEdits: 2))), ["1", "3"])  // и→е, т→д
        XCTAssertEqual(Set(ids(s, .fuzzy("привет", maxEdits: 1))), ["1"])
        XCTAssertEqual(Set(ids(s, .fuzzy("καλημρα", maxEdits: nil))), ["2"])  // folded: καλημερα, one letter dropped
        XCTAssertEqual(Set(s.fuzzyTerms("κοσμ", maxEdits: 1).map(\.term)), ["κοσμε"])
    }

    /// Within a two-edit budget an adjacent swap is still one edit, so a swap and another edit are two (optimal
    /// string alignment, as Lucene's and tantivy's fuzzy queries count with transpositions): "acommodatoin" (a
    /// dropped "c", "io" swapped) finds "accommodation", whole or being typed, and two swaps find it too. Counted as
    /// Levenshtein edits (three), nothing was found.
    func testASwapAndAnotherEditAreTwoEdits() throws {
        try writer.upsert(contentsOf: [doc("1", "accommodation", ""), doc("2", "unrelated", "")])
        let s = try writer.commit()
        XCTAssertEqual(ids(s, .fuzzy("acommodatoin", maxEdits: nil)), ["1"], "a dropped letter and a swap")
        XCTAssertEqual(ids(s, .fuzzy("cacommodatoin", maxEdits: nil)), ["1"], "two swaps")
        XCTAssertEqual(ids(s, .fuzzy("acomodatoin", maxEdits: nil)), [], "two dropped letters and a swap: three")
        XCTAssertEqual(ids(s, .fuzzyPrefix("acommodatoi", maxEdits: nil)), ["1"], "inside the word being typed")
        XCTAssertEqual(ids(s, .fuzzyPrefix("cacommodatoi", maxEdits: nil)), ["1"])
        XCTAssertEqual(ids(s, .fuzzy("acommodatoin", maxEdits: 1)), [], "one edit allows one swap only")
    }

    /// A fuzzy prefix matches the terms some prefix of which is within the typo budget of the text: a substitution,
    /// an adjacent swap, in characters; none under 5 characters, 2 edits from 9; the exact completions too.
    func testFuzzyPrefixToleratesTyposInsideTheWordBeingTyped() throws {
        try writer.upsert(contentsOf: [doc("keyboards", "Mechanical keyboards"), doc("keynote", "keynote slides"),
                                       doc("ru", "клавиатура"), doc("other", "kettle")])
        let s = try writer.commit()
        XCTAssertEqual(ids(s, .fuzzyPrefix("kwybo", maxEdits: nil)), ["keyboards"])
        XCTAssertEqual(ids(s, .fuzzyPrefix("kebyo", maxEdits: nil)), ["keyboards"], "a swap is one edit")
        XCTAssertEqual(Set(ids(s, .fuzzyPrefix("keybo", maxEdits: nil))), ["keyboards", "keynote"],
                       "its exact completions too")
        XCTAssertEqual(ids(s, .fuzzyPrefix("kwyb", maxEdits: nil)), [], "4 characters: no typo budget")
        XCTAssertEqual(ids(s, .fuzzyPrefix("keyb", maxEdits: nil)), ["keyboards"])
        XCTAssertEqual(ids(s, .fuzzyPrefix("kwyboqrds", maxEdits: nil)), ["keyboards"], "9 characters: 2 edits")
        XCTAssertEqual(ids(s, .fuzzyPrefix("kwyboqrd", maxEdits: nil)), [], "8 characters: 1 edit")
        XCTAssertEqual(ids(s, .fuzzyPrefix("клваи", maxEdits: nil)), ["ru"], "a swap of two Cyrillic letters")
        XCTAssertEqual(s.fuzzyPrefixes("kwybo"), ["keybo"])
        XCTAssertEqual(s.fuzzyPrefixes("kwyb"), [])
    }

    /// A budget covering the whole text (one letter with one edit, two with two) puts the empty prefix within it:
    /// every term matches, the text's exact completions among them. The empty prefix was dropped as a prefix of
    /// the stand-in for overlong words, so nothing matched, while one letter more matched again.
    func testFuzzyPrefixWhoseBudgetCoversTheWholeTextMatchesEveryTerm() throws {
        try writer.upsert(contentsOf: [doc("apple", "apple pie"), doc("about", "about us"), doc("zebra", "zebra")])
        let s = try writer.commit()
        XCTAssertEqual(Set(ids(s, .prefix("a"))), ["about", "apple"])
        XCTAssertEqual(s.fuzzyPrefixes("a", maxEdits: 1), [""])
        XCTAssertEqual(Set(ids(s, .fuzzyPrefix("a", maxEdits: 1))), ["about", "apple", "zebra"])
        XCTAssertEqual(Set(ids(s, .fuzzyPrefix("ab", maxEdits: 2))), ["about", "apple", "zebra"])
        XCTAssertEqual(Set(ids(s, .scoped(.field(title), .fuzzyPrefix("ab", maxEdits: 2)))), ["about", "apple", "zebra"])
        XCTAssertEqual(ids(s, .not(.fuzzyPrefix("a", maxEdits: 1), excluding: .prefix("a"))), ["zebra"])
        XCTAssertEqual(Set(ids(s, .fuzzyPrefix("abc", maxEdits: 2))), ["about", "apple"])
    }

    /// Past `maxNearPrefixes` near prefixes, a fuzzy prefix keeps those sharing the longest start with the typed
    /// text (the typo comes later), then the first in byte order: the same every time, whatever the terms under them.
    func testFuzzyPrefixesPastTheCapKeepThoseSharingTheLongestStart() throws {
        let letters = Array("abcdefghijklmnopqrst").prefix(IndexSnapshot.maxNearPrefixes + 4)
        // 20 near prefixes "yacde", "ybcde", ... sharing one byte; "yzcxe" shares three.
        let docs = letters.map { doc("y\($0)", "y\($0)cde") } + [doc("late", "yzcxe")]
        try writer.upsert(contentsOf: docs)
        let s = try writer.commit()
        let prefixes = s.fuzzyPrefixes("yzcde")
        XCTAssertEqual(prefixes.count, IndexSnapshot.maxNearPrefixes)
        XCTAssertTrue(prefixes.contains("yzcxe"), "three bytes shared, last in byte order: \(prefixes)")
        let expected = Set(["late"] + letters.prefix(IndexSnapshot.maxNearPrefixes - 1).map { "y\($0)" })
        XCTAssertEqual(Set(ids(s, .fuzzyPrefix("yzcde", maxEdits: nil))), expected)
    }

    /// Past `maxNearPrefixes` near prefixes, a fuzzy prefix still keeps the one the typed text starts with (its
    /// completions are the text's exact completions), whatever the typo near prefixes hold.
    func testFuzzyPrefixKeepsItsExactCompletionsPastTheCap() throws {
        var docs = [doc("exact", "abcdef")]
        // 16 one-substitution near prefixes "bbcde", "cbcde", ... each over two terms; "abcd" is over one.
        for letter in "bcdefghijklmnopq" {
            docs += [doc("\(letter)1", "\(letter)bcdeq"), doc("\(letter)2", "\(letter)bcdew")]
        }
        try writer.upsert(contentsOf: docs)
        let s = try writer.commit()
        XCTAssertTrue(s.fuzzyPrefixes("abcde").contains("abcd"), "near prefixes: \(s.fuzzyPrefixes("abcde"))")
        XCTAssertTrue(ids(s, .fuzzyPrefix("abcde", maxEdits: nil)).contains("exact"))
    }

    /// The same documents in one segment or two: past the near-prefix cap, a fuzzy prefix matches the same
    /// documents (the cap ranked near prefixes by their terms in the one list walked, a figure of the layout).
    func testFuzzyPrefixMatchesTheSameDocumentsWhateverTheSegmentLayout() throws {
        func build(split: Bool) throws -> (IndexSnapshot, FieldID) {
            let writer = IndexWriter()
            let title = try writer.registerField("title", .text(weight: 4, primary: true))
            _ = try writer.registerField("body", .text())
            var first: [Document] = [], second: [Document] = []
            // "bbcde": three terms in each half (six in all); 16 more near prefixes, four terms each, in the first.
            for (i, suffix) in ["q", "w", "e"].enumerated() {
                first.append(Document(id: "b\(i)", values: [(title, .text("bbcde\(suffix)"))]))
                second.append(Document(id: "b\(i + 3)", values: [(title, .text("bbcde\(["r", "t", "y"][i])"))]))
            }
            for letter in "cdefghijklmnopqr" {
                for (i, suffix) in ["q", "w", "e", "r"].enumerated() {
                    first.append(Document(id: "\(letter)\(i)", values: [(title, .text("\(letter)bcde\(suffix)"))]))
                }
            }
            if split {
                try writer.upsert(contentsOf: first)
                _ = try writer.commit()
                try writer.upsert(contentsOf: second)
            } else {
                try writer.upsert(contentsOf: first + second)
            }
            return (try writer.commit(), title)
        }
        let (one, title1) = try build(split: false)
        let (two, title2) = try build(split: true)
        XCTAssertEqual([one.segments.count, two.segments.count], [1, 2])
        func found(_ s: IndexSnapshot, _ scope: FieldScope) -> [String] {
            ids(s, .scoped(scope, .fuzzyPrefix("abcde", maxEdits: nil))).sorted()
        }
        XCTAssertEqual(found(one, .field(title1)), found(two, .field(title2)))
        XCTAssertEqual(found(one, .defaultFields), found(two, .defaultFields))
    }

    /// Indexes `live` beside 300 fillers and one item per decoy text, then deletes the decoys in a second commit:
    /// their terms stay in the one segment's dictionaries until a merge drops them.
    private func snapshotWithDeletedDecoys(_ live: [Document], _ decoys: [String],
                                           file: StaticString = #filePath, line: UInt = #line) throws -> IndexSnapshot {
        try writer.upsert(contentsOf: live + (0..<300).map { doc("filler\($0)", "filler text \($0)") }
                          + decoys.enumerated().map { doc("d\($0.offset)", $0.element) })
        _ = try writer.commit()
        writer.delete(ids: decoys.indices.map { "d\($0)" })
        let s = try writer.commit()
        XCTAssertEqual(s.segments.count, 1, "the deleted items' terms are still in its dictionaries", file: file, line: line)
        return s
    }

    /// Past `maxNearPrefixes` near prefixes, only those a live document holds compete: deleted documents' terms
    /// stay in the dictionaries until a merge drops them, and 16 deleted items' near prefixes, sharing a longer
    /// start with the typed text, pushed out the one a live item holds. The answer must not depend on deletions.
    func testFuzzyPrefixPastTheCapIgnoresDeletedDocumentsTerms() throws {
        let decoys = Array("abfghijklmnopqrs").map { "yzc\($0)e" }  // near prefixes of "yzcde", three bytes shared
        XCTAssertEqual(decoys.count, IndexSnapshot.maxNearPrefixes)
        let s = try snapshotWithDeletedDecoys([doc("live", "ybcde notes"), doc("other", "unrelated")], decoys)
        XCTAssertEqual(s.documentCount, 302)
        XCTAssertEqual(s.fuzzyPrefixes("yzcde"), ["ybcde"])
        XCTAssertEqual(ids(s, .fuzzyPrefix("yzcde", maxEdits: nil)), ["live"], "over the default fields' vocabulary")
        XCTAssertEqual(ids(s, .scoped(.field(title), .fuzzyPrefix("yzcde", maxEdits: nil))), ["live"], "over one field's terms")
    }

    /// A writer's cached vocabulary (`VocabularyCache`) may still cover a segment the snapshot no longer holds (all
    /// its documents deleted, or merged away), with terms no segment holds any more: past `maxNearPrefixes` near
    /// prefixes, theirs do not compete either.
    func testFuzzyPrefixPastTheCapIgnoresTermsOfSegmentsNoLongerInTheSnapshot() throws {
        let decoys = Array("abfghijklmnopqrs").map { "yzc\($0)e" }
        // Three segments, none holding three quarters of the documents: one vocabulary is cached for them.
        try writer.upsert(contentsOf: [doc("live", "ybcde notes")] + (0..<39).map { doc("a\($0)", "filler \($0)") })
        _ = try writer.commit()
        try writer.upsert(contentsOf: decoys.enumerated().map { doc("d\($0.offset)", $0.element) })
        _ = try writer.commit()
        try writer.upsert(contentsOf: (0..<40).map { doc("c\($0)", "more \($0)") })
        let before = try writer.commit()
        XCTAssertEqual(before.segments.count, 3)
        before.prepareFuzzySearch()
        XCTAssertEqual(writer.snapshot.vocabularies.coveredSegments, 3)
        writer.delete(ids: decoys.indices.map { "d\($0)" })
        let s = try writer.commit()
        XCTAssertEqual(s.segments.count, 2, "the decoys' segment is dropped")
        XCTAssertNotNil(s.vocabularies.vocabulary(for: s.segments, scope: QueryPlanner(snapshot: s).resolve(.defaultFields)))
        XCTAssertEqual(s.vocabularies.coveredSegments, 3, "the cached vocabulary still covers it")
        XCTAssertEqual(s.fuzzyPrefixes("yzcde"), ["ybcde"])
        XCTAssertEqual(ids(s, .fuzzyPrefix("yzcde", maxEdits: nil)), ["live"])
    }

    /// Past `maxExpansions` near terms, a fuzzy query keeps the nearest (the term itself first), then the most
    /// frequent: not the first fields' terms, which dropped the exact and one-edit terms of a later field.
    func testFuzzyExpansionsPastTheCapKeepTheNearest() throws {
        let query = Array("abcdefghij")
        var far: [String] = []
        for p1 in 0..<10 {
            for p2 in (p1 + 1)..<10 {
                for (a, b) in zip("klmnopq", "rstuvwx") where far.count < 300 {
                    var word = query
                    word[p1] = a
                    word[p2] = b
                    far.append(String(word))
                }
            }
        }
        XCTAssertEqual(far.count, 300)
        var docs = far.enumerated().map { doc("far\($0.offset)", $0.element) }
        docs += [doc("exact", "other", "abcdefghij"), doc("near", "other", "abcdefghik")]
        docs += (0..<3).map { doc("frequent\($0)", "other", "abcdefghyy") }  // two edits, three documents
        try writer.upsert(contentsOf: docs)
        let s = try writer.commit()
        let found = Set(s.matches(.fuzzy("abcdefghij", maxEdits: nil)).compactMap { s.id(of: $0) })
        XCTAssertEqual(found.count, IndexSnapshot.maxExpansions + 2, "256 expansions, one of them in three documents")
        XCTAssertTrue(found.isSuperset(of: ["exact", "near", "frequent0", "frequent1", "frequent2"]))
        XCTAssertEqual(found.filter { $0.hasPrefix("far") }.count, IndexSnapshot.maxExpansions - 3)
    }

    /// Past `maxExpansions` near terms, only those a live document holds compete, as near prefixes do: 256
    /// one-edit words of deleted items (still in the dictionaries until a merge) pushed out the two-edit word a
    /// live item holds, which the same query found once a merge dropped them.
    func testFuzzyExpansionsPastTheCapIgnoreDeletedDocumentsTerms() throws {
        let query = Array("abcdefghij")
        var decoys: [String] = []
        for position in 0..<10 {
            for letter in "klmnopqrstuvwxyz" where decoys.count < IndexSnapshot.maxExpansions {
                var word = query
                word[position] = letter
                decoys.append(String(word))
            }
        }
        for position in 0...10 where decoys.count < IndexSnapshot.maxExpansions {
            for letter in "klmnopqrstuvwxyz" where decoys.count < IndexSnapshot.maxExpansions {
                var word = query
                word.insert(letter, at: position)
                decoys.append(String(word))
            }
        }
        XCTAssertEqual(Set(decoys).count, IndexSnapshot.maxExpansions)
        let s = try snapshotWithDeletedDecoys([doc("live", "abcdefghyy notes")], decoys)
        XCTAssertEqual(ids(s, .fuzzy("abcdefghij", maxEdits: nil)), ["live"], "over the default fields' vocabulary")
        XCTAssertEqual(ids(s, .scoped(.field(title), .fuzzy("abcdefghij", maxEdits: nil))), ["live"], "over one field's terms")
    }

    func testTermDictionaryAccess() throws {
        try writer.upsert(contentsOf: [doc("1", "program programming", "progress"), doc("2", "program", "programmer")])
        let s = try writer.commit()
        let suggestions = s.terms(withPrefix: "Prog", in: .defaultFields)
        XCTAssertEqual(suggestions.first?.term, "program")
        XCTAssertEqual(suggestions.first?.documentFrequency, 2)
        XCTAssertEqual(Set(suggestions.map(\.term)), ["program", "programming", "progress", "programmer"])
        XCTAssertEqual(Set(s.terms(where: { $0.contains("gram") }).map(\.term)), ["program", "programming", "programmer"])
        XCTAssertEqual(Set(s.fuzzyTerms("programer").map(\.term)), ["programmer", "program"])
        XCTAssertEqual(Set(s.fuzzyTerms("progam").map(\.term)), ["program"])
    }

    /// A prefix's top terms: each term's document frequencies summed over the fields and segments (what summing
    /// `terms(withPrefix:)`'s per-field entries gives), most first, ties in byte order, cut at the limit.
    func testTopTermsWithPrefixSumOverFieldsAndSegments() throws {
        try writer.upsert(contentsOf: [doc("1", "program programming", "progress"), doc("2", "program", "programmer")])
        _ = try writer.commit()
        try writer.upsert(contentsOf: [doc("3", "progress", keywords: ["program"]), doc("4", "prognosis", "program"),
                                       doc("5", "other", "prologue")])
        let s = try writer.commit()
        let expected = ["program 4", "progress 2", "prognosis 1", "programmer 1", "programming 1"]
        var summed: [String: Int] = [:]
        for info in s.terms(withPrefix: "prog", limit: .max) { summed[info.term, default: 0] += info.documentFrequency }
        XCTAssertEqual(summed.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.key) \($0.value)" },
                       expected)
        for limit in 0...6 {
            XCTAssertEqual(s.topTerms(withPrefix: "Prog", limit: limit).map { "\($0.term) \($0.documentFrequency)" },
                           Array(expected.prefix(limit)), "limit \(limit)")
        }
        XCTAssertEqual(s.topTerms(withPrefix: "pro", in: .field(body), limit: 10).map(\.term),
                       ["program", "programmer", "progress", "prologue"])
        XCTAssertTrue(s.topTerms(withPrefix: "zz", limit: 10).isEmpty)
    }

    /// Counting or finding a query's matches among a list of documents (ascending, across segments) finds what the
    /// query and'ed with the list as a document set finds; the first match accepted ends the walk.
    func testCountAndFirstMatchAmongDocumentsAgreeWithADocumentSet() throws {
        for batch in 0..<3 {
            try writer.upsert(contentsOf: (batch * 40..<batch * 40 + 40).map { i in
                doc("\(i)", i % 3 == 0 ? "alpha x" : "x", i % 5 == 0 ? "beta" : "y", keywords: i % 2 == 0 ? ["gamma"] : [])
            })
            _ = try writer.commit()
        }
        writer.delete(ids: ["0", "15", "42", "90", "119"])
        let s = try writer.commit()
        let all = s.matches(.all)
        let lists: [[DocAddress]] = [all, all.enumerated().filter { $0.offset % 2 == 1 }.map(\.element),
                                     all.enumerated().filter { $0.offset % 7 == 3 }.map(\.element), [], [all[all.count - 1]]]
        let queries: [Query] = [.term("alpha"), .term("beta"), .term("gamma"), .term("missing"),
                                .and([.term("alpha"), .term("beta")]), .or([.term("alpha"), .term("beta")])]
        for (n, list) in lists.enumerated() {
            for query in queries {
                let expected = s.matches(.and([.documents(DocumentSet(list)), query]))
                XCTAssertEqual(s.count(query, among: list), expected.count, "list \(n), \(query)")
                XCTAssertEqual(s.firstMatch(query, among: list) { _ in true }, expected.first, "list \(n), \(query)")
                XCTAssertEqual(s.firstMatch(query, among: list) { $0.doc % 4 == 3 }, expected.first { $0.doc % 4 == 3 },
                               "list \(n), \(query)")
            }
        }
        for query in queries {
            XCTAssertEqual(s.count(query, among: nil), s.count(query))
            XCTAssertEqual(s.firstMatch(query, among: nil) { $0.doc % 4 == 3 }, s.matches(query).first { $0.doc % 4 == 3 })
        }
        var asked = 0
        _ = s.firstMatch(.term("gamma"), among: all) { _ in
            asked += 1
            return asked == 2
        }
        XCTAssertEqual(asked, 2)
    }

    /// A term's plan names the fields some segment has it in, with its place in each segment, and no other.
    func testTermPlanLeavesOutFieldsWithoutTheTerm() throws {
        try writer.upsert(contentsOf: [doc("1", "alpha", "beta"), doc("2", "gamma", "beta alpha")])
        _ = try writer.commit()
        try writer.upsert(doc("3", "delta", "", keywords: ["alpha"]))
        let snapshot = try writer.commit()
        let planner = QueryPlanner(snapshot: snapshot)
        let scope = planner.resolve(.defaultFields)
        XCTAssertEqual(scope.count, 3)
        func fields(_ word: String) -> [Int: [Bool]] {
            guard case .group(let entries, _, _) = planner.plan(.term(word), scope: scope) else { return [:] }
            var result: [Int: [Bool]] = [:]
            for entry in entries { result[entry.field] = entry.locations?.map { $0 >= 0 } }
            return result
        }
        let segments = snapshot.segments.count
        XCTAssertEqual(fields("beta").keys.sorted(), [Int(body.rawValue)])
        XCTAssertEqual(Set(fields("alpha").keys), [Int(title.rawValue), Int(body.rawValue), Int(keywords.rawValue)])
        XCTAssertEqual(segments, 2)
        XCTAssertEqual(fields("alpha")[Int(keywords.rawValue)], [false, true])
        XCTAssertEqual(fields("alpha")[Int(title.rawValue)], [true, false])
        guard case .none = planner.plan(.term("omega"), scope: scope) else { return XCTFail("a missing term plans nothing") }
        XCTAssertEqual(ids(snapshot, .term("alpha")).sorted(), ["1", "2", "3"])
        XCTAssertEqual(ids(snapshot, .term("beta")).sorted(), ["1", "2"])
    }

    func testUpsertReplacesAndDeletes() throws {
        try writer.upsert(doc("1", "old title"))
        try writer.upsert(doc("1", "new title"))  // replaced inside the batch
        var s = try writer.commit()
        XCTAssertEqual(s.documentCount, 1)
        XCTAssertEqual(ids(s, .term("old")), [])
        try writer.upsert(doc("1", "newest title"))  // replaced across segments
        s = try writer.commit()
        XCTAssertEqual(ids(s, .term("title")), ["1"])
        XCTAssertEqual(ids(s, .term("newest")), ["1"])
        writer.delete(ids: ["1", "missing"])
        s = try writer.commit()
        XCTAssertEqual(s.documentCount, 0)
        XCTAssertNil(s.lookup(id: "1"))
    }

    func testDomainDeletionIsHierarchicalOnDots() throws {
        try writer.upsert(contentsOf: [
            doc("1", "x", domain: "a"), doc("2", "x", domain: "a.b"), doc("3", "x", domain: "ab"),
            doc("4", "x", domain: "a.b.c"), doc("5", "x", domain: nil), doc("6", "x", domain: "b.a"),
        ])
        _ = try writer.commit()
        try writer.upsert(doc("7", "x", domain: "a.c"))  // still in the buffer
        writer.delete(domains: ["a"])
        let s = try writer.commit()
        XCTAssertEqual(Set(ids(s, .term("x"))), ["3", "5", "6"])
        writer.delete(domains: ["b"])
        XCTAssertEqual(Set(ids(try writer.commit(), .all)), ["3", "5"])
    }

    /// Deleting many domains tests each distinct domain once (a lookup per dotted ancestor), not against every
    /// deleted domain: 20,000 of 40,000 domains, committed and buffered, took minutes that way.
    func testDeletingManyDomainsIsLinear() throws {
        let count = 40_000
        try writer.upsert(contentsOf: (0..<count / 2).map { doc("c\($0)", "x", domain: "d\($0).sub") })
        _ = try writer.commit()
        try writer.upsert(contentsOf: (count / 2..<count).map { doc("b\($0)", "x", domain: "d\($0).sub") })
        let start = Date()
        writer.delete(domains: (0..<count).filter { $0 % 2 == 0 }.map { "d\($0)" })
        let seconds = Date().timeIntervalSince(start)
        let s = try writer.commit()
        XCTAssertEqual(s.documentCount, count / 2)
        XCTAssertNil(s.lookup(id: "c0"))
        XCTAssertNotNil(s.lookup(id: "c1"))
        XCTAssertNil(s.lookup(id: "b\(count - 2)"))
        XCTAssertNotNil(s.lookup(id: "b\(count - 1)"))
        XCTAssertLessThan(seconds, 20, "deleting \(count / 2) domains took \(seconds) s")
    }

    func testDomainPrefixesCoverTheirDomainsAndBelowOnDots() {
        let prefixes = DomainPrefixes(["a", "b.c", ""])
        for domain in ["a", "a.b", "a.b.c", "b.c", "b.c.d"] { XCTAssertTrue(prefixes.covers(domain), domain) }
        for domain in ["ab", "b", "b.cd", "c", "x.a", ".a", "", "b..c"] { XCTAssertFalse(prefixes.covers(domain), domain) }
        for domain in ["a", "a.b", "ab", "b.c.d", "b.cd", "x.a"] {
            XCTAssertEqual(prefixes.covers(domain), ["a", "b.c"].contains { IndexWriter.domain(domain, isWithin: $0) }, domain)
        }
        XCTAssertFalse(DomainPrefixes([""]).covers(".a"))
        XCTAssertTrue(DomainPrefixes([""]).isEmpty)
    }

    func testSnapshotIsolation() throws {
        try writer.upsert(doc("1", "alpha"))
        let first = try writer.commit()
        try writer.upsert(doc("2", "alpha"))
        writer.delete(ids: ["1"])
        XCTAssertEqual(writer.snapshot.documentCount, 1, "uncommitted changes are invisible")
        XCTAssertEqual(ids(first, .term("alpha")), ["1"])
        let second = try writer.commit()
        writer.deleteAll()
        let third = try writer.commit()
        XCTAssertEqual(ids(first, .term("alpha")), ["1"])
        XCTAssertEqual(first.document(at: try XCTUnwrap(first.lookup(id: "1")))?.id, "1")
        XCTAssertEqual(ids(second, .term("alpha")), ["2"])
        XCTAssertEqual(third.documentCount, 0)
        // Many readers at once while the writer keeps committing.
        let snapshot = second
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 { XCTAssertEqual(snapshot.count(.term("alpha")), 1) }
        }
    }

    /// Typo-tolerant lookups over several fields build each segment's vocabulary on first use; readers that
    /// arrive together wait for one build and all get the answer a single reader gets, and the cache switches
    /// when another scope is asked for.
    func testVocabularyBuiltOnceUnderConcurrentFuzzyQueries() throws {
        for i in 0..<300 {
            try writer.upsert(doc("\(i)", "wireshark \(i)", i % 3 == 0 ? "packet analyzer wiresharp" : "network",
                                  keywords: i % 5 == 0 ? ["wireshak"] : []))
            if i % 100 == 99 { _ = try writer.commit() }
        }
        let snapshot = try writer.commit()
        let all: @Sendable (Query) -> [String] = { query in
            Set(snapshot.search(query, limit: 1000).compactMap { snapshot.id(of: $0.address) }).sorted()
        }
        XCTAssertGreaterThan(snapshot.segments.count, 1)
        XCTAssertEqual(snapshot.segments.map(\.vocabularyMemoryBytes), snapshot.segments.map { _ in 0 })
        let queries: [Query] = [.fuzzy("wireshrak", maxEdits: nil), .fuzzy("wireshark", maxEdits: 1), .fuzzy("netwrok", maxEdits: 2)]
        // The expected answers, from each field's own dictionary walk (one field per scope: no vocabulary).
        var expected: [[String]] = []
        for query in queries {
            var found = Set<String>()
            for field in [title!, body!, keywords!] { found.formUnion(all(.scoped(.field(field), query))) }
            expected.append(found.sorted())
        }
        XCTAssertEqual(snapshot.segments.map(\.vocabularyMemoryBytes), snapshot.segments.map { _ in 0 })
        let answers = Mutex<[[[String]]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let mine = queries.map(all)
            answers.withLock { $0.append(mine) }
        }
        XCTAssertTrue(expected.allSatisfy { !$0.isEmpty })
        XCTAssertTrue(answers.withLock { $0 } == Array(repeating: expected, count: 8), "every reader agrees with the per-field walks")
        XCTAssertTrue(snapshot.segments.allSatisfy { $0.vocabularyMemoryBytes > 0 }, "built on first use")
        // Another scope (two fields) rebuilds the cache for that scope and still agrees.
        let twoFields = all(.scoped(.fields([title, keywords]), queries[0]))
        let expectedTwo = Set(all(.scoped(.field(title), queries[0]))).union(all(.scoped(.field(keywords), queries[0]))).sorted()
        XCTAssertTrue(twoFields == expectedTwo && !twoFields.isEmpty, "two-field scope")
    }

    /// Commits `count` documents titled `word` and a number (from `next` on), each about a packet analyzer.
    private func commitBatch(_ count: Int, _ word: String, next: inout Int) throws -> IndexSnapshot {
        for _ in 0..<count {
            try writer.upsert(doc("\(next)", "\(word) \(next)", "packet analyzer", keywords: ["network"]))
            next += 1
        }
        return try writer.commit()
    }

    /// The snapshot-wide vocabulary is kept across commits while the segments it covers hold most documents: a
    /// small new segment is walked on its own (its terms still found), a large one makes the next search rebuild.
    func testSnapshotVocabularyKeptWhileItCoversMostDocuments() throws {
        writer.mergePolicy = MergePolicy(maxSegments: 24, mergeFactor: 10)
        var next = 0
        func batch(_ count: Int, _ word: String) throws -> IndexSnapshot { try commitBatch(count, word, next: &next) }
        for _ in 0..<3 { _ = try batch(100, "wireshark") }
        var snapshot = try batch(100, "wireshark")
        XCTAssertEqual(snapshot.segments.count, 4)
        let cache = snapshot.vocabularies
        XCTAssertEqual(cache.coveredSegments, 0)
        XCTAssertEqual(snapshot.count(.fuzzy("wireshrak", maxEdits: nil)), 400)
        XCTAssertEqual(cache.coveredSegments, 4)
        XCTAssertGreaterThan(cache.memoryBytes, 0)
        // The caches count in the index's memory figures.
        XCTAssertEqual(snapshot.memoryBreakdown["vocabulary"],
                       cache.memoryBytes + snapshot.segments.reduce(0) { $0 + $1.vocabularyMemoryBytes })
        XCTAssertEqual(snapshot.stats.estimatedMemoryBytes, snapshot.segments.reduce(0) { $0 + $1.memoryBytes }
                       + snapshot.live.reduce(0) { $0 + $1.memoryBytes } + cache.memoryBytes + cache.nearTermsMemoryBytes)
        // So do the near terms its walks found (`NearTermsCache`).
        XCTAssertGreaterThan(cache.nearTermsMemoryBytes, 0)
        XCTAssertEqual(snapshot.memoryBreakdown["nearTerms"],
                       cache.nearTermsMemoryBytes + snapshot.segments.reduce(0) { $0 + $1.nearTermsMemoryBytes })
        snapshot = try batch(10, "zyxwvutsr")
        XCTAssertEqual(snapshot.count(.fuzzy("zyxwvutrs", maxEdits: nil)), 10, "the uncovered segment is walked")
        XCTAssertEqual(snapshot.count(.fuzzy("wireshrak", maxEdits: nil)), 400)
        XCTAssertEqual(cache.coveredSegments, 4, "410 documents, 400 covered: kept")
        snapshot = try batch(300, "zyxwvutsr")
        XCTAssertEqual(snapshot.count(.fuzzy("zyxwvutrs", maxEdits: nil)), 310)
        XCTAssertEqual(cache.coveredSegments, 6, "710 documents, 400 covered: rebuilt over all six")
        XCTAssertEqual(snapshot.count(.fuzzy("wireshrak", maxEdits: nil)), 400)
    }

    /// A merge that leaves the cached snapshot-wide vocabulary covering too little (so no search would use it)
    /// drops it when published: it held the merged-away segments, and with them their postings and stored values,
    /// until the next typo-tolerant search, however long after that came.
    func testAMergeReleasesTheVocabularyOfTheSegmentsItReplaced() throws {
        writer.mergePolicy = MergePolicy(maxSegments: 24, mergeFactor: 10)
        var next = 0
        for _ in 0..<3 { _ = try commitBatch(100, "wireshark", next: &next) }
        var snapshot = try commitBatch(100, "wireshark", next: &next)
        XCTAssertEqual(snapshot.count(.fuzzy("wireshrak", maxEdits: nil)), 400)
        let cache = snapshot.vocabularies
        XCTAssertEqual(cache.coveredSegments, 4)
        weak let replaced = snapshot.segments[0]
        writer.mergePolicy = MergePolicy(maxSegments: 1, mergeFactor: 10)
        snapshot = try commitBatch(1, "wireshark", next: &next)
        XCTAssertEqual(snapshot.segments.count, 1)
        XCTAssertEqual(cache.coveredSegments, 0)
        XCTAssertNil(replaced, "the merged-away segment is released")
        XCTAssertEqual(snapshot.count(.fuzzy("wireshrak", maxEdits: nil)), 401)
    }

    /// A segment holding most documents beside small ones is walked on its own vocabulary, each small one on
    /// its own: no snapshot-wide vocabulary repeats the large one's, and every segment's terms are still found.
    func testOneLargeSegmentBesideSmallOnesBuildsNoUnion() throws {
        writer.mergePolicy = MergePolicy(maxSegments: 24, mergeFactor: 10)
        var next = 0
        func batch(_ count: Int, _ word: String) throws -> IndexSnapshot { try commitBatch(count, word, next: &next) }
        _ = try batch(400, "wireshark")
        _ = try batch(10, "zyxwvutsr")
        var snapshot = try batch(10, "wireshark")
        XCTAssertEqual(snapshot.segments.map(\.documentCount), [400, 10, 10])
        XCTAssertEqual(snapshot.count(.fuzzy("wireshrak", maxEdits: nil)), 410)
        XCTAssertEqual(snapshot.count(.fuzzy("zyxwvutrs", maxEdits: nil)), 10)
        XCTAssertEqual(snapshot.vocabularies.coveredSegments, 0, "400 of 420 documents in one segment")
        XCTAssertEqual(snapshot.segments.filter { $0.vocabularyScope != nil }.count, 3, "each walked on its own")
        // Once the small ones hold more than a quarter, the union is built.
        snapshot = try batch(200, "zyxwvutsr")
        XCTAssertEqual(snapshot.count(.fuzzy("zyxwvutrs", maxEdits: nil)), 210)
        XCTAssertEqual(snapshot.vocabularies.coveredSegments, 4)
    }

    /// `prepareFuzzySearch()` builds the vocabularies a typo-tolerant search walks (the snapshot-wide one over
    /// several segments, the segment's own for one), and the search then finds the same terms with them.
    func testPrepareFuzzySearchBuildsTheVocabularies() throws {
        writer.mergePolicy = MergePolicy(maxSegments: 24, mergeFactor: 10)
        for round in 0..<3 {
            for i in 0..<50 { try writer.upsert(doc("r\(round)-\(i)", "wireshark \(i)", "packet analyzer", keywords: ["network"])) }
            let snapshot = try writer.commit()
            XCTAssertEqual(snapshot.segments.count, round + 1)
            XCTAssertNil(snapshot.segments.last?.vocabularyScope)
            snapshot.prepareFuzzySearch()
            XCTAssertNotNil(snapshot.segments.last?.vocabularyScope, "round \(round)")
            XCTAssertEqual(snapshot.vocabularies.coveredSegments, round == 0 ? 0 : round + 1)
            let built = snapshot.memoryBreakdown["vocabulary"]
            XCTAssertEqual(snapshot.count(.fuzzy("wireshrak", maxEdits: nil)), 50 * (round + 1))
            XCTAssertEqual(snapshot.memoryBreakdown["vocabulary"], built, "the search built nothing more")
        }
    }

    func testChurnKeepsMemoryBounded() throws {
        writer.mergePolicy = MergePolicy(maxSegments: 4)
        func corpus(_ round: Int) -> [Document] {
            (0..<300).map { i in doc("d\(i)", "item \(i) title \(i % 17)", "body words \(i % 13) more text here", domain: "dom.\(i % 5)", size: [Double(i)]) }
        }
        try writer.upsert(contentsOf: corpus(0))
        let baseline = try writer.commit().stats.estimatedMemoryBytes
        var last = baseline
        for round in 1...10 {
            if round % 2 == 0 {
                writer.delete(domains: (0..<5).map { "dom.\($0)" })
                _ = try writer.commit()
            }
            for batch in corpus(round).chunked(50) {
                try writer.upsert(contentsOf: batch)
                _ = try writer.commit()
            }
            let stats = writer.snapshot.stats
            XCTAssertEqual(stats.documents, 300)
            last = stats.estimatedMemoryBytes
        }
        XCTAssertLessThan(Double(last), Double(baseline) * 1.10, "memory after churn \(last) vs \(baseline)")
    }

    /// A rolled-back call drops the fields it registered: a call refused at the field limit (`tooManyFields`)
    /// leaves room for later fields, and the committed fields keep their ids.
    func testRollbackDropsTheFieldsTheCallRegistered() throws {
        try writer.upsert(doc("1", "kept"))
        _ = try writer.commit()
        let committed = writer.schema.fields.count
        var refused: EngineError?
        do {
            for n in 0..<Int(UInt16.max) { try writer.registerField("f\(n)", .text()) }
        } catch {
            refused = error
        }
        XCTAssertEqual(refused, .tooManyFields)
        writer.rollback()
        XCTAssertEqual(writer.schema.fields.count, committed)
        XCTAssertNil(writer.schema.field(named: "f0"))
        XCTAssertEqual(writer.schema.field(named: "title"), title)
        let fresh = try writer.registerField("fresh", .text())
        XCTAssertEqual(Int(fresh.rawValue), committed)
        try writer.upsert(Document(id: "2", values: [(title, .text("later")), (fresh, .text("value"))]))
        let s = try writer.commit()
        XCTAssertEqual(ids(s, .term("kept")), ["1"])
        XCTAssertEqual(ids(s, .scoped(.field(fresh), .term("value"))), ["2"])
    }

    func testInvalidInputIsATypedError() throws {
        XCTAssertThrowsError(try writer.upsert(Document(id: "", values: []))) { XCTAssertEqual($0 as? EngineError, .emptyIdentifier) }
        XCTAssertThrowsError(try writer.upsert(Document(id: "a", values: [(FieldID(rawValue: 99), .text("x"))])))
        XCTAssertThrowsError(try writer.registerField("title", .numeric))
        XCTAssertEqual(writer.snapshot.count(.all), 0)
        let s = try writer.commit()
        XCTAssertNil(s.document(at: DocAddress(segment: 3, doc: 1)))
        XCTAssertEqual(s.search(.term(""), limit: 5), [])
        XCTAssertEqual(s.search(.term("x"), limit: 0), [])
    }
}

extension Array {
    func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}

final class MaterializedGroupTests: XCTestCase {
    /// A wide expansion is scored through a dense accumulator; it must rank exactly like the heap union.
    func testMaterializedGroupScoresLikeHeapUnion() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        let words = (0..<20).map { "w\(String(UnicodeScalar(UInt8(97 + $0))))ord" }
        for i in 0..<300 {
            try writer.upsert(Document(id: "d\(i)", values: [
                (title, .text(i % 7 == 0 ? words[i % 20] : "other")),
                (body, .text((0..<(i % 5 + 1)).map { words[($0 * 3 + i) % 20] }.joined(separator: " ") + " filler text")),
            ]))
        }
        let snapshot = try writer.commit()
        var planner = QueryPlanner(snapshot: snapshot)
        let plan = planner.plan(.prefix("w"), scope: planner.resolve(.defaultFields))
        let materialized = planner.iterator(plan, segment: 0, scored: true)
        XCTAssertTrue(materialized is MaterializedGroupIterator)
        guard case .prefix(let fields, _, let idf, let label) = plan else { return XCTFail("expected a prefix plan") }
        let segment = snapshot.segments[0]
        var sources: [TermSource] = []
        for prefix in fields {
            // Twenty expansions: too few for a precomputed list, so every term is listed.
            guard case .terms(let range, let exact) = prefix.places[0] else { return XCTFail("expected the terms listed") }
            let terms = try XCTUnwrap(segment.terms(FieldID(rawValue: UInt16(prefix.field))))
            let (impact, tfScale) = planner.impactScales(prefix.field, segment)
            for index in range {
                sources.append(PostingSource(cursor: PostingCursor(segment: segment, terms: terms, index: index, field: prefix.field),
                                             terms: terms, term: index, field: prefix.field, fieldFactor: planner.factors(prefix.field),
                                             norms: segment.norms[prefix.field], primary: prefix.field == Int(title.rawValue),
                                             isExact: index == Int(exact), impactScale: impact, tfScale: tfScale))
            }
        }
        let union = TermGroupIterator(sources: sources, idf: idf, boost: 1, parameters: snapshot.parameters, label: .text(label))
        let count = assertSameDocumentsAndScores(materialized, union)
        XCTAssertEqual(count, snapshot.count(.prefix("w")))
        XCTAssertGreaterThan(count, 250)
    }

    /// Steps two iterators together: the same documents in the same order with the same scores. Returns how many.
    func assertSameDocumentsAndScores(_ a: DocIterator, _ b: DocIterator, line: UInt = #line) -> Int {
        var count = 0
        while true {
            let x = a.next(), y = b.next()
            XCTAssertEqual(x, y, line: line)
            if x == DocIterator.end || x != y { return count }
            XCTAssertEqual(a.score(), b.score(), "doc \(x)", line: line)
            count += 1
        }
    }

    /// A term in a few fields with few postings is merged sparsely at the root of a ranked search; it must
    /// score every document exactly like the heap union (same contributions, same source order), including
    /// the primary-field prefix and exact boosts, and a conjunction clause must keep the document-at-a-time
    /// iterator (a rarer clause may lead it).
    func testSparseGroupScoresLikeHeapUnion() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 4, primary: true))
        let keywords = try writer.registerField("keywords", .text(weight: 2))
        let body = try writer.registerField("body", .text(weight: 1))
        var random = SeededRandom(seed: 42)
        for i in 0..<400 {
            let titleText = ["alpha", "alpha beta", "beta alpha", "gamma"][Int.random(in: 0..<4, using: &random)]
            let bodyWords = (0..<Int.random(in: 1...12, using: &random)).map { _ in
                ["alpha", "beta", "delta", "omega", "filler"][Int.random(in: 0..<5, using: &random)]
            }
            try writer.upsert(Document(id: "d\(i)", values: [
                (title, .text(titleText)), (keywords, .text(i % 3 == 0 ? "alpha" : "kappa")),
                (body, .text(bodyWords.joined(separator: " "))),
            ]))
        }
        let snapshot = try writer.commit()
        var planner = QueryPlanner(snapshot: snapshot)
        let plan = planner.plan(.term("alpha"), scope: planner.resolve(.defaultFields))
        let sparse = planner.iterator(plan, segment: 0, scored: true, root: true)
        XCTAssertTrue(sparse is MaterializedGroupIterator)
        XCTAssertTrue(planner.iterator(plan, segment: 0, scored: true) is TermGroupIterator)
        let union = planner.iterator(plan, segment: 0, scored: true)
        let count = assertSameDocumentsAndScores(sparse, union)
        XCTAssertEqual(count, snapshot.count(.term("alpha")))
        XCTAssertGreaterThan(count, 300)
        // Ranked results agree with an exhaustive ranking of the union's scores.
        var expected: [SearchHit] = []
        let reference = planner.iterator(plan, segment: 0, scored: true)
        while reference.next() != DocIterator.end {
            expected.append(SearchHit(address: DocAddress(segment: 0, doc: UInt32(reference.doc)), score: reference.score()))
        }
        expected.sort(by: SearchHit.ranksBefore)
        XCTAssertEqual(snapshot.search(.term("alpha"), limit: 25), Array(expected.prefix(25)))
    }
}

extension EngineTests {
    /// A union vocabulary built over two segments goes once a merge folds them into one large segment beside a
    /// small one: the cache does not keep the merged-away segments (postings and all) alive. (Found by review:
    /// the rule that walks a large segment on its own returned before dropping the stale union.)
    func testAMergedAwaySegmentIsNotKeptAliveByAStaleSnapshotVocabulary() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 4, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        writer.mergePolicy = MergePolicy(maxSegments: 24, mergeFactor: 10)
        var next = 0
        func batch(_ count: Int, _ word: String) throws {
            for _ in 0..<count {
                try writer.upsert(Document(id: "\(next)", values: [(title, .text("\(word) \(next)")),
                                                                 (body, .text("packet analyzer"))]))
                next += 1
            }
            try writer.commit()
        }
        try batch(200, "wireshark")
        try batch(200, "wireshark")
        weak var mergedAway: Segment?
        do {
            let snapshot = writer.snapshot
            XCTAssertEqual(snapshot.segments.map(\.documentCount), [200, 200])
            XCTAssertEqual(snapshot.count(.fuzzy("wireshrak", maxEdits: nil)), 400)
            XCTAssertEqual(snapshot.vocabularies.coveredSegments, 2, "a union over two halves")
            mergedAway = snapshot.segments[0]
        }
        // The two large segments merge into one; a small one is committed beside it.
        writer.mergePolicy = MergePolicy(maxSegments: 24, mergeFactor: 2)
        try batch(10, "zyxwvutsr")
        do {
            let snapshot = writer.snapshot
            XCTAssertEqual(snapshot.segments.map(\.documentCount).sorted(), [10, 400])
            XCTAssertFalse(snapshot.segments.contains { $0 === mergedAway })
            XCTAssertEqual(snapshot.count(.fuzzy("wireshrak", maxEdits: nil)), 400)
            XCTAssertEqual(snapshot.vocabularies.coveredSegments, 0)
        }
        XCTAssertNil(mergedAway, "a segment merged away stays alive in the writer's stale SnapshotVocabulary")
    }
}
