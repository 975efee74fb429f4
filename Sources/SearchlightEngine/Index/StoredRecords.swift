import Dispatch

/// The stored values of a sealed segment's documents, with long texts compressed.
///
/// Each document keeps one record (`StoredFields` format). The values of "cold" fields, text fields whose
/// values average at least `coldAverage` bytes in the segment (descriptions, bodies), are moved out of it:
/// in their place the record holds a placeholder (tag 3), and the texts, in order, go into the document's
/// cold record, compressed with `LZBlock` against a dictionary sampled from the segment's own cold texts.
/// Titles, names and numbers, which ranking and result lists read for many documents per query, stay
/// uncompressed; a cold field is decompressed only for a caller that asks for it. Segments with less than
/// `minimumColdBytes` of such text keep their records as they are: small segments are soon merged, and
/// compressing them would only be undone and done again (a small index is small anyway).
///
/// Cold record: a mode byte (0 stored as is, 1 compressed), the varint length of the decompressed bytes, then
/// the bytes; decompressed, a varint length and the UTF-8 bytes of each cold value of the document.
struct StoredRecords: Sendable, Equatable {
    /// Records with cold values replaced by placeholders; `offsets` has one entry per document plus one.
    let bytes: [UInt8]
    let offsets: [UInt32]
    /// Cold records (empty `coldOffsets`: no cold field in this segment).
    let coldBytes: [UInt8]
    let coldOffsets: [UInt32]
    /// The preset dictionary of the cold records (empty: compressed without one).
    let dictionary: [UInt8]
    /// The cold fields, ascending.
    let coldFields: [FieldID]

    /// Text fields whose values average this many bytes or more are stored compressed...
    static let coldAverage = 128
    /// ...in segments holding at least this much of their text: the segments of a bulk load's last merge tiers
    /// (debian-en's 63,666 items hold 23 MB), compressed once rather than at every tier on the way there.
    static let minimumColdBytes = 8 << 20
    /// Dictionary size: at most this many bytes...
    static let dictionaryBytes = 32 * 1024
    /// ...and at most this fraction of the cold text (a small segment gets a small one or none).
    static let dictionaryShare = 16
    /// Placeholder tag of a cold value in a record.
    static let coldTag: UInt8 = 3

    /// As loaded from a store, after the caller validated the offsets.
    init(bytes: [UInt8], offsets: [UInt32], coldBytes: [UInt8], coldOffsets: [UInt32], dictionary: [UInt8],
         coldFields: [FieldID]) {
        self.bytes = bytes.compacted()
        self.offsets = offsets.compacted()
        self.coldBytes = coldBytes.compacted()
        self.coldOffsets = coldOffsets.compacted()
        self.dictionary = dictionary
        self.coldFields = coldFields
    }

    /// Splits and compresses whole records (`StoredFields.encode` output, `offsets` one per document plus one).
    init(records: [UInt8], offsets: [UInt32], minimumColdBytes: Int = StoredRecords.minimumColdBytes) {
        if let split = records.withUnsafeBufferPointer({ Self.split($0, offsets: offsets, minimumColdBytes: minimumColdBytes) }) {
            self = split
        } else {
            self.init(bytes: records, offsets: offsets, coldBytes: [], coldOffsets: [], dictionary: [], coldFields: [])
        }
    }

    /// `init(records:offsets:minimumColdBytes:)` for records a segment builder gathered.
    init(records: GrowableBytes, offsets: [UInt32], minimumColdBytes: Int = StoredRecords.minimumColdBytes) {
        if let split = records.withUnsafeBufferPointer({ Self.split($0, offsets: offsets, minimumColdBytes: minimumColdBytes) }) {
            self = split
        } else {
            self.init(bytes: records.array, offsets: offsets, coldBytes: [], coldOffsets: [], dictionary: [], coldFields: [])
        }
    }

