@testable import SearchlightEngine
import Dispatch
import Synchronization
import XCTest

/// Precomputed wide-prefix lists (`PrefixPostings`) and the prefix queries that read them: the lists hold
/// exactly what the expansions' postings add up to, and a prefix read from them matches and scores like its
/// expansions listed one by one.
final class PrefixPostingsTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator

    /// A corpus over three letters (words of 2 to 6 of them), so that most short prefixes have more than
    /// `minimumExpansions` longer terms. Returns the writer's fields and each document's words per field.
    private func makeCorpus(_ writer: IndexWriter, documents: Int, seed: UInt64, commitEvery: Int? = nil,
                            deleteEvery: Int? = nil) throws -> (title: FieldID, body: FieldID, texts: [String: [FieldID: [String]]]) {
        var g = Generator(state: seed)
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        var texts: [String: [FieldID: [String]]] = [:]
        func word() -> String { String((0..<(2 + g.int(5))).map { _ in g.pick(Array("abc")) }) }
        for i in 0..<documents {
            let id = "d\(i)"
            let titleWords = (0..<(1 + g.int(3))).map { _ in word() }
            let bodyWords = (0..<(3 + g.int(10))).map { _ in word() }
            try writer.upsert(Document(id: id, values: [(title, .text(titleWords.joined(separator: " "))),
                                                        (body, .text(bodyWords.joined(separator: " ")))]))
            texts[id] = [title: titleWords, body: bodyWords]
            if let deleteEvery, i % deleteEvery == deleteEvery - 1 {
                let victim = "d\(g.int(i + 1))"
                writer.delete(ids: [victim])
                texts[victim] = nil
            }
            if let commitEvery, i % commitEvery == commitEvery - 1 { _ = try writer.commit() }
        }
        return (title, body, texts)
    }

    /// Every list equals the naive sum over its prefix's longer terms (per document: the summed frequency and
    /// whether one of them starts the field), the prefixes with lists are exactly those with more than
    /// `minimumExpansions` longer terms, each block's bounds hold for its postings, and a list is built once.
    func testListsEqualTheirExpansionsSummed() throws {
        let writer = IndexWriter()
        let (title, body, texts) = try makeCorpus(writer, documents: 700, seed: 11, commitEvery: 350)
        let snapshot = try writer.commit()
        for segment in snapshot.segments { XCTAssertEqual(segment.prefixListsSeen, 0, "a commit built prefix lists") }
        var checked = 0
        for (ordinal, segment) in snapshot.segments.enumerated() {
            for field in [title, body] {
                let f = Int(field.rawValue)
                let terms = try XCTUnwrap(segment.terms(field))
                let words = (0..<terms.count).map { String(decoding: terms.bytes[Int(terms.offsets[$0])..<Int(terms.offsets[$0 + 1])], as: UTF8.self) }
                // Every prefix of every term, with its longer terms.
                var longer: [String: Int] = [:]
                for word in words {
                    for length in 1..<word.count { longer[String(word.prefix(length)), default: 0] += 1 }
                }
                let wide = Set(longer.filter { $0.value > PrefixPostings.minimumExpansions }.keys)
                XCTAssertFalse(wide.isEmpty, "the corpus must have wide prefixes")
                let listed = longer.keys.filter { segment.prefixList(field: f, prefix: $0) != nil }
                XCTAssertEqual(Set(listed), wide)
                for prefix in wide {
                    let lists = try XCTUnwrap(segment.prefixList(field: f, prefix: prefix))
                    XCTAssertTrue(segment.prefixList(field: f, prefix: prefix) === lists, "built again: \(prefix)")
                    XCTAssertEqual(lists.count, 1)
                    XCTAssertEqual(String(decoding: lists.key(0), as: UTF8.self), prefix)
                    let index = 0
                    var expected: [(doc: Int, tf: UInt32, starts: Bool)] = []
                    for doc in 0..<segment.documentCount {
                        let id = segment.id(doc)
                        // Deleted documents keep their postings until a merge: only the live model knows their words,
                        // so the check covers the documents still in it.
                        guard let fieldWords = texts[id]?[field] else { continue }
                        let positions = fieldWords.indices.filter { fieldWords[$0].hasPrefix(prefix) && fieldWords[$0] != prefix }
                        if !positions.isEmpty { expected.append((doc, UInt32(positions.count), positions[0] == 0)) }
                    }
                    var actual: [(doc: Int, tf: UInt32, starts: Bool)] = []
                    lists.forEachPosting(index) { doc, tf, starts in
                        actual.append((doc, tf, starts))
                        return true
                    }
                    XCTAssertEqual(actual.map(\.doc), expected.map(\.doc), "segment \(ordinal) field \(f) prefix \(prefix)")
                    XCTAssertEqual(actual.map(\.tf), expected.map(\.tf), "segment \(ordinal) field \(f) prefix \(prefix)")
                    XCTAssertEqual(actual.map(\.starts), expected.map(\.starts), "segment \(ordinal) field \(f) prefix \(prefix)")
                    XCTAssertEqual(Int(lists.postingCount[index]), actual.count)
                    let expansionFrequencies = words.indices.filter { words[$0].hasPrefix(prefix) && words[$0] != prefix }.map { terms.docFreq[$0] }
                    XCTAssertEqual(lists.maxDocFreq[index], expansionFrequencies.max())
                    // Built for a field that is not primary: the same postings, no start recorded.
                    let plain = try XCTUnwrap(segment.prefixList(field: f, prefix: prefix, primary: false))
                    XCTAssertFalse(plain === lists)
                    var plainPostings: [(doc: Int, tf: UInt32, starts: Bool)] = []
                    plain.forEachPosting(0) { doc, tf, starts in
                        plainPostings.append((doc, tf, starts))
                        return true
                    }
                    XCTAssertEqual(plainPostings.map(\.doc), expected.map(\.doc), "not primary: \(prefix)")
                    XCTAssertEqual(plainPostings.map(\.tf), expected.map(\.tf), "not primary: \(prefix)")
                    XCTAssertFalse(plainPostings.contains { $0.starts }, "not primary: \(prefix)")
                    XCTAssertFalse(plain.blockStarts.contains(true), "not primary: \(prefix)")
                    // Blocks: their last documents and bounds.
                    let blocks = Int(lists.firstBlock[index])..<Int(lists.firstBlock[index]) + (actual.count + PrefixPostings.blockSize - 1) / PrefixPostings.blockSize
                    // The list's blocks are every block.
                    XCTAssertEqual(blocks, 0..<lists.blockLastDoc.count)
                    for (number, block) in blocks.enumerated() {
                        let postings = actual[(number * PrefixPostings.blockSize)..<min((number + 1) * PrefixPostings.blockSize, actual.count)]
                        XCTAssertEqual(Int(lists.blockLastDoc[block]), postings.last?.doc)
                        XCTAssertEqual(lists.blockMaxTf[block], postings.map(\.tf).max())
                        let c0 = segment.impactConstants[f]
                        let impact = postings.map { Float($0.tf) / (FieldNorm.lengths[Int(segment.norm(f, $0.doc))] + c0) }.max() ?? 0
                        XCTAssertEqual(lists.blockMaxImpact[block], impact)
                    }
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 20)
    }

    /// Every document an iterator yields, with its score.
    private func scores(_ iterator: DocIterator) -> [Int: Float] {
        var found: [Int: Float] = [:]
        while iterator.next() != DocIterator.end { found[iterator.doc] = iterator.score() }
        return found
    }

    /// A prefix read from lists matches what its expansions match and scores each document as the group of all
    /// its expansions does, each term its own posting list (the prefix itself exact, the others not), with the
    /// same idf: ranked at the root, or walked under a rarer conjunction clause. Top-k agrees with the full
    /// ranking, and explanations with scores.
    func testWidePrefixScoresLikeItsExpansions() throws {
        let writer = IndexWriter()
        let (title, body, _) = try makeCorpus(writer, documents: 900, seed: 5)
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.count, 1)
        let segment = snapshot.segments[0]
        var planner = QueryPlanner(snapshot: snapshot)
        var viaLists = 0
        for prefix in ["a", "b", "c", "ab", "ca", "bcb", "aaa", "cc", "abca"] {
            let key = Array(prefix.utf8)
            for scope in [FieldScope.defaultFields, .field(title), .field(body)] {
                let fields = planner.resolve(scope)
                let plan = planner.plan(.prefix(prefix), scope: fields)
                guard case .prefix(_, _, let idf, _) = plan else { return XCTFail("expected a prefix plan for \(prefix)") }
                var entries: [QueryPlan.GroupEntry] = []
                for field in fields {
                    guard let terms = segment.terms(FieldID(rawValue: UInt16(field))) else { continue }
                    for index in key.withUnsafeBufferPointer({ terms.prefixRange($0) }) {
                        let term = Array(terms.bytes[Int(terms.offsets[index])..<Int(terms.offsets[index + 1])])
                        entries.append(.init(field: field, term: term, isExact: term == key))
                    }
                }
                let expanded = QueryPlan.group(entries: entries, idf: idf, label: "expanded")
                for root in [true, false] {
                    let actual = scores(planner.iterator(plan, segment: 0, scored: true, root: root))
                    let expected = scores(planner.iterator(expanded, segment: 0, scored: true, root: root))
                    XCTAssertEqual(Set(actual.keys), Set(expected.keys), "\(prefix) in \(fields)")
                    for (doc, score) in actual {
                        XCTAssertEqual(score, expected[doc] ?? -1, accuracy: 1e-5 * max(1, score), "\(prefix) in \(fields), doc \(doc)")
                    }
                }
                // Under a rarer conjunction clause the lists are walked lazily (seeking), with the same scores.
                let rare = planner.plan(.scoped(.field(title), .term(prefix + "cab")), scope: fields)
                let lazy = scores(planner.iterator(.and([rare, plan]), segment: 0, scored: true))
                let lazyExpected = scores(planner.iterator(.and([rare, expanded]), segment: 0, scored: true))
                XCTAssertEqual(Set(lazy.keys), Set(lazyExpected.keys), "\(prefix)cab and \(prefix)*")
                for (doc, score) in lazy {
                    XCTAssertEqual(score, lazyExpected[doc] ?? -1, accuracy: 1e-5 * max(1, score), "\(prefix)cab and \(prefix)*, doc \(doc)")
                }
                let query = Query.scoped(scope, .prefix(prefix))
                let full = snapshot.search(query, limit: 100_000)
                XCTAssertEqual(full.count, snapshot.count(query))
                for k in [1, 10, 20] { XCTAssertEqual(snapshot.search(query, limit: k), Array(full.prefix(k)), "top-\(k) of \(query)") }
                for hit in full.prefix(3) {
                    XCTAssertEqual(snapshot.explain(query, hit.address)?.value ?? -1, hit.score, accuracy: 1e-4 * max(1, hit.score))
                }
                // Led by rarer terms, the lists are walked lazily with block bounds: top-k must still be the best.
                for other in ["cab", "ab", "b"] {
                    let conjunction = Query.and([.term(prefix + other), query])
                    let ranked = snapshot.search(conjunction, limit: 100_000)
                    for k in [1, 3, 10] {
                        XCTAssertEqual(snapshot.search(conjunction, limit: k), Array(ranked.prefix(k)), "top-\(k) of \(conjunction)")
                    }
                }
            }
            if segment.prefixList(field: Int(body.rawValue), prefix: prefix) != nil { viaLists += 1 }
        }
        XCTAssertGreaterThan(viaLists, 4, "most of these prefixes must read lists")
    }

    /// Across segments, with deletions: a prefix matches exactly the live documents holding a term that starts
    /// with it (no cap on its expansions), and ranked results agree with counts, top-k and explanations.
    func testWidePrefixMatchesAcrossSegmentsWithDeletions() throws {
        let writer = IndexWriter()
        let (title, _, texts) = try makeCorpus(writer, documents: 1200, seed: 77, commitEvery: 250, deleteEvery: 9)
        let snapshot = try writer.commit()
        XCTAssertGreaterThan(snapshot.segments.count, 1)
        for prefix in ["a", "b", "ab", "bac", "cca", "abcab", "cb", "x"] {
            for (scope, fields) in [(FieldScope.defaultFields, Array(texts.values.first!.keys)), (.field(title), [title])] {
                let query = Query.scoped(scope, .prefix(prefix))
                let expected = Set(texts.filter { _, words in fields.contains { (words[$0] ?? []).contains { $0.hasPrefix(prefix) } } }.keys)
                let found = snapshot.matches(query).compactMap { snapshot.id(of: $0) }
                XCTAssertEqual(Set(found), expected, "\(query)")
                XCTAssertEqual(found.count, expected.count)
                let full = snapshot.search(query, limit: 100_000)
                XCTAssertEqual(full.count, expected.count)
                for k in [1, 7, 20] { XCTAssertEqual(snapshot.search(query, limit: k), Array(full.prefix(k)), "top-\(k) of \(query)") }
                for hit in full.prefix(2) {
                    XCTAssertEqual(snapshot.explain(query, hit.address)?.value ?? -1, hit.score, accuracy: 1e-4 * max(1, hit.score))
                }
                XCTAssertGreaterThanOrEqual(snapshot.maximumMatches(query), expected.count)
            }
        }
    }

    /// More than 256 expansions (the old cap): every one of them matches, in one segment or several.
    func testPrefixKeepsEveryExpansion() throws {
        for segmented in [true, false] {
            let writer = IndexWriter()
            let title = try writer.registerField("title", .text(weight: 1))
            var ids = Set<String>()
            for i in 0..<300 {
                let term = "pa" + String(repeating: "0", count: 3 - String(i).count) + String(i)
                try writer.upsert(Document(id: term, values: [(title, .text(term + " other"))]))
                ids.insert(term)
                if segmented, i % 70 == 69 { _ = try writer.commit() }
            }
            let s = try writer.commit()
            let found = s.matches(.scoped(.field(title), .prefix("pa"))).compactMap { s.id(of: $0) }
            XCTAssertEqual(Set(found), ids, "segmented: \(segmented)")
            XCTAssertEqual(found.count, ids.count)
            XCTAssertEqual(s.search(.prefix("pa0"), limit: 1000).count, 100)
        }
    }

    /// Dense evaluations reuse pooled accumulators: evaluations one after another (each must leave its
    /// accumulator zeroed for the next) and from several threads at once give the same hits as the first.
    func testDenseEvaluationsShareAccumulators() throws {
        let writer = IndexWriter()
        _ = try makeCorpus(writer, documents: 800, seed: 21, commitEvery: 400)
        let snapshot = try writer.commit()
        let queries: [Query] = ["a", "b", "ca", "abc", "cc", "bab"].map { .prefix($0) } + [.and([.prefix("a"), .prefix("b")])]
        // Every hit, not only the best: a document left marked by an earlier evaluation would score 0 and
        // hide below the best ones.
        let expected = queries.map { snapshot.search($0, limit: 100_000) }
        let expectedMatches = queries.map { snapshot.matches($0) }
        for _ in 0..<3 {
            for (k, query) in queries.enumerated() {
                XCTAssertEqual(snapshot.search(query, limit: 100_000), expected[k], "\(query)")
                XCTAssertEqual(snapshot.matches(query), expectedMatches[k], "\(query)")
            }
        }
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<20 {
                let k = (worker + round) % queries.count
                if snapshot.search(queries[k], limit: 100_000) != expected[k] || snapshot.matches(queries[k]) != expectedMatches[k] {
                    mismatches.withLock { $0 += 1 }
                }
            }
        }
        XCTAssertEqual(mismatches.withLock { $0 }, 0)
    }

    /// Prefixes whose terms are the same ("x", "xy" and "xyz" when every term starts with "xyz") get equal
    /// lists; a prefix ends on a character boundary ("λ", never its first byte); and
    /// a term that is itself a wide prefix ("xyz") counts in its shorter prefixes' lists.
    func testNestedPrefixesAndCharacterBoundaries() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text(weight: 1))
        for i in 0..<120 {
            let words = ["xyz\(i)", "λα\(i)", i % 3 == 0 ? "xyz" : "other"]
            try writer.upsert(Document(id: "d\(i)", values: [(body, .text(words.joined(separator: " ")))]))
        }
        let snapshot = try writer.commit()
        let segment = snapshot.segments[0]
        let field = Int(body.rawValue)
        func list(_ key: String) throws -> PrefixPostings {
            try XCTUnwrap(segment.prefixList(field: field, prefix: key), "no list for \(key)")
        }
        func postings(_ key: String) throws -> [Int] {
            var docs: [Int] = []
            try list(key).forEachPosting(0) { doc, _, _ in
                docs.append(doc)
                return true
            }
            return docs
        }
        XCTAssertNotNil(segment.prefixList(field: field, prefix: "λ"))
        let terms = try XCTUnwrap(segment.terms(body))
        let half: [UInt8] = [0xCE]
        XCTAssertNil(half.withUnsafeBufferPointer { key in
            segment.prefixList(field: field, key: key, terms: terms, range: terms.prefixRange(key), primary: true)
        }, "half a character")
        XCTAssertEqual(try postings("xyz").count, 120)
        // "x" and "xy" also hold the documents where only the term "xyz" itself occurs... which are all of them.
        XCTAssertEqual(try postings("x"), try postings("xy"))
        XCTAssertEqual(try postings("x").count, 120)
        var frequencies: [UInt32] = []
        try list("x").forEachPosting(0) { _, tf, _ in
            frequencies.append(tf)
            return true
        }
        // "xyzN" everywhere, and "xyz" in every third document.
        XCTAssertEqual(frequencies, (0..<120).map { $0 % 3 == 0 ? 2 : 1 })
        XCTAssertEqual(Set(snapshot.matches(.prefix("λ")).compactMap { snapshot.id(of: $0) }).count, 120)
        XCTAssertEqual(snapshot.search(.prefix("xy"), limit: 3).count, 3)
    }

    /// A prefix scores alike however its documents are split into segments: its idf comes from its most
    /// frequent term's frequency summed over segments, not from each segment's most frequent term (a review
    /// found the sum of those: 90 here instead of 30, and the top of a mixed query changed). Lists or not.
    func testPrefixScoresDoNotDependOnSegments() throws {
        for expansions in [3, 60] {
            func build(_ commits: Set<Int>) throws -> IndexSnapshot {
                let writer = IndexWriter()
                let title = try writer.registerField("title", .text(weight: 1))
                for i in 0..<(30 * expansions) {
                    // Each term has document frequency 30, spread over the segments.
                    let term = "pa" + String(i % expansions)
                    try writer.upsert(Document(id: "d\(i)", values: [(title, .text("\(term) filler\(i)"))]))
                    if commits.contains(i) { _ = try writer.commit() }
                }
                for i in 0..<300 { try writer.upsert(Document(id: "x\(i)", values: [(title, .text("other\(i % 5)"))])) }
                return try writer.commit()
            }
            let third = 10 * expansions
            let one = try build([]), three = try build([third - 1, 2 * third - 1])
            XCTAssertEqual(one.segments.count, 1)
            XCTAssertGreaterThan(three.segments.count, 1)
            func score(_ s: IndexSnapshot, _ query: Query, _ id: String) -> Float? {
                s.search(query, limit: 100_000).first { s.id(of: $0.address) == id }?.score
            }
            for id in ["d0", "d\(third + 1)", "d\(2 * third + 2)"] {
                let a = try XCTUnwrap(score(one, .prefix("pa"), id)), b = try XCTUnwrap(score(three, .prefix("pa"), id))
                XCTAssertEqual(a, b, accuracy: 1e-5 * a, "\(expansions) expansions, \(id)")
            }
            let mixed = Query.or([.prefix("pa"), .term("other1")])
            XCTAssertEqual(one.search(mixed, limit: 5).compactMap { one.id(of: $0.address) },
                           three.search(mixed, limit: 5).compactMap { three.id(of: $0.address) }, "\(expansions) expansions")
        }
    }

    /// Text without a word character has nothing to complete: it matches nothing (it used to expand to the
    /// 256 most frequent terms of the index, and uncapped it would read every term). Trailing words without
    /// one ("ab -") leave the word before them as the prefix.
    func testPrefixWithoutWordCharactersMatchesNothing() throws {
        let writer = IndexWriter()
        _ = try makeCorpus(writer, documents: 50, seed: 3)
        let snapshot = try writer.commit()
        for text in ["", "-", " ", "…", "- -"] {
            XCTAssertEqual(snapshot.count(.prefix(text)), 0, "'\(text)'")
        }
        XCTAssertGreaterThan(snapshot.count(.prefix("ab")), 0)
        XCTAssertEqual(snapshot.matches(.prefix("ab -")), snapshot.matches(.prefix("ab")))
        XCTAssertEqual(snapshot.matches(.prefix("ab - …")), snapshot.matches(.prefix("ab")))
        XCTAssertEqual(snapshot.matches(.prefix("abc ab -")), snapshot.matches(.prefix("abc ab")))
    }

    /// The largest summed frequency across segments, from candidate terms only, equals a brute-force sum over
    /// every distinct term: terms in some segments only, one-term ranges, frequencies tied and far apart.
    func testLargestDocFreqAcrossSegmentsEqualsBruteForce() throws {
        var g = Generator(state: 404)
        for round in 0..<40 {
            var dictionaries: [(terms: FieldTerms, range: Range<Int>)] = []
            var totals: [[UInt8]: Int] = [:]
            for _ in 0..<(1 + g.int(4)) {
                var frequencies: [[UInt8]: UInt32] = [:]
                for _ in 0..<(1 + g.int(40)) {
                    let word = Array("p".utf8) + (0..<(1 + g.int(3))).map { _ in g.pick(Array("abc".utf8)) }
                    frequencies[word] = UInt32(1 + (g.chance(0.1) ? g.int(500) : g.int(6)))
                }
                let sorted = frequencies.keys.sorted { $0.lexicographicallyPrecedes($1) }
                var bytes: [UInt8] = [], offsets: [UInt32] = [0]
                for word in sorted {
                    bytes += word
                    offsets.append(UInt32(bytes.count))
                    totals[word, default: 0] += Int(frequencies[word]!)
                }
                let zeros = [UInt32](repeating: 0, count: sorted.count)
                let terms = FieldTerms(bytes: bytes, offsets: offsets, docFreq: sorted.map { frequencies[$0]! },
                                       postingStart: zeros, blockStart: zeros, positionStart: zeros)
                dictionaries.append((terms, 0..<sorted.count))
            }
            XCTAssertEqual(QueryPlanner.largestDocFreq(dictionaries), totals.values.max(), "round \(round)")
        }
    }

    /// A prefix with few terms per field but many over its fields (5 in each of 3: 15 sources, as a group counts
    /// them) is wide: under a one-document conjunction clause it is walked to that document, not decoded whole
    /// (a second review found it materialized; before lists, every prefix counted as wide).
    func testPrefixWideOverItsFieldsIsWalkedUnderARareClause() throws {
        let writer = IndexWriter()
        let a = try writer.registerField("a", .text(weight: 1))
        let b = try writer.registerField("b", .text(weight: 1))
        let c = try writer.registerField("c", .text(weight: 1))
        for i in 0..<3000 {
            let w = "zq" + String(i % 5)
            try writer.upsert(Document(id: "d\(i)", values: [(a, .text("\(w) x")), (b, .text("\(w) y")), (c, .text("\(w) z"))]))
        }
        try writer.upsert(Document(id: "rare", values: [(a, .text("rareword zq1"))]))
        let snapshot = try writer.commit()
        var planner = QueryPlanner(snapshot: snapshot)
        let plan = planner.plan(.and([.term("rareword"), .prefix("zq")]), scope: planner.resolve(.defaultFields))
        // Not at the root: there a ranked conjunction is evaluated over its lead's candidates (`CandidateConjunctionIterator`),
        // from these same children.
        let iterator = try XCTUnwrap(planner.iterator(plan, segment: 0, scored: true) as? ConjunctionIterator)
        XCTAssertFalse(iterator.children.contains { $0 is MaterializedGroupIterator })
        XCTAssertEqual(snapshot.count(.and([.term("rareword"), .prefix("zq")])), 1)
    }
}

extension Segment {
    /// The precomputed list of `prefix` in `field` (tests): `prefixList` with the prefix's terms looked up, as for
    /// a primary field unless told otherwise.
    func prefixList(field: Int, prefix: String, primary: Bool = true) -> PrefixPostings? {
        guard let terms = terms(FieldID(rawValue: UInt16(field))) else { return nil }
        let key = Array(prefix.utf8)
        return key.withUnsafeBufferPointer { key in
            let range = terms.prefixRange(key)
            return range.isEmpty ? nil : prefixList(field: field, key: key, terms: terms, range: range, primary: primary)
        }
    }
}
