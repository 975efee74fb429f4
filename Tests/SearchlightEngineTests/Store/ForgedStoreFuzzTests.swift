import Foundation
import XCTest
@testable import SearchlightEngine

/// Snapshots whose content is malformed but whose checksum was recomputed to match ("forged"): decoding must throw
/// `StoreError.corrupt`, never trap, and what decodes must answer reads and queries without trapping.
final class ForgedStoreFuzzTests: XCTestCase {
    /// A committed index of two segments: one as the writer seals it, one merged with cold (compressed) records;
    /// terms long enough for packed blocks and skip data, positions, numbers, domains.
    static func sampleSnapshot() throws -> [UInt8] {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        let size = try writer.registerField("size", .numeric)
        func add(_ range: Range<Int>) throws {
            for n in range {
                let text = "common word\(n % 7) batch \(n) über ☃ " + String(repeating: "long body text \(n % 5) ", count: 12)
                try writer.upsert(Document(id: "d\(n)", domain: n % 3 == 0 ? "mail.box\(n % 2)" : nil,
                                           values: [(title, .text("title \(n % 11) common")), (body, .text(text)),
                                                    (size, .number(Double(n)))]))
            }
        }
        try add(0..<150)
        _ = try writer.commit()
        let first = writer.snapshot.segments
        let merged = try SegmentBuilder.mergeWhole(first, minimumColdBytes: 1)
        XCTAssertFalse(merged.stored.coldFields.isEmpty)
        try add(150..<190)
        var snapshot = try writer.commit()
        let segments = [merged] + snapshot.segments.dropFirst(first.count)
        let live = segments.map { segment in
            var bits = Bitset(words: [UInt64](repeating: ~0, count: (segment.documentCount + 63) >> 6), count: segment.documentCount)
            if segment.documentCount > 3 { bits[3] = false }
            return bits
        }
        writer.restore(segments: segments, live: live, schema: snapshot.schema, generation: snapshot.generation)
        snapshot = writer.snapshot
        return SnapshotFile.encode(snapshot, clientStates: ["a": [1, 2]], generation: 4, protectionClass: "p")
    }


