import Foundation
import XCTest
@testable import SearchlightEngine

/// Long stored texts are compressed (`LZBlock`, `StoredRecords`): what comes back is byte for byte what went in,
/// through sealing, merges and a store's snapshot; damaged compressed bytes never crash or spill into the
/// other values of a record.
final class StoredRecordsTests: XCTestCase {
    static let words = ["package", "library", "the", "development", "files", "for", "this", "contains", "a", "tool",
                        "support", "written", "in", "python", "module", "data", "server", "client", "is", "and",
                        "über", "日本語", "documentation", "shared", "runtime", "plugin", "with", "to", "of", "provides"]

    static func sentence(_ random: inout SeededRandom, words count: Int) -> String {
        (0..<count).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
    }

    func roundTrip(_ input: [UInt8], dictionary: [UInt8] = [], file: StaticString = #filePath, line: UInt = #line) -> Int {
        var packed: [UInt8] = []
        let prepared = dictionary.isEmpty ? nil : LZBlock.Dictionary(dictionary)
        input.withUnsafeBufferPointer { LZBlock.compress($0, dictionary: prepared, into: &packed) }
        var output = [UInt8](repeating: 0xAA, count: input.count)
        let ok = packed.withUnsafeBufferPointer { p in
            (prepared?.bytes ?? []).withUnsafeBufferPointer { d in
                output.withUnsafeMutableBufferPointer { LZBlock.decompress(p, dictionary: d, into: $0) }
            }
        }
        XCTAssertTrue(ok, "decompresses", file: file, line: line)
        XCTAssertEqual(output, input, file: file, line: line)
        return packed.count
    }

