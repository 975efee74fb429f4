/// Stored values of a segment: one byte buffer with an offset per document, decoded only for the
/// documents a caller asks for.
///
/// Record: varint value count, then per value varint field id, a tag byte (0 text, 1 number, 2 bytes,
/// 3 a text kept in the document's compressed cold record, see `StoredRecords`) and the payload (varint
/// length + UTF-8, 8 little-endian bytes of the Double bit pattern, varint length + bytes, nothing).
enum StoredFields {
    static func encode<Out: ByteAppending>(_ values: [(FieldID, FieldValue)], into out: inout Out) {
        VarInt.append(UInt32(values.count), to: &out)
        for (field, value) in values {
            VarInt.append(UInt32(field.rawValue), to: &out)
            switch value {
            case .text(let text):
                out.append(0)
                text.withUTF8Bytes { utf8 in
                    VarInt.append(UInt32(utf8.count), to: &out)
                    out.appendBytes(utf8)
                }
            case .number(let number):
                out.append(1)
                var bits = number.bitPattern
                for _ in 0..<8 {
                    out.append(UInt8(truncatingIfNeeded: bits))
                    bits >>= 8
                }
            case .bytes(let bytes):
                out.append(2)
                VarInt.append(UInt32(bytes.count), to: &out)
                bytes.withUnsafeBufferPointer { out.appendBytes($0) }
            }
        }
    }

