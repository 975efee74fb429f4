/// The journal file format (version 1): a header, then records appended one per acknowledged call or batch.
///
/// Header: 8-byte magic `SLJOURNL`, u32 version, u64 generation (equal to the generation of the snapshot it
/// follows, and to the number in the file name `journal-<generation>.slj`), string protection class, u32
/// CRC-32C of the header bytes before it.
///
/// Record: u32 payload length, u32 length check (CRC-32C of the 4 length bytes, xor 0xA282EAD8, so a damaged
/// length is recognised before it is trusted), u32 CRC-32C of the payload, payload = u64 sequence number
/// (1, 2, 3… within the file) followed by a `JournalBatch` body. All integers little-endian.
///
/// Reading: an incomplete or checksum-failing LAST record is a torn tail (a crash during its append, before it
/// was acknowledged) and is cut off. Anything else that fails (a bad header, a damaged record followed by a
/// valid one or by any bytes past the end its length names, a sequence gap, a record whose checksum passes but
/// whose body does not decode) is corruption.
package enum JournalFile {
    package static let magic: [UInt8] = Array("SLJOURNL".utf8)
    package static let version: UInt32 = 1
    static let recordHeaderSize = 12
    static let lengthMask: UInt32 = 0xA282_EAD8
    /// Records larger than this are refused (and a length above it marks a damaged header).
    static let maximumRecordSize = 1 << 30

    package static func fileName(generation: UInt64) -> String { "journal-\(generation).slj" }

    /// The generation in a journal file name, if it is one.
    package static func generation(ofFileName name: String) -> UInt64? {
        guard name.hasPrefix("journal-"), name.hasSuffix(".slj") else { return nil }
        return UInt64(name.dropFirst("journal-".count).dropLast(".slj".count))
    }

    static func header(generation: UInt64, protectionClass: String) -> [UInt8] {
        var out = ByteWriter()
        out.bytes = magic
        out.u32(version)
        out.u64(generation)
        out.string(protectionClass)
        out.u32(CRC32C.checksum(out.bytes))
        return out.bytes
    }

    /// A framed record.
    static func record(sequence: UInt64, body: [UInt8]) -> [UInt8] {
        var payload = ByteWriter()
        payload.bytes.reserveCapacity(body.count + 8)
        payload.u64(sequence)
        payload.bytes.append(contentsOf: body)
        let length = UInt32(payload.bytes.count)
        var out = ByteWriter()
        out.bytes.reserveCapacity(payload.bytes.count + recordHeaderSize)
        out.u32(length)
        out.u32(lengthCheck(length))
        out.u32(CRC32C.checksum(payload.bytes))
        out.bytes.append(contentsOf: payload.bytes)
        return out.bytes
    }

    static func lengthCheck(_ length: UInt32) -> UInt32 {
        withUnsafeBytes(of: length.littleEndian) { CRC32C.checksum($0) } ^ lengthMask
    }

    /// What a journal file holds.
    package struct Contents: Sendable {
        package var generation: UInt64
        package var protectionClass: String
        package var batches: [DecodedBatch]
        /// Bytes of header plus complete records; a torn tail starts here.
        package var validLength: Int
        /// Bytes of a torn last record that reading cut off (0: none).
        package var tornBytes: Int
    }

    /// Reads a whole journal file. Throws `.corrupt` or `.unsupportedVersion`; never traps on any input.
    package static func read(_ bytes: [UInt8], path: String) throws(StoreError) -> Contents {
        let result: Result<Contents, StoreError> = bytes.withUnsafeBytes { raw in
            Result { () throws(StoreError) in try read(raw, path: path) }
        }
        return try result.get()
    }

    private static func read(_ raw: UnsafeRawBufferPointer, path: String) throws(StoreError) -> Contents {
        var reader = ByteReader(raw)
        let generation: UInt64, protection: String
        do {
            guard raw.count >= magic.count, raw[0..<magic.count].elementsEqual(magic) else {
                throw ByteReader.Malformed(reason: "bad magic (not a Searchlight journal)")
            }
            reader.offset = magic.count
            let fileVersion = try reader.u32("version")
            if fileVersion > version {
                throw StoreError.unsupportedVersion(path: path, version: fileVersion, supported: version)
            }
            generation = try reader.u64("generation")
            protection = try reader.string("protection class")
            let end = reader.offset
            let stored = try reader.u32("header checksum")
            guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<end])) == stored else {
                throw ByteReader.Malformed(reason: "header checksum mismatch")
            }
            guard fileVersion == version else {
                throw ByteReader.Malformed(reason: "unknown format version \(fileVersion)")
            }
        } catch let error as StoreError {
            throw error
        } catch let error as ByteReader.Malformed {
            throw .corrupt(path: path, reason: error.reason)
        } catch {
            throw .corrupt(path: path, reason: "\(error)")
        }
        var contents = Contents(generation: generation, protectionClass: protection, batches: [],
                                validLength: reader.offset, tornBytes: 0)
        var offset = reader.offset
        var expected: UInt64 = 1
        while offset < raw.count {
            switch frame(at: offset, in: raw) {
            case .valid(let payload, let end):
                var body = ByteReader(payload)
                do throws(ByteReader.Malformed) {
                    let sequence = try body.u64("sequence")
                    guard sequence == expected else {
                        throw ByteReader.Malformed(reason: "record \(expected) is followed by record \(sequence)")
                    }
                    contents.batches.append(try DecodedBatch.decode(&body))
                } catch {
                    throw .corrupt(path: path, reason: "record at offset \(offset): \(error.reason)")
                }
                expected += 1
                offset = end
                contents.validLength = end
            case .damagedBeforeEOF(let end):
                // Its length holds but its checksum fails, and bytes follow its end: a torn append never leaves any
                // (the next append waits for this one's fsync), so this is damage to an acknowledged record.
                if hasValidRecord(after: offset, in: raw) {
                    throw .corrupt(path: path, reason: "damaged record at offset \(offset) followed by valid records")
                }
                throw .corrupt(path: path, reason: "damaged record at offset \(offset) (checksum mismatch) followed by "
                               + "\(raw.count - end) more bytes")
            case .damaged(let endsAtEOF):
                // A torn tail is damage that nothing valid follows.
                if endsAtEOF || !hasValidRecord(after: offset, in: raw) {
                    contents.tornBytes = raw.count - offset
                    return contents
                }
                throw .corrupt(path: path, reason: "damaged record at offset \(offset) followed by valid records")
            }
        }
        return contents
    }

    private enum Frame {
        case valid(payload: UnsafeRawBufferPointer, end: Int)
        /// `endsAtEOF`: the record claims to reach (or pass) the end of the file, as a torn append does.
        case damaged(endsAtEOF: Bool)
        /// A whole record (its length check holds) whose payload checksum fails, ending at `end`, before the file does.
        case damagedBeforeEOF(end: Int)
    }

    private static func frame(at offset: Int, in raw: UnsafeRawBufferPointer) -> Frame {
        guard raw.count - offset >= recordHeaderSize else { return .damaged(endsAtEOF: true) }
        var reader = ByteReader(raw, offset: offset)
        guard let length = try? reader.u32(), let check = try? reader.u32(), let crc = try? reader.u32() else {
            return .damaged(endsAtEOF: true)
        }
        guard check == lengthCheck(length), Int(length) <= maximumRecordSize, length >= 8 else {
            return .damaged(endsAtEOF: false)
        }
        let start = offset + recordHeaderSize
        let end = start + Int(length)
        guard end <= raw.count else { return .damaged(endsAtEOF: true) }
        let payload = UnsafeRawBufferPointer(rebasing: raw[start..<end])
        guard CRC32C.checksum(payload) == crc else {
            return end == raw.count ? .damaged(endsAtEOF: true) : .damagedBeforeEOF(end: end)
        }
        return .valid(payload: payload, end: end)
    }

    /// Whether a complete, checksum-valid record starts anywhere after `offset`.
    private static func hasValidRecord(after offset: Int, in raw: UnsafeRawBufferPointer) -> Bool {
        var candidate = offset + 1
        while candidate + recordHeaderSize <= raw.count {
            if case .valid = frame(at: candidate, in: raw) { return true }
            candidate += 1
        }
        return false
    }
}
