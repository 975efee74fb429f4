/// A segment's documents ordered by how one text field begins: the first eight bytes of each value after
/// `Folding.foldCollapsingWhitespace`, as a big-endian number (zero-padded), with the document of each.
///
/// Answers "which documents may have a value that starts with this text" with two binary searches, so a
/// ranking signal that lifts only such documents (the title coverage of `CSUserQuery`) can name them before
/// collecting instead of reading every candidate's stored value. The answer is a superset: eight bytes decide,
/// the caller verifies. Derived from stored values, built on first use and kept by the segment.
final class LeadingKeys: Sendable {
    let field: FieldID
    /// Sorted ascending (ties by document).
    let keys: [UInt64]
    /// The document of each key; a document appears once per value.
    let docs: [UInt32]

    init(segment: Segment, field: FieldID) {
        self.field = field
        var pairs: [(key: UInt64, doc: UInt32)] = []
        pairs.reserveCapacity(segment.documentCount)
        for doc in 0..<segment.documentCount {
            segment.withStoredRecord(doc, holding: field) { record in
                StoredFields.forEachValue(record) { id, tag, value in
                    if id == field, tag == 0 { pairs.append((Self.leadingKey(value), UInt32(doc))) }
                    return true
                }
            }
        }
        pairs.sort { $0.key != $1.key ? $0.key < $1.key : $0.doc < $1.doc }
        keys = pairs.map(\.key)
        docs = pairs.map(\.doc)
    }

    var memoryBytes: Int { keys.capacity * 8 + docs.capacity * 4 }

    /// `key` of a value (its UTF-8 bytes) after `Folding.foldCollapsingWhitespace`. An ASCII value is lowercased
    /// and collapsed byte by byte up to its eighth output byte (all folding does to ASCII) and only checked to be
    /// ASCII past it; any other is normalized whole.
    static func leadingKey(_ value: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var key: UInt64 = 0, count = 0
        var pendingSpace = false
        for byte in value {
            if byte >= 0x80 {
                return Self.key(Folding.foldCollapsingWhitespace(String(decoding: value, as: UTF8.self)).utf8)
            }
            if count >= 8 { continue }
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                pendingSpace = count > 0
                continue
            }
            if pendingSpace {
                key = key << 8 | 0x20
                count += 1
                pendingSpace = false
                if count >= 8 { continue }
            }
            key = key << 8 | UInt64(Folding.lowercasedASCII(byte))
            count += 1
        }
        return key << UInt64(8 * (8 - count))
    }

    /// The first eight bytes as a big-endian number, `padding` past the end.
    static func key(_ bytes: some Collection<UInt8>, padding: UInt8 = 0) -> UInt64 {
        var key: UInt64 = 0
        var iterator = bytes.makeIterator()
        for _ in 0..<8 { key = key << 8 | UInt64(iterator.next() ?? padding) }
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
    private func lowerBound(_ key: UInt64, strictlyAbove: Bool = false) -> Int {
        var low = 0, high = keys.count
        while low < high {
            let mid = (low + high) >> 1
            if keys[mid] < key || (strictlyAbove && keys[mid] == key) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
