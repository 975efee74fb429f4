@testable import SearchlightEngine
import Dispatch
import Synchronization
import XCTest

/// `PositionColumn`: each document's positions as the postings give them, through a rank over 64-document words.
final class PositionColumnTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator

    /// Every term frequent enough for a column, in a segment of several hundred blocks whose documents hold the
    /// words 0 to 300 times: each document's count, positions and residues modulo 16 read through the column equal
    /// the cursor's, a frequency of 255 or more reads as saturated, and a document without the term reads as absent.
    func testEntriesMatchThePostings() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        var g = Generator(state: 61)
        let words = ["ab", "ba", "cc", "dd"]
        for i in 0..<5_000 {
            var text: [String] = []
            if i % 997 == 5 { text = Array(repeating: "ab", count: 300) + ["ba"] }
            for _ in 0..<(g.int(3) == 0 ? 0 : 1 + g.int(12)) { text.append(g.pick(words)) }
            // "dd" once, past the 65,535 a lone position kept in the column may be: read through the postings.
            if i == 9 { text = Array(repeating: "ee", count: 70_000) + ["dd"] }
            try writer.upsert(Document(id: "d\(i)", values: [(body, .text(text.joined(separator: " ")))]))
        }
        let snapshot = try writer.commit()
        let segment = snapshot.segments[0]
        let terms = try XCTUnwrap(segment.terms(body))
        var checked = 0, saturated = 0, lone = 0
        for word in words {
            let index = try XCTUnwrap(Array(word.utf8).withUnsafeBufferPointer { terms.find($0) })
            let column = PositionColumn.build(segment: segment, terms: terms, index: index, field: Int(body.rawValue))
            var expected = [[UInt32]?](repeating: nil, count: segment.documentCount)
            let cursor = PostingCursor(segment: segment, terms: terms, index: index, field: Int(body.rawValue))
            while cursor.next() != PostingCursor.end {
                var positions: [UInt32] = []
                cursor.positions(into: &positions)
                expected[cursor.doc] = positions
            }
            let bytes = segment.positionBytes
            for doc in 0..<segment.documentCount {
                let entry = column.entry(doc)
                guard let positions = expected[doc] else {
                    XCTAssertEqual(entry.count, 0, "\(word) doc \(doc) is absent")
                    continue
                }
                if positions.count >= 255 || (positions.count == 1 && positions[0] > 65_535) {
                    XCTAssertEqual(entry.count, PositionColumn.saturated, "\(word) doc \(doc)")
                    XCTAssertEqual(entry.mask, .max, "a saturated entry rules nothing out")
                    saturated += 1
                    continue
                }
                XCTAssertEqual(Int(entry.count), positions.count, "\(word) doc \(doc)")
                XCTAssertEqual(entry.mask, positions.reduce(0) { $0 | 1 << ($1 % 16) }, "\(word) doc \(doc)'s residues")
                if positions.count == 1 {
                    XCTAssertEqual(entry.position, positions[0], "\(word) doc \(doc)'s one position, from the column")
                    lone += 1
                    checked += 1
                    continue
                }
                var offset = entry.start, position: UInt32 = 0, read: [UInt32] = []
                bytes.withUnsafeBufferPointer { bytes in
                    for _ in 0..<Int(entry.count) {
                        position &+= VarInt.read(bytes, &offset)
                        read.append(position)
                    }
                }
                XCTAssertEqual(read, positions, "\(word) doc \(doc)")
                checked += 1
            }
            XCTAssertEqual(column.entry(-1).count, 0)
            XCTAssertEqual(column.entry(segment.documentCount + 64).count, 0)
            // The presence bits, word by word, hold exactly the term's documents.
            XCTAssertEqual(column.wordCount, (segment.documentCount + 63) / 64)
            for w in 0...column.wordCount {
                var bits: UInt64 = 0
                for doc in (w * 64)..<max(w * 64, min(w * 64 + 64, segment.documentCount)) where expected[doc] != nil {
                    bits |= 1 << UInt64(doc & 63)
                }
                XCTAssertEqual(column.presence(w), bits, "\(word) word \(w)")
            }
            XCTAssertEqual(column.presence(-1), 0)
        }
        XCTAssertGreaterThan(checked, 10_000)
        XCTAssertGreaterThan(lone, 1_000)
        XCTAssertEqual(saturated, 7, "the six documents with \"ab\" 300 times, and \"dd\" at position 70,000")
    }

    /// One segment of 3,000 documents of twenty words each drawn from forty ("w0" ... "w39"), every one frequent
    /// enough for a column, with `extra(i)` appended to document `i`; its "body" dictionary, field and the words.
    private static func fortyWords(seed: UInt64, extra: (Int) -> [String]) throws
        -> (segment: Segment, terms: FieldTerms, body: FieldID, words: [String]) {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        let words = (0..<40).map { "w\($0)" }
        var g = Generator(state: seed)
        for i in 0..<3_000 {
            let text = (0..<20).map { _ in g.pick(words) } + extra(i)
            try writer.upsert(Document(id: "d\(i)", values: [(body, .text(text.joined(separator: " ")))]))
        }
        let segment = try writer.commit().segments[0]
        return (segment, try XCTUnwrap(segment.terms(body)), body, words)
    }

    /// A segment keeps the columns it builds within its budget: a term past it gets none, for good, and a term too
    /// rare for a column gets none at all.
    func testColumnsStayWithinTheSegmentsBudget() throws {
        let (segment, terms, body, words) = try Self.fortyWords(seed: 64) { $0 == 0 ? ["rare"] : [] }
        var built = 0, refused = 0
        for word in words {
            let index = try XCTUnwrap(Array(word.utf8).withUnsafeBufferPointer { terms.find($0) })
            if segment.positionColumn(field: Int(body.rawValue), terms: terms, index: index) != nil { built += 1 } else { refused += 1 }
            XCTAssertLessThanOrEqual(segment.positionColumnMemoryBytes, segment.positionColumnBudget)
        }
        XCTAssertGreaterThan(built, 0)
        XCTAssertGreaterThan(refused, 0, "forty frequent words' columns pass the budget")
        let last = try XCTUnwrap(Array("w39".utf8).withUnsafeBufferPointer { terms.find($0) })
        XCTAssertNil(segment.positionColumn(field: Int(body.rawValue), terms: terms, index: last), "refused for good")
        let rare = try XCTUnwrap(Array("rare".utf8).withUnsafeBufferPointer { terms.find($0) })
        XCTAssertNil(segment.positionColumn(field: Int(body.rawValue), terms: terms, index: rare))
    }

    /// Columns first used on several threads at once stay within the budget together: each build reserves its
    /// bytes before it starts. Checking the bytes built so far instead let both kinds of column past their budgets
    /// in five runs of five.
    func testConcurrentFirstUsesStayWithinTheBudget() throws {
        let (segment, terms, body, words) = try Self.fortyWords(seed: 66) { ["d\($0)"] }
        let indices = try words.map { word in try XCTUnwrap(Array(word.utf8).withUnsafeBufferPointer { terms.find($0) }) }
        let built = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: indices.count) { k in
            let column = segment.positionColumn(field: Int(body.rawValue), terms: terms, index: indices[k])
            let frequency = segment.frequencyColumn(field: Int(body.rawValue), terms: terms, index: indices[k], primary: false)
            if column != nil { built.withLock { $0 += 1 } }
            _ = frequency
        }
        XCTAssertGreaterThan(built.withLock { $0 }, 0)
        XCTAssertLessThan(built.withLock { $0 }, indices.count, "forty frequent words' columns pass the budget")
        XCTAssertLessThanOrEqual(segment.positionColumnMemoryBytes, segment.positionColumnBudget)
        XCTAssertLessThanOrEqual(segment.columnMemoryBytes, segment.columnBudget)
    }

    /// A phrase checked at scattered candidates through the terms' columns (a batch large enough to read them)
    /// scores and matches every candidate as one checked alone through the postings does.
    func testScatteredChecksThroughColumnsMatchThePostings() throws {
        let writer = IndexWriter()
        let corpus = try ChampionListsTests.makeCorpus(writer, documents: 4_000, seed: 62)
        let snapshot = try writer.commit()
        var g = Generator(state: 63)
        let common = ChampionListsTests.common
        var columnsUsed = false
        for _ in 0..<30 {
            let query = Query.phrase(g.pick(common) + " " + g.pick(common) + (g.chance(0.3) ? " " + g.pick(common) : ""))
            var planner = QueryPlanner(snapshot: snapshot)
            let plan = planner.plan(query, scope: planner.resolve(.defaultFields))
            // Every fifth document, and a run of neighbours.
            var candidates: [UInt32] = []
            for doc in 0..<snapshot.segments[0].documentCount where doc % 5 == 0 || (doc / 100) % 7 == 3 {
                candidates.append(UInt32(doc))
            }
            let batch = planner.iterator(plan, segment: 0, scored: true, driver: candidates.count)
            if batch is EmptyIterator { continue }
            var scores = [Float](repeating: 0, count: candidates.count), matched = [Bool](repeating: false, count: candidates.count)
            candidates.withUnsafeBufferPointer { batch.scoreCandidates($0, scores: &scores, matched: &matched) }
            for (i, doc) in candidates.enumerated() {
                // One candidate a batch: too few to read columns.
                let alone = planner.iterator(plan, segment: 0, scored: true, driver: 1)
                var score: Float = 0, hit = false
                [doc].withUnsafeBufferPointer { alone.scoreCandidates($0, scores: &score, matched: &hit) }
                XCTAssertEqual(matched[i], hit, "\(query) doc \(doc)")
                if hit { XCTAssertEqual(scores[i], score, "\(query) doc \(doc)") }
            }
            columnsUsed = columnsUsed || snapshot.segments[0].positionColumnMemoryBytes > 0
        }
        XCTAssertTrue(columnsUsed, "the batches must have read position columns")
        _ = corpus
    }

    /// A phrase whose other words are more frequent than its rarest, or whose words' columns all exist, walks the
    /// rarest word's documents and tests each against the others' position columns (and the words' residues): it
    /// finds the same documents with the same frequencies, under the same frequency floors, as the walk that seeks
    /// every word's postings (a phrase source without the dictionary to find columns by), including documents where
    /// a word's frequency saturates its column.
    func testTheWalkThroughColumnsMatchesThePostingsWalk() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        var g = Generator(state: 65)
        for i in 0..<6_000 {
            var text: [String] = []
            // Words among fillers, so a document's residues are sparse and many line up by chance only.
            for _ in 0..<(10 + g.int(30)) {
                let r = g.int(20)
                text.append(r < 3 ? "ab" : r == 3 ? "cd" : r == 4 ? "ef" : "f\(g.int(40))")
            }
            // A word in about a tenth of the documents and one in about a quarter: a rarer word with a column beside a
            // partner twice as frequent yet sparse enough for presence bits (`PhraseSource.presenceDensity`).
            if g.chance(0.09) { text.insert("gh", at: g.int(text.count + 1)) }
            if g.chance(0.03) { text.insert("gh ij", at: g.int(text.count + 1)) }
            if g.chance(0.3) { text.insert(g.pick(["ij", "ij ij"]), at: g.int(text.count + 1)) }
            if g.chance(0.04) { text.insert(g.pick(["zz", "zz ab", "ab zz", "zz zz ab", "cd zz"]), at: g.int(text.count + 1)) }
            if i % 701 == 3 { text += Array(repeating: "ab zz", count: 150) + Array(repeating: "ab", count: 200) }
            if i % 977 == 5 { text += Array(repeating: "cd ab", count: 130) + Array(repeating: "cd", count: 130) }
            // The next 31 postings of "ab" start too far from their group's base: saturated in the column.
            if i == 0 { text += Array(repeating: "ab", count: 70_000) }
            // Such a posting with "ab" once and "zz" often: its frequency floor is the postings' 1, not "zz"'s 5.
            if [1, 2, 4].contains(i) { text = ["zz", "zz", "zz", "zz", "ab", "zz"] }
            try writer.upsert(Document(id: "d\(i)", values: [(body, .text(text.joined(separator: " ")))]))
        }
        let segment = try writer.commit().segments[0]
        let terms = try XCTUnwrap(segment.terms(body))
        func index(_ word: String) throws -> Int { try XCTUnwrap(Array(word.utf8).withUnsafeBufferPointer { terms.find($0) }) }
        let field = Int(body.rawValue)
        let factor = (0..<256).map { Float($0 % 7 + 1) / 4 }
        let norms = (0..<segment.documentCount).map { UInt8(truncatingIfNeeded: $0 * 37) }
        func source(_ words: [String], columns: Bool) throws -> PhraseSource {
            let entries = try words.map(index)
            let cursors = entries.map { PostingCursor(segment: segment, terms: terms, index: $0, field: field) }
            return PhraseSource(cursors: cursors, offsets: (0..<words.count).map(UInt32.init), field: field,
                                fieldFactor: factor, norms: norms, primary: false, impactScale: 0, tfScale: 1,
                                dictionary: columns ? terms : nil, entries: { entries[$0] })
        }
        func walk(_ source: PhraseSource, floor: Float, last: Int) -> [[Int]] {
            var found: [[Int]] = []
            while source.next(above: floor, through: last) != Int.max { found.append([source.doc, Int(source.frequency)]) }
            return found
        }
        // Seeks to ascending targets (some between matches, some on them), then steps with a raised floor.
        func seek(_ source: PhraseSource, steps: [Int]) -> [[Int]] {
            var found: [[Int]] = [], target = 0
            for step in steps {
                target += step
                let reached = source.advance(target)
                found.append([reached, reached == Int.max ? 0 : Int(source.frequency)])
                if reached == Int.max { break }
                target = reached
            }
            while source.next(above: 0.6, raised: 1.6, until: 4_000, through: 5_000) != Int.max {
                found.append([source.doc, Int(source.frequency)])
            }
            return found
        }
        let ab = PositionColumn.build(segment: segment, terms: terms, index: try index("ab"), field: field)
        XCTAssertEqual(ab.entry(1).count, PositionColumn.saturated, "the setup: doc 1 starts far from its base")
        // Columns a scattered check would have built: with every word's there, words about as frequent as each
        // other walk through them too.
        for word in ["ab", "cd", "ef", "gh"] {
            XCTAssertNotNil(segment.positionColumn(field: field, terms: terms, index: try index(word)))
        }
        var saturatedMatches = 0
        var modes = Set<[Bool]>()
        // "zz" is too rare for a column of its own; "cd" and "ef" have one (their residues filter), and "cd" is
        // saturated where "ab" also is not.
        for words in [["zz", "ab"], ["ab", "zz"], ["zz", "zz", "ab"], ["ab", "zz", "ab"], ["cd", "zz"], ["cd", "ef"],
                      ["ef", "ab", "cd"], ["cd", "ab"], ["ab", "cd", "cd"], ["gh", "ij"], ["ij", "ij"], ["gh", "ab"]] {
            // Floors within 1% below weights candidates reach (0.75, 1.5; doc 1, saturated in "ab"'s column, holds
            // "zz ab" at 0.75): a bound checked too early or too loosely drops them.
            for (floor, last) in [(-Float.infinity, -1), (0.6, 3_000), (0.745, Int.max - 1), (1.2, Int.max - 1),
                                  (1.49, 4_000), (3, Int.max - 1), (200, Int.max - 1)] {
                let expected = walk(try source(words, columns: false), floor: floor, last: last)
                let walker = try source(words, columns: true)
                let byColumns = walk(walker, floor: floor, last: last)
                XCTAssertEqual(byColumns, expected, "\(words) above \(floor) through \(last)")
                modes.insert([walker.walksByColumns.others, walker.walksByColumns.lead])
                var g = Generator(state: UInt64(words.count * 31 + Int(floor.isFinite ? floor : 9)))
                let steps = (0..<40).map { _ in g.int(300) }
                XCTAssertEqual(seek(try source(words, columns: true), steps: steps),
                               seek(try source(words, columns: false), steps: steps), "\(words) seeking")
                if floor > 2 { continue }
                XCTAssertGreaterThan(expected.count, 10, "\(words)")
                saturatedMatches += expected.filter { $0[0] % 701 == 3 || $0[0] % 977 == 5 }.count
            }
        }
        XCTAssertGreaterThan(saturatedMatches, 0, "documents with \"ab\" 350 times must match")
        // Beside a sparse frequent partner the rarer word's column is read (presence bits); beside one in most
        // documents it is not.
        XCTAssertTrue(try source(["gh", "ij"], columns: true).walkMode(), "\"gh ij\": by presence bits")
        XCTAssertFalse(try source(["gh", "ab"], columns: true).walkMode(), "\"gh ab\": \"ab\" is in most documents")
        XCTAssertEqual(modes, [[true, false], [true, true], [false, false]],
                       "walks through partners' columns, through every word's presence bits and columns, and through postings")
        XCTAssertGreaterThan(segment.positionColumnMemoryBytes, 0, "the walks must have read position columns")
    }

    /// A posting whose positions start more than 65,535 bytes past its group's first (after a document holding the
    /// term 70,000 times) reads as saturated, so its positions come from the postings; the next group starts afresh.
    func testAStartFarFromItsGroupsBaseReadsAsSaturated() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        try writer.upsert(Document(id: "d0", values: [(body, .text(Array(repeating: "ab", count: 70_000).joined(separator: " ")))]))
        for i in 1..<600 {
            // Twice, so the column reads the positions from the stream (a lone one it keeps whole).
            try writer.upsert(Document(id: "d\(i)", values: [(body, .text("x ab cd ab"))]))
        }
        let segment = try writer.commit().segments[0]
        let terms = try XCTUnwrap(segment.terms(body))
        let index = try XCTUnwrap(Array("ab".utf8).withUnsafeBufferPointer { terms.find($0) })
        let column = PositionColumn.build(segment: segment, terms: terms, index: index, field: Int(body.rawValue))
        XCTAssertEqual(column.entry(0).count, PositionColumn.saturated)
        for doc in 1..<PositionColumn.groupSize {
            XCTAssertEqual(column.entry(doc).count, PositionColumn.saturated, "doc \(doc) starts too far from its base")
            XCTAssertEqual(column.entry(doc).mask, .max)
        }
        for doc in PositionColumn.groupSize..<600 {
            let entry = column.entry(doc)
            XCTAssertEqual(entry.count, 2, "doc \(doc)")
            XCTAssertEqual(entry.mask, 1 << 1 | 1 << 3, "doc \(doc): \"ab\" at positions 1 and 3")
            var offset = entry.start
            segment.positionBytes.withUnsafeBufferPointer {
                XCTAssertEqual(VarInt.read($0, &offset), 1)
                XCTAssertEqual(VarInt.read($0, &offset), 2, "the second position, delta-coded")
            }
        }
    }
}

private extension PhraseSource {
    /// Steps once, and tells whether the walk then reads every word's column, the rarest's too (presence bits).
    func walkMode() -> Bool {
        _ = next()
        return walksByColumns.others && walksByColumns.lead
    }
}