    /// Where each field of a (version 5) snapshot lies: name, byte range of its values, element size (1 for
    /// varint-coded and byte fields), so mutations can aim at one field.
    static func layout(_ bytes: [UInt8]) throws -> [(name: String, range: Range<Int>, size: Int)] {
        var fields: [(name: String, range: Range<Int>, size: Int)] = []
        try bytes.withUnsafeBytes { raw in
            var reader = ByteReader(UnsafeRawBufferPointer(rebasing: raw[0..<raw.count - 4]), offset: 12)
            func mark(_ name: String, _ size: Int = 1, _ read: (inout ByteReader) throws -> Void) throws {
                let start = reader.offset
                try read(&reader)
                fields.append((name, start..<reader.offset, size))
            }
            func array<T: FixedWidthInteger>(_ name: String, _ type: T.Type) throws {
                try mark(name + " count") { _ = try $0.varint() }
                reader.offset = fields.last!.range.lowerBound
                let count = try reader.varint()
                fields.append((name, reader.offset..<reader.offset + count * MemoryLayout<T>.size, MemoryLayout<T>.size))
                reader.offset += count * MemoryLayout<T>.size
            }
            try mark("generation", 8) { _ = try $0.u64() }
            try mark("protection") { _ = try $0.string() }
            try mark("commit counter", 8) { _ = try $0.u64() }
            try mark("analyzer version", 4) { _ = try $0.u32() }
            try mark("field count") { _ = try $0.varint() }
            let fieldCount = fields.last.map { r in Int(bytes[r.range.lowerBound]) }!
            for f in 0..<fieldCount {
                try mark("field \(f) name") { _ = try $0.string() }
                try mark("field \(f) kind") { _ = try $0.u8() }
                try mark("field \(f) weight", 4) { _ = try $0.u32() }
                try mark("field \(f) flags") { _ = try $0.u8() }
            }
            var states = 0
            try mark("state count") { states = try $0.varint() }
            for _ in 0..<states {
                try mark("state name") { _ = try $0.string() }
                try mark("state") { _ = try $0.blob() }
            }
            var segments = 0
            try mark("segment count") { segments = try $0.varint() }
            for s in 0..<segments {
                try mark("s\(s) live bit count") { _ = try $0.varint() }
                try array("s\(s) live words", UInt64.self)
                try mark("s\(s) document count") { _ = try $0.varint() }
                var termFields = 0
                try mark("s\(s) field terms count") { termFields = try $0.varint() }
                for f in 0..<termFields {
                    var present: UInt8 = 0
                    try mark("s\(s) f\(f) present") { present = try $0.u8() }
                    guard present != 0 else { continue }
                    try array("s\(s) f\(f) term bytes", UInt8.self)
                    for name in ["term offsets", "doc freqs", "posting starts", "block starts", "position starts"] {
                        try array("s\(s) f\(f) \(name)", UInt32.self)
                    }
                }
                try array("s\(s) doc bytes", UInt8.self)
                try array("s\(s) position bytes", UInt8.self)
                for name in ["skip last doc", "skip doc offset", "skip position offset", "skip max tf", "skip max impact",
                             "impact constants"] {
                    try array("s\(s) \(name)", UInt32.self)
                }
                var norms = 0
                try mark("s\(s) norm count") { norms = try $0.varint() }
                for f in 0..<norms { try array("s\(s) norms \(f)", UInt8.self) }
                try array("s\(s) length sums", UInt64.self)
                try array("s\(s) field doc counts", UInt32.self)
                var columns = 0
                try mark("s\(s) numeric column count") { columns = try $0.varint() }
                for f in 0..<columns { try array("s\(s) numeric offsets \(f)", UInt32.self) }
                try mark("s\(s) numeric value count") { _ = try $0.varint() }
                for f in 0..<columns { try array("s\(s) numeric values \(f)", UInt64.self) }
                try array("s\(s) stored bytes", UInt8.self)
                try array("s\(s) stored offsets", UInt32.self)
                try array("s\(s) cold bytes", UInt8.self)
                try array("s\(s) cold offsets", UInt32.self)
                try array("s\(s) dictionary", UInt8.self)
                try array("s\(s) cold fields", UInt16.self)
                try array("s\(s) id bytes", UInt8.self)
                try array("s\(s) id offsets", UInt32.self)
                try array("s\(s) id hashes", UInt64.self)
                try array("s\(s) id hash docs", UInt32.self)
                try array("s\(s) domain ordinals", UInt32.self)
                var domains = 0
                try mark("s\(s) domain count") { domains = try $0.varint() }
                for d in 0..<domains { try mark("s\(s) domain \(d)") { _ = try $0.string() } }
            }
            XCTAssertTrue(reader.isAtEnd)
        }
        return fields.filter { !$0.range.isEmpty }
    }

    /// The bytes with the checksum recomputed over everything before it.
    static func reseal(_ bytes: inout [UInt8]) {
        let sum = CRC32C.checksum(Array(bytes[0..<bytes.count - 4]))
        for k in 0..<4 { bytes[bytes.count - 4 + k] = UInt8(truncatingIfNeeded: sum >> (8 * UInt32(k))) }
    }

    /// Decodes a forged snapshot and, when it decodes, restores it and reads everything the engine offers.
    static func decodeAndRead(_ bytes: [UInt8]) -> Bool {
        let contents: SnapshotFile.Contents
        do {
            contents = try SnapshotFile.decode(bytes, path: "forged.sls")
        } catch {
            guard case .corrupt = error else { XCTFail("\(error)"); return false }
            return false
        }
        exercise(contents)
        return true
    }

