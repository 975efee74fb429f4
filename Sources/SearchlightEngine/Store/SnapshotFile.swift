import Dispatch

/// The snapshot file format (version 5; version 4, still read, did not record the analyzer's version; version 3 kept
/// every posting block as varints; version 2 also kept every stored value uncompressed; version 1
/// stored every posting's tf as its own varint): the whole committed index as sealed segments, so opening a store
/// loads arrays instead of re-tokenizing documents.
///
/// Layout: 8-byte magic `SLSNAPSH`, u32 version, u64 store generation, string protection class, u64 writer
/// commit counter, (since version 5) u32 `Analyzer.version` of the segments' terms, the schema (varint count; per field string name, u8 kind, u32 weight bits, u8 flags as in
/// the journal), the client states (varint count; per state string name, blob bytes), the segments (varint
/// count; per segment its live bitset as varint bit count + u64 word array, then the `SegmentCodec` body),
/// and a final u32 CRC-32C of every byte before it. The file is written to `snapshot.sls.tmp`, fsynced,
/// renamed to `snapshot.sls` and the directory fsynced, so it is either the old or the new snapshot.
package enum SnapshotFile {
    package static let magic: [UInt8] = Array("SLSNAPSH".utf8)
    package static let version: UInt32 = 5
    /// The oldest version still read.
    package static let oldestReadable: UInt32 = 2
    package static let fileName = "snapshot.sls"

    /// What a snapshot holds.
    package struct Contents {
        package var generation: UInt64
        package var protectionClass: String
        package var writerGeneration: UInt64
        /// The `Analyzer.version` whose terms the segments hold (0: not recorded, before format version 5).
        package var analyzerVersion: UInt32
        package var schema: Schema
        package var clientStates: [ExactIdentifier: [UInt8]]
        var segments: [Segment]
        var live: [Bitset]
    }

    /// Encodes a committed engine snapshot and the client states stored with it, in the current format or (for
    /// compatibility tests) an older readable one; `analyzerVersion` is the version of the analyzer that built the
    /// segments (a test's may be older).
    package static func encode(_ snapshot: IndexSnapshot, clientStates: [ExactIdentifier: [UInt8]], generation: UInt64,
                               protectionClass: String, version: UInt32 = SnapshotFile.version,
                               analyzerVersion: UInt32 = Analyzer.version) -> [UInt8] {
        precondition(version >= oldestReadable && version <= Self.version, "snapshot format \(version) is not written")
        var out = ByteWriter()
        out.bytes.reserveCapacity(snapshot.segments.reduce(4096) { $0 + $1.memoryBytes })
        out.bytes.append(contentsOf: magic)
        out.u32(version)
        out.u64(generation)
        out.string(protectionClass)
        out.u64(snapshot.generation)
        if version >= 5 { out.u32(analyzerVersion) }
        out.varint(snapshot.schema.fields.count)
        for field in snapshot.schema.fields {
            let options = field.options
            out.string(field.name)
            out.u8(options.kind == .text ? 0 : options.kind == .numeric ? 1 : 2)
            out.u32(options.weight.bitPattern)
            out.u8((options.searchableByDefault ? 1 : 0) | (options.primary ? 2 : 0))
        }
        out.varint(clientStates.count)
        // In the names' byte order: the same states give the same bytes (for names in NFC, the order `String <`
        // gave before names were compared by bytes; the reader takes any order).
        for (name, state) in clientStates.sorted(by: { ExactIdentifier.bytewise($0.key, $1.key) }) {
            out.string(name.id)
            out.blob(state)
        }
        out.varint(snapshot.segments.count)
        for (segment, live) in zip(snapshot.segments, snapshot.live) {
            out.varint(live.count)
            out.array(live.words)
            SegmentCodec.encode(segment, into: &out, version: version)
        }
        out.u32(CRC32C.checksum(out.bytes))
        return out.bytes
    }

    /// Decodes a snapshot file. Throws `.corrupt` or `.unsupportedVersion`; never traps on any input.
    package static func decode(_ bytes: [UInt8], path: String) throws(StoreError) -> Contents {
        let result: Result<Contents, StoreError> = bytes.withUnsafeBytes { raw in
            Result { () throws(StoreError) in try decode(raw, path: path) }
        }
        return try result.get()
    }

    /// Decodes a snapshot from raw bytes (a mapped file). Arrays are copied out; the bytes can go afterwards.
    static func decode(_ raw: UnsafeRawBufferPointer, path: String) throws(StoreError) -> Contents {
        guard raw.count >= magic.count + 8, raw[0..<magic.count].elementsEqual(magic) else {
            throw .corrupt(path: path, reason: "bad magic (not a Searchlight snapshot)")
        }
        var versionBytes = ByteReader(raw, offset: magic.count)
        let fileVersion = (try? versionBytes.u32()) ?? 0
        if fileVersion > version {
            throw .unsupportedVersion(path: path, version: fileVersion, supported: version)
        }
        let body = UnsafeRawBufferPointer(rebasing: raw[0..<raw.count - 4])
        var tail = ByteReader(raw, offset: raw.count - 4)
        let stored = try? tail.u32()
        guard fileVersion >= oldestReadable else { throw .corrupt(path: path, reason: "unknown format version \(fileVersion)") }
        // The checksum runs on another core while the arrays are decoded (decoding never traps on bad bytes);
        // nothing decoded is returned unless the checksum matches.
        let checksum = ParallelChecksum(body)
        let decoded = Result { () throws(ByteReader.Malformed) -> Contents in try decodeBody(body, version: fileVersion, path: path) }
        guard checksum.wait() == stored else { throw .corrupt(path: path, reason: "checksum mismatch") }
        do {
            return try decoded.get()
        } catch {
            throw .corrupt(path: path, reason: error.reason)
        }
    }

    private static func decodeBody(_ body: UnsafeRawBufferPointer, version: UInt32, path: String) throws(ByteReader.Malformed) -> Contents {
        var reader = ByteReader(body, offset: magic.count + 4)
        do {
            let generation = try reader.u64("generation")
            let protection = try reader.string("protection class")
            let writerGeneration = try reader.u64("commit counter")
            let analyzerVersion = version >= 5 ? try reader.u32("analyzer version") : 0
            var schema = Schema()
            let fieldCount = try reader.varint("field count")
            guard fieldCount <= Int(UInt16.max) else { throw .init(reason: "\(fieldCount) fields") }
            for _ in 0..<fieldCount {
                let name = try reader.string("field name")
                let kindByte = try reader.u8("field kind")
                let weight = Float(bitPattern: try reader.u32("field weight"))
                let flags = try reader.u8("field flags")
                guard kindByte <= 2, !name.isEmpty else { throw .init(reason: "bad field '\(name)'") }
                let kind: FieldOptions.Kind = kindByte == 0 ? .text : kindByte == 1 ? .numeric : .stored
                guard schema.field(named: name) == nil,
                      (try? schema.register(name, options: FieldOptions(kind: kind, weight: weight,
                                                                         searchableByDefault: flags & 1 != 0,
                                                                         primary: flags & 2 != 0))) != nil
                else { throw .init(reason: "field '\(name)' cannot be registered") }
            }
            var states: [ExactIdentifier: [UInt8]] = [:]
            let stateCount = try reader.varint("client state count")
            for _ in 0..<stateCount {
                let name = try reader.string("client state name")
                states[ExactIdentifier(name)] = try reader.blob("client state")
            }
            let segmentCount = try reader.varint("segment count")
            guard segmentCount <= reader.remaining else { throw .init(reason: "\(segmentCount) segments") }
            var segments: [Segment] = [], live: [Bitset] = []
            for ordinal in 0..<segmentCount {
                let bitCount = try reader.varint("live bit count")
                let words = try reader.array(UInt64.self, "live bits")
                guard words.count == (bitCount + 63) >> 6 else { throw .init(reason: "segment \(ordinal): live bits") }
                let segment = try SegmentCodec.decode(&reader, fieldCount: fieldCount, version: version)
                guard segment.documentCount == bitCount else {
                    throw .init(reason: "segment \(ordinal): \(bitCount) live bits for \(segment.documentCount) documents")
                }
                segments.append(segment)
                live.append(Bitset(words: words, count: bitCount))
            }
            guard reader.isAtEnd else { throw .init(reason: "\(reader.remaining) unexpected bytes at the end") }
            return Contents(generation: generation, protectionClass: protection, writerGeneration: writerGeneration,
                            analyzerVersion: analyzerVersion, schema: schema, clientStates: states, segments: segments, live: live)
        }
    }
}

/// CRC-32C of a buffer computed on a background thread.
private final class ParallelChecksum: @unchecked Sendable {
    // Sound: `bytes` is only read, `result` is written once by the background block before `done` is signalled
    // and read only after `wait()`; the caller keeps the buffer alive until `wait()` returns.
    private let bytes: UnsafeRawBufferPointer
    private var result: UInt32 = 0
    private let done = DispatchSemaphore(value: 0)

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            result = CRC32C.checksum(self.bytes)
            done.signal()
        }
    }

    func wait() -> UInt32 {
        done.wait()
        return result
    }
}
