import Dispatch
import Foundation
import XCTest
@testable import SearchlightEngine

/// Edge cases of stored-value compression, from a review (`LZBlock`, `StoredRecords`, `StoredFields` tag 3, codec v3).
final class StoredRecordsEdgeTests: XCTestCase {

    // MARK: LZBlock helpers

    /// Decodes with exactly sized heap buffers (so an overrun would hit the allocator / ASan).
    func decode(_ input: [UInt8], dictionary: [UInt8], capacity: Int) -> (Bool, [UInt8]) {
        decompressExactly(input, dictionary: dictionary, capacity: capacity)
    }

    func roundTrip(_ input: [UInt8], dictionary: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        var packed: [UInt8] = []
        let prepared = dictionary.isEmpty ? nil : LZBlock.Dictionary(dictionary)
        input.withUnsafeBufferPointer { LZBlock.compress($0, dictionary: prepared, into: &packed) }
        let (ok, output) = decode(packed, dictionary: prepared?.bytes ?? [], capacity: input.count)
        XCTAssertTrue(ok, "length \(input.count) dict \(dictionary.count)", file: file, line: line)
        XCTAssertEqual(output, input, "length \(input.count) dict \(dictionary.count)", file: file, line: line)
    }

    // MARK: LZBlock

    func testMatchSpanningDictionaryIntoOutput() {
        // Dictionary [1,2,3,4]; a match at offset 2 of 8 bytes: 3,4 from the dictionary, then 3,4,3,4,3,4 from
        // the output; then an empty last sequence.
        let input: [UInt8] = [0x04, 0x02, 0x00, 0x00]  // literals 0, match 4+4, offset 2; last token
        let (ok, out) = decode(input, dictionary: [1, 2, 3, 4], capacity: 8)
        XCTAssertTrue(ok)
        XCTAssertEqual(out, [3, 4, 3, 4, 3, 4, 3, 4])
        // Offset exactly output + dictionary is the dictionary's first byte; one more is out of range.
        let first = decode([0x10, 9, 0x05, 0x00, 0x00], dictionary: [1, 2, 3, 4], capacity: 5)
        XCTAssertTrue(first.0)
        XCTAssertEqual(first.1, [9, 1, 2, 3, 4])
        XCTAssertFalse(decode([0x10, 9, 0x06, 0x00, 0x00], dictionary: [1, 2, 3, 4], capacity: 5).0)
        XCTAssertFalse(decode([0x00, 0x00, 0x00], dictionary: [1, 2, 3, 4], capacity: 4).0, "offset 0")
        XCTAssertFalse(decode([0x00, 0x01, 0x00], dictionary: [], capacity: 4).0, "offset before any output")
        // A match from a long dictionary across the whole dictionary and into the output.
        let dict = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        // offset 300 from o=0: starts at dict[0], 300 bytes from it, then 20 more from the output's start.
        var spanning: [UInt8] = [0x0F, 0x2C, 0x01]  // literals 0, match 15+..., offset 300
        spanning += [255, 46]  // extra = 301 → length 4+15+301 = 320
        spanning += [0x00]
        let long = decode(spanning, dictionary: dict, capacity: 320)
        XCTAssertTrue(long.0)
        XCTAssertEqual(long.1, dict + Array(dict.prefix(20)))
    }

    func testHugeLengthsAreRejected() {
        // Literal length continuation summing past 2^32.
        let many = [UInt8](repeating: 255, count: (1 << 32) / 255 + 2)
        XCTAssertFalse(decode([0xF0] + many + [0], dictionary: [], capacity: 16).0)
        // Match length continuation past the output.
        XCTAssertFalse(decode([0x1F, 7, 0x01, 0x00, 255, 255, 255, 3, 0x00], dictionary: [], capacity: 100).0)
        // Literal count beyond the input.
        XCTAssertFalse(decode([0xF0, 200, 1, 2, 3], dictionary: [], capacity: 215).0)
        // Empty input / empty output.
        XCTAssertTrue(decode([0x00], dictionary: [], capacity: 0).0)
        XCTAssertFalse(decode([], dictionary: [], capacity: 3).0)
        XCTAssertFalse(decode([0x10], dictionary: [], capacity: 1).0)
    }