    static func exercise(_ contents: SnapshotFile.Contents) {
        let writer = IndexWriter()
        writer.restore(segments: contents.segments, live: contents.live, schema: contents.schema, generation: contents.writerGeneration)
        let snapshot = writer.snapshot
        _ = snapshot.stats
        let fields = snapshot.schema.fields.indices.map { FieldID(rawValue: UInt16($0)) }
        let queries: [Query] = [.term("common"), .term("body"), .term("word3"), .prefix("wor"), .prefix("b"),
                                .phrase("long body text"), .or([.term("batch"), .prefix("üb")]),
                                .and([.term("common"), .term("long")]),
                                .range(FieldID(rawValue: 2), lower: .inclusive(20), upper: nil)]
        for query in queries {
            for hit in snapshot.search(query, limit: 30) {
                _ = snapshot.document(at: hit.address)
                _ = snapshot.explain(query, hit.address)
            }
            _ = snapshot.count(query)
        }
        for address in snapshot.matches(.all).prefix(400) {
            _ = snapshot.document(at: address)
            if let id = snapshot.id(of: address) { _ = snapshot.lookup(id: id) }
            _ = snapshot.domain(of: address)
            for field in fields { _ = snapshot.values(field, of: address) }
        }
        _ = snapshot.lookup(id: "d5")
        // A merge reads every posting, position and record of the segments.
        let all = contents.segments.enumerated().allSatisfy { contents.live[$0.offset].count == $0.element.documentCount }
        if all, !contents.segments.isEmpty {
            _ = try? SegmentBuilder.mergeWhole(contents.segments, minimumColdBytes: 1)
        }
    }

    /// The snapshot with `field`'s `element` (a little-endian value of the field's size) set by `change`, resealed.
    static func forging(_ bytes: [UInt8], _ name: String, element: Int, _ change: (UInt64) -> UInt64) throws -> [UInt8] {
        let field = try XCTUnwrap(try layout(bytes).first { $0.name == name }, name)
        let at = field.range.lowerBound + element * field.size
        var forged = bytes
        let old = (0..<field.size).reduce(UInt64(0)) { $0 | UInt64(forged[at + $1]) << (8 * UInt64($1)) }
        let new = change(old)
        for k in 0..<field.size { forged[at + k] = UInt8(truncatingIfNeeded: new >> (8 * UInt64(k))) }
        reseal(&forged)
        return forged
    }

    /// Decoding must report the forged file corrupt, naming it.
    static func assertCorrupt(_ forged: [UInt8], _ message: String, reason expected: String = "postings",
                              file: StaticString = #filePath, line: UInt = #line) {
        do {
            let contents = try SnapshotFile.decode(forged, path: "forged.sls")
            exercise(contents)
            XCTFail("decoded: \(message)", file: file, line: line)
        } catch {
            guard case .corrupt(let path, let reason) = error else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(path, "forged.sls", file: file, line: line)
            XCTAssertTrue(reason.hasPrefix(expected), reason, file: file, line: line)
        }
    }

    func testAForgedPostingPastTheSegmentIsCorrupt() throws {
        let bytes = try Self.sampleSnapshot()
        // Seed 180: a byte of the second segment's postings replaced, its checksum recomputed; a term's postings
        // then name a document past the segment's 40 (a query read its live bit out of range).
        Self.assertCorrupt(Self.forge(bytes, seed: 180), "seed 180")
        // A posting's gap made 0: the same document twice (out of order).
        let snapshot = try SnapshotFile.decode(bytes, path: "s")
        let terms = try XCTUnwrap(snapshot.segments[0].fieldTerms[0])
        let single = try XCTUnwrap(terms.docFreq.indices.first { terms.docFreq[$0] > 1 && terms.blockStart[$0] == UInt32.max })
        let start = Int(terms.postingStart[single])
        Self.assertCorrupt(try Self.forging(bytes, "s0 doc bytes", element: start + 1) { _ in 1 }, "repeated document")
    }


