import XCTest
@testable import SearchlightEngine

final class JournalFileTests: XCTestCase {
    func testCRC32CKnownVectors() {
        XCTAssertEqual(CRC32C.checksum(Array("123456789".utf8)), 0xE306_9283)
        XCTAssertEqual(CRC32C.checksum([UInt8](repeating: 0, count: 32)), 0x8A91_36AA)
        XCTAssertEqual(CRC32C.checksum([UInt8]()), 0)
        // Incremental equals one-shot at every split.
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let whole = CRC32C.checksum(bytes)
        for split in 0...bytes.count {
            XCTAssertEqual(CRC32C.checksum(bytes[split...], continuing: CRC32C.checksum(bytes[..<split])), whole)
        }
    }

    /// A journal file of `count` model batches, and the batches as decoded from a clean read.
    private func journal(batches count: Int) throws -> (bytes: [UInt8], batches: [DecodedBatch]) {
        var bytes = JournalFile.header(generation: 3, protectionClass: "NSFileProtectionComplete")
        let writer = IndexWriter()
        for n in 1...count {
            bytes += JournalFile.record(sequence: UInt64(n), body: try record(modelBatch(n), writer: writer).encoded())
        }
        let contents = try JournalFile.read(bytes, path: "j")
        XCTAssertEqual(contents.batches.count, count)
        XCTAssertEqual(contents.generation, 3)
        XCTAssertEqual(contents.protectionClass, "NSFileProtectionComplete")
        XCTAssertEqual(contents.tornBytes, 0)
        XCTAssertEqual(contents.validLength, bytes.count)
        return (bytes, contents.batches)
    }

    func testBatchRoundTripReplaysToTheSameState() throws {
        let writer = IndexWriter()
        var model = StoreModel()
        let (bytes, batches) = try journal(batches: 14)
        _ = bytes
        for n in 1...14 { model.apply(modelBatch(n)) }
        let replayed = IndexWriter()
        var states: [ExactIdentifier: [UInt8]] = [:]
        for batch in batches { try batch.apply(to: replayed, clientStates: &states) }
        let snapshot = try replayed.commit()
        XCTAssertEqual(StoreModel.read(snapshot, clientStates: states), model)
        XCTAssertEqual(states["index"], Array("state 14".utf8))
        // The decoded field table carries names and options, not ids.
        XCTAssertEqual(batches[0].fields.map(\.name), ["title", "size"])
        XCTAssertEqual(batches[0].fields[0].options, .text(weight: 3, primary: true))
        _ = writer
    }

    func testDeleteAllInABatchClearsClientStates() throws {
        let (_, batches) = try journal(batches: 11)
        var states: [ExactIdentifier: [UInt8]] = ["other": [1]]
        let writer = IndexWriter()
        for batch in batches { try batch.apply(to: writer, clientStates: &states) }
        // Batch 11 deletes everything (and every state), then stores its own state.
        XCTAssertEqual(states, ["index": Array("state 11".utf8)])
    }

    /// Every truncation gives a clean prefix of whole batches (torn tail cut) or, inside the header, corruption.
    func testTruncationAtEveryLengthGivesAPrefixOrCorruption() throws {
        let (bytes, batches) = try journal(batches: 6)
        let headerLength = JournalFile.header(generation: 3, protectionClass: "NSFileProtectionComplete").count
        for length in 0..<bytes.count {
            do {
                let contents = try JournalFile.read(Array(bytes[0..<length]), path: "j")
                XCTAssertGreaterThanOrEqual(length, headerLength)
                XCTAssertEqual(contents.batches, Array(batches.prefix(contents.batches.count)), "length \(length)")
                XCTAssertEqual(contents.validLength + contents.tornBytes, length)
                XCTAssertLessThan(contents.batches.count, 6)
            } catch StoreError.corrupt {
                XCTAssertLessThan(length, headerLength, "a truncated record must be a torn tail, at length \(length)")
            }
        }
    }

    /// Flipped bytes anywhere: a clean prefix of whole batches or a reported corruption, never a crash or a
    /// changed batch.
    func testFlippedBytesGiveAPrefixOrCorruption() throws {
        let (bytes, batches) = try journal(batches: 8)
        var random = SeededRandom(seed: 7)
        var corrupt = 0, prefixes = 0
        for _ in 0..<600 {
            var damaged = bytes
            let position = Int.random(in: 0..<bytes.count, using: &random)
            damaged[position] ^= UInt8.random(in: 1...255, using: &random)
            if Bool.random(using: &random) {
                let second = Int.random(in: 0..<bytes.count, using: &random)
                damaged[second] ^= 0x40
            }
            do {
                let contents = try JournalFile.read(damaged, path: "j")
                XCTAssertEqual(contents.batches, Array(batches.prefix(contents.batches.count)), "flip at \(position)")
                prefixes += 1
            } catch StoreError.corrupt {
                corrupt += 1
            } catch StoreError.unsupportedVersion {
                // A damaged version field that reads as newer is refused rather than reset: the safe direction.
                XCTAssertNotEqual(damaged[8..<12], bytes[8..<12], "only the version field can claim a newer version")
            }
        }
        XCTAssertGreaterThan(corrupt, 0)
        XCTAssertGreaterThan(prefixes, 0)
    }