    func testCompressShortInputsAndTinyDictionaries() {
        var random = SeededRandom(seed: 99)
        for dictLength in [0, 1, 2, 3, 4, 5, 8] {
            let dictionary = (0..<dictLength).map { _ in UInt8(truncatingIfNeeded: random.next() % 3) }
            for length in 0...20 {
                roundTrip((0..<length).map { _ in UInt8(truncatingIfNeeded: random.next() % 3) }, dictionary: dictionary)
                roundTrip([UInt8](repeating: 1, count: length), dictionary: dictionary)
                roundTrip((0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }, dictionary: dictionary)
            }
        }
    }

    func testCompressLongInputsWithDictionary() {
        var random = SeededRandom(seed: 5)
        let dictionary = (0..<32_768).map { _ in UInt8(truncatingIfNeeded: random.next() % 16 + 97) }
        // Input quoting the dictionary everywhere, longer than an offset reaches.
        var input: [UInt8] = []
        while input.count < 200_000 {
            let start = Int(random.next() % UInt64(dictionary.count - 100))
            input += dictionary[start..<start + 20 + Int(random.next() % 80)]
            if random.next() % 4 == 0 { input += (0..<Int(random.next() % 20)).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        }
        roundTrip(input, dictionary: dictionary)
        roundTrip(input, dictionary: [])
        // A 65,535-byte dictionary (the maximum) and a longer one (cut).
        let big = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: random.next() % 8) }
        roundTrip(Array(input.prefix(90_000)), dictionary: big)
        roundTrip(Array(big.prefix(66_000)), dictionary: big)
        roundTrip(Array(big.suffix(66_000)), dictionary: big)
    }

    func testRandomSmallStreamsNeverOverrun() {
        var random = SeededRandom(seed: 1234)
        for _ in 0..<20_000 {
            let input = (0..<Int(random.next() % 24)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let dictionary = (0..<Int(random.next() % 6)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = decode(input, dictionary: dictionary, capacity: Int(random.next() % 40))
        }
    }

    // MARK: Records

    static let fields: [UInt16] = [0, 1, 2, 3, 63, 64, 65, 127, 128, 300, 16_383, 16_384, 65_535]

    func randomDocuments(_ count: Int, seed: UInt64) -> [[(FieldID, FieldValue)]] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            (0..<Int(random.next() % 8)).map { _ -> (FieldID, FieldValue) in
                let field = FieldID(rawValue: Self.fields[Int(random.next() % UInt64(Self.fields.count))])
                switch random.next() % 6 {
                case 0: return (field, .number(Double(random.next() % 1000) / 3))
                case 1: return (field, .bytes((0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
                case 2: return (field, .text(""))
                case 3: return (field, .text("short \(random.next() % 100)"))
                default:
                    let words = ["alpha", "beta", "gamma", "délta", "日本", "\u{1F600}", "eps"]
                    let n = Int(random.next() % 200)
                    return (field, .text((0..<n).map { _ in words[Int(random.next() % 7)] }.joined(separator: " ")))
                }
            }
        }
    }

    func testRandomRecordsRoundTripEveryWay() {
        let docs = randomDocuments(1_500, seed: 77)
        let (bytes, offsets) = encode(docs)
        let stored = StoredRecords(records: bytes, offsets: offsets, minimumColdBytes: 0)
        XCTAssertFalse(stored.coldFields.isEmpty)
        for doc in docs.indices {
            let original = Array(bytes[Int(offsets[doc])..<Int(offsets[doc + 1])])
            XCTAssertEqual(stored.withRecord(doc) { Array($0) }, original, "doc \(doc)")
            for raw in Self.fields {
                let field = FieldID(rawValue: raw)
                let want = original.withUnsafeBufferPointer { StoredFields.decode($0, only: field) }.map(\.1)
                let got = stored.withRecord(doc, holding: field) { StoredFields.decode($0, only: field) }.map(\.1)
                XCTAssertEqual(got, want, "doc \(doc) field \(raw)")
                let wantTexts = original.withUnsafeBufferPointer { StoredFields.texts($0, field: field) }
                XCTAssertEqual(stored.withRecord(doc, holding: field) { StoredFields.texts($0, field: field) }, wantTexts)
            }
            let set: Set<FieldID> = [FieldID(rawValue: 64), FieldID(rawValue: 2), FieldID(rawValue: 65_535)]
            XCTAssertEqual(stored.withRecord(doc, holding: set) { StoredFields.decode($0, fields: set) }.map(\.1),
                           original.withUnsafeBufferPointer { StoredFields.decode($0, fields: set) }.map(\.1))
        }
        // Splitting a whole record again gives the same segment (merge = serial).
        var whole: [UInt8] = [], wholeOffsets: [UInt32] = [0]
        for doc in docs.indices {
            stored.withRecord(doc) { whole.append(contentsOf: $0) }
            wholeOffsets.append(UInt32(whole.count))
        }
        XCTAssertEqual(StoredRecords(records: whole, offsets: wholeOffsets, minimumColdBytes: 0), stored)
    }

    /// Hot records cut anywhere, cold records in raw mode with any length, swapped cold records: no trap, and
    /// the hot values present come back.
    func testDamagedHotAndColdRecordsNeverTrap() {
        let docs = randomDocuments(200, seed: 3)
        let (bytes, offsets) = encode(docs)
        let stored = StoredRecords(records: bytes, offsets: offsets, minimumColdBytes: 0)
        XCTAssertFalse(stored.coldFields.isEmpty)
        var random = SeededRandom(seed: 8)
        for _ in 0..<2_000 {
            // Cut one document's hot record.
            var hot: [UInt8] = [], hotOffsets: [UInt32] = [0]
            let victim = Int(random.next() % UInt64(docs.count))
            for doc in docs.indices {
                var record = Array(stored.bytes[Int(stored.offsets[doc])..<Int(stored.offsets[doc + 1])])
                if doc == victim, !record.isEmpty { record = Array(record.prefix(Int(random.next() % UInt64(record.count)))) }
                hot += record
                hotOffsets.append(UInt32(hot.count))
            }
            // Replace the victim's cold record with a raw one of a random declared length, or garbage.
            var cold: [UInt8] = [], coldOffsets: [UInt32] = [0]
            for doc in docs.indices {
                var record = Array(stored.coldBytes[Int(stored.coldOffsets[doc])..<Int(stored.coldOffsets[doc + 1])])
                if doc == victim {
                    switch random.next() % 3 {
                    case 0:
                        let donor = Int(random.next() % UInt64(docs.count))
                        record = Array(stored.coldBytes[Int(stored.coldOffsets[donor])..<Int(stored.coldOffsets[donor + 1])])
                    case 1:
                        let payload = (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                        record = [0]
                        VarInt.append(UInt32(random.next() % 1000), to: &record)
                        record += payload
                    default:
                        record = (0..<Int(random.next() % 12)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    }
                }
                cold += record
                coldOffsets.append(UInt32(cold.count))
            }
            let damaged = StoredRecords(bytes: hot, offsets: hotOffsets, coldBytes: cold, coldOffsets: coldOffsets,
                                        dictionary: stored.dictionary, coldFields: stored.coldFields)
            _ = damaged.withRecord(victim) { StoredFields.decode($0) }
            for raw in Self.fields {
                _ = damaged.withRecord(victim, holding: FieldID(rawValue: raw)) { StoredFields.decode($0) }
            }
        }
    }

    func testJoinWithMismatchedTextCounts() {
        let body = FieldID(rawValue: 1), title = FieldID(rawValue: 0)
        let values: [(FieldID, FieldValue)] = [(title, .text("t")), (body, .text(String(repeating: "x", count: 200))),
                                               (body, .text(String(repeating: "y", count: 200))), (title, .number(2))]
        let (bytes, offsets) = encode([values])
        var hot: [UInt8] = [], cold: [UInt8] = []
        bytes.withUnsafeBufferPointer { StoredFields.split($0, isCold: { $0 == body }, hot: &hot, cold: &cold) }
        func join(_ cold: [UInt8]) -> [(FieldID, FieldValue)] {
            var out: [UInt8] = []
            hot.withUnsafeBufferPointer { h in cold.withUnsafeBufferPointer { StoredFields.join(h, cold: $0, isCold: { $0 == body }, into: &out) } }
            return out.withUnsafeBufferPointer { StoredFields.decode($0) }
        }
        XCTAssertEqual(join(cold).map(\.1), values.map(\.1))
        var extra = cold
        VarInt.append(3, to: &extra)
        extra += [65, 66, 67]
        XCTAssertEqual(join(extra).map(\.1), values.map(\.1), "extra texts ignored")
        let one = Array(cold.prefix(cold.count / 2 + 1))
        XCTAssertEqual(join(one).map(\.1), [values[0].1, values[1].1, values[3].1], "missing texts dropped")
        XCTAssertEqual(join([]).map(\.1), [values[0].1, values[3].1])
        _ = offsets
    }

    // MARK: Pending

    func testPendingPublishesTheResultToManyThreads() {
        let docs = randomDocuments(3_000, seed: 41)
        let (bytes, offsets) = encode(docs)
        XCTAssertGreaterThan(bytes.count, StoredRecords.Pending.inlineLimit)
        let expected = StoredRecords(records: bytes, offsets: offsets, minimumColdBytes: 0)
        XCTAssertFalse(expected.coldFields.isEmpty)
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let pending = StoredRecords.Pending(records: GrowableBytes(bytes), offsets: offsets, minimumColdBytes: 0)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                XCTAssertEqual(pending.wait(), expected)
            }
        }
    }

    // MARK: Codec

    func makeSegment(records stored: StoredRecords, documents: Int) throws -> IndexSnapshot {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 1))
        for n in 0..<documents { try writer.upsert(Document(id: "d\(n)", domain: nil, values: [(title, .text("w\(n)"))])) }
        _ = try writer.commit()
        let base = writer.snapshot
        let s = base.segments[0]
        let segment = Segment(documentCount: s.documentCount, fieldTerms: s.fieldTerms, docBytes: s.docBytes,
                              positionBytes: s.positionBytes, skipLastDoc: s.skipLastDoc, skipDocOffset: s.skipDocOffset,
                              skipPositionOffset: s.skipPositionOffset, skipMaxTf: s.skipMaxTf,
                              skipMaxImpact: s.skipMaxImpact, impactConstants: s.impactConstants, norms: s.norms,
                              lengthSum: s.lengthSum, fieldDocCount: s.fieldDocCount, numericOffsets: s.numericOffsets,
                              numericValues: s.numericValues, stored: stored, idBytes: s.idBytes, idOffsets: s.idOffsets,
                              domainOrdinals: s.domainOrdinals, domains: s.domains)
        return IndexSnapshot(segments: [segment], live: [Bitset(count: segment.documentCount, allSet: true)],
                             schema: base.schema, parameters: base.parameters, generation: 1, contentGeneration: 1)
    }

    func testInconsistentColdArraysThrow() throws {
        let docs: [[(FieldID, FieldValue)]] = (0..<4).map { n in
            [(FieldID(rawValue: 0), .text("w\(n)")), (FieldID(rawValue: 1), .text(String(repeating: "long \(n) ", count: 40)))]
        }
        let (bytes, offsets) = encode(docs)
        let good = StoredRecords(records: bytes, offsets: offsets, minimumColdBytes: 0)
        XCTAssertFalse(good.coldFields.isEmpty)
        func variant(coldBytes: [UInt8]? = nil, coldOffsets: [UInt32]? = nil, dictionary: [UInt8]? = nil,
                     coldFields: [FieldID]? = nil) -> StoredRecords {
            StoredRecords(bytes: good.bytes, offsets: good.offsets, coldBytes: coldBytes ?? good.coldBytes,
                          coldOffsets: coldOffsets ?? good.coldOffsets, dictionary: dictionary ?? good.dictionary,
                          coldFields: coldFields ?? good.coldFields)
        }
        let cases: [(String, StoredRecords)] = [
            ("short offsets", variant(coldOffsets: Array(good.coldOffsets.dropLast()))),
            ("offsets past bytes", variant(coldBytes: Array(good.coldBytes.dropLast()))),
            ("non-monotonic", variant(coldOffsets: [0] + good.coldOffsets.dropFirst().reversed())),
            ("fields without offsets", variant(coldOffsets: [])),
            ("offsets without fields", variant(coldFields: [])),
            ("unsorted fields", variant(coldFields: [FieldID(rawValue: 5), FieldID(rawValue: 1)])),
            ("big dictionary", variant(dictionary: [UInt8](repeating: 1, count: 70_000))),
        ]
        for (name, stored) in cases {
            let snapshot = try makeSegment(records: stored, documents: 4)
            let file = SnapshotFile.encode(snapshot, clientStates: [:], generation: 1, protectionClass: "")
            XCTAssertThrowsError(try file.withUnsafeBytes { raw throws(StoreError) in try SnapshotFile.decode(raw, path: name) }, name)
        }
        // The good one loads and reads back.
        let snapshot = try makeSegment(records: good, documents: 4)
        let file = SnapshotFile.encode(snapshot, clientStates: [:], generation: 1, protectionClass: "")
        let contents = try file.withUnsafeBytes { raw throws(StoreError) in try SnapshotFile.decode(raw, path: "good") }
        XCTAssertEqual(contents.segments[0].stored, good)
        // Version 2 of it holds whole records.
        let v2 = SnapshotFile.encode(snapshot, clientStates: [:], generation: 1, protectionClass: "", version: 2)
        let old = try v2.withUnsafeBytes { raw throws(StoreError) in try SnapshotFile.decode(raw, path: "v2") }
        XCTAssertEqual(old.segments[0].stored.bytes, bytes)
        XCTAssertTrue(old.segments[0].stored.coldFields.isEmpty)
    }
}