    /// Decodes a record; `only` restricts the result to one field. Truncated input ends the record.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, only: FieldID? = nil) -> [(FieldID, FieldValue)] {
        decode(bytes, capacity: only == nil ? nil : 1) { only == nil || only == $0 }
    }

    /// Decodes the values of the fields in `fields` only: the others are skipped without building strings.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, fields: Set<FieldID>) -> [(FieldID, FieldValue)] {
        decode(bytes, capacity: fields.count, keep: membership(fields))
    }

    /// A membership test for field ids: a bit per field below 64 (every field of a typical schema: no hashing
    /// per stored value), a set beyond.
    static func membership(_ fields: some Sequence<FieldID>) -> (FieldID) -> Bool {
        var low: UInt64 = 0
        var high = Set<UInt16>()
        for field in fields {
            if field.rawValue < 64 { low |= 1 << UInt64(field.rawValue) } else { high.insert(field.rawValue) }
        }
        return { field in
            field.rawValue < 64 ? low & (1 << UInt64(field.rawValue)) != 0 : high.contains(field.rawValue)
        }
    }

    /// The text values of one field, in order (the others are skipped without building strings).
    static func texts(_ bytes: UnsafeBufferPointer<UInt8>, field: FieldID) -> [String] {
        var texts: [String] = []
        forEachValue(bytes) { id, tag, slice in
            if id == field, tag == 0 { texts.append(String(decoding: slice, as: UTF8.self)) }
            return true
        }
        return texts
    }

    /// Whether some text value of `field` satisfies `test`, given its UTF-8 bytes: verification without
    /// building a string per value. Stops at the first value that passes.
    static func anyText(_ bytes: UnsafeBufferPointer<UInt8>, field: FieldID,
                        where test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var found = false
        forEachValue(bytes) { id, tag, slice in
            if id == field, tag == 0, test(slice) {
                found = true
                return false
            }
            return true
        }
        return found
    }

    /// Calls `body` with each stored value's field, tag (0 text, 1 number, 2 bytes, 3 cold placeholder) and
    /// encoded bytes (the UTF-8 text, the 8 little-endian bytes of a number, the raw bytes, or nothing);
    /// `body` returns false to stop.
    static func forEachValue(_ bytes: UnsafeBufferPointer<UInt8>,
                             _ body: (FieldID, UInt8, UnsafeBufferPointer<UInt8>) -> Bool) {
        forEachEncodedValue(bytes) { field, tag, slice, _, _ in body(field, tag, slice) }
    }

    /// `forEachValue` with where each value's encoding lies in `bytes`: `span` (field id to payload end) and
    /// `tagAt` (its tag byte).
    static func forEachEncodedValue(_ bytes: UnsafeBufferPointer<UInt8>,
                                    _ body: (FieldID, UInt8, UnsafeBufferPointer<UInt8>, _ span: Range<Int>,
                                             _ tagAt: Int) -> Bool) {
        var offset = 0
        guard bytes.count > 0 else { return }
        let count = Int(VarInt.read(bytes, &offset))
        for _ in 0..<count {
            guard offset < bytes.count else { return }
            let start = offset
            let field = FieldID(rawValue: UInt16(truncatingIfNeeded: VarInt.read(bytes, &offset)))
            guard offset < bytes.count else { return }
            let tagAt = offset
            let tag = bytes[offset]
            offset += 1
            let length: Int
            if tag == 1 {
                length = 8
            } else if tag == StoredRecords.coldTag {
                length = 0
            } else {
                guard offset < bytes.count else { return }
                length = Int(VarInt.read(bytes, &offset))
            }
            guard offset + length <= bytes.count else { return }
            guard body(field, tag, UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]),
                       start..<offset + length, tagAt) else { return }
            offset += length
        }
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, capacity: Int?,
                               keep: (FieldID) -> Bool) -> [(FieldID, FieldValue)] {
        var values: [(FieldID, FieldValue)] = []
        if let capacity { values.reserveCapacity(capacity) }
        forEachValue(bytes) { field, tag, slice in
            guard keep(field), tag != StoredRecords.coldTag else { return true }
            switch tag {
            case 0: values.append((field, .text(String(decoding: slice, as: UTF8.self))))
            case 1:
                var bits: UInt64 = 0
                for k in 0..<8 { bits |= UInt64(slice[k]) << (8 * UInt64(k)) }
                values.append((field, .number(Double(bitPattern: bits))))
            default: values.append((field, .bytes(Array(slice))))
            }
            return true
        }
        return values
    }

    /// Copies `record` to `hot` with the text values of cold fields replaced by placeholders, and appends those
    /// texts (varint length + UTF-8 each, in order) to `cold`.
    static func split(_ record: UnsafeBufferPointer<UInt8>, isCold: (FieldID) -> Bool, hot: inout [UInt8],
                      cold: inout [UInt8]) {
        guard !record.isEmpty else { return }
        // The same number of values: copy the count as it is.
        let start = hot.count
        var header = 0
        _ = VarInt.read(record, &header)
        hot.append(contentsOf: UnsafeBufferPointer(rebasing: record[0..<header]))
        // Spans copied as they are: a kept value whole, a cold one's field id (then the placeholder tag) to
        // `hot` and its length and bytes to `cold`. A placeholder in the input (a damaged record) is dropped.
        var kept: UInt32 = 0, dropped = false
        forEachEncodedValue(record) { field, tag, _, span, tagAt in
            if tag == StoredRecords.coldTag {
                dropped = true
                return true
            }
            kept += 1
            if tag == 0, isCold(field) {
                hot.append(contentsOf: UnsafeBufferPointer(rebasing: record[span.lowerBound..<tagAt]))
                hot.append(StoredRecords.coldTag)
                cold.append(contentsOf: UnsafeBufferPointer(rebasing: record[(tagAt + 1)..<span.upperBound]))
            } else {
                hot.append(contentsOf: UnsafeBufferPointer(rebasing: record[span]))
            }
            return true
        }
        if dropped {
            let values = Array(hot[(start + header)...])
            hot.removeSubrange(start...)
            VarInt.append(kept, to: &hot)
            hot.append(contentsOf: values)
        }
    }

    /// The whole record of `hot` (a record with placeholders) and `cold` (its cold texts, in order), appended to
    /// `out`. The texts go to the placeholders of cold fields in turn; placeholders without a text (a damaged
    /// cold record) and placeholders of other fields (a damaged record) are dropped.
    static func join(_ hot: UnsafeBufferPointer<UInt8>, cold: UnsafeBufferPointer<UInt8>, isCold: (FieldID) -> Bool,
                     into out: inout [UInt8]) {
        // The next whole text of `cold` at `offset` (nil at the end or at a damaged length).
        func nextText(_ offset: inout Int) -> UnsafeBufferPointer<UInt8>? {
            guard offset < cold.count else { return nil }
            let length = Int(VarInt.read(cold, &offset))
            guard length <= cold.count - offset else {
                offset = cold.count
                return nil
            }
            defer { offset += length }
            return UnsafeBufferPointer(rebasing: cold[offset..<offset + length])
        }
        var texts = 0
        var scan = 0
        while nextText(&scan) != nil { texts += 1 }
        var count = 0, placeholders = 0
        forEachValue(hot) { field, tag, _ in
            if tag != StoredRecords.coldTag {
                count += 1
            } else if isCold(field) {
                if placeholders < texts { count += 1 }
                placeholders += 1
            }
            return true
        }
        out.reserveCapacity(out.count + hot.count + cold.count)
        VarInt.append(UInt32(count), to: &out)
        var next = 0
        forEachValue(hot) { field, tag, slice in
            var tag = tag, slice = slice
            if tag == StoredRecords.coldTag {
                guard isCold(field), let text = nextText(&next) else { return true }
                tag = 0
                slice = text
            }
            VarInt.append(UInt32(field.rawValue), to: &out)
            out.append(tag)
            if tag != 1 { VarInt.append(UInt32(slice.count), to: &out) }
            out.append(contentsOf: slice)
            return true
        }
    }
}
