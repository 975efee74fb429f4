/// Serialization of a sealed `Segment`: its flat arrays written as they are in memory (little-endian), so
/// loading is a copy per array, with no tokenizing and no rebuilding of term dictionaries.
///
/// Body: varint document count; varint field-terms count, per entry u8 present and, when present, the arrays
/// bytes, offsets, docFreq, postingStart, blockStart (UInt32.max: single block, no skip entry), positionStart; then docBytes
/// (per posting `varint(doc delta << 1 | tf == 1)`, then `varint(tf)` only when tf > 1; since format version 2), positionBytes, the skip arrays (last doc,
/// doc offset, position offset, max tf, max impact as f32 bits) and the per-field impact constants (f32), norms
/// (varint count + one byte array each), lengthSum, fieldDocCount, numericOffsets and numericValues (varint
/// count + one array each), storedBytes, storedOffsets, then (since format version 3) the cold records'
/// bytes and offsets, their dictionary and the cold field ids (`StoredRecords`), then idBytes, idOffsets, idHashes, idHashDocs,
/// domainOrdinals, and the domains (varint count + strings). Every array is a varint count plus raw values.
///
/// Decoding checks the structure that lookups rely on (offset arrays monotonic and in bounds, per-document
/// arrays of the right length, ordinals in range) and throws on any mismatch; the byte streams inside
/// postings are covered by the file checksum.
enum SegmentCodec {
    static func encode(_ segment: Segment, into out: inout ByteWriter, version: UInt32 = SnapshotFile.version) {
        out.varint(segment.documentCount)
        out.varint(segment.fieldTerms.count)
        for terms in segment.fieldTerms {
            guard let terms else {
                out.u8(0)
                continue
            }
            out.u8(1)
            out.array(terms.bytes)
            out.array(terms.offsets)
            out.array(terms.docFreq)
            out.array(terms.postingStart)
            out.array(terms.blockStart)
            out.array(terms.positionStart)
        }
        out.array(segment.docBytes)
        out.array(segment.positionBytes)
        out.array(segment.skipLastDoc)
        out.array(segment.skipDocOffset)
        out.array(segment.skipPositionOffset)
        out.array(segment.skipMaxTf)
        out.floats(segment.skipMaxImpact)
        out.floats(segment.impactConstants)
        out.varint(segment.norms.count)
        for n in segment.norms { out.array(n) }
        out.array(segment.lengthSum)
        out.array(segment.fieldDocCount)
        out.varint(segment.numericOffsets.count)
        for o in segment.numericOffsets { out.array(o) }
        out.varint(segment.numericValues.count)
        for v in segment.numericValues { out.doubles(v) }
        guard version >= 3 else {
            // Version 2 kept whole records.
            var records: [UInt8] = [], offsets: [UInt32] = [0]
            for doc in 0..<segment.documentCount {
                segment.withStoredRecord(doc) { records.append(contentsOf: $0) }
                offsets.append(UInt32(records.count))
            }
            out.array(records)
            out.array(offsets)
            return encodeIdentities(segment, into: &out)
        }
        out.array(segment.stored.bytes)
        out.array(segment.stored.offsets)
        out.array(segment.stored.coldBytes)
        out.array(segment.stored.coldOffsets)
        out.array(segment.stored.dictionary)
        out.array(segment.stored.coldFields.map(\.rawValue))
        encodeIdentities(segment, into: &out)
    }

    /// The arrays after the stored values: ids, their hash table, domains.
    private static func encodeIdentities(_ segment: Segment, into out: inout ByteWriter) {
        out.array(segment.idBytes)
        out.array(segment.idOffsets)
        out.array(segment.idHashes)
        out.array(segment.idHashDocs)
        out.array(segment.domainOrdinals)
        out.varint(segment.domains.count)
        for d in segment.domains { out.string(d) }
    }