    func testCompressionRoundTripsEveryShapeOfInput() {
        var random = SeededRandom(seed: 7)
        XCTAssertEqual(roundTrip([]), 0)
        for length in [1, 4, 5, 6, 12, 13, 15, 16, 17, 300] {
            _ = roundTrip((0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            _ = roundTrip([UInt8](repeating: 0x61, count: length))
        }
        // A run (overlapping copies) and long literal runs (length continuation bytes).
        XCTAssertLessThan(roundTrip([UInt8](repeating: 7, count: 100_000)), 500)
        let noise = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        XCTAssertLessThanOrEqual(roundTrip(noise), noise.count + noise.count / 200 + 16)
        // Text repeating itself farther back than an offset reaches, and close by.
        let text = Array(Self.sentence(&random, words: 30_000).utf8)
        XCTAssertLessThan(roundTrip(text), text.count / 2)
    }

    func testADictionaryIsCopiedFromAndMatchesMayRunOnIntoTheOutput() {
        var random = SeededRandom(seed: 11)
        let dictionary = Array(Self.sentence(&random, words: 2_000).utf8)
        // Text found only in the dictionary compresses to a few sequences.
        let quoted = Array(dictionary[dictionary.count - 900..<dictionary.count - 100])
        XCTAssertLessThan(roundTrip(quoted, dictionary: dictionary), 40)
        XCTAssertGreaterThan(roundTrip(quoted), 200, "without the dictionary it does not")
        // The dictionary's last bytes continued by themselves: a match from the dictionary into the output.
        let tail = Array(dictionary.suffix(6))
        _ = roundTrip(tail + tail + tail + Array("end".utf8), dictionary: dictionary)
        for _ in 0..<200 {
            _ = roundTrip(Array(Self.sentence(&random, words: Int(random.next() % 80)).utf8), dictionary: dictionary)
        }
        // Only the last 64 KiB of a longer dictionary are kept (offsets reach no farther).
        let long = LZBlock.Dictionary([UInt8](repeating: 1, count: 70_000) + dictionary)
        XCTAssertEqual(long.bytes.count, LZBlock.maximumOffset)
        XCTAssertEqual(long.bytes.suffix(dictionary.count), dictionary[...])
    }

    /// Truncated, bit-flipped and random inputs, and wrong output sizes, are reported (false) or decode into the
    /// given buffer only: never a read or write outside the input, dictionary or output.
    func testDamagedInputIsRejectedWithoutLeavingItsBuffers() {
        var random = SeededRandom(seed: 13)
        let dictionary = Array(Self.sentence(&random, words: 400).utf8)
        let text = Array((Self.sentence(&random, words: 200) + String(repeating: "z", count: 300)).utf8)
        var packed: [UInt8] = []
        text.withUnsafeBufferPointer { LZBlock.compress($0, dictionary: LZBlock.Dictionary(dictionary), into: &packed) }
        func decode(_ input: [UInt8], dictionary: [UInt8], capacity: Int) -> Bool {
            decompressExactly(input, dictionary: dictionary, capacity: capacity).ok
        }
        XCTAssertTrue(decode(packed, dictionary: dictionary, capacity: text.count))
        XCTAssertFalse(decode(packed, dictionary: dictionary, capacity: text.count - 1), "output too small")
        XCTAssertFalse(decode(packed, dictionary: dictionary, capacity: text.count + 1), "output left unfilled")
        XCTAssertFalse(decode(packed, dictionary: [], capacity: text.count), "offsets into a missing dictionary")
        for cut in stride(from: 1, to: packed.count, by: 3) {
            XCTAssertFalse(decode(Array(packed.prefix(cut)), dictionary: dictionary, capacity: text.count), "cut at \(cut)")
        }
        for _ in 0..<3_000 {
            var damaged = packed
            for _ in 0...(random.next() % 3) {
                damaged[Int(random.next() % UInt64(damaged.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            _ = decode(damaged, dictionary: dictionary, capacity: Int(random.next() % UInt64(text.count * 2)))
        }
        for _ in 0..<1_000 {
            let garbage = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = decode(garbage, dictionary: dictionary, capacity: Int(random.next() % 512))
        }
    }

    // MARK: Records

    let title = FieldID(rawValue: 0), body = FieldID(rawValue: 1), size = FieldID(rawValue: 2)
    let notes = FieldID(rawValue: 70), blob = FieldID(rawValue: 3)

    /// Documents with a short title, a long body, a number, bytes, and a multi-valued field (above the 64-field
    /// bitmask) whose long and short values interleave with other fields'.
    func documents(_ count: Int, seed: UInt64) -> [[(FieldID, FieldValue)]] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { n in
            var values: [(FieldID, FieldValue)] = [(title, .text("title \(n)"))]
            if n % 7 != 3 { values.append((body, .text(Self.sentence(&random, words: 20 + Int(random.next() % 120))))) }
            values.append((notes, .text(Self.sentence(&random, words: 60))))
            values.append((size, .number(Double(n) * 1.5)))
            if n % 3 == 0 { values.append((notes, .text("")))
                            values.append((blob, .bytes([1, 2, UInt8(n & 0xFF)]))) }
            values.append((notes, .text(Self.sentence(&random, words: 40))))
            return values
        }
    }

    func testRecordsComeBackWholeAndShortFieldsStayUncompressed() {
        let docs = documents(2_000, seed: 5)
        let (bytes, offsets) = encode(docs)
        let stored = StoredRecords(records: bytes, offsets: offsets, minimumColdBytes: 0)
        XCTAssertEqual(stored.coldFields, [body, notes], "long text fields only")
        XCTAssertFalse(stored.dictionary.isEmpty)
        XCTAssertLessThan(stored.memoryBytes, bytes.count * 2 / 3, "compressed")
        for doc in docs.indices {
            let whole = stored.withRecord(doc) { Array($0) }
            XCTAssertEqual(whole, Array(bytes[Int(offsets[doc])..<Int(offsets[doc + 1])]), "document \(doc)")
            // A short field is read from the record as stored, its long neighbours left compressed.
            stored.withRecord(doc, holding: title) { record in
                XCTAssertLessThan(record.count, 40)
                XCTAssertEqual(StoredFields.texts(record, field: title), ["title \(doc)"])
                XCTAssertEqual(StoredFields.decode(record, fields: [title, size, blob]).map(\.1),
                               docs[doc].filter { [title, size, blob].contains($0.0) }.map(\.1))
                XCTAssertTrue(StoredFields.texts(record, field: body).isEmpty, "placeholders are not values")
            }
            let notesTexts = stored.withRecord(doc, holding: notes) { StoredFields.texts($0, field: notes) }
            XCTAssertEqual(notesTexts, docs[doc].compactMap { $0.0 == notes ? $0.1.textValue : nil })
            let subset = stored.withRecord(doc, holding: [size, body]) { StoredFields.decode($0, fields: [size, body]) }
            XCTAssertEqual(subset.map(\.1), docs[doc].filter { $0.0 == size || $0.0 == body }.map(\.1))
        }
    }

    func testSegmentsWithLittleLongTextKeepRecordsAsTheyAre() {
        let docs = documents(400, seed: 17)
        let (bytes, offsets) = encode(docs)
        XCTAssertLessThan(bytes.count, StoredRecords.minimumColdBytes)
        let small = StoredRecords(records: bytes, offsets: offsets)
        XCTAssertEqual(small.coldFields, [])
        XCTAssertEqual(small.bytes, bytes)
        let threshold = StoredRecords(records: bytes, offsets: offsets, minimumColdBytes: bytes.count / 2)
        XCTAssertEqual(threshold.coldFields, [body, notes], "enough long text")
    }

    func testSmallOrShortTextSegmentsKeepRecordsAsTheyAre() {
        let short: [[(FieldID, FieldValue)]] = (0..<50).map { [(title, .text("name \($0)")), (body, .text("a short line"))] }
        let (bytes, offsets) = encode(short)
        let stored = StoredRecords(records: bytes, offsets: offsets, minimumColdBytes: 0)
        XCTAssertEqual(stored.coldFields, [])
        XCTAssertEqual(stored.bytes, bytes)
        XCTAssertTrue(stored.coldOffsets.isEmpty)
        // One long text: compressed without a dictionary (too little text to sample one from).
        let one = encode([[(title, .text("x")), (body, .text(String(repeating: "long text ", count: 30)))]])
        let single = StoredRecords(records: one.bytes, offsets: one.offsets, minimumColdBytes: 0)
        XCTAssertEqual(single.coldFields, [body])
        XCTAssertTrue(single.dictionary.isEmpty)
        XCTAssertEqual(single.withRecord(0) { Array($0) }, one.bytes)
        XCTAssertEqual(StoredRecords(records: [], offsets: [0]), StoredRecords(bytes: [], offsets: [0], coldBytes: [],
                                                                                 coldOffsets: [], dictionary: [], coldFields: []))
    }

    /// Damaged cold bytes lose at most that document's cold values: its other values, and other documents, read
    /// as before, and nothing traps.
    func testDamagedColdRecordsLoseOnlyTheirOwnTexts() {
        let docs = documents(300, seed: 9)
        let (bytes, offsets) = encode(docs)
        let stored = StoredRecords(records: bytes, offsets: offsets, minimumColdBytes: 0)
        var random = SeededRandom(seed: 21)
        for round in 0..<400 {
            var cold = stored.coldBytes
            let victim = Int(random.next() % UInt64(docs.count))
            let start = Int(stored.coldOffsets[victim]), end = Int(stored.coldOffsets[victim + 1])
            for _ in 0...(random.next() % 4) where end > start {
                cold[start + Int(random.next() % UInt64(end - start))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            let damaged = StoredRecords(bytes: stored.bytes, offsets: stored.offsets, coldBytes: cold,
                                        coldOffsets: stored.coldOffsets, dictionary: stored.dictionary,
                                        coldFields: stored.coldFields)
            for doc in [victim, (victim + 1) % docs.count] {
                let values = damaged.withRecord(doc) { StoredFields.decode($0) }
                let kept = values.filter { !stored.coldFields.contains($0.0) }
                XCTAssertEqual(kept.map(\.1), docs[doc].filter { !stored.coldFields.contains($0.0) }.map(\.1),
                               "round \(round), document \(doc)")
                if doc != victim { XCTAssertEqual(values.map(\.1), docs[doc].map(\.1)) }
            }
        }
    }

    // MARK: Through the engine

    func makeWriter() throws -> (IndexWriter, FieldID, FieldID) {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 4, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        return (writer, title, body)
    }

    func testSegmentsMergesAndSnapshotsKeepEveryStoredValue() throws {
        let (writer, title, body) = try makeWriter()
        writer.mergePolicy = MergePolicy(mergeFactor: 50)  // the four batches stay four segments
        var random = SeededRandom(seed: 3)
        var expected: [String: [FieldValue]] = [:]
        // Four batches of about 0.6 MB of body text each: sealed uncompressed (below `minimumColdBytes`), merged
        // into one segment that is compressed (the merges asked to compress from 2 MB).
        for batch in 0..<4 {
            for n in 0..<1_500 {
                let id = "doc-\(batch)-\(n)"
                let values: [(FieldID, FieldValue)] = [(title, .text("name \(n)")),
                                                       (body, .text(Self.sentence(&random, words: 30 + n % 50)))]
                try writer.upsert(Document(id: id, domain: "d\(batch)", values: values))
                expected[id] = values.map(\.1)
            }
            _ = try writer.commit()
        }
        func check(_ snapshot: IndexSnapshot, _ what: String) {
            for (id, values) in expected {
                guard let address = snapshot.lookup(id: id) else { return XCTFail("\(what): \(id) missing") }
                XCTAssertEqual(snapshot.document(at: address)?.values.map(\.1), values, "\(what): \(id)")
                XCTAssertEqual(snapshot.text(body, of: address), [values[1].textValue!], "\(what): \(id)")
                for (field, value) in [(title, values[0]), (body, values[1])] {
                    XCTAssertTrue(snapshot.containsText(field, of: address) { String(decoding: $0, as: UTF8.self) == value.textValue },
                                  "\(what): \(id)")
                }
            }
            XCTAssertEqual(snapshot.search(.term("development"), limit: 10_000).count,
                           expected.values.filter { $0[1].textValue!.contains("development") }.count, what)
        }
        let snapshot = writer.snapshot
        XCTAssertEqual(snapshot.segments.count, 4)
        XCTAssertTrue(snapshot.segments.allSatisfy { $0.stored.coldFields.isEmpty })
        check(snapshot, "sealed")
        // Whole merge (streams) and a merge that drops deleted documents (document by document).
        let whole = try SegmentBuilder.mergeWhole(snapshot.segments, minimumColdBytes: 2 << 20)
        var filtered = SegmentBuilder()
        filtered.minimumColdBytes = 2 << 20
        for (segment, live) in zip(snapshot.segments, snapshot.live) { try filtered.append(segment: segment, live: live) }
        let rebuilt = try filtered.seal()
        XCTAssertEqual(whole.differences(from: rebuilt), [], "both merges give the same segment")
        for merged in [whole, rebuilt] {
            let one = IndexSnapshot(segments: [merged], live: [Bitset(count: merged.documentCount, allSet: true)],
                                    schema: snapshot.schema, parameters: snapshot.parameters, generation: 9,
                                    contentGeneration: 9)
            check(one, "merged")
            let whole = (0..<merged.documentCount).reduce(0) { $0 + merged.withStoredRecord($1) { $0.count } }
            XCTAssertEqual(merged.stored.coldFields, [body])
            XCTAssertLessThan(merged.stored.memoryBytes, whole * 2 / 3, "compressed again")
        }
        // A snapshot file, in this format and in version 2 (whole records, read as they are).
        let compressed = IndexSnapshot(segments: [whole], live: [Bitset(count: whole.documentCount, allSet: true)],
                                       schema: snapshot.schema, parameters: snapshot.parameters, generation: 9,
                                       contentGeneration: 9)
        var sizes: [UInt32: Int] = [:]
        for version in [SnapshotFile.version, 2] {
            let file = SnapshotFile.encode(compressed, clientStates: [:], generation: 1, protectionClass: "", version: version)
            let path = "snapshot-v\(version)"
            let contents = try file.withUnsafeBytes { raw throws(StoreError) in try SnapshotFile.decode(raw, path: path) }
            sizes[version] = file.count
            let loaded = IndexSnapshot(segments: contents.segments, live: contents.live, schema: snapshot.schema,
                                       parameters: snapshot.parameters, generation: 2, contentGeneration: 2)
            check(loaded, "version \(version)")
            if version == 2 { XCTAssertTrue(contents.segments.allSatisfy { $0.stored.coldFields.isEmpty }) }
            else { XCTAssertEqual(contents.segments.first?.differences(from: whole), []) }
        }
        XCTAssertLessThan(try XCTUnwrap(sizes[SnapshotFile.version]), try XCTUnwrap(sizes[2]) * 3 / 4, "\(sizes)")
    }
}

/// Whole stored records of `documents`, one after another, with their offsets (one per document plus one).
func encode(_ documents: [[(FieldID, FieldValue)]]) -> (bytes: [UInt8], offsets: [UInt32]) {
    var bytes: [UInt8] = [], offsets: [UInt32] = [0]
    for values in documents {
        StoredFields.encode(values, into: &bytes)
        offsets.append(UInt32(bytes.count))
    }
    return (bytes, offsets)
}

/// `LZBlock.decompress` with exactly sized heap buffers for the input, the dictionary and the output (filled with
/// 0xEE first), so AddressSanitizer or the allocator sees any overrun.
func decompressExactly(_ input: [UInt8], dictionary: [UInt8], capacity: Int) -> (ok: Bool, output: [UInt8]) {
    let out = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
    defer { out.deallocate() }
    out.initialize(repeating: 0xEE)
    let source = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: input.count)
    defer { source.deallocate() }
    _ = source.initialize(from: input)
    let words = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: dictionary.count)
    defer { words.deallocate() }
    _ = words.initialize(from: dictionary)
    let ok = LZBlock.decompress(UnsafeBufferPointer(source), dictionary: UnsafeBufferPointer(words), into: out)
    return (ok, Array(out))
}
