/// A segment's documents ordered by how one text field begins: the first eight bytes of each value after
/// `Folding.foldCollapsingWhitespace`, as a big-endian number (zero-padded), with the document of each.
///
/// Answers "which documents may have a value that starts with this text" with two binary searches, so a
/// ranking signal that lifts only such documents (the title coverage of `CSUserQuery`) can name them before
/// collecting instead of reading every candidate's stored value. The answer is a superset: eight bytes decide,
/// the caller verifies. Derived from stored values, built on first use and kept by the segment.
///
/// It also keeps each document's own key and normalized length (`head(of:)`): a wide prefix ("l") has too many
/// such documents to name, and the coverage signal then reads a candidate's head here instead of its stored title.
package final class LeadingKeys: Sendable {
    let field: FieldID
    /// Sorted ascending (ties by document).
    let keys: [UInt64]
    /// The document of each key; a document appears once per value.
    let docs: [UInt32]
    /// By document: the key of its one value (0 with none or several).
    private let heads: [UInt64]
    /// By document: its one value's length in scalars after normalizing; 0 with none, `several` with more.
    private let lengths: [UInt32]
    private static let several = UInt32.max
    /// Whether no document has several values: each appears in `docs` at most once.
    let distinct: Bool

    init(segment: Segment, field: FieldID) {
        self.field = field
        var pairs: [(key: UInt64, doc: UInt32)] = []
        pairs.reserveCapacity(segment.documentCount)
        var heads = [UInt64](repeating: 0, count: segment.documentCount)
        var lengths = [UInt32](repeating: 0, count: segment.documentCount)
        for doc in 0..<segment.documentCount {
            var values = 0
            segment.withStoredRecord(doc, holding: field) { record in
                StoredFields.forEachValue(record) { id, tag, value in
                    if id == field, tag == 0 {
                        let leading = Self.leadingKey(value)
                        pairs.append((leading.key, UInt32(doc)))
                        values += 1
                        heads[doc] = leading.key
                        lengths[doc] = UInt32(min(leading.scalars, Int(Self.several) - 1))
                    }
                    return true
                }
            }
            if values > 1 { (heads[doc], lengths[doc]) = (0, Self.several) }
        }
        pairs.sort { $0.key != $1.key ? $0.key < $1.key : $0.doc < $1.doc }
        keys = pairs.map(\.key)
        docs = pairs.map(\.doc)
        self.heads = heads
        self.lengths = lengths
        distinct = !lengths.contains(Self.several)
    }

    var memoryBytes: Int { keys.capacity * 8 + docs.capacity * 4 + heads.capacity * 8 + lengths.capacity * 4 }

    /// How a document's value of the field begins.
    package enum Head: Equatable {
        /// No value, or one that normalizes to nothing: it starts with no typed text.
        case none
        /// One value: its first eight normalized bytes (`key`) and its normalized length in scalars.
        case one(key: UInt64, scalars: Int)
        /// Several values: the caller reads them.
        case several
    }

    /// How document `doc`'s value begins, without reading its stored record.
    package func head(of doc: Int) -> Head {
        guard doc >= 0, doc < lengths.count else { return .none }
        switch lengths[doc] {
        case 0: return .none
        case Self.several: return .several
        case let length: return .one(key: heads[doc], scalars: Int(length))
        }
    }

    /// `key` of a value (its UTF-8 bytes) after `Folding.foldCollapsingWhitespace`, with that text's length in
    /// scalars. An ASCII value is lowercased and collapsed byte by byte (all folding does to ASCII); any other is
    /// normalized whole.
    static func leadingKey(_ value: UnsafeBufferPointer<UInt8>) -> (key: UInt64, scalars: Int) {
        var key: UInt64 = 0, count = 0
        var pendingSpace = false
        for byte in value {
            if byte >= 0x80 {
                let normalized = Folding.foldCollapsingWhitespace(String(decoding: value, as: UTF8.self))
                return (Self.key(normalized.utf8), normalized.unicodeScalars.count)
            }
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                pendingSpace = count > 0
                continue
            }
            if pendingSpace {
                if count < 8 { key = key << 8 | 0x20 }
                count += 1
                pendingSpace = false
            }
            if count < 8 { key = key << 8 | UInt64(Folding.lowercasedASCII(byte)) }
            count += 1
        }
        return (count >= 8 ? key : key << UInt64(8 * (8 - count)), count)
    }

    /// The first eight bytes as a big-endian number, `padding` past the end.
    package static func key(_ bytes: some Collection<UInt8>, padding: UInt8 = 0) -> UInt64 {
        var key: UInt64 = 0
        var iterator = bytes.makeIterator()
        for _ in 0..<8 { key = key << 8 | UInt64(iterator.next() ?? padding) }
        return key
    }

    /// The documents (ascending, distinct) with a value that may start with `prefix` (already normalized by
    /// `Folding.foldCollapsingWhitespace`): every one that does, and possibly others sharing its first bytes.
    func candidates(_ prefix: [UInt8]) -> [UInt32] {
        let range = keyRange(prefix)
        guard !range.isEmpty else { return [] }
        var found = Array(docs[range])
        found.sort()
        var unique: [UInt32] = []
        unique.reserveCapacity(found.count)
        for doc in found where unique.last != doc { unique.append(doc) }
        return unique
    }

    /// How many documents `alive` keeps of those `candidates(prefix)` names, counted without sorting them (a
    /// wide prefix names too many to be worth it); nil when a document has several values, which would count
    /// more than once.
    func liveCount(_ prefix: [UInt8], alive: Bitset) -> Int? {
        guard distinct else { return nil }
        var count = 0
        for doc in docs[keyRange(prefix)] where alive[Int(doc)] { count += 1 }
        return count
    }

    /// The positions of the keys a value starting with `prefix` may have.
    private func keyRange(_ prefix: [UInt8]) -> Range<Int> {
        let start = lowerBound(Self.key(prefix, padding: 0))
        return start..<max(start, lowerBound(Self.key(prefix, padding: 0xFF), strictlyAbove: true))
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