    static func decode(_ reader: inout ByteReader, fieldCount: Int,
                       version: UInt32 = SnapshotFile.version) throws(ByteReader.Malformed) -> Segment {
        let docs = try reader.varint("document count")
        let termFieldCount = try reader.varint("field terms count")
        guard termFieldCount <= fieldCount else { throw .init(reason: "terms for \(termFieldCount) fields") }
        var fieldTerms: [FieldTerms?] = []
        for _ in 0..<termFieldCount {
            guard try reader.u8("field terms flag") != 0 else {
                fieldTerms.append(nil)
                continue
            }
            let bytes = try reader.array(UInt8.self, "term bytes")
            let offsets = try reader.array(UInt32.self, "term offsets")
            let docFreq = try reader.array(UInt32.self, "term doc freqs")
            let postingStart = try reader.array(UInt32.self, "posting starts")
            let blockStart = try reader.array(UInt32.self, "block starts")
            let positionStart = try reader.array(UInt32.self, "position starts")
            let n = docFreq.count
            guard offsets.count == n + 1, postingStart.count == n, blockStart.count == n, positionStart.count == n,
                  monotonic(offsets, within: bytes.count) else { throw .init(reason: "term dictionary shape") }
            fieldTerms.append(FieldTerms(bytes: bytes, offsets: offsets, docFreq: docFreq, postingStart: postingStart,
                                         blockStart: blockStart, positionStart: positionStart))
        }
        let docBytes = try reader.array(UInt8.self, "posting bytes")
        let positionBytes = try reader.array(UInt8.self, "position bytes")
        let skipLastDoc = try reader.array(UInt32.self, "skip last docs")
        let skipDocOffset = try reader.array(UInt32.self, "skip doc offsets")
        let skipPositionOffset = try reader.array(UInt32.self, "skip position offsets")
        let skipMaxTf = try reader.array(UInt32.self, "skip max tf")
        let skipMaxImpact = try reader.floats("skip max impacts")
        let impactConstants = try reader.floats("impact constants")
        let blocks = skipLastDoc.count
        guard skipDocOffset.count == blocks, skipPositionOffset.count == blocks, skipMaxTf.count == blocks,
              skipMaxImpact.count == blocks, impactConstants.count <= fieldCount, skipDocOffset.allSatisfy({ Int($0) <= docBytes.count }),
              skipPositionOffset.allSatisfy({ Int($0) <= positionBytes.count })
        else { throw .init(reason: "skip data shape") }
        for terms in fieldTerms {
            guard let terms else { continue }
            guard terms.postingStart.allSatisfy({ Int($0) <= docBytes.count }),
                  terms.blockStart.allSatisfy({ $0 == UInt32.max || Int($0) < blocks }),
                  terms.positionStart.allSatisfy({ Int($0) <= positionBytes.count }),
                  terms.docFreq.allSatisfy({ Int($0) <= docs }) else { throw .init(reason: "postings out of bounds") }
        }
        var norms: [[UInt8]] = []
        let normCount = try reader.varint("norm count")
        guard normCount <= fieldCount else { throw .init(reason: "norms for \(normCount) fields") }
        for _ in 0..<normCount {
            let n = try reader.array(UInt8.self, "norms")
            guard n.isEmpty || n.count == docs else { throw .init(reason: "norms of \(n.count) documents") }
            norms.append(n)
        }
        let lengthSum = try reader.array(UInt64.self, "length sums")
        let fieldDocCount = try reader.array(UInt32.self, "field doc counts")
        var numericOffsets: [[UInt32]] = []
        let offsetCount = try reader.varint("numeric column count")
        guard offsetCount <= fieldCount else { throw .init(reason: "\(offsetCount) numeric columns") }
        for _ in 0..<offsetCount { numericOffsets.append(try reader.array(UInt32.self, "numeric offsets")) }
        var numericValues: [[Double]] = []
        let valueCount = try reader.varint("numeric value count")
        guard valueCount == offsetCount else { throw .init(reason: "numeric columns mismatch") }
        for column in 0..<valueCount {
            let values = try reader.doubles("numeric values")
            let offsets = numericOffsets[column]
            guard offsets.isEmpty || (offsets.count == docs + 1 && monotonic(offsets, within: values.count)) else {
                throw .init(reason: "numeric column \(column) shape")
            }
            numericValues.append(values)
        }
        let storedBytes = try reader.array(UInt8.self, "stored bytes")
        let storedOffsets = try reader.array(UInt32.self, "stored offsets")
        var coldBytes: [UInt8] = [], coldOffsets: [UInt32] = [], dictionary: [UInt8] = [], coldFields: [UInt16] = []
        if version >= 3 {
            coldBytes = try reader.array(UInt8.self, "cold stored bytes")
            coldOffsets = try reader.array(UInt32.self, "cold stored offsets")
            dictionary = try reader.array(UInt8.self, "stored dictionary")
            coldFields = try reader.array(UInt16.self, "cold fields")
        }
        let idBytes = try reader.array(UInt8.self, "id bytes")
        let idOffsets = try reader.array(UInt32.self, "id offsets")
        let idHashes = try reader.array(UInt64.self, "id hashes")
        let idHashDocs = try reader.array(UInt32.self, "id hash docs")
        let domainOrdinals = try reader.array(UInt32.self, "domain ordinals")
        let domainCount = try reader.varint("domain count")
        guard domainCount <= reader.remaining + 1 else { throw .init(reason: "\(domainCount) domains") }
        var domains: [String] = []
        for _ in 0..<domainCount { domains.append(try reader.string("domain")) }
        guard storedOffsets.count == docs + 1, monotonic(storedOffsets, within: storedBytes.count),
              coldOffsets.isEmpty || (coldOffsets.count == docs + 1 && monotonic(coldOffsets, within: coldBytes.count)),
              coldOffsets.isEmpty == coldFields.isEmpty, dictionary.count <= LZBlock.maximumOffset,
              zip(coldFields, coldFields.dropFirst()).allSatisfy({ $0 < $1 }),
              idOffsets.count == docs + 1, monotonic(idOffsets, within: idBytes.count),
              idHashes.count == docs, idHashDocs.count == docs, idHashDocs.allSatisfy({ Int($0) < docs }),
              domainOrdinals.count == docs, !domains.isEmpty || docs == 0,
              domainOrdinals.allSatisfy({ Int($0) < domains.count })
        else { throw .init(reason: "document arrays shape") }
        return Segment(documentCount: docs, fieldTerms: fieldTerms, docBytes: docBytes, positionBytes: positionBytes,
                       skipLastDoc: skipLastDoc, skipDocOffset: skipDocOffset, skipPositionOffset: skipPositionOffset,
                       skipMaxTf: skipMaxTf, skipMaxImpact: skipMaxImpact, impactConstants: impactConstants, norms: norms, lengthSum: lengthSum,
                       fieldDocCount: fieldDocCount, numericOffsets: numericOffsets, numericValues: numericValues,
                       stored: StoredRecords(bytes: storedBytes, offsets: storedOffsets, coldBytes: coldBytes,
                                             coldOffsets: coldOffsets, dictionary: dictionary,
                                             coldFields: coldFields.map { FieldID(rawValue: $0) }),
                       idBytes: idBytes, idOffsets: idOffsets,
                       domainOrdinals: domainOrdinals, domains: domains, idHashes: idHashes, idHashDocs: idHashDocs)
    }

    /// Whether offsets never decrease and stay within `limit`.
    private static func monotonic(_ offsets: [UInt32], within limit: Int) -> Bool {
        var previous: UInt32 = 0
        for o in offsets {
            guard o >= previous else { return false }
            previous = o
        }
        return Int(previous) <= limit
    }
}