extension StoredRecordsEdgeTests {
    /// One batch sealed serially vs the same documents in four batches merged (both merge paths): same segment.
    func testSerialAndMergedSegmentsAreIdentical() throws {
        func build(batches: Int) throws -> IndexWriter {
            let writer = IndexWriter()
            writer.mergePolicy = MergePolicy(mergeFactor: 50)
            let title = try writer.registerField("title", .text(weight: 4, primary: true))
            let body = try writer.registerField("body", .text(weight: 1))
            let extra = try writer.registerField("extra", .stored)
            var random = SeededRandom(seed: 3)
            let words = ["package", "library", "the", "development", "files", "für", "日本語", "server", "a", "data"]
            let total = 6_000
            for n in 0..<total {
                let text = (0..<(30 + n % 60)).map { _ in words[Int(random.next() % 10)] }.joined(separator: " ")
                var values: [(FieldID, FieldValue)] = [(title, .text("name \(n)")), (body, .text(text))]
                if n % 5 == 0 { values.append((body, .text(""))) }
                if n % 3 == 0 { values.append((extra, .text(String(repeating: "e", count: n % 400)))) }
                try writer.upsert(Document(id: "doc-\(n)", domain: "d\(n % 3)", values: values))
                if (n + 1) % (total / batches) == 0 { _ = try writer.commit() }
            }
            _ = try writer.commit()
            return writer
        }
        let serial = try build(batches: 1).snapshot
        XCTAssertEqual(serial.segments.count, 1)
        XCTAssertTrue(serial.segments[0].stored.coldFields.isEmpty, "below the threshold: as they are")
        // The same segment compressed (re-merged alone with no threshold), against merges of four batches.
        let compressed = try SegmentBuilder.mergeWhole(serial.segments, minimumColdBytes: 0)
        XCTAssertFalse(compressed.stored.coldFields.isEmpty, "compressed")
        XCTAssertEqual(compressed.differences(from: serial.segments[0]), ["stored"])
        let batched = try build(batches: 4).snapshot
        XCTAssertEqual(batched.segments.count, 4)
        let whole = try SegmentBuilder.mergeWhole(batched.segments, minimumColdBytes: 0)
        var filtered = SegmentBuilder()
        filtered.minimumColdBytes = 0
        for (segment, live) in zip(batched.segments, batched.live) { try filtered.append(segment: segment, live: live) }
        let rebuilt = try filtered.seal()
        XCTAssertEqual(whole.differences(from: compressed), [])
        XCTAssertEqual(rebuilt.differences(from: compressed), [])
        // Merging a compressed segment again.
        let again = try SegmentBuilder.mergeWhole([whole], minimumColdBytes: 0)
        XCTAssertEqual(again.differences(from: whole), [])
    }
}

