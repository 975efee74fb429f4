/// The most one segment may hold, checked before any offset is narrowed to 32 bits.
///
/// A segment addresses its postings, positions, dictionaries, stored records and identifiers with 32-bit offsets,
/// and postings shift document gaps left by one bit, so documents stay below 2^31. `maxBytes` stays 512 MB below
/// 2^32 so a check made once per document or per term (never per posting) may let that one unit cross it and still
/// throw `EngineError.segmentTooLarge` before an offset overflows. Tests inject tiny limits to reach the error
/// without gigabytes of data (`IndexWriter.segmentLimits`).
package struct SegmentLimits: Sendable, Equatable {
    /// Bytes of any one buffer of a segment (postings, positions, a field's dictionary, stored records, ids) or
    /// of the builder's postings pool.
    package var maxBytes: Int
    /// Documents of a segment.
    package var maxDocuments: Int
    /// The bytes a 32-bit address reaches: the postings pool never passes it (a document whose postings could
    /// carry it past is refused, `SegmentBuilder.add`). Tests lower it with `maxBytes`.
    package var addressableBytes: Int

    package init(maxBytes: Int, maxDocuments: Int, addressableBytes: Int = Int(UInt32.max)) {
        self.maxBytes = max(maxBytes, 0)
        self.maxDocuments = max(maxDocuments, 0)
        self.addressableBytes = min(max(addressableBytes, 0), Int(UInt32.max))
    }

    /// The 32-bit bounds every segment is built within.
    package static let standard = SegmentLimits(maxBytes: Int(UInt32.max) - (1 << 29),
                                                maxDocuments: Int(Int32.max) - 1)
}