    /// The records split into hot and compressed cold parts; nil when no field is cold (the records are kept whole).
    private static func split(_ all: UnsafeBufferPointer<UInt8>, offsets: [UInt32], minimumColdBytes: Int) -> StoredRecords? {
        let documents = offsets.count - 1
        // Which text fields are long on average: text bytes and values per field id.
        var bytesPerField: [Int] = [], valuesPerField: [Int] = []
        for doc in 0..<documents {
            let record = UnsafeBufferPointer(rebasing: all[Int(offsets[doc])..<Int(offsets[doc + 1])])
            StoredFields.forEachValue(record) { field, tag, slice in
                guard tag == 0 else { return true }
                let f = Int(field.rawValue)
                if f >= bytesPerField.count {
                    bytesPerField.append(contentsOf: repeatElement(0, count: f + 1 - bytesPerField.count))
                    valuesPerField.append(contentsOf: repeatElement(0, count: f + 1 - valuesPerField.count))
                }
                bytesPerField[f] += slice.count
                valuesPerField[f] += 1
                return true
            }
        }
        let cold = bytesPerField.indices
            .filter { valuesPerField[$0] > 0 && bytesPerField[$0] >= Self.coldAverage * valuesPerField[$0] }
            .map { FieldID(rawValue: UInt16($0)) }
        let coldTotal = cold.reduce(0) { $0 + bytesPerField[Int($1.rawValue)] }
        guard !cold.isEmpty, coldTotal >= max(minimumColdBytes, 1) else { return nil }
        let isCold = StoredFields.membership(cold)
        let dictionary = Self.sampleDictionary(records: all, offsets: offsets, isCold: isCold,
                                               budget: min(Self.dictionaryBytes, coldTotal / Self.dictionaryShare))
        let compressor = dictionary.isEmpty ? nil : LZBlock.Dictionary(dictionary)
        var hot: [UInt8] = [], hotOffsets: [UInt32] = [0]
        var coldBytes: [UInt8] = [], coldOffsets: [UInt32] = [0]
        hot.reserveCapacity(all.count - coldTotal + documents)
        coldBytes.reserveCapacity(coldTotal / 2)
        hotOffsets.reserveCapacity(documents + 1)
        coldOffsets.reserveCapacity(documents + 1)
        var plain: [UInt8] = []
        var packed: [UInt8] = []
        for doc in 0..<documents {
            let record = UnsafeBufferPointer(rebasing: all[Int(offsets[doc])..<Int(offsets[doc + 1])])
            plain.removeAll(keepingCapacity: true)
            StoredFields.split(record, isCold: isCold, hot: &hot, cold: &plain)
            hotOffsets.append(UInt32(hot.count))
            if !plain.isEmpty {
                packed.removeAll(keepingCapacity: true)
                plain.withUnsafeBufferPointer { LZBlock.compress($0, dictionary: compressor, into: &packed) }
                let compressed = packed.count < plain.count
                coldBytes.append(compressed ? 1 : 0)
                VarInt.append(UInt32(plain.count), to: &coldBytes)
                coldBytes.append(contentsOf: compressed ? packed : plain)
            }
            coldOffsets.append(UInt32(coldBytes.count))
        }
        return StoredRecords(bytes: hot, offsets: hotOffsets, coldBytes: coldBytes, coldOffsets: coldOffsets,
                             dictionary: compressor?.bytes ?? [], coldFields: cold)
    }

    /// Whether records of this many bytes fit a segment's 32-bit offsets once split: a cold record adds at most a
    /// mode byte and a 5-byte length to its document's bytes (and compressing never keeps a longer form).
    static func fits(recordBytes: Int, documents: Int, maxBytes: Int = SegmentLimits.standard.maxBytes) -> Bool {
        recordBytes + 6 * documents <= maxBytes
    }

    /// A dictionary of whole cold values sampled evenly across the segment (each cut to 1 KiB), up to `budget`
    /// bytes: phrases that recur across documents (boilerplate, common wording) then compress in every one.
    private static func sampleDictionary(records all: UnsafeBufferPointer<UInt8>, offsets: [UInt32],
                                         isCold: (FieldID) -> Bool, budget: Int) -> [UInt8] {
        guard budget >= 1024 else { return [] }
        let documents = offsets.count - 1
        var dictionary: [UInt8] = []
        dictionary.reserveCapacity(budget)
        // Visit documents in a stride that spreads about budget / 256 samples across the segment.
        let stride = max(1, documents / max(1, budget / 256))
        var doc = 0
        while doc < documents, dictionary.count < budget {
            let record = UnsafeBufferPointer(rebasing: all[Int(offsets[doc])..<Int(offsets[doc + 1])])
            StoredFields.forEachValue(record) { field, tag, slice in
                guard tag == 0, isCold(field) else { return true }
                let take = min(slice.count, 1024, budget - dictionary.count)
                dictionary.append(contentsOf: UnsafeBufferPointer(rebasing: slice[0..<take]))
                return dictionary.count < budget
            }
            doc += stride
        }
        return dictionary
    }