extension StoredRecordsEdgeTests {
    /// The last sequence has literals only: a last token announcing a match (low nibble set, no offset bytes), or
    /// a stream ending in a match, is malformed.
    func testLastSequenceMustBeLiteralsOnly() {
        XCTAssertFalse(decode([0x1F, 7], dictionary: [], capacity: 1).0, "token announces a match that is missing")
        XCTAssertFalse(decode([0x10, 7, 0x01, 0x00], dictionary: [], capacity: 5).0, "stream ends with a match")
    }
}

extension StoredRecordsEdgeTests {
    /// Corrupt input only: a placeholder of a field that is not cold never takes a cold field's text (it would
    /// come back under the wrong field), and `split` drops placeholders it finds in a whole record.
    func testStrayPlaceholderDoesNotStealAColdText() {
        let stray = FieldID(rawValue: 5), body = FieldID(rawValue: 1)
        let hot: [UInt8] = [2, 5, StoredRecords.coldTag, 1, StoredRecords.coldTag]
        var plain: [UInt8] = []
        VarInt.append(5, to: &plain)
        plain += Array("hello".utf8)
        var cold: [UInt8] = [0]
        VarInt.append(UInt32(plain.count), to: &cold)
        cold += plain
        let stored = StoredRecords(bytes: hot, offsets: [0, UInt32(hot.count)], coldBytes: cold,
                                   coldOffsets: [0, UInt32(cold.count)], dictionary: [], coldFields: [body])
        let values = stored.withRecord(0) { StoredFields.decode($0) }
        XCTAssertFalse(values.contains { $0.0 == stray }, "\(values)")
        XCTAssertEqual(values.map(\.0), [body])
        XCTAssertEqual(values.map(\.1), [.text("hello")])
        // A whole record with a stray placeholder (as `withRecord` returns when the cold record is missing):
        // split keeps the other values and counts them right.
        var damaged: [UInt8] = []
        StoredFields.encode([(body, .text("kept")), (stray, .number(1))], into: &damaged)
        damaged[0] = 3
        damaged += [5, StoredRecords.coldTag]
        var hotPart: [UInt8] = [], coldPart: [UInt8] = []
        damaged.withUnsafeBufferPointer { StoredFields.split($0, isCold: { _ in false }, hot: &hotPart, cold: &coldPart) }
        XCTAssertEqual(hotPart.first, 2)
        XCTAssertEqual(hotPart.withUnsafeBufferPointer { StoredFields.decode($0) }.map(\.1), [.text("kept"), .number(1)])
    }
}