    func testForgedSkipDataIsCorrupt() throws {
        let bytes = try Self.sampleSnapshot()
        let snapshot = try SnapshotFile.decode(bytes, path: "s")
        let terms = try XCTUnwrap(snapshot.segments[0].fieldTerms[1])
        let long = try XCTUnwrap(terms.blockStart.firstIndex { $0 != UInt32.max })
        let entry = Int(terms.blockStart[long])
        let skips = snapshot.segments[0].skipLastDoc.count
        // A longer term's first skip entry pointed at the last one: its second block's entry lies past the skip
        // arrays (a cursor read it out of range).
        Self.assertCorrupt(try Self.forging(bytes, "s0 f1 block starts", element: long) { _ in UInt64(skips - 1) }, "skip entry")
        // A single-block term given a skip entry, and a longer term none.
        let short = try XCTUnwrap(terms.blockStart.firstIndex { $0 == UInt32.max })
        Self.assertCorrupt(try Self.forging(bytes, "s0 f1 block starts", element: short) { _ in 0 }, "entry for one block")
        Self.assertCorrupt(try Self.forging(bytes, "s0 f1 block starts", element: long) { _ in UInt64(UInt32.max) }, "no entry")
        // A block's last document recorded lower than it is: a ranked query's window ended before its current
        // document and the collector never advanced (a hang).
        Self.assertCorrupt(try Self.forging(bytes, "s0 skip last doc", element: entry) { $0 - 1 }, "skip last doc")
        // A block said to start elsewhere in the postings.
        Self.assertCorrupt(try Self.forging(bytes, "s0 skip doc offset", element: entry + 1) { $0 + 1 }, "skip doc offset")
    }