    /// Whether `field` has values in cold records.
    func isCold(_ field: FieldID) -> Bool { coldFields.contains(field) }

    /// Calls `body` with document `doc`'s whole record: the stored one when it has no cold values, else one
    /// rebuilt with its cold texts decompressed (a record whose cold data is corrupt loses only those values).
    func withRecord<R>(_ doc: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withStoredRecord(doc) { record in
            guard !coldOffsets.isEmpty, coldOffsets[doc] < coldOffsets[doc + 1] else { return body(record) }
            var whole: [UInt8] = []
            withColdValues(doc) { cold in StoredFields.join(record, cold: cold, isCold: isCold, into: &whole) }
            return whole.withUnsafeBufferPointer(body)
        }
    }

    /// Calls `body` with a record holding at least `field`'s values: the stored record when `field` is not
    /// cold (its cold values then appear as placeholders, which `StoredFields` skips).
    func withRecord<R>(_ doc: Int, holding field: FieldID, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        isCold(field) ? withRecord(doc, body) : withStoredRecord(doc, body)
    }

    /// Calls `body` with a record holding at least the values of `fields`.
    func withRecord<R>(_ doc: Int, holding fields: Set<FieldID>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        coldFields.contains(where: fields.contains) ? withRecord(doc, body) : withStoredRecord(doc, body)
    }

    /// Calls `body` with document `doc`'s record as stored (cold texts as placeholders).
    @inline(__always)
    private func withStoredRecord<R>(_ doc: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[Int(offsets[doc])..<Int(offsets[doc + 1])]))
        }
    }

    /// Calls `body` with document `doc`'s decompressed cold record (empty when it is corrupt).
    private func withColdValues(_ doc: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        coldBytes.withUnsafeBufferPointer { all in
            let blob = UnsafeBufferPointer(rebasing: all[Int(coldOffsets[doc])..<Int(coldOffsets[doc + 1])])
            guard blob.count >= 2, blob[0] <= 1 else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
            var offset = 1
            let length = Int(VarInt.read(blob, &offset))
            guard offset <= blob.count else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
            let payload = UnsafeBufferPointer(rebasing: blob[offset...])
            if blob[0] == 0 {
                return body(UnsafeBufferPointer(rebasing: payload.prefix(length)))
            }
            // A decompressed record is never longer than the longest literal-and-match expansion of its bytes.
            guard length <= payload.count * 255 + 16 else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
            LZBlock.withScratch(capacity: max(length, 1)) { buffer in
                let output = UnsafeMutableBufferPointer(rebasing: buffer[0..<length])
                let ok = dictionary.withUnsafeBufferPointer { LZBlock.decompress(payload, dictionary: $0, into: output) }
                body(ok ? UnsafeBufferPointer(output) : UnsafeBufferPointer(start: nil, count: 0))
            }
        }
    }

    /// Records being split and compressed on another core (large segments) or already done (small ones): the
    /// postings of the same segment are sealed meanwhile, as tantivy compresses its document store beside
    /// indexing.
    final class Pending: @unchecked Sendable {
        // Sound: `result` is written once, before `done` is signalled, and read only after `wait()` returns.
        private var result: StoredRecords?
        private let done = DispatchSemaphore(value: 0)
        /// Below this many record bytes a segment compresses inline: a thread hop costs more than it saves.
        static let inlineLimit = 256 * 1024

        init(records: GrowableBytes, offsets: [UInt32], minimumColdBytes: Int) {
            guard records.count >= Self.inlineLimit else {
                result = StoredRecords(records: records, offsets: offsets, minimumColdBytes: minimumColdBytes)
                done.signal()
                return
            }
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                result = StoredRecords(records: records, offsets: offsets, minimumColdBytes: minimumColdBytes)
                done.signal()
            }
        }

        func wait() -> StoredRecords {
            done.wait()
            done.signal()  // a second wait returns at once
            return result!
        }
    }

    /// The compressed part: cold records, their offsets and the dictionary.
    var coldMemoryBytes: Int { coldBytes.capacity + coldOffsets.capacity * 4 + dictionary.capacity }

    var memoryBytes: Int { bytes.capacity + offsets.capacity * 4 + coldMemoryBytes }
}
