@testable import SearchlightEngine
import Dispatch
import Foundation
import Synchronization
import XCTest

/// Edge cases of wide-prefix lists, first written as a reviewer's probes: threshold edges, one-document segments,
/// multi-byte characters, fields in some segments only, merges (foreground and background) with deletions, a
/// durable store reopened, digits, separators and the two-word form. Each checks every list against the naive sum
/// of its terms, and every prefix against the group of all its expansions, the dictionary's matches and top-k.
final class PrefixPostingsEdgeTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator

    // MARK: Helpers

    private func scores(_ iterator: DocIterator) -> [Int: Float] {
        var found: [Int: Float] = [:]
        while iterator.next() != DocIterator.end { found[iterator.doc] = iterator.score() }
        return found
    }

    private func termBytes(_ terms: FieldTerms, _ index: Int) -> [UInt8] {
        Array(terms.bytes[Int(terms.offsets[index])..<Int(terms.offsets[index + 1])])
    }

    /// Every list of every field of every segment equals the naive sum over its longer terms, and the keys are
    /// exactly the boundary prefixes with more than 48 longer terms.
    private func checkLists(_ snapshot: IndexSnapshot, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        for (ordinal, segment) in snapshot.segments.enumerated() {
            for field in 0..<segment.fieldTerms.count {
                guard let terms = segment.fieldTerms[field] else { continue }
                var longer: [[UInt8]: Int] = [:]
                for i in 0..<terms.count {
                    let t = termBytes(terms, i)
                    if t.count < 2 { continue }
                    for length in 1..<t.count where t[length] & 0xC0 != 0x80 { longer[Array(t[0..<length]), default: 0] += 1 }
                }
                let wide = Set(longer.filter { $0.value > PrefixPostings.minimumExpansions }.keys)
                // Every byte prefix is probed, those ending inside a character too (they must get none).
                var probes = Set<[UInt8]>()
                for i in 0..<terms.count {
                    let t = termBytes(terms, i)
                    for length in 1..<max(t.count, 1) { probes.insert(Array(t[0..<length])) }
                }
                let keys = Set(probes.filter { key in
                    key.withUnsafeBufferPointer { segment.prefixList(field: field, key: $0, terms: terms, range: terms.prefixRange($0), primary: true) } != nil
                })
                XCTAssertEqual(keys, wide, "\(context): keys of segment \(ordinal) field \(field)", file: file, line: line)
                for key in wide {
                    guard let lists = key.withUnsafeBufferPointer({ segment.prefixList(field: field, key: $0, terms: terms, range: terms.prefixRange($0), primary: true) }) else { continue }
                    let index = 0
                    XCTAssertEqual(lists.key(index), key, file: file, line: line)
                    var sums: [Int: (UInt32, Bool)] = [:]
                    var maxDF: UInt32 = 0
                    for i in 0..<terms.count {
                        let t = termBytes(terms, i)
                        guard t.count > key.count, Array(t[0..<key.count]) == key else { continue }
                        maxDF = max(maxDF, terms.docFreq[i])
                        let cursor = PostingCursor(segment: segment, terms: terms, index: i, field: field)
                        var d = cursor.next()
                        while d != PostingCursor.end {
                            let old = sums[d] ?? (0, false)
                            sums[d] = (old.0 + cursor.tf, old.1 || cursor.firstPosition() == 0)
                            d = cursor.next()
                        }
                    }
                    var actual: [(Int, UInt32, Bool)] = []
                    lists.forEachPosting(index) { d, tf, s in
                        actual.append((d, tf, s))
                        return true
                    }
                    let expected = sums.keys.sorted().map { ($0, sums[$0]!.0, sums[$0]!.1) }
                    let k = String(decoding: key, as: UTF8.self)
                    XCTAssertEqual(actual.map(\.0), expected.map(\.0), "\(context): docs of \(k) seg \(ordinal) f \(field)", file: file, line: line)
                    XCTAssertEqual(actual.map(\.1), expected.map(\.1), "\(context): tfs of \(k) seg \(ordinal) f \(field)", file: file, line: line)
                    XCTAssertEqual(actual.map(\.2), expected.map(\.2), "\(context): starts of \(k) seg \(ordinal) f \(field)", file: file, line: line)
                    XCTAssertEqual(lists.maxDocFreq[index], maxDF, "\(context): maxDF of \(k)", file: file, line: line)
                }
            }
        }
    }

    /// The live documents holding a term that starts with `prefix` in one of `fields` (from the dictionaries).
    private func expectedMatches(_ snapshot: IndexSnapshot, _ prefix: String, _ fields: [Int]) -> Set<DocAddress> {
        let key = Array(QueryPlanner.foldedPrefix(prefix).utf8)
        var result = Set<DocAddress>()
        for (ordinal, segment) in snapshot.segments.enumerated() {
            for field in fields {
                guard let terms = segment.terms(FieldID(rawValue: UInt16(field))) else { continue }
                for i in key.withUnsafeBufferPointer({ terms.prefixRange($0) }) {
                    let cursor = PostingCursor(segment: segment, terms: terms, index: i, field: field)
                    var d = cursor.next()
                    while d != PostingCursor.end {
                        let address = DocAddress(segment: UInt32(ordinal), doc: UInt32(d))
                        if snapshot.isLive(address) { result.insert(address) }
                        d = cursor.next()
                    }
                }
            }
        }
        return result
    }

    /// Per segment: the prefix plan's iterator equals the group of all expansions with the same idf, at the root,
    /// not at the root, and under a rarer clause; snapshot matches equal the dictionary's; top-k equals the full
    /// ranking for several query shapes.
    private func checkPrefix(_ snapshot: IndexSnapshot, _ prefix: String, scope: FieldScope, rare: String? = nil,
                             _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        var planner = QueryPlanner(snapshot: snapshot)
        let fields = planner.resolve(scope)
        let plan = planner.plan(.prefix(prefix), scope: fields)
        let key = Array(QueryPlanner.foldedPrefix(prefix).utf8)
        let query = Query.scoped(scope, .prefix(prefix))
        let twoWords = prefix.contains(" ")
        let expected = twoWords ? [] : expectedMatches(snapshot, prefix, fields)
        if !twoWords {
        XCTAssertEqual(Set(snapshot.matches(query)), expected, "\(context): matches of \(prefix)*", file: file, line: line)
        XCTAssertEqual(snapshot.count(query), expected.count, "\(context): count of \(prefix)*", file: file, line: line)
        }
        if !twoWords, case .prefix(_, _, let idf, _) = plan {
        for (ordinal, segment) in snapshot.segments.enumerated() {
            var entries: [QueryPlan.GroupEntry] = []
            for field in fields {
                guard let terms = segment.terms(FieldID(rawValue: UInt16(field))) else { continue }
                for index in key.withUnsafeBufferPointer({ terms.prefixRange($0) }) {
                    let term = termBytes(terms, index)
                    entries.append(.init(field: field, term: term, isExact: term == key))
                }
            }
            let expanded = QueryPlan.group(entries: entries, idf: idf, label: "expanded")
            for root in [true, false] {
                let actual = scores(planner.iterator(plan, segment: ordinal, scored: true, root: root))
                let wanted = entries.isEmpty ? [:] : scores(planner.iterator(expanded, segment: ordinal, scored: true, root: root))
                XCTAssertEqual(Set(actual.keys), Set(wanted.keys), "\(context): docs of \(prefix)* seg \(ordinal) root \(root)", file: file, line: line)
                for (doc, score) in actual {
                    XCTAssertEqual(score, wanted[doc] ?? -1, accuracy: 1e-5 * max(1, score), "\(context): \(prefix)* seg \(ordinal) doc \(doc)", file: file, line: line)
                }
            }
            if let rare, !entries.isEmpty {
                let rarePlan = planner.plan(.term(rare), scope: fields)
                let lazy = scores(planner.iterator(.and([rarePlan, plan]), segment: ordinal, scored: true))
                let wanted = scores(planner.iterator(.and([rarePlan, expanded]), segment: ordinal, scored: true))
                XCTAssertEqual(Set(lazy.keys), Set(wanted.keys), "\(context): lazy \(prefix)* seg \(ordinal)", file: file, line: line)
                for (doc, score) in lazy {
                    XCTAssertEqual(score, wanted[doc] ?? -1, accuracy: 1e-5 * max(1, score), "\(context): lazy \(prefix)* seg \(ordinal) doc \(doc)", file: file, line: line)
                }
            }
        }
        } else if !twoWords, !expected.isEmpty { XCTFail("\(context): no prefix plan for \(prefix)", file: file, line: line) }
        var shapes: [Query] = [query, .not(query, excluding: .term("zzz"))]
        if let rare {
            shapes += [.and([.term(rare), query]), .or([query, .term(rare)]), .and([.term(rare), .or([query, .term(rare + "q")])]),
                       .scoped(scope, .prefix(rare + " " + prefix))]
        }
        for shape in shapes {
            let full = snapshot.search(shape, limit: 1_000_000)
            XCTAssertEqual(full.count, snapshot.count(shape), "\(context): count \(shape)", file: file, line: line)
            for k in [1, 3, 10] {
                XCTAssertEqual(snapshot.search(shape, limit: k), Array(full.prefix(k)), "\(context): top-\(k) of \(shape)", file: file, line: line)
            }
            for hit in full.prefix(2) {
                XCTAssertEqual(snapshot.explain(shape, hit.address)?.value ?? -1, hit.score, accuracy: 1e-4 * max(1, hit.score),
                               "\(context): explain \(shape)", file: file, line: line)
            }
        }
    }

    // MARK: Cases

    /// 48/49 longer terms, with and without the prefix itself as a term, nested under a wide "k", over two
    /// segments where the second holds only some of the terms.
    func testThresholdEdges() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        // (prefix, longer terms, prefix itself a term)
        let specs: [(String, Int, Bool)] = [("ka", 48, true), ("kb", 49, false), ("kc", 49, true), ("kd", 48, false),
                                            ("ke", 47, true), ("kf", 50, true)]
        var vocab: [String] = []
        for (p, n, exact) in specs {
            if exact { vocab.append(p) }
            for i in 0..<n { vocab.append(p + String(format: "%02d", i) + "x") }
        }
        var g = Generator(state: 3)
        var count = 0
        for segmentNumber in 0..<2 {
            let words = segmentNumber == 0 ? vocab : vocab.filter { $0.hasPrefix("ka") || $0.hasPrefix("kc") }
            for w in words {
                for _ in 0..<(1 + g.int(3)) {
                    let t = (0..<(1 + g.int(3))).map { _ in g.pick(words) }
                    let b = (0..<(2 + g.int(6))).map { _ in g.chance(0.3) ? g.pick(words) : "filler" }
                    try writer.upsert(Document(id: "d\(count)", values: [(title, .text(([w] + t).joined(separator: " "))),
                                                                         (body, .text(b.joined(separator: " ")))]))
                    count += 1
                }
            }
            if segmentNumber == 0 { try writer.commit() }
        }
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.count, 2)
        checkLists(snapshot, "edges")
        for p in ["k", "ka", "kb", "kc", "kd", "ke", "kf", "kf0", "kf1"] {
            for scope in [FieldScope.defaultFields, .field(title), .field(body)] {
                checkPrefix(snapshot, p, scope: scope, rare: "ka03x", "edges \(scope)")
            }
        }
    }

    /// A one-document segment holding many expansions (one posting with a large summed frequency) next to
    /// larger segments; an empty-ish segment after deletions.
    func testOneDocumentSegment() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 2, primary: true))
        let words = (0..<70).map { "pa" + String(format: "%02d", $0) }
        try writer.upsert(Document(id: "solo", values: [(title, .text(words.joined(separator: " ") + " " + words.joined(separator: " ")))]))
        try writer.commit()
        for i in 0..<300 {
            try writer.upsert(Document(id: "o\(i)", values: [(title, .text("\(words[i % 70]) other\(i % 7) \(words[(i * 7) % 70])"))]))
        }
        try writer.commit()
        try writer.upsert(Document(id: "solo2", values: [(title, .text(words.prefix(60).joined(separator: " ")))]))
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.count, 3)
        XCTAssertEqual(snapshot.segments[0].documentCount, 1)
        checkLists(snapshot, "solo")
        for p in ["p", "pa", "pa0", "pa1"] {
            checkPrefix(snapshot, p, scope: .defaultFields, rare: "other3", "solo")
        }
    }

    /// Multibyte prefixes: CJK (bigrams), Greek, 4-byte characters, and mixed scripts.
    func testMultibytePrefixes() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 2, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        let cjk = (0..<80).map { String(UnicodeScalar(0x4E00 + 7 * $0)!) }
        let ext = (0..<60).map { String(UnicodeScalar(0x20000 + $0)!) }
        let greek = (0..<60).map { "λ" + String(UnicodeScalar(0x3B1 + $0 % 24)!) + "\($0)" }
        var g = Generator(state: 9)
        for i in 0..<400 {
            let t = "中" + g.pick(cjk) + " " + g.pick(greek)
            let b = "中" + g.pick(cjk) + g.pick(cjk) + " 𠀀" + g.pick(ext) + " é" + g.pick(greek) + " " + g.pick(cjk)
            try writer.upsert(Document(id: "d\(i)", values: [(title, .text(t)), (body, .text(b))]))
            if i == 199 { try writer.commit() }
        }
        let snapshot = try writer.commit()
        checkLists(snapshot, "multibyte")
        var anyList = false
        for segment in snapshot.segments {
            for f in [title, body] where ["中", "λ", "𠀀"].contains(where: { segment.prefixList(field: Int(f.rawValue), prefix: $0) != nil }) {
                anyList = true
            }
        }
        XCTAssertTrue(anyList, "some multibyte prefix must be wide")
        for p in ["中", "λ", "𠀀", "é", "eλ", "λα", "λ1"] {
            checkPrefix(snapshot, p, scope: .defaultFields, rare: nil, "multibyte")
        }
    }

    /// A field present in one segment only (registered after the first commit).
    func testFieldInSomeSegmentsOnly() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 2, primary: true))
        var g = Generator(state: 1)
        func w() -> String { "r" + String((0..<(2 + g.int(3))).map { _ in g.pick(Array("abcd")) }) }
        for i in 0..<200 { try writer.upsert(Document(id: "a\(i)", values: [(title, .text("\(w()) \(w())"))])) }
        try writer.commit()
        let extra = try writer.registerField("extra", .text(weight: 1, primary: true))
        for i in 0..<200 { try writer.upsert(Document(id: "b\(i)", values: [(extra, .text("\(w()) \(w()) \(w())"))])) }
        try writer.commit()
        for i in 0..<100 { try writer.upsert(Document(id: "c\(i)", values: [(title, .text(w())), (extra, .text(w()))])) }
        let snapshot = try writer.commit()
        checkLists(snapshot, "partial fields")
        for p in ["r", "ra", "rab", "rc"] {
            for scope in [FieldScope.defaultFields, .field(extra), .field(title), .fields([extra, title])] {
                checkPrefix(snapshot, p, scope: scope, rare: "rabc", "partial fields \(scope)")
            }
        }
    }

    /// Deletions, then merges (foreground and background).
    func testMergesAndDeletions() throws {
        for background in [false, true] {
            let writer = IndexWriter()
            writer.mergePolicy = MergePolicy(maxSegments: 24, mergeFactor: 2)
            writer.mergesInBackground = background
            let title = try writer.registerField("title", .text(weight: 2, primary: true))
            let body = try writer.registerField("body", .text(weight: 1))
            var g = Generator(state: 123)
            func w() -> String { String((0..<(2 + g.int(4))).map { _ in g.pick(Array("abc")) }) }
            for i in 0..<900 {
                try writer.upsert(Document(id: "d\(i)", values: [(title, .text("\(w()) \(w())")),
                                                                 (body, .text((0..<5).map { _ in w() }.joined(separator: " ")))]))
                if i % 7 == 3 { writer.delete(ids: ["d\(g.int(i + 1))"]) }
                if i % 150 == 149 { try writer.commit() }
            }
            var snapshot = try writer.commit()
            if background {
                writer.waitForMerges()
                snapshot = writer.publishFinishedMerges() ?? snapshot
            }
            checkLists(snapshot, "merged bg=\(background)")
            for p in ["a", "ab", "bca", "c", "cc"] {
                checkPrefix(snapshot, p, scope: .defaultFields, rare: "abcab", "merged bg=\(background) segs \(snapshot.segments.count)")
            }
        }
    }

    /// A durable store's checkpoint, reopened: the same hits and scores for prefix queries.
    func testDurableRestore() throws {
        let directory = makeStoreDirectory(self)
        var options = StoreOptions()
        options.protectionClass = "NSFileProtectionComplete"
        var before: [[SearchHit]] = []
        let queries: [Query] = [.prefix("a"), .prefix("ab"), .and([.term("abc"), .prefix("b")]), .or([.prefix("ca"), .term("zz")])]
        do {
            let opened = try DurableStore.open(directory: directory, options: options)
            let title = try opened.writer.registerField("title", .text(weight: 2, primary: true))
            var g = Generator(state: 77)
            func w() -> String { String((0..<(2 + g.int(4))).map { _ in g.pick(Array("abc")) }) }
            for i in 0..<500 {
                try opened.writer.upsert(Document(id: "d\(i)", values: [(title, .text("\(w()) \(w()) \(w())"))]))
                if i % 250 == 249 { try opened.writer.commit() }
            }
            let snapshot = try opened.writer.commit()
            before = queries.map { snapshot.search($0, limit: 1000) }
            try opened.store.checkpoint(snapshot, clientStates: [:])
            opened.store.close()
        }
        let reopened = try DurableStore.open(directory: directory, options: options)
        let snapshot = reopened.writer.snapshot
        XCTAssertEqual(queries.map { snapshot.search($0, limit: 1000) }, before)
        checkLists(snapshot, "restored")
        for p in ["a", "ab", "b"] { checkPrefix(snapshot, p, scope: .defaultFields, rare: "abc", "restored") }
        reopened.store.close()
    }

    /// "word prefix" form, digits and separators.
    func testTwoWordsDigitsSeparators() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 2, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        var g = Generator(state: 5)
        for i in 0..<600 {
            let n = g.int(200)
            let t = "x\(n) zeta v\(n).\(g.int(60)) report.n\(g.int(90))"
            let b = "alpha x\(g.int(300)) beta\(g.int(70)) zeta"
            try writer.upsert(Document(id: "d\(i)", values: [(title, .text(t)), (body, .text(b))]))
            if i == 299 { try writer.commit() }
        }
        let snapshot = try writer.commit()
        checkLists(snapshot, "digits")
        for p in ["x", "x1", "x12", "v1", "v1.", "v1.2", "report.n", "report.n1", "beta", "beta1", "zeta x1", "alpha bet", "x-"] {
            checkPrefix(snapshot, p, scope: .defaultFields, rare: "zeta", "digits")
        }
        // The two-word form equals the explicit conjunction.
        for (words, last) in [("zeta", "x1"), ("alpha", "bet"), ("zeta alpha", "x")] {
            let twoWords = snapshot.search(.prefix(words + " " + last), limit: 10_000)
            let explicit = snapshot.search(.and(words.split(separator: " ").map { .term(String($0)) } + [.prefix(last)]), limit: 10_000)
            XCTAssertEqual(twoWords.map(\.address), explicit.map(\.address), "\(words) \(last)")
        }
    }
}
