/// Serialization of a sealed `Segment`: its flat arrays written as they are in memory (little-endian), so
/// loading is a copy per array, with no tokenizing and no rebuilding of term dictionaries.
///
/// Body: varint document count; varint field-terms count, per entry u8 present and, when present, the arrays
/// bytes, offsets, docFreq, postingStart, blockStart (UInt32.max: single block, no skip entry), positionStart; then docBytes
/// (`PostingBlocks`: a longer term's full blocks bit-packed since format version 4, varints before; per varint posting
/// `varint(doc delta << 1 | tf == 1)`, then `varint(tf)` only when tf > 1, since format version 2), positionBytes, the skip arrays (last doc,
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
        // Versions before 4 wrote every block as varints (only tests write them).
        let layout: Layout
        if version >= 4 {
            layout = Layout(postingStarts: segment.fieldTerms.map { $0?.postingStart }, docBytes: segment.docBytes,
                            skipDocOffset: segment.skipDocOffset)
        } else {
            do {
                let fields = segment.fieldTerms.map { $0.map { ($0.docFreq, $0.postingStart, $0.blockStart) } }
                layout = try Layout(relaying: fields, docBytes: segment.docBytes, skipDocOffset: segment.skipDocOffset,
                                    packed: false)
            } catch {
                preconditionFailure("a segment of format \(version) cannot be written: \(error.reason)")
            }
        }
        out.varint(segment.documentCount)
        out.varint(segment.fieldTerms.count)
        for (field, terms) in segment.fieldTerms.enumerated() {
            guard let terms else {
                out.u8(0)
                continue
            }
            out.u8(1)
            out.array(terms.bytes)
            out.array(terms.offsets)
            out.array(terms.docFreq)
            out.array(layout.postingStarts[field] ?? [])
            out.array(terms.blockStart)
            out.array(terms.positionStart)
        }
        out.array(layout.docBytes)
        out.array(segment.positionBytes)
        out.array(segment.skipLastDoc)
        out.array(layout.skipDocOffset)
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

    /// `maxPostingBytes` bounds the postings of a segment of an older version rewritten in the current layout (a
    /// segment's offsets are 32-bit; tests pass less).
    static func decode(_ reader: inout ByteReader, fieldCount: Int, version: UInt32 = SnapshotFile.version,
                       maxPostingBytes: Int = Int(UInt32.max)) throws(ByteReader.Malformed) -> Segment {
        let docs = try reader.varint("document count")
        let termFieldCount = try reader.varint("field terms count")
        guard termFieldCount <= fieldCount else { throw .init(reason: "terms for \(termFieldCount) fields") }
        var rawTerms: [(bytes: [UInt8], offsets: [UInt32], docFreq: [UInt32], postingStart: [UInt32],
                        blockStart: [UInt32], positionStart: [UInt32])?] = []
        for _ in 0..<termFieldCount {
            guard try reader.u8("field terms flag") != 0 else {
                rawTerms.append(nil)
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
            rawTerms.append((bytes, offsets, docFreq, postingStart, blockStart, positionStart))
        }
        var docBytes = try reader.array(UInt8.self, "posting bytes")
        let positionBytes = try reader.array(UInt8.self, "position bytes")
        let skipLastDoc = try reader.array(UInt32.self, "skip last docs")
        var skipDocOffset = try reader.array(UInt32.self, "skip doc offsets")
        let skipPositionOffset = try reader.array(UInt32.self, "skip position offsets")
        let skipMaxTf = try reader.array(UInt32.self, "skip max tf")
        let skipMaxImpact = try reader.floats("skip max impacts")
        let impactConstants = try reader.floats("impact constants")
        let blocks = skipLastDoc.count
        guard skipDocOffset.count == blocks, skipPositionOffset.count == blocks, skipMaxTf.count == blocks,
              skipMaxImpact.count == blocks, impactConstants.count <= fieldCount, skipDocOffset.allSatisfy({ Int($0) <= docBytes.count }),
              skipPositionOffset.allSatisfy({ Int($0) <= positionBytes.count })
        else { throw .init(reason: "skip data shape") }
        for terms in rawTerms {
            guard let terms else { continue }
            guard terms.postingStart.allSatisfy({ Int($0) <= docBytes.count }),
                  terms.docFreq.allSatisfy({ Int($0) <= docs }) else { throw .init(reason: "postings out of bounds") }
        }
        if version < 4 {
            // Every block was varints: the blocks of terms longer than one are packed now.
            let layout = try Layout(relaying: rawTerms.map { $0.map { ($0.docFreq, $0.postingStart, $0.blockStart) } },
                                    docBytes: docBytes, skipDocOffset: skipDocOffset, packed: true,
                                    maxBytes: maxPostingBytes)
            for field in rawTerms.indices where rawTerms[field] != nil {
                rawTerms[field]!.postingStart = layout.postingStarts[field] ?? []
            }
            (docBytes, skipDocOffset) = (layout.docBytes, layout.skipDocOffset)
        }
        let fieldTerms = rawTerms.map { raw in
            raw.map {
                FieldTerms(bytes: $0.bytes, offsets: $0.offsets, docFreq: $0.docFreq, postingStart: $0.postingStart,
                           blockStart: $0.blockStart, positionStart: $0.positionStart)
            }
        }
        for terms in fieldTerms {
            guard let terms else { continue }
            guard terms.postingStart.allSatisfy({ Int($0) <= docBytes.count }),
                  terms.blockStart.allSatisfy({ $0 == UInt32.max || Int($0) < blocks }),
                  terms.positionStart.allSatisfy({ Int($0) <= positionBytes.count }),
                  terms.docFreq.allSatisfy({ Int($0) <= docs }) else { throw .init(reason: "postings out of bounds") }
        }
        try validatePostings(fieldTerms, docBytes: docBytes, documents: docs, skipLastDoc: skipLastDoc,
                             skipDocOffset: skipDocOffset)
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
        // Per field: documents with a length, and the lengths' sum (a field's length in a document fits 32 bits), so
        // the index's averages can add them across segments without overflowing.
        guard lengthSum.count == fieldDocCount.count, lengthSum.count <= fieldCount,
              fieldDocCount.allSatisfy({ Int($0) <= docs }),
              lengthSum.allSatisfy({ $0 <= UInt64(docs) * UInt64(UInt32.max) })
        else { throw .init(reason: "field length statistics of \(lengthSum.count) fields for \(docs) documents") }
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

    /// A document stream and where its terms and blocks start in it.
    private struct Layout {
        var postingStarts: [[UInt32]?]
        var docBytes: [UInt8]
        var skipDocOffset: [UInt32]

        init(postingStarts: [[UInt32]?], docBytes: [UInt8], skipDocOffset: [UInt32]) {
            (self.postingStarts, self.docBytes, self.skipDocOffset) = (postingStarts, docBytes, skipDocOffset)
        }

        /// `docBytes` (its terms given by their document frequencies, starts and first skip entries) rewritten term
        /// by term in the other layout: `packed`, from all varints (versions before 4) to `PostingBlocks`' layout;
        /// otherwise back. Damaged postings come out as damaged, never as a read past the buffer. Throws when the
        /// rewritten postings pass `maxBytes` (the layouts differ in size): their 32-bit offsets would be wrong.
        init(relaying fields: [(docFreq: [UInt32], postingStart: [UInt32], blockStart: [UInt32])?], docBytes source: [UInt8],
             skipDocOffset: [UInt32], packed: Bool, maxBytes: Int = Int(UInt32.max)) throws(ByteReader.Malformed) {
            var tooLarge = false
            var out: [UInt8] = []
            out.reserveCapacity(source.count)
            var skips = skipDocOffset
            var docs: [UInt32] = [], tfs: [UInt32] = [], blockStarts: [UInt32] = []
            postingStarts = source.withUnsafeBufferPointer { bytes in
                fields.map { field in
                    guard let field else { return nil }
                    var starts: [UInt32] = []
                    starts.reserveCapacity(field.docFreq.count)
                    for term in field.docFreq.indices {
                        // Checked after every term: its start, and its blocks' (clamped by `append`), fit.
                        guard out.count <= maxBytes else {
                            tooLarge = true
                            break
                        }
                        starts.append(UInt32(out.count))
                        PostingBlocks.decodeTerm(bytes, start: Int(field.postingStart[term]), docFreq: Int(field.docFreq[term]),
                                                 packed: !packed, docs: &docs, tfs: &tfs)
                        blockStarts.removeAll(keepingCapacity: true)
                        docs.withUnsafeBufferPointer { d in
                            tfs.withUnsafeBufferPointer { t in
                                PostingBlocks.append(docs: d, tfs: t, packed: packed, to: &out, blockStarts: &blockStarts)
                            }
                        }
                        let first = field.blockStart[term]
                        guard first != UInt32.max else { continue }
                        for (block, start) in blockStarts.enumerated() where Int(first) + block < skips.count {
                            skips[Int(first) + block] = start
                        }
                    }
                    return starts
                }
            }
            guard !tooLarge, out.count <= maxBytes else {
                throw .init(reason: "postings rewritten in the \(packed ? "packed" : "varint") layout pass \(maxBytes) bytes")
            }
            docBytes = out
            self.skipDocOffset = skips
        }
    }

    /// Checks every term's postings as the cursors and merges will read them: at least one posting, documents
    /// strictly increasing and within the segment, every frequency at least 1, and for a term of several blocks
    /// its skip entries in range and agreeing with its blocks (where each starts, its last document). A forged
    /// file could otherwise hand a query a document past the segment's arrays, or skip data that never advances.
    /// One decoding pass over the postings at load; queries then read them unchecked.
    private static func validatePostings(_ fieldTerms: [FieldTerms?], docBytes: [UInt8], documents: Int,
                                         skipLastDoc: [UInt32], skipDocOffset: [UInt32]) throws(ByteReader.Malformed) {
        let blockSize = Segment.blockSize
        var docs = [UInt32](repeating: 0, count: blockSize), tfs = [UInt32](repeating: 0, count: blockSize)
        let failure: String? = docBytes.withUnsafeBufferPointer { bytes in
            docs.withUnsafeMutableBufferPointer { d in
                tfs.withUnsafeMutableBufferPointer { t in
                    for (field, terms) in fieldTerms.enumerated() {
                        guard let terms else { continue }
                        for term in terms.docFreq.indices {
                            let docFreq = Int(terms.docFreq[term]), first = terms.blockStart[term]
                            let blockCount = (docFreq + blockSize - 1) / blockSize
                            guard docFreq > 0, (first == UInt32.max) == (blockCount == 1),
                                  first == UInt32.max || Int(first) + blockCount <= skipLastDoc.count else {
                                return "field \(field) term \(term): \(docFreq) postings, skip entry \(first)"
                            }
                            var offset = Int(terms.postingStart[term]), previous: UInt32 = 0
                            for block in 0..<blockCount {
                                let count = min(blockSize, docFreq - block * blockSize)
                                let skip = Int(first) &+ block
                                if first != UInt32.max, Int(skipDocOffset[skip]) != offset {
                                    return "field \(field) term \(term): block \(block) starts elsewhere"
                                }
                                offset = PostingBlocks.decode(bytes, at: offset, block: block, docFreq: docFreq, count: count,
                                                              previous: previous, docs: d.baseAddress!, tfs: t.baseAddress!)
                                var last = block == 0 ? -1 : Int(previous)
                                for i in 0..<count {
                                    guard Int(d[i]) > last, t[i] > 0 else {
                                        return "field \(field) term \(term): posting \(block * blockSize + i) out of order"
                                    }
                                    last = Int(d[i])
                                }
                                guard last < documents, first == UInt32.max || Int(skipLastDoc[skip]) == last else {
                                    return "field \(field) term \(term): document \(last) of \(documents)"
                                }
                                previous = UInt32(last)
                            }
                        }
                    }
                    return nil
                }
            }
        }
        if let failure { throw .init(reason: "postings: " + failure) }
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
