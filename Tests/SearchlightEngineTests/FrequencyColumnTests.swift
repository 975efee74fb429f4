@testable import SearchlightEngine
import Synchronization
import XCTest

/// Frequency columns (`FrequencyColumn`): a frequent term's postings as a nibble per document, read by a
/// conjunction's candidates instead of its postings. Every nibble must say what the postings say, scores through
/// columns must equal scores through the postings bit for bit, the columns of a segment stay within its budget,
/// and a background merge carries the columns in use.
final class FrequencyColumnTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator
    /// Frequent words (each in most documents' bodies or titles), and rare ones that lead conjunctions.
    static let frequent = ["the", "and", "of", "tool", "library", "data", "file"]
    static let rare = ["zlib", "gtk", "qt", "perl", "ruby", "lua", "tcl"]

    struct Corpus {
        let writer: IndexWriter
        let title: FieldID
        let body: FieldID
    }

    /// One segment of `count` documents: titles (a primary field) that often start with a frequent word and
    /// sometimes repeat it past the primary nibble's saturation (7), bodies that repeat frequent words up to 40
    /// times (past 15).
    static func corpus(_ g: inout Generator, count: Int = 3_000, writer: IndexWriter = IndexWriter()) throws -> Corpus {
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        try add(&g, writer: writer, title: title, body: body, ids: 0..<count)
        return Corpus(writer: writer, title: title, body: body)
    }

    static func add(_ g: inout Generator, writer: IndexWriter, title: FieldID, body: FieldID, ids: Range<Int>) throws {
        for i in ids {
            var titleWords: [String] = []
            // Two words frequent in titles too.
            let titleFrequent = Array(frequent.prefix(2))
            if g.chance(0.6) { titleWords.append(g.pick(titleFrequent)) }
            titleWords.append(g.pick(rare))
            if g.chance(0.05) { titleWords += Array(repeating: g.pick(titleFrequent), count: 6 + g.int(6)) }
            if g.chance(0.3) { titleWords.append(g.pick(frequent)) }
            var bodyWords: [String] = []
            for word in frequent where g.chance(0.6) {
                let repeats = g.chance(0.03) ? 14 + g.int(27) : 1 + g.int(3)
                bodyWords += Array(repeating: word, count: repeats)
            }
            if g.chance(0.2) { bodyWords.append(g.pick(rare)) }
            // Shuffled, so a body starts with any word.
            for k in bodyWords.indices.reversed() where k > 0 { bodyWords.swapAt(k, g.int(k + 1)) }
            try writer.upsert(Document(id: "d\(i)", values: [(title, .text(titleWords.joined(separator: " "))),
                                                             (body, .text(bodyWords.joined(separator: " ")))]))
        }
    }

    /// The postings of term `index` of `terms`: each document's frequency and first position.
    private func postings(_ segment: Segment, _ terms: FieldTerms, _ index: Int, field: Int) -> [Int: (tf: UInt32, first: UInt32)] {
        let cursor = PostingCursor(segment: segment, terms: terms, index: index, field: field)
        var result: [Int: (UInt32, UInt32)] = [:]
        var doc = cursor.next()
        while doc != PostingCursor.end {
            result[doc] = (cursor.tf, cursor.firstPosition())
            doc = cursor.next()
        }
        return result
    }

    func testEveryNibbleSaysWhatThePostingsSay() throws {
        var g = Generator(state: 7)
        let corpus = try Self.corpus(&g)
        let snapshot = try corpus.writer.commit()
        XCTAssertEqual(snapshot.segments.count, 1)
        let segment = snapshot.segments[0]
        var columns = 0, saturated = 0, starts = 0
        for field in [corpus.title, corpus.body] {
            let terms = try XCTUnwrap(segment.terms(field))
            let f = Int(field.rawValue)
            for index in 0..<terms.count {
                let worthwhile = FrequencyColumn.worthwhile(docFreq: Int(terms.docFreq[index]), documentCount: segment.documentCount)
                // As searches ask: the title's columns with their start bits.
                for primary in [field == corpus.title] {
                    guard let column = segment.frequencyColumn(field: f, terms: terms, index: index, primary: primary) else {
                        XCTAssertFalse(worthwhile, "\(terms.term(index)) in field \(f) got no column")
                        continue
                    }
                    XCTAssertTrue(worthwhile, "\(terms.term(index)) got a column")
                    columns += 1
                    let expected = postings(segment, terms, index, field: f)
                    let limit: UInt32 = primary ? 7 : 15
                    do {
                        for doc in 0..<segment.documentCount {
                            let value = column.nibble(doc)
                            guard let posting = expected[doc] else {
                                XCTAssertEqual(value, 0, "\(terms.term(index)) is not in document \(doc)")
                                continue
                            }
                            let tf = value & column.saturated
                            XCTAssertEqual(UInt32(tf), min(posting.tf, limit), "\(terms.term(index)) in document \(doc)")
                            if tf == column.saturated { saturated += 1 }
                            let startsField = value & column.startsField != 0
                            XCTAssertEqual(startsField, primary && posting.first == 0, "\(terms.term(index)) starts document \(doc)")
                            if startsField { starts += 1 }
                        }
                    }
                }
            }
        }
        // Both fields have frequent terms, some with frequencies past either saturation, some starting titles.
        XCTAssertEqual(columns, Self.frequent.count + 2, "every frequent word in bodies, two in titles")
        XCTAssertGreaterThan(saturated, 50)
        XCTAssertGreaterThan(starts, 500)
    }

    /// A term group's `scoreCandidates` through columns equals seeking each candidate with `advance` and `score`,
    /// and the ranked conjunctions that read them equal the document-at-a-time walk.
    func testScoresThroughColumnsEqualSeeking() throws {
        var g = Generator(state: 11)
        let corpus = try Self.corpus(&g)
        let snapshot = try corpus.writer.commit()
        let segment = snapshot.segments[0]
        let count = segment.documentCount
        for word in Self.frequent + Self.rare {
            var planner = QueryPlanner(snapshot: snapshot)
            let plan = planner.plan(.term(word), scope: planner.resolve(.defaultFields))
            let candidates = (0..<count).filter { _ in g.chance(0.2) }.map(UInt32.init) + [UInt32(count + 5)]
            let seeking = planner.iterator(plan, segment: 0, scored: true)
            var expected: [UInt32?] = []
            for candidate in candidates {
                let d = seeking.advance(Int(candidate))
                expected.append(d == Int(candidate) ? seeking.score().bitPattern : nil)
            }
            let group = planner.iterator(plan, segment: 0, scored: true)
            XCTAssertTrue(group is TermGroupIterator, word)
            var scores = [Float](repeating: 0, count: candidates.count)
            var matched = [Bool](repeating: false, count: candidates.count)
            candidates.withUnsafeBufferPointer { c in
                scores.withUnsafeMutableBufferPointer { s in
                    matched.withUnsafeMutableBufferPointer { m in group.scoreCandidates(c, scores: s.baseAddress!, matched: m.baseAddress!) }
                }
            }
            XCTAssertEqual(candidates.indices.map { matched[$0] ? scores[$0].bitPattern : nil }, expected, word)
        }
        // Every worthwhile term was read through its column, in both fields (the title's with its start bits).
        var worthwhile = Set<String>()
        for (field, primary) in [(corpus.title, true), (corpus.body, false)] {
            let terms = try XCTUnwrap(segment.terms(field))
            for index in 0..<terms.count where FrequencyColumn.worthwhile(docFreq: Int(terms.docFreq[index]), documentCount: count) {
                worthwhile.insert("\(field.rawValue):\(index):\(primary)")
            }
        }
        XCTAssertEqual(Set(segment.columnKeysBuilt.map { "\($0.field):\($0.term):\($0.primary)" }), worthwhile)
        XCTAssertEqual(worthwhile.count, Self.frequent.count + 2, "every frequent word in bodies, two in titles")
        XCTAssertGreaterThan(segment.columnMemoryBytes, worthwhile.count * count / 2)

        // Conjunctions led by a rare word, ranked at the root (through the columns) and walked document at a time.
        var conjunctions = 0
        for _ in 0..<40 {
            let query: Query = .and([.term(g.pick(Self.rare)), .term(g.pick(Self.frequent)), .term(g.pick(Self.frequent))])
            var planner = QueryPlanner(snapshot: snapshot)
            let plan = planner.plan(query, scope: planner.resolve(.defaultFields))
            let root = planner.iterator(plan, segment: 0, scored: true, root: true)
            let walked = planner.iterator(plan, segment: 0, scored: true)
            XCTAssertTrue(walked is ConjunctionIterator)
            var expected: [(Int, UInt32)] = [], actual: [(Int, UInt32)] = []
            for (iterator, out) in [(walked, 0), (root, 1)] {
                var doc = iterator.next()
                while doc != DocIterator.end {
                    if out == 0 { expected.append((doc, iterator.score().bitPattern)) } else { actual.append((doc, iterator.score().bitPattern)) }
                    doc = iterator.next()
                }
            }
            XCTAssertEqual(actual.map(\.0), expected.map(\.0), "\(query)")
            XCTAssertEqual(actual.map(\.1), expected.map(\.1), "\(query)")
            conjunctions += expected.isEmpty ? 0 : 1
            let full = snapshot.search(query, limit: 100_000)
            XCTAssertEqual(snapshot.search(query, limit: 20), Array(full.prefix(20)), "\(query)")
        }
        XCTAssertGreaterThan(conjunctions, 30)
    }

    /// Columns stop at the segment's budget: past it a term goes without (its candidates seek the postings), and
    /// the scores stay the same.
    func testColumnsStayWithinTheBudget() throws {
        var g = Generator(state: 13)
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text(weight: 1))
        // Sixty words each in a tenth of 10,000 documents: sixty worthwhile terms whose columns (5,000 bytes each)
        // take five times their postings (a byte per posting), more than the budget (the postings' bytes) holds.
        let words = (0..<60).map { "w\($0)" }
        for i in 0..<10_000 {
            try writer.upsert(Document(id: "d\(i)", values: [(body, .text(words.filter { _ in g.chance(0.1) }.joined(separator: " ")))]))
        }
        let snapshot = try writer.commit()
        let segment = snapshot.segments[0]
        let terms = try XCTUnwrap(segment.terms(body))
        var built = 0, refused = 0
        for index in 0..<terms.count {
            XCTAssertTrue(FrequencyColumn.worthwhile(docFreq: Int(terms.docFreq[index]), documentCount: segment.documentCount))
            if segment.frequencyColumn(field: Int(body.rawValue), terms: terms, index: index, primary: false) != nil {
                built += 1
            } else {
                refused += 1
            }
        }
        XCTAssertGreaterThan(built, 0)
        XCTAssertGreaterThan(refused, 0, "the budget (\(segment.columnBudget) bytes) held every column")
        XCTAssertLessThanOrEqual(segment.columnMemoryBytes, segment.columnBudget)
        XCTAssertEqual(segment.columnKeysBuilt.count, built)
        XCTAssertEqual(segment.memoryBreakdown["frequencyColumns"], segment.columnMemoryBytes)
        // A refused term is asked again without a build, and its conjunctions still rank as the walk does.
        XCTAssertNil(segment.frequencyColumn(field: Int(body.rawValue), terms: terms, index: terms.count - 1, primary: false))
        for _ in 0..<20 {
            let query: Query = .and([.term(g.pick(words)), .term(g.pick(words))])
            let full = snapshot.search(query, limit: 100_000)
            XCTAssertEqual(full.count, snapshot.count(query))
            XCTAssertEqual(snapshot.search(query, limit: 10), Array(full.prefix(10)), "\(query)")
        }
    }

    /// A background merge builds, for the merged segment, the columns its sources' searches built.
    func testBackgroundMergesCarryTheColumnsInUse() throws {
        let writer = IndexWriter()
        writer.mergesInBackground = true
        writer.mergePolicy = MergePolicy(maxSegments: 10, mergeFactor: 2)
        let held = Mutex<[@Sendable () -> Void]>([])
        writer.startMerge = { work in held.withLock { $0.append(work) } }
        var g = Generator(state: 17)
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        for range in [0..<1_500, 1_500..<3_000] {
            try Self.add(&g, writer: writer, title: title, body: body, ids: range)
            _ = try writer.commit()
        }
        let before = writer.snapshot
        XCTAssertEqual(before.segments.count, 2)
        for query: Query in [.and([.term("zlib"), .term("the")]), .and([.term("gtk"), .term("data")])] {
            _ = before.search(query, limit: 10)
        }
        func keys(_ segment: Segment) -> Set<String> {
            Set(segment.columnKeysBuilt.map { key in
                let terms = segment.terms(FieldID(rawValue: UInt16(key.field)))!
                return "\(key.field):\(terms.term(key.term)):\(key.primary)"
            })
        }
        let searched = keys(before.segments[0]).union(keys(before.segments[1]))
        XCTAssertTrue(searched.isSuperset(of: ["\(body.rawValue):the:false", "\(body.rawValue):data:false"]), "\(searched)")
        for work in held.withLock({ $0 }) { work() }
        let after = try XCTUnwrap(writer.publishFinishedMerges())
        let merged = try XCTUnwrap(after.segments.first { $0.documentCount == 3_000 }, "no merge")
        XCTAssertEqual(keys(merged), searched)
    }
}