    func testForgedFieldLengthStatisticsAreCorrupt() throws {
        let bytes = try Self.sampleSnapshot()
        // A field's length sum near the top of UInt64: the index's average field length summed it with the other
        // segment's and overflowed (a trap as the snapshot was restored).
        Self.assertCorrupt(try Self.forging(bytes, "s0 length sums", element: 0) { _ in UInt64.max }, "length sum",
                           reason: "field length statistics")
        Self.assertCorrupt(try Self.forging(bytes, "s1 field doc counts", element: 1) { _ in 41 }, "field doc count",
                           reason: "field length statistics")
    }
    /// A seeded mutation after the checksum layer: one field or byte of the body changed, the checksum recomputed.
    static func forge(_ bytes: [UInt8], seed: UInt64,
                      layout: [(name: String, range: Range<Int>, size: Int)] = []) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var forged = bytes
        let body = 12..<(bytes.count - 4)
        if !layout.isEmpty, Bool.random(using: &random) {
            // One field (a count, a length, an offset, a start, a doc freq, a skip entry...) aimed at: an element
            // of it set to an edge value, moved by one, or swapped with another (term order, monotonic offsets).
            let field = layout.randomElement(using: &random)!
            let elements = field.range.count / field.size
            let element = Int.random(in: 0..<elements, using: &random)
            let at = field.range.lowerBound + element * field.size
            func read(_ at: Int) -> UInt64 { (0..<field.size).reduce(0) { $0 | UInt64(forged[at + $1]) << (8 * UInt64($1)) } }
            func write(_ v: UInt64, _ at: Int) { for k in 0..<field.size { forged[at + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(k))) } }
            let old = read(at)
            let other = field.range.lowerBound + Int.random(in: 0..<elements, using: &random) * field.size
            let kind = Int.random(in: 0..<6, using: &random)
            if ProcessInfo.processInfo.environment["FORGED_TRACE"] != nil {
                FileHandle.standardError.write(Data("forge \(seed): \(field.name)[\(element)] kind \(kind) was \(old)\n".utf8))
            }
            switch kind {
            case 0: write(old &+ 1, at)
            case 1: write(old &- 1, at)
            case 2: write(0, at)
            case 3: write(~0, at)
            case 4: write(UInt64.random(in: 0...400, using: &random), at)
            default:
                let value = read(other)
                write(old, other)
                write(value, at)
            }
            reseal(&forged)
            return forged
        }
        let position = Int.random(in: body, using: &random)
        let kind = Int.random(in: 0..<10, using: &random)
        if ProcessInfo.processInfo.environment["FORGED_TRACE"] != nil {
            FileHandle.standardError.write(Data("forge \(seed): kind \(kind) at \(position) of \(bytes.count), was \(bytes[position])\n".utf8))
        }
        switch kind {
        case 0: forged[position] = UInt8.random(in: 0...255, using: &random)
        case 1: forged[position] &+= 1
        case 2: forged[position] &-= 1
        case 3: forged[position] = 0
        case 4: forged[position] = 0xFF
        case 5: forged[position] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        case 6: forged.insert(UInt8.random(in: 0...255, using: &random), at: position)
        case 7: forged.remove(at: position)
        case 8:
            // A 32-bit value (an offset, a start, a doc id) replaced.
            let value = [UInt32(0), 1, 0x7F, 0x80, 0xFFFF, 0xFFFF_FFFF, 0x7FFF_FFFF,
                         UInt32.random(in: 0...300, using: &random)].randomElement(using: &random)!
            for k in 0..<4 where position + k < body.upperBound { forged[position + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) }
        default:
            // Two bytes swapped (term order, offsets out of order).
            let other = Int.random(in: body, using: &random)
            forged.swapAt(position, other)
        }
        reseal(&forged)
        return forged
    }

    /// Journal records whose body was mutated and whose length check and checksum were recomputed: reading throws
    /// `.corrupt` or yields batches that replay into a writer without trapping.
    func testForgedJournalRecordsThrowOrReplayWithoutTrapping() throws {
        let writer = IndexWriter()
        var bodies: [[UInt8]] = []
        for n in 1...6 { bodies.append(try record(modelBatch(n), writer: writer).encoded()) }
        let header = JournalFile.header(generation: 3, protectionClass: "p")
        let count = UInt64(ProcessInfo.processInfo.environment["FORGED_COUNT"] ?? "") ?? 300
        var random = SeededRandom(seed: 7)
        for _ in 0..<count {
            var body = bodies.randomElement(using: &random)!
            let position = Int.random(in: 0..<body.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: body[position] = UInt8.random(in: 0...255, using: &random)
            case 1: body[position] &+= 1
            case 2: body[position] &-= 1
            case 3: body.insert(UInt8.random(in: 0...255, using: &random), at: position)
            default: body.remove(at: position)
            }
            let file = header + JournalFile.record(sequence: 1, body: body)
            do {
                let contents = try JournalFile.read(file, path: "forged.slj")
                let replay = IndexWriter()
                var states: [ExactIdentifier: [UInt8]] = [:]
                for batch in contents.batches { try? batch.apply(to: replay, clientStates: &states) }
                if let snapshot = try? replay.commit() {
                    _ = snapshot.search(.term("batch"), limit: 10)
                    for address in snapshot.matches(.all) { _ = snapshot.document(at: address) }
                }
            } catch {
                guard case .corrupt = error else { return XCTFail("\(error)") }
            }
        }
    }

    /// Seeded forgeries of the sample snapshot (FORGED_SEED, FORGED_COUNT; FORGED_TRACE prints each to stderr
    /// before it is tried, so the last one printed before a trap is the one to reproduce).
    func testForgedSnapshotsThrowOrReadWithoutTrapping() throws {
        let bytes = try Self.sampleSnapshot()
        XCTAssertTrue(Self.decodeAndRead(bytes))
        let environment = ProcessInfo.processInfo.environment
        let start = UInt64(environment["FORGED_SEED"] ?? "") ?? 1
        let count = UInt64(environment["FORGED_COUNT"] ?? "") ?? 200
        let trace = environment["FORGED_TRACE"] != nil
        var decoded = 0
        let layout = try Self.layout(bytes)
        for seed in start..<(start + count) {
            if trace { FileHandle.standardError.write(Data("seed \(seed)\n".utf8)) }
            if Self.decodeAndRead(Self.forge(bytes, seed: seed, layout: layout)) { decoded += 1 }
        }
        if trace { print("decoded \(decoded) of \(count)") }
    }
}
