/// A segment's documents ordered by how one text field begins: the first four bytes of each value after
/// `Folding.foldCollapsingWhitespace`, as a big-endian number (zero-padded), with the document of each.
///
/// Answers "which documents may have a value that starts with this text" with two binary searches, so a
/// ranking signal that lifts only such documents (the title coverage of `CSUserQuery`) can name them before
/// collecting instead of reading every candidate's stored value. The answer is a superset: four bytes decide,
/// the caller verifies. Derived from stored values, built on first use and kept by the segment.
final class LeadingKeys: Sendable {
    let field: FieldID
    /// Sorted ascending (ties by document).
    let keys: [UInt32]
    /// The document of each key; a document appears once per value.
    let docs: [UInt32]

    init(segment: Segment, field: FieldID) {
        self.field = field
        // Key and document in one number, so one sort of plain integers orders both.
        var pairs: [UInt64] = []
        pairs.reserveCapacity(segment.documentCount)
        for doc in 0..<segment.documentCount {
            segment.withStoredRecord(doc, holding: field) { record in
                StoredFields.forEachValue(record) { id, tag, value in
                    if id == field, tag == 0 { pairs.append(UInt64(Self.leadingKey(value)) << 32 | UInt64(doc)) }
                    return true
                }
            }
        }
        pairs.sort()
        keys = pairs.map { UInt32(truncatingIfNeeded: $0 >> 32) }
        docs = pairs.map { UInt32(truncatingIfNeeded: $0) }
    }

    var memoryBytes: Int { (keys.capacity + docs.capacity) * 4 }

    /// `key` of a value (its UTF-8 bytes) after `Folding.foldCollapsingWhitespace`. An ASCII value is lowercased
    /// and collapsed byte by byte up to its fourth output byte (all folding does to ASCII) and only checked to be
    /// ASCII past it; any other is normalized whole.
    static func leadingKey(_ value: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var key: UInt32 = 0, count = 0
        var pendingSpace = false
        for byte in value {
            if byte >= 0x80 {
                return Self.key(Folding.foldCollapsingWhitespace(String(decoding: value, as: UTF8.self)).utf8)
            }
            if count >= 4 { continue }
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                pendingSpace = count > 0
                continue
            }
            if pendingSpace {
                key = key << 8 | 0x20
                count += 1
                pendingSpace = false
                if count >= 4 { continue }
            }
            key = key << 8 | UInt32(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            count += 1
        }
        return key << UInt32(8 * (4 - count))
    }

    /// The first four bytes as a big-endian number, `padding` past the end.
    static func key(_ bytes: some Collection<UInt8>, padding: UInt8 = 0) -> UInt32 {
        var key: UInt32 = 0
        var iterator = bytes.makeIterator()
        for _ in 0..<4 { key = key << 8 | UInt32(iterator.next() ?? padding) }
        return key
    }

    /// The documents (ascending, distinct) with a value that may start with `prefix` (already normalized by
    /// `Folding.foldCollapsingWhitespace`): every one that does, and possibly others sharing its first bytes.
    func candidates(_ prefix: [UInt8]) -> [UInt32] {
        let low = Self.key(prefix, padding: 0), high = Self.key(prefix, padding: 0xFF)
        let start = lowerBound(low), end = lowerBound(high, strictlyAbove: true)
        guard start < end else { return [] }
        var found = Array(docs[start..<end])
        found.sort()
        var unique: [UInt32] = []
        unique.reserveCapacity(found.count)
        for doc in found where unique.last != doc { unique.append(doc) }
        return unique
    }

    /// The first index whose key is ≥ `key` (> `key` when `strictlyAbove`).
    private func lowerBound(_ key: UInt32, strictlyAbove: Bool = false) -> Int {
        var low = 0, high = keys.count
        while low < high {
            let mid = (low + high) >> 1
            if keys[mid] < key || (strictlyAbove && keys[mid] == key) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
