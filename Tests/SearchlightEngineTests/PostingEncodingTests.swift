import XCTest
@testable import SearchlightEngine

/// The postings codec (`PostingBlocks`): a longer term's full blocks bit-packed, other blocks
/// `varint(doc delta << 1 | tf == 1)`, then `varint(tf)` only when tf > 1. Every document, frequency and position
/// must come back through the cursor, across blocks, large gaps (multi-byte deltas, wide packed blocks) and merges
/// (which re-encode the postings).
final class PostingEncodingTests: XCTestCase {
    func testDocumentsFrequenciesAndPositionsRoundTrip() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        var expected: [String: Int] = [:]
        var docNumber = 0
        for i in 0..<700 {
            // Gaps of 0...200 filler documents make deltas of one, two and three varint bytes.
            let gap = (i * 37) % 201
            for _ in 0..<gap {
                try writer.upsert(Document(id: "f\(docNumber)", values: [(body, .text("filler"))]))
                docNumber += 1
            }
            let tf = i % 4 == 0 ? 1 + i % 9 : 1
            let text = (0..<tf).map { "w x\($0)" }.joined(separator: " ")
            try writer.upsert(Document(id: "d\(docNumber)", values: [(body, .text(text))]))
            expected["d\(docNumber)"] = tf
            docNumber += 1
            if i == 350 { _ = try writer.commit() }
        }
        for pass in 0..<2 {
            let snapshot = try writer.commit()
            XCTAssertEqual(snapshot.segments.count, pass == 0 ? 2 : 1)
            var got: [String: Int] = [:]
            for (ordinal, segment) in snapshot.segments.enumerated() {
                var previous = -1
                let terms = try XCTUnwrap(segment.terms(body))
                let index = try XCTUnwrap(Array("w".utf8).withUnsafeBufferPointer { terms.find($0) })
                let cursor = PostingCursor(segment: segment, terms: terms, index: index, field: Int(body.rawValue))
                var positions: [UInt32] = []
                while cursor.next() != PostingCursor.end {
                    positions.removeAll()
                    cursor.positions(into: &positions)
                    XCTAssertEqual(positions, (0..<Int(cursor.tf)).map { UInt32(2 * $0) }, "pass \(pass)")
                    XCTAssertGreaterThan(cursor.doc, previous)
                    previous = cursor.doc
                    let id = try XCTUnwrap(snapshot.id(of: DocAddress(segment: UInt32(ordinal), doc: UInt32(cursor.doc))))
                    XCTAssertNil(got.updateValue(Int(cursor.tf), forKey: id))
                }
            }
            XCTAssertEqual(got, expected, "pass \(pass)")
            // Advancing (skip data, galloping) lands on the same documents.
            let all = snapshot.matches(.term("w")).count
            XCTAssertEqual(all, expected.count)
            // Advancing from the start to every expected document (skip entries, in-block scans).
            for segment in snapshot.segments {
                let terms = try XCTUnwrap(segment.terms(body))
                let index = try XCTUnwrap(Array("w".utf8).withUnsafeBufferPointer { terms.find($0) })
                var all: [Int] = []
                let walker = PostingCursor(segment: segment, terms: terms, index: index, field: Int(body.rawValue))
                while walker.next() != PostingCursor.end { all.append(walker.doc) }
                let skipper = PostingCursor(segment: segment, terms: terms, index: index, field: Int(body.rawValue))
                for target in stride(from: 0, to: all.count, by: 7) {
                    let wanted = all[target] - (target % 2)
                    XCTAssertEqual(skipper.advance(wanted), all.first { $0 >= wanted })
                }
            }
            // Second pass: one merged segment, its postings re-encoded from the first.
            writer.mergePolicy = MergePolicy(maxSegments: 1, mergeFactor: 2, maxDeletedFraction: 0.4)
            writer.delete(ids: ["nonexistent"])
            try writer.registerField("other", .text())
        }
    }

    /// Whatever a cursor is asked first after a skip (the document, the block's last document, its bounds), it
    /// answers as a cursor that walked every posting would, and a cursor repositioned from term to term (as a
    /// dense group materialization uses one) answers as a fresh one.
    func testSkipsBoundsAndRepositioningAnswerLikeAFullWalk() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        var seed: UInt64 = 12_345
        func random(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        // Terms of 1 to 600 documents (single blocks and many), frequencies up to 5, random lengths.
        let vocabulary = (0..<40).map { "t\($0)" }
        for doc in 0..<1_500 {
            var words: [String] = []
            for (number, term) in vocabulary.enumerated() where random(1_000) < 3 + number * number / 2 {
                words += Array(repeating: term, count: 1 + random(5))
            }
            words += (0..<random(30)).map { _ in "filler\(random(50))" }
            try writer.upsert(Document(id: "d\(doc)", values: [(body, .text(words.shuffled().joined(separator: " ")))]))
        }
        let snapshot = try writer.commit()
        let segment = snapshot.segments[0]
        let terms = try XCTUnwrap(segment.terms(body))
        let field = Int(body.rawValue)
        let shared = PostingCursor(segment: segment)
        for term in vocabulary {
            let index = try XCTUnwrap(Array(term.utf8).withUnsafeBufferPointer { terms.find($0) })
            // The reference: every posting, walked, with each block's last document and bounds as seen at its start.
            let walker = PostingCursor(segment: segment, terms: terms, index: index, field: field)
            var postings: [(doc: Int, tf: UInt32)] = []
            var blockLast: [Int: Int] = [:], blockTf: [Int: UInt32] = [:], blockImpact: [Int: Float] = [:]
            while walker.next() != PostingCursor.end { postings.append((walker.doc, walker.tf)) }
            XCTAssertEqual(postings.count, Int(terms.docFreq[index]), term)
            for (position, posting) in postings.enumerated() where position % Segment.blockSize == 0 {
                let probe = PostingCursor(segment: segment, terms: terms, index: index, field: field)
                XCTAssertEqual(probe.advance(posting.doc), posting.doc)
                let block = position / Segment.blockSize
                blockLast[block] = probe.blockLastDoc
                blockTf[block] = probe.blockMaxTf
                blockImpact[block] = probe.blockMaxImpact
                let blockEnd = min(position + Segment.blockSize, postings.count)
                XCTAssertEqual(blockLast[block], postings[blockEnd - 1].doc, "\(term) block \(block)")
                XCTAssertEqual(blockTf[block], postings[position..<blockEnd].map(\.tf).max(), "\(term) block \(block)")
                // The impact bound: the block's largest tf / (length + C0), from the field's norms.
                let norms = segment.norms[field], c0 = segment.impactConstants[field]
                let impacts = postings[position..<blockEnd].map { Float($0.tf) / (FieldNorm.lengths[Int(norms[$0.doc])] + c0) }
                XCTAssertEqual(blockImpact[block], impacts.max(), "\(term) block \(block)")
            }
            // Skips to random targets, each asked first for something else: the doc, the last doc, the bounds.
            for trial in 0..<20 {
                let cursor: PostingCursor
                if trial % 2 == 0 {
                    cursor = PostingCursor(segment: segment, terms: terms, index: index, field: field)
                } else {
                    shared.position(terms: terms, index: index, field: field)
                    cursor = shared
                }
                var target = -1
                while true {
                    target += 1 + random(max(1, 2_000 / max(postings.count, 1)) * 3)
                    let expected = postings.firstIndex { $0.doc >= target }
                    let got = cursor.advance(target)
                    guard let expected else {
                        XCTAssertEqual(got, PostingCursor.end, "\(term) trial \(trial) target \(target)")
                        break
                    }
                    XCTAssertEqual(got, postings[expected].doc, "\(term) trial \(trial) target \(target)")
                    XCTAssertEqual(cursor.tf, postings[expected].tf, "\(term) trial \(trial)")
                    let block = expected / Segment.blockSize
                    switch random(3) {
                    case 0: XCTAssertEqual(cursor.blockLastDoc, blockLast[block], "\(term) trial \(trial) block \(block)")
                    case 1: XCTAssertEqual(cursor.blockMaxTf, blockTf[block], "\(term) trial \(trial) block \(block)")
                    default: XCTAssertEqual(cursor.blockMaxImpact, blockImpact[block], "\(term) trial \(trial) block \(block)")
                    }
                    if random(4) == 0 {
                        let following = cursor.next()
                        guard expected + 1 < postings.count else {
                            XCTAssertEqual(following, PostingCursor.end, "\(term) trial \(trial) next")
                            break
                        }
                        XCTAssertEqual(following, postings[expected + 1].doc, "\(term) trial \(trial) next")
                        XCTAssertEqual(cursor.tf, postings[expected + 1].tf, "\(term) trial \(trial) next")
                        target = following
                    }
                }
            }
        }
    }

    /// A corrupt term frequency (`UInt32.max`) on a phrase's lead term: the phrase sizes its position buffers by
    /// what the position stream can hold, not by the frequency (16 GiB), and the search ends without a crash.
    /// `forEachRemaining` yields what `next` would from wherever the cursor stands (before the first posting, mid
    /// block, on a block's last posting, exhausted), positions readable on each, and stops when told to; so does
    /// `forEachRemainingBlock`, a block at a time.
    func testWalkingTheRestEqualsStepping() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        var g = DifferentialTests.Generator(state: 5)
        let vocabulary = (0..<30).map { "t\($0)" }
        for doc in 0..<1_200 {
            var words: [String] = []
            for (number, term) in vocabulary.enumerated() where g.int(1_000) < 2 + number * number {
                words += Array(repeating: term, count: 1 + g.int(4))
            }
            words += (0..<g.int(8)).map { _ in "filler\(g.int(20))" }
            for k in words.indices.reversed() where k > 0 { words.swapAt(k, g.int(k + 1)) }
            try writer.upsert(Document(id: "d\(doc)", values: [(body, .text(words.joined(separator: " ")))]))
        }
        let segment = try writer.commit().segments[0]
        let terms = try XCTUnwrap(segment.terms(body))
        var multiBlock = 0
        for term in vocabulary {
            guard let index = Array(term.utf8).withUnsafeBufferPointer({ terms.find($0) }) else { continue }
            let field = Int(body.rawValue)
            func cursor() -> PostingCursor { PostingCursor(segment: segment, terms: terms, index: index, field: field) }
            // The reference: every posting with its frequency and positions.
            var all: [(Int, UInt32, [UInt32])] = []
            let walker = cursor()
            while walker.next() != PostingCursor.end {
                var positions: [UInt32] = []
                walker.positions(into: &positions)
                all.append((walker.doc, walker.tf, positions))
            }
            if all.count > Segment.blockSize { multiBlock += 1 }
            // Starting points: before the first, each of a few postings (block ends among them), and the end.
            var starts = [-1, all.count - 1] + [0, 1, Segment.blockSize - 1, Segment.blockSize, all.count / 2].filter { $0 < all.count }
            starts.append(all.count)
            for start in starts {
                let c = cursor()
                for _ in 0...max(start, 0) where start >= 0 { c.next() }
                var seen: [(Int, UInt32, [UInt32])] = []
                c.forEachRemaining { doc, tf in
                    var positions: [UInt32] = []
                    c.positions(into: &positions)
                    seen.append((doc, tf, positions))
                    return true
                }
                let expected = Array(all.dropFirst(start + 1))
                XCTAssertEqual(seen.map(\.0), expected.map(\.0), "\(term) from \(start)")
                XCTAssertEqual(seen.map(\.1), expected.map(\.1), "\(term) from \(start)")
                XCTAssertEqual(seen.map(\.2), expected.map(\.2), "\(term) from \(start)")
                XCTAssertEqual(c.doc, PostingCursor.end)
                // Block by block, the same postings, the cursor on each block's last one while `body` runs.
                let blocks = cursor()
                for _ in 0...max(start, 0) where start >= 0 { blocks.next() }
                var blockSeen: [(Int, UInt32)] = []
                blocks.forEachRemainingBlock { docs, tfs, count in
                    XCTAssertGreaterThan(count, 0)
                    for i in 0..<count { blockSeen.append((Int(docs[i]), tfs[i])) }
                    XCTAssertEqual(blocks.doc, Int(docs[count - 1]), "\(term) from \(start)")
                    return true
                }
                XCTAssertEqual(blockSeen.map(\.0), expected.map(\.0), "\(term) block by block from \(start)")
                XCTAssertEqual(blockSeen.map(\.1), expected.map(\.1), "\(term) block by block from \(start)")
                XCTAssertEqual(blocks.doc, PostingCursor.end)
            }
            // Told to stop, the cursor stays on the last posting it gave.
            let stopping = cursor()
            var given = 0
            let wanted = min(all.count, Segment.blockSize + 3)
            stopping.forEachRemaining { _, _ in
                given += 1
                return given < wanted
            }
            XCTAssertEqual(given, wanted)
            XCTAssertEqual(stopping.doc, all[wanted - 1].0)
            if wanted < all.count { XCTAssertEqual(stopping.next(), all[wanted].0) }
            // Told to stop after a block, the cursor stays on that block's last posting.
            let stoppingBlocks = cursor()
            var blockCount = 0
            stoppingBlocks.forEachRemainingBlock { _, _, _ in
                blockCount += 1
                return false
            }
            XCTAssertEqual(blockCount, 1)
            let firstBlockEnd = min(all.count, Segment.blockSize) - 1
            XCTAssertEqual(stoppingBlocks.doc, all[firstBlockEnd].0)
            if firstBlockEnd + 1 < all.count { XCTAssertEqual(stoppingBlocks.next(), all[firstBlockEnd + 1].0) }
        }
        XCTAssertGreaterThan(multiBlock, 5)
    }

    func testPhraseWithACorruptHugeFrequency() throws {
        let (snapshot, title, index) = try Self.alphaBeta()
        let s = snapshot.segments[0]
        let t = try XCTUnwrap(s.terms(title))
        XCTAssertEqual(t.blockStart[index], UInt32.max, "a single-block term")
        // The term's postings, rewritten at the end of the stream: document 0 with frequency UInt32.max.
        var docBytes = s.docBytes
        var postingStart = t.postingStart
        postingStart[index] = UInt32(docBytes.count)
        VarInt.append(0, to: &docBytes)
        VarInt.append(UInt32.max, to: &docBytes)
        let terms = FieldTerms(bytes: t.bytes, offsets: t.offsets, docFreq: t.docFreq, postingStart: postingStart,
                               blockStart: t.blockStart, positionStart: t.positionStart)
        var fieldTerms = s.fieldTerms
        fieldTerms[Int(title.rawValue)] = terms
        let corrupt = Self.segment(s, fieldTerms: fieldTerms, docBytes: docBytes, positionBytes: s.positionBytes)
        let cursor = PostingCursor(segment: corrupt, terms: terms, index: index, field: Int(title.rawValue))
        XCTAssertEqual(cursor.next(), 0)
        XCTAssertEqual(cursor.tf, UInt32.max)
        XCTAssertLessThanOrEqual(cursor.decodablePositions, corrupt.positionBytes.count)
        let broken = IndexSnapshot(segments: [corrupt], live: snapshot.live, schema: snapshot.schema,
                                   parameters: snapshot.parameters, generation: 1, contentGeneration: 1)
        _ = broken.search(.phrase("alpha beta"))
        _ = broken.search(.phrase("beta alpha"))
        _ = broken.count(.phrase("alpha beta"))
    }

    /// A title field holding "alpha beta" and "alpha beta gamma", and the entry of "alpha" in its dictionary.
    static func alphaBeta() throws -> (IndexSnapshot, FieldID, Int) {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text())
        try writer.upsert(Document(id: "a", values: [(title, .text("alpha beta"))]))
        try writer.upsert(Document(id: "b", values: [(title, .text("alpha beta gamma"))]))
        let snapshot = try writer.commit()
        let terms = try XCTUnwrap(snapshot.segments[0].terms(title))
        return (snapshot, title, try XCTUnwrap(Array("alpha".utf8).withUnsafeBufferPointer { terms.find($0) }))
    }

    /// `s` with its field dictionaries and posting and position streams replaced (to corrupt them).
    static func segment(_ s: Segment, fieldTerms: [FieldTerms?], docBytes: [UInt8], positionBytes: [UInt8]) -> Segment {
        Segment(documentCount: s.documentCount, fieldTerms: fieldTerms, docBytes: docBytes,
                positionBytes: positionBytes, skipLastDoc: s.skipLastDoc, skipDocOffset: s.skipDocOffset,
                skipPositionOffset: s.skipPositionOffset, skipMaxTf: s.skipMaxTf, skipMaxImpact: s.skipMaxImpact,
                impactConstants: s.impactConstants, norms: s.norms, lengthSum: s.lengthSum,
                fieldDocCount: s.fieldDocCount, numericOffsets: s.numericOffsets, numericValues: s.numericValues,
                stored: s.stored, idBytes: s.idBytes,
                idOffsets: s.idOffsets, domainOrdinals: s.domainOrdinals, domains: s.domains)
    }

    /// A corrupt position stream whose first word holds position `UInt32.max`: lining it up with the next word
    /// (one past it) cannot overflow, and the phrase search ends without a crash, finding nothing there.
    func testPhraseWithACorruptHugePosition() throws {
        let (snapshot, title, index) = try Self.alphaBeta()
        let s = snapshot.segments[0]
        let t = try XCTUnwrap(s.terms(title))
        // The term's positions, rewritten at the end of the stream: UInt32.max in both documents.
        var positionBytes = s.positionBytes
        var positionStart = t.positionStart
        positionStart[index] = UInt32(positionBytes.count)
        VarInt.append(UInt32.max, to: &positionBytes)
        VarInt.append(UInt32.max, to: &positionBytes)
        let terms = FieldTerms(bytes: t.bytes, offsets: t.offsets, docFreq: t.docFreq, postingStart: t.postingStart,
                               blockStart: t.blockStart, positionStart: positionStart)
        var fieldTerms = s.fieldTerms
        fieldTerms[Int(title.rawValue)] = terms
        let corrupt = Self.segment(s, fieldTerms: fieldTerms, docBytes: s.docBytes, positionBytes: positionBytes)
        let broken = IndexSnapshot(segments: [corrupt], live: snapshot.live, schema: snapshot.schema,
                                   parameters: snapshot.parameters, generation: 1, contentGeneration: 1)
        XCTAssertEqual(broken.count(.phrase("alpha beta")), 0)
        XCTAssertTrue(broken.search(.phrase("alpha beta")).isEmpty)
        XCTAssertEqual(broken.count(.phrase("beta alpha")), 0)
    }

    /// Merging segments without deleted documents renumbers each term's decoded postings, copies its positions and
    /// the per-document columns in bulk. The merged segment must hold exactly the
    /// bytes a single build of the same documents holds (only the length statistics differ: a build knows exact
    /// field lengths, a merge the quantized norms).
    func testMergingWholeSegmentsEqualsBuildingAtOnce() throws {
        func documents(_ fields: [FieldID]) -> [Document] {
            (0..<900).map { i in
                var values: [(FieldID, FieldValue)] = []
                // Long gaps between documents that share a rare term (multi-byte deltas); tf above one; a
                // multi-valued field; a field that only later documents have; numbers on some documents only.
                values.append((fields[0], .text("common w\(i % 7) rare\(i % 211) " + String(repeating: "rep ", count: i % 5))))
                if i % 3 == 0 { values.append((fields[1], .text("alpha beta \(i)"))) }
                if i % 3 == 0 { values.append((fields[1], .text("gamma alpha"))) }
                if i >= 500 { values.append((fields[2], .text("late field \(i % 13)"))) }
                if i % 4 == 1 { values.append((fields[3], .number(Double(i)))) }
                if i % 9 == 2 {
                    values.append((fields[3], .number(-Double(i))))
                    values.append((fields[4], .bytes([UInt8(i % 256), 1, 2])))
                }
                return Document(id: "doc\(i)", domain: i % 5 == 0 ? nil : "d\(i % 4).x", values: values)
            }
        }
        func writer() throws -> (IndexWriter, [FieldID]) {
            let writer = IndexWriter()
            let fields = [try writer.registerField("body", .text()), try writer.registerField("multi", .text()),
                          try writer.registerField("late", .text()), try writer.registerField("n", .numeric),
                          try writer.registerField("blob", .stored)]
            return (writer, fields)
        }
        let (once, onceFields) = try writer()
        try once.upsert(contentsOf: documents(onceFields))
        let built = try XCTUnwrap(once.commit().segments.first)

        let (batched, fields) = try writer()
        // Equal batches and a merge factor of 3: nine batches of 100 merge into three of 300 and then one of 900,
        // each group in index order (a group lists equal-sized segments oldest first).
        batched.mergePolicy = MergePolicy(maxSegments: 24, mergeFactor: 3)
        let all = documents(fields)
        for start in stride(from: 0, to: all.count, by: 100) {
            try batched.upsert(contentsOf: Array(all[start..<start + 100]))
            try batched.commit()
        }
        XCTAssertEqual(try batched.commit().segments.count, 1)
        let merged = try XCTUnwrap(batched.snapshot.segments.first)
        XCTAssertEqual(merged.differences(from: built), [])
        // And the merged index answers like the built one, phrases included.
        for query in [Query.term("alpha"), .term("rare17"), .phrase("gamma alpha"), .term("late")] {
            XCTAssertEqual(batched.snapshot.matches(query).count, once.snapshot.matches(query).count, "\(query)")
        }
    }

    /// A batch analyzed on several threads (then interned in document order) builds the very same segment as one
    /// analyzed document by document: positions, gaps between the values of a field, norms and all.
    func testParallelAnalysisBuildsTheSameSegment() throws {
        // 5,000 documents: 78 chunks of 65, the last one short (the chunk bounds must stay in range).
        for count in [1_000, 5_000] { try parallelAnalysisBuildsTheSameSegment(count: count) }
    }

    /// A text value is interned as it is analyzed, into room reserved for its pairs beforehand. With little room
    /// (16 pairs a value, plus what earlier documents left), a value that yields more is analyzed again with more
    /// until it fits: the segment is the same.
    func testRunningOutOfPairRoomBuildsTheSameSegment() throws {
        var schema = Schema()
        let body = try schema.register("body", options: .text())
        let tags = try schema.register("tags", options: .text(weight: 2))
        let documents = (0..<300).map { i in
            var values: [(FieldID, FieldValue)] = [(body, .text("aB cD Report.Numbers w\(i % 13) 中文字 rare\(i % 97) "
                + String(repeating: "again ", count: i == 0 ? 300 : i % 40)))]
            if i % 3 == 0 { values.append((tags, .text("MyWindowController x11 3.14 foo_bar"))) }
            if i % 5 == 0 { values.append((body, .text(""))) }
            return Document(id: "doc\(i)", domain: nil, values: values)
        }
        func build(roomDivisor: Int) throws -> (Segment, retries: Int) {
            var builder = SegmentBuilder()
            builder.pairRoomDivisor = roomDivisor
            for document in documents { _ = builder.add(document, schema: schema, analyzer: Analyzer()) }
            return (try builder.seal(), builder.pairRoomRetries)
        }
        let (ample, none) = try build(roomDivisor: 1), (scarce, retries) = try build(roomDivisor: .max)
        XCTAssertEqual(none, 0, "a pair a byte is room enough")
        XCTAssertGreaterThan(retries, 2, "the first document's body analyzed again, more than once")
        XCTAssertEqual(scarce.differences(from: ample), [])
        XCTAssertEqual(ample.documentCount, 300)
        // The bound itself: no value yields more than 1.5 tokens per byte (`aB`: a, b, ab), so two per byte is room.
        for text in ["aB", "aB aB", "a.b.c", "aBcDeF", "中文字", "x", "Report.Numbers", "a-b_c.d"] {
            let count = Analyzer().tokens(text).count
            XCTAssertLessThanOrEqual(2 * count, 3 * text.utf8.count + 1, text)
        }
    }

    /// A parallel batch that replaces committed documents (found off the writer) and deleted ones leaves the
    /// same live documents as upserting one by one.
    func testAParallelBatchReplacesCommittedDocumentsLikeASerialOne() throws {
        func build(threads: Int) throws -> IndexSnapshot {
            let writer = IndexWriter()
            writer.analysisThreads = threads
            let body = try writer.registerField("body", .text())
            func batch(_ ids: Range<Int>, _ word: String) -> [Document] {
                ids.map { Document(id: "doc\($0 % 700)", values: [(body, .text("\(word) w\($0 % 7)"))]) }
            }
            try writer.upsert(contentsOf: batch(0..<600, "first"))
            _ = try writer.commit()
            try writer.upsert(contentsOf: batch(400..<800, "second"))  // ids 400..<700 and 0..<100 again
            _ = try writer.commit()
            writer.delete(ids: ["doc450"])
            try writer.upsert(contentsOf: batch(440..<1_000, "third"))  // doc450 comes back; and 0..<300 again
            return try writer.commit()
        }
        let serial = try build(threads: 1), parallel = try build(threads: 4)
        XCTAssertEqual(parallel.documentCount, 700)
        XCTAssertEqual(parallel.documentCount, serial.documentCount)
        for word in ["first", "second", "third", "w3"] {
            let ids = { (s: IndexSnapshot) in Set(s.matches(.term(word)).compactMap { s.id(of: $0) }) }
            XCTAssertEqual(ids(parallel), ids(serial), word)
        }
        XCTAssertEqual(Set(parallel.matches(.term("first")).compactMap { parallel.id(of: $0) }),
                       Set((300..<400).map { "doc\($0)" }))
    }

    private func parallelAnalysisBuildsTheSameSegment(count: Int) throws {
        func build(threads: Int) throws -> Segment {
            let writer = IndexWriter()
            writer.analysisThreads = threads
            let body = try writer.registerField("body", .text())
            let tags = try writer.registerField("tags", .text(weight: 2))
            let number = try writer.registerField("n", .numeric)
            let documents = (0..<count).map { i in
                var values: [(FieldID, FieldValue)] = [(body, .text("Report.Numbers w\(i % 13) 中文字 rare\(i % 97) " + String(repeating: "again ", count: i % 4)))]
                for k in 0..<(i % 3) { values.append((tags, .text("tag\(k) MyWindowController tag\(i % 5)"))) }
                values.append((number, .number(Double(i))))
                if i % 2 == 0 { values.append((body, .text("second value of body"))) }
                return Document(id: "doc\(i % 900)", domain: "d\(i % 3)", values: values)
            }
            try writer.upsert(contentsOf: documents)
            return try XCTUnwrap(writer.commit().segments.first)
        }
        let serial = try build(threads: 1), parallel = try build(threads: 4)
        XCTAssertEqual(parallel.differences(from: serial), [])
    }

    /// Whatever mix of steps, seeks within a block, seeks across blocks and position reads walks the postings,
    /// every document, frequency and position is what a plain walk reads; a single block's bounds and last
    /// document are the whole block's, whatever was read of it.
    func testSeeksStepsAndPositionsAgreeWithAWalk() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        let rare = try writer.registerField("rare", .text())
        for i in 0..<1_500 {
            // Frequencies 1–3 at varying positions; every seventh document skips the term (gaps in the deltas).
            let words = i % 7 == 3 ? ["filler"] : (0..<(1 + i % 3)).flatMap { k in ["w"] + Array(repeating: "x", count: (i + k) % 4) }
            try writer.upsert(Document(id: "d\(i)", values: [(body, .text(words.joined(separator: " "))),
                                                              (rare, .text(i % 50 == 0 ? "r s" : "s"))]))
        }
        let snapshot = try writer.commit()
        let segment = snapshot.segments[0]
        func cursor(_ field: FieldID, _ term: String) throws -> PostingCursor {
            let terms = try XCTUnwrap(segment.terms(field))
            let index = try XCTUnwrap(Array(term.utf8).withUnsafeBufferPointer { terms.find($0) })
            return PostingCursor(segment: segment, terms: terms, index: index, field: Int(field.rawValue))
        }
        var reference: [(doc: Int, tf: UInt32, positions: [UInt32])] = []
        let walker = try cursor(body, "w")
        while walker.next() != PostingCursor.end {
            var positions: [UInt32] = []
            walker.positions(into: &positions)
            reference.append((walker.doc, walker.tf, positions))
        }
        XCTAssertGreaterThan(reference.count, 3 * Segment.blockSize)

        var g = DifferentialTests.Generator(state: 21)
        for round in 0..<40 {
            let probe = try cursor(body, "w")
            var position = -1
            while true {
                // Steps, short seeks within a block, long seeks across blocks, and seeks to absent documents.
                let choice = g.int(4)
                let got: Int
                let wanted: Int
                if choice == 0 || position < 0 && choice == 1 {
                    got = probe.next()
                    wanted = position + 1
                } else {
                    let jump = choice == 1 ? 1 + g.int(5) : choice == 2 ? 1 + g.int(300) : 1 + g.int(40)
                    let base = position < 0 ? 0 : reference[min(position, reference.count - 1)].doc
                    let target = base + jump
                    got = probe.advance(target)
                    wanted = reference.firstIndex { $0.doc >= target } ?? reference.count
                }
                position = wanted
                guard position < reference.count else {
                    XCTAssertEqual(got, PostingCursor.end, "round \(round)")
                    break
                }
                XCTAssertEqual(got, reference[position].doc, "round \(round)")
                XCTAssertEqual(probe.tf, reference[position].tf, "round \(round) doc \(got)")
                if g.chance(0.5) {
                    var positions: [UInt32] = []
                    probe.positions(into: &positions)
                    XCTAssertEqual(positions, reference[position].positions, "round \(round) doc \(got)")
                }
            }
        }

        // A single-block term: its bounds and last document are those of the whole block, whatever was read.
        let single = try cursor(rare, "r")
        XCTAssertEqual(single.next(), 0)
        XCTAssertEqual(single.blockLastDoc, 1_450)
        XCTAssertEqual(single.blockMaxTf, 1)
        XCTAssertEqual(single.advance(700), 700)
        XCTAssertEqual(single.next(), 750)
    }

    /// On any bytes, corrupt ones included (runs of continuation bytes longer than a value can be), skipping
    /// ends where a byte-by-byte count of value ends does.
    func testSkippingCorruptBytesEndsWhereCountingValueEndsDoes() {
        var g = DifferentialTests.Generator(state: 11)
        for round in 0..<400 {
            // Mostly continuation bytes (0x80...0xFF), so value ends are sparse and uneven.
            let bytes = (0..<g.int(200)).map { _ in UInt8(truncatingIfNeeded: g.chance(0.8) ? 0x80 + g.int(128) : g.int(128)) }
            bytes.withUnsafeBufferPointer { buffer in
                for _ in 0..<8 {
                    let start = g.int(buffer.count + 1), count = g.int(60)
                    var expected = start, remaining = count
                    while remaining > 0, expected < buffer.count {
                        if buffer[expected] < 0x80 { remaining -= 1 }
                        expected += 1
                    }
                    var skipped = start
                    VarInt.skip(buffer, &skipped, count: count)
                    XCTAssertEqual(skipped, expected, "round \(round): \(count) values from byte \(start) of \(buffer.count)")
                }
            }
        }
    }

    /// Skipping values (eight or thirty-two bytes at a time where it can) ends where reading them one by one ends, for values
    /// of one to five bytes, any count, and streams that end early (a truncated one ends at its end).
    func testSkippingValuesEndsWhereReadingThemEnds() {
        var g = DifferentialTests.Generator(state: 7)
        for round in 0..<400 {
            var bytes: [UInt8] = []
            // Up to 300 values: skips of more than 32 take the thirty-two-byte steps.
            let values = 1 + g.int(300)
            for _ in 0..<values {
                // Mostly one-byte values (positions), some longer, a few of five bytes.
                let width = [7, 7, 7, 14, 21, 32][g.int(6)]
                VarInt.append(UInt32(truncatingIfNeeded: g.int(Int(1) << min(width, 31))), to: &bytes)
            }
            if g.chance(0.2) { bytes.removeLast(g.int(min(bytes.count, 9))) }
            bytes.withUnsafeBufferPointer { buffer in
                for _ in 0..<8 {
                    let start = g.int(3) == 0 ? 0 : g.int(buffer.count + 1)
                    // From a value's first byte: past any continuation bytes before it.
                    var first = start
                    while first > 0, buffer[first - 1] >= 0x80 { first -= 1 }
                    let count = g.int(values + 3)
                    var read = first, skipped = first
                    for _ in 0..<count where read < buffer.count { _ = VarInt.read(buffer, &read) }
                    VarInt.skip(buffer, &skipped, count: count)
                    XCTAssertEqual(skipped, read, "round \(round): \(count) values from byte \(first) of \(buffer.count)")
                }
            }
        }
    }

    /// Every term's postings, walked by a cursor, are what reading the stream value by value gives: blocks with
    /// ten bytes a posting ahead of them (decoded unchecked) and the blocks near the end of the stream that lack
    /// that room (decoded with bounds checks) alike.
    func testEveryTermWalksAsItsStreamReads() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text())
        let title = try writer.registerField("title", .text())
        var g = DifferentialTests.Generator(state: 57)
        // Words of very different frequencies, some repeated within a document, and gaps of every size.
        for i in 0..<3_000 {
            let words = (0..<(1 + g.int(12))).map { _ in "w\(g.int(g.chance(0.5) ? 8 : 3_000))" }
            try writer.upsert(Document(id: "d\(i)", values: [(body, .text(words.joined(separator: " "))),
                                                              (title, .text("t\(g.int(40)) zz\(i % 997)"))]))
        }
        let segment = try XCTUnwrap(writer.commit().segments.first)
        var checkedBlocks = 0, uncheckedBlocks = 0, packedBlocks = 0
        try segment.docBytes.withUnsafeBufferPointer { bytes in
            for field in [body, title] {
                let terms = try XCTUnwrap(segment.terms(field))
                for index in 0..<terms.count {
                    let docFreq = Int(terms.docFreq[index])
                    var expected: [(Int, UInt32)] = []
                    var offset = Int(terms.postingStart[index]), doc: UInt32 = 0
                    var k = 0
                    while k < docFreq {
                        let count = min(Segment.blockSize, docFreq - k)
                        if docFreq > Segment.blockSize, count == Segment.blockSize {
                            // A full block of a longer term: the widths, then the gaps and frequencies bit by bit.
                            packedBlocks += 1
                            let gapWidth = Int(bytes[offset]), tfWidth = Int(bytes[offset + 1])
                            let gaps = Self.readBits(bytes, from: offset + 2, width: gapWidth, count: count)
                            let tfs = Self.readBits(bytes, from: offset + 2 + 16 * gapWidth, width: tfWidth, count: count)
                            for i in 0..<count {
                                doc &+= gaps[i]
                                expected.append((Int(doc), tfs[i] + 1))
                            }
                            offset += 2 + 16 * (gapWidth + tfWidth)
                        } else {
                            if bytes.count - offset >= 10 * count { uncheckedBlocks += 1 } else { checkedBlocks += 1 }
                            for _ in 0..<count {
                                let code = VarInt.read(bytes, &offset)
                                doc &+= code >> 1
                                expected.append((Int(doc), code & 1 != 0 ? 1 : VarInt.read(bytes, &offset)))
                            }
                        }
                        k += count
                    }
                    var walked: [(Int, UInt32)] = []
                    let cursor = PostingCursor(segment: segment, terms: terms, index: index, field: Int(field.rawValue))
                    while cursor.next() != PostingCursor.end { walked.append((cursor.doc, cursor.tf)) }
                    XCTAssertEqual(walked.map { $0.0 }, expected.map { $0.0 }, "documents of term \(index) of \(field)")
                    XCTAssertEqual(walked.map { $0.1 }, expected.map { $0.1 }, "frequencies of term \(index) of \(field)")
                }
            }
        }
        XCTAssertGreaterThan(uncheckedBlocks, 1_000)
        XCTAssertGreaterThan(checkedBlocks, 3)
        XCTAssertGreaterThan(packedBlocks, 50)
    }

    /// `count` values of `width` bits from byte `start` on, least significant bit first, one bit at a time.
    static func readBits(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, width: Int, count: Int) -> [UInt32] {
        (0..<count).map { i in
            var value: UInt32 = 0
            for b in 0..<width {
                let bit = i * width + b
                if bytes[start + bit / 8] >> (bit % 8) & 1 != 0 { value |= 1 << b }
            }
            return value
        }
    }

    /// A block decoded without bounds checks (eight one-byte postings from one load where it can) equals one
    /// decoded value by value with `VarInt.read`: runs of small gaps with tf 1, multi-byte gaps, tf > 1, malformed
    /// over-long varints, and counts that are and are not multiples of eight.
    func testUncheckedBlockDecodeEqualsReadingValueByValue() {
        var g = DifferentialTests.Generator(state: 23)
        for round in 0..<500 {
            var bytes: [UInt8] = []
            let count = 1 + g.int(Segment.blockSize)
            let smallRuns = g.chance(0.5)
            for _ in 0..<count {
                if g.chance(0.01) {
                    // Six continuation bytes: a reader stops after five, so the next value starts mid-run.
                    bytes.append(contentsOf: [0xFF, 0x81, 0x80, 0x80, 0x80, 0x01])
                    continue
                }
                if g.chance(0.01) {
                    // The same as a frequency, after a code saying one follows.
                    VarInt.append(UInt32(g.int(300)) << 1, to: &bytes)
                    bytes.append(contentsOf: [0xFF, 0x81, 0x80, 0x80, 0x80, 0x01])
                    continue
                }
                let delta = smallRuns && g.chance(0.9) ? g.int(64) : g.int(g.chance(0.5) ? 300 : 1 << 20)
                let tf = g.chance(0.85) ? 1 : 2 + g.int(g.chance(0.5) ? 10 : 100_000)
                VarInt.append(UInt32(delta) << 1 | (tf == 1 ? 1 : 0), to: &bytes)
                if tf > 1 { VarInt.append(UInt32(tf), to: &bytes) }
            }
            let previous = UInt32(g.int(1_000))
            // Exactly the room the decoder is promised, ten bytes a posting, the rest random.
            XCTAssertLessThanOrEqual(bytes.count, 10 * count)
            while bytes.count < 10 * count { bytes.append(UInt8(truncatingIfNeeded: g.int(256))) }
            var expectedDocs: [UInt32] = [], expectedTfs: [UInt32] = []
            bytes.withUnsafeBufferPointer { buffer in
                var offset = 0, doc = previous
                for _ in 0..<count {
                    let code = VarInt.read(buffer, &offset)
                    doc &+= code >> 1
                    expectedDocs.append(doc)
                    expectedTfs.append(code & 1 != 0 ? 1 : VarInt.read(buffer, &offset))
                }
            }
            var docs = [UInt32](repeating: 0, count: count), tfs = [UInt32](repeating: 0, count: count)
            bytes.withUnsafeBufferPointer { buffer in
                docs.withUnsafeMutableBufferPointer { d in
                    tfs.withUnsafeMutableBufferPointer { t in
                        _ = VarInt.decodePostings(from: buffer.baseAddress!, count: count, previous: previous,
                                              docs: d.baseAddress!, tfs: t.baseAddress!)
                    }
                }
            }
            XCTAssertEqual(docs, expectedDocs, "round \(round): documents of \(count) postings")
            XCTAssertEqual(tfs, expectedTfs, "round \(round): frequencies of \(count) postings")
        }
    }
}