    func testDamageInTheMiddleIsCorruptionNotATornTail() throws {
        let (bytes, _) = try journal(batches: 5)
        var damaged = bytes
        let headerLength = JournalFile.header(generation: 3, protectionClass: "NSFileProtectionComplete").count
        damaged[headerLength + 20] ^= 0xFF  // inside the first record's payload
        XCTAssertThrowsError(try JournalFile.read(damaged, path: "j")) { error in
            guard case StoreError.corrupt(let path, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "j")
            XCTAssertTrue(reason.contains("followed by valid records"), reason)
        }
        // The same damage in the last record is a torn tail.
        var tail = bytes
        tail[bytes.count - 3] ^= 0xFF
        let contents = try JournalFile.read(tail, path: "j")
        XCTAssertEqual(contents.batches.count, 4)
        XCTAssertGreaterThan(contents.tornBytes, 0)
    }

    func testSequenceGapIsCorruption() throws {
        var bytes = JournalFile.header(generation: 0, protectionClass: "")
        bytes += JournalFile.record(sequence: 1, body: JournalBatch().encoded())
        bytes += JournalFile.record(sequence: 3, body: JournalBatch().encoded())
        XCTAssertThrowsError(try JournalFile.read(bytes, path: "j")) { error in
            guard case StoreError.corrupt = error else { return XCTFail("\(error)") }
        }
    }

    func testNewerVersionIsAnErrorNamingFileAndVersion() throws {
        var bytes = JournalFile.header(generation: 0, protectionClass: "")
        bytes[8] = 9
        XCTAssertThrowsError(try JournalFile.read(bytes, path: "/x/journal-0.slj")) { error in
            XCTAssertEqual(error as? StoreError, .unsupportedVersion(path: "/x/journal-0.slj", version: 9, supported: 1))
            XCTAssertTrue("\(error)".contains("/x/journal-0.slj") && "\(error)".contains("version 9"))
        }
    }

    func testBadMagicIsCorruption() {
        XCTAssertThrowsError(try JournalFile.read(Array("not a journal at all".utf8), path: "j")) { error in
            guard case StoreError.corrupt(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("magic"))
        }
    }
    /// A record whose checksum holds but which names more fields than a field number can address is corrupt:
    /// a value of field 65,536 trapped on the conversion to a field number.
    func testARecordWithMoreFieldsThanNumbersIsCorruptionNotATrap() throws {
        var body = ByteWriter()
        let fields = Int(UInt16.max) + 2
        body.varint(fields)
        for k in 0..<fields {
            body.string("f\(k)")
            body.u8(2)
            body.u32(0)
            body.u8(0)
        }
        body.varint(1)
        body.u8(1)
        body.string("x")
        body.u8(0)
        body.varint(1)
        body.varint(fields - 1)
        body.u8(0)
        body.string("a")
        let bytes = JournalFile.header(generation: 0, protectionClass: "") + JournalFile.record(sequence: 1, body: body.bytes)
        XCTAssertThrowsError(try JournalFile.read(bytes, path: "j")) { error in
            guard case StoreError.corrupt(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("fields"), reason)
        }
    }
}

extension JournalFileTests {
    /// Bytes written into the last record (100 inserted in its middle): its length is intact and its checksum fails,
    /// yet bytes follow its end. A torn append never leaves bytes past the record it was writing (the next append
    /// waits for this one's fsync), so this is corruption: cutting it off dropped an acknowledged batch silently.
    func testADamagedRecordWithBytesAfterItsEndIsCorruptionNotATornTail() throws {
        let (bytes, _) = try journal(batches: 3)
        let lastOffset = try journal(batches: 2).bytes.count
        var random = SeededRandom(seed: 11)
        let garbage = (0..<100).map { _ in UInt8.random(in: 0...255, using: &random) }
        var damaged = bytes
        damaged.insert(contentsOf: garbage, at: (lastOffset + bytes.count) / 2)
        XCTAssertThrowsError(try JournalFile.read(damaged, path: "j")) { error in
            guard case StoreError.corrupt(let path, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "j")
            XCTAssertTrue(reason.contains("offset \(lastOffset)"), reason)
        }
        // Overwritten in place, the record still ends the file: that is what a torn append can leave, and is cut.
        var overwritten = bytes
        overwritten.replaceSubrange((bytes.count - 100)..<bytes.count, with: garbage)
        let contents = try JournalFile.read(overwritten, path: "j")
        XCTAssertEqual(contents.batches.count, 2)
        XCTAssertEqual(contents.tornBytes, bytes.count - lastOffset)
    }

    /// A crash on a filesystem that extends the file before writing its data leaves the last append zero-filled
    /// (wholly, or after the part that reached the disk): a torn tail, cut; the records before it stand.
    func testAZeroFilledTailIsATornTail() throws {
        let (bytes, batches) = try journal(batches: 4)
        let next = JournalFile.record(sequence: 5, body: try record(modelBatch(5), writer: IndexWriter()).encoded())
        for written in [0, 12, next.count / 2] {
            let damaged = bytes + next.prefix(written) + [UInt8](repeating: 0, count: next.count - written)
            let contents = try JournalFile.read(damaged, path: "j")
            XCTAssertEqual(contents.batches, batches, "written \(written)")
            XCTAssertEqual(contents.validLength, bytes.count)
            XCTAssertEqual(contents.tornBytes, next.count)
        }
    }
}
