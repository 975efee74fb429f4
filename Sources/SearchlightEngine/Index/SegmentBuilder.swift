/// The mutable in-memory buffer of the writer. Documents are analyzed once; each (field, term) is
/// interned to an integer id as the analyzer hands it over, and each document contributes one posting per
/// distinct term (its positions grouped by a counting sort), appended to the term's encoded streams. `seal()`
/// sorts the term keys and concatenates the streams into the flat arrays of a `Segment`.
struct SegmentBuilder {
    private(set) var documentCount = 0
    /// Keys are a 2-byte big-endian field id followed by the folded term bytes.
    private var interner = TermInterner()
    /// Per term: its postings already encoded (`varint(doc delta << 1 | tf == 1)`, then `varint(tf)` only
    /// when tf > 1, per document) and its
    /// positions (per document, delta varints), so sealing only concatenates in term order.
    private var pool = ByteSlicePool()
    /// A document's postings were left out because they could have carried the pool past its 32-bit addresses
    /// (`add`): the buffer is refused (`checkRoom`, `fitsLimits`) until it is discarded.
    private(set) var postingsRefused = false
    /// Bytes of the postings pool's slices (their 32-bit addresses end here).
    var poolBytes: Int { pool.usedBytes }
    /// Everything appending a posting touches for one term, side by side (one cache line, not four arrays).
    struct TermState {
        var docs: ByteSlicePool.Stream
        var positions: ByteSlicePool.Stream
        var lastDoc: UInt32 = 0
        var docFreq: UInt32 = 0
    }
    private var termStates: [TermState] = []
    /// Room to re-encode a whole segment's term (`appendWhole`).
    private var wholeDocs: [UInt32] = [], wholeTfs: [UInt32] = [], wholeBytes: [UInt8] = []
    private var postingCount = 0
    /// Encoded bytes of all postings and all positions so far (to size the sealed buffers exactly).
    private var docByteCount = 0
    private var positionByteCount = 0
    // Per-document entries (one per distinct term of the document).
    private var entryTerm: [UInt32] = []
    private var entryTf: [UInt32] = []
    private var entryPositionStart: [UInt32] = []
    private var positions: [UInt32] = []
    private var norms: [[UInt8]] = []
    private var lengthSum: [UInt64] = []
    private var fieldDocCount: [UInt32] = []
    private var numericOffsets: [[UInt32]] = []
    private var numericValues: [[Double]] = []
    private var storedBytes = GrowableBytes()
    private var storedOffsets: [UInt32] = [0]
    /// Long texts are compressed when the sealed segment holds at least this many bytes of them.
    var minimumColdBytes = StoredRecords.minimumColdBytes
    /// What the sealed segment may hold (`SegmentLimits`); the writer's, tests inject tiny ones.
    var limits = SegmentLimits.standard
    private var idBytes: [UInt8] = []
    private var idOffsets: [UInt32] = [0]
    /// The live buffered document of each id, kept by the writer (`claimID`, `releaseID`).
    private var identifiers = IdentifierTable()
    private var domainOrdinals: [UInt32] = []
    private var domains: [String] = [""]
    /// By bytes, as identifiers are keyed: canonically equivalent spellings are two domains, each kept as given.
    private var domainIndex: [ExactIdentifier: UInt32] = [:]
    /// The domain of the document added last, with its ordinal.
    private var lastDomain: (name: String, ordinal: UInt32)?

    // Per-document scratch, reused.
    private var analyzerScratch = AnalyzerScratch()
    /// The document's (term id, position) pairs in token order: the first `pairCount` of each array (the rest is
    /// room, written through raw buffers).
    private var pairTerm: [UInt32] = []
    private var pairPosition: [UInt32] = []
    private var pairCount = 0
    /// Pair room reserved for a text value before it is analyzed: a pair per `pairRoomDivisor` bytes of it, and 16.
    /// Prose yields about one token per six bytes; a value that yields more than its room (at most 1.5 tokens a
    /// byte) is analyzed again with twice the room. Tests raise the divisor to make room run out.
    var pairRoomDivisor = 2
    /// How many text values were analyzed again for want of pair room.
    private(set) var pairRoomRetries = 0
    /// Per term id: `(document + 1) << 32 | entry index` of the last document that used it.
    private var termSeen: [UInt64] = []
    private var fieldLength: [Int] = []
    private var fieldNextPosition: [UInt32] = []
    /// The text fields the document being added has values in, in first-value order.
    private var touchedText: [Int] = []
    /// Per field: the document (+ 1) that last had a text value in it, so whether the document being added has
    /// touched a field is one lookup, not a search of `touchedText` (an item may have thousands of fields).
    private var textTouchedBy: [UInt32] = []
    /// Field kinds by id, refreshed when the schema grows (avoids copying FieldInfo per value).
    private var kinds: [FieldOptions.Kind] = []

    /// Gap between the values of a multi-valued text field, so a phrase never spans two values.
    static let valueGap: UInt32 = 100

    var isEmpty: Bool { documentCount == 0 }

    var memoryBytes: Int {
        interner.memoryBytes + pool.memoryBytes + termStates.capacity * MemoryLayout<TermState>.stride
            + storedBytes.capacity + idBytes.capacity + identifiers.memoryBytes
    }

    private mutating func growFields(to count: Int) {
        while norms.count < count {
            norms.append([])
            lengthSum.append(0)
            fieldDocCount.append(0)
            numericOffsets.append([])
            numericValues.append([])
            fieldLength.append(0)
            fieldNextPosition.append(0)
            textTouchedBy.append(0)
        }
    }

    /// Several documents prepared ahead of `add`, on any thread (`prepare(_:kinds:analyzer:)`): the tokens of their
    /// text values in one buffer with each token's interning hash, per analyzed value (in document order) where
    /// its records end and the next free position of its field, and each document's encoded stored record.
    struct AnalyzedTexts: Sendable {
        var tokens = TokenBuffer()
        /// `TermInterner.hash` of each token record (its term in its field).
        var hashes: [UInt32] = []
        var valueEnds: [(records: Int, next: UInt32)] = []
        /// Per document: its first entry in `valueEnds`.
        var documentStarts: [Int] = []
        /// The documents' `StoredFields` records, one after another; `storedEnds[i]` is where document i's ends.
        var stored: [UInt8] = []
        var storedEnds: [Int] = []
    }

    /// Prepares `documents` exactly as `add` would analyze and store them (same positions, gaps between values of
    /// a field, stored record); a nil document has nothing here (it is analyzed when added).
    static func prepare(_ documents: [Document?], kinds: [FieldOptions.Kind], analyzer: Analyzer) -> AnalyzedTexts {
        var result = AnalyzedTexts()
        // Per field: the next free position, valid when `nextOf` holds the document's number (+ 1); one lookup
        // per value, however many fields a document has.
        var next = [UInt32](repeating: 0, count: kinds.count), nextOf = [Int](repeating: 0, count: kinds.count)
        for (number, document) in documents.enumerated() {
            result.documentStarts.append(result.valueEnds.count)
            for (field, value) in document?.values ?? [] {
                let f = Int(field.rawValue)
                guard f < kinds.count, kinds[f] == .text, case .text(let text) = value else { continue }
                let first = nextOf[f] == number + 1 ? next[f] + valueGap : 0
                let recordStart = result.tokens.records.count
                let end = analyzer.analyze(text, mode: .index, firstPosition: first, into: &result.tokens)
                result.tokens.bytes.withUnsafeBufferPointer { bytes in
                    for record in result.tokens.records[recordStart...] {
                        let start = Int(record.termStart)
                        result.hashes.append(TermInterner.hash(
                            UnsafeBufferPointer(rebasing: bytes[start..<start + Int(record.termLength)]), field: field.rawValue))
                    }
                }
                next[f] = end
                nextOf[f] = number + 1
                result.valueEnds.append((result.tokens.records.count, end))
            }
            if let document { StoredFields.encode(document.values, into: &result.stored) }
            result.storedEnds.append(result.stored.count)
        }
        result.documentStarts.append(result.valueEnds.count)
        return result
    }

    /// Throws `segmentTooLarge` when the buffer can take no document with id `id`: it holds the most documents, or
    /// its stored records, ids or postings pool passed `limits.maxBytes`. Checked per document, before anything
    /// changes: the document that crosses a byte limit is taken (`SegmentLimits` keeps room below 2^32 for it) and
    /// sealing refuses the buffer.
    func checkRoom(forID id: String) throws(EngineError) {
        guard documentCount < limits.maxDocuments, storedBytes.count <= limits.maxBytes,
              idBytes.count + id.utf8.count <= limits.maxBytes, pool.usedBytes <= limits.maxBytes, !postingsRefused
        else { throw .segmentTooLarge }
    }

    /// Whether the documents, stored records (split form: `StoredRecords.fits`), ids and postings gathered so far
    /// fit a segment. (Numeric values need no check of their own: each is stored in its document's record too.)
    private var fitsLimits: Bool {
        documentCount <= limits.maxDocuments && !postingsRefused
            && StoredRecords.fits(recordBytes: storedBytes.count, documents: documentCount, maxBytes: limits.maxBytes)
            && idBytes.count <= limits.maxBytes && pool.usedBytes <= limits.maxBytes
            && docByteCount <= limits.maxBytes && positionByteCount <= limits.maxBytes
    }

    /// Adds a document; returns its number in this buffer. The writer calls `checkRoom(forID:)` first. `analyzed` (document `number` of it) replaces analyzing
    /// its text values here.
    mutating func add(_ document: Document, schema: Schema, analyzer: Analyzer,
                      analyzed: (texts: AnalyzedTexts, number: Int)? = nil) -> Int {
        let doc = UInt32(documentCount)
        growFields(to: schema.fields.count)
        pairCount = 0
        touchedText.removeAll(keepingCapacity: true)
        if kinds.count != schema.fields.count { kinds = schema.fields.map(\.options.kind) }
        var valueIndex = analyzed.map { $0.texts.documentStarts[$0.number] } ?? 0
        for (field, value) in document.values {
            let f = Int(field.rawValue)
            guard f < kinds.count else { continue }
            let kind = kinds[f]
            switch (kind, value) {
            case (.text, .text(let text)):
                let seen = textTouchedBy[f] == doc + 1
                if !seen {
                    touchedText.append(f)
                    textTouchedBy[f] = doc + 1
                }
                let first = seen ? fieldNextPosition[f] + Self.valueGap : 0
                let next: UInt32
                if let texts = analyzed?.texts {
                    let start = valueIndex == 0 ? 0 : texts.valueEnds[valueIndex - 1].records
                    let end = texts.valueEnds[valueIndex]
                    valueIndex += 1
                    next = end.next
                    internTokens(field: field, texts.tokens, records: start..<end.records, hashes: texts.hashes)
                } else {
                    next = analyzeInterning(text, field: field, analyzer: analyzer, first: first)
                }
                fieldLength[f] += Int(next - first)
                fieldNextPosition[f] = next
            case (.numeric, .number(let number)):
                if numericOffsets[f].isEmpty { numericOffsets[f] = [UInt32](repeating: 0, count: Int(doc) + 1) }
                numericValues[f].append(number)
            default:
                break
            }
        }
        // Group this document's (term, position) pairs into one entry per term, then append each entry
        // to its term's encoded streams.
        if termSeen.count < interner.count {
            termSeen.append(contentsOf: repeatElement(0, count: interner.count - termSeen.count + 1024))
        }
        if positions.count < pairCount { positions.append(contentsOf: repeatElement(0, count: pairCount - positions.count)) }
        // Room for one entry per pair.
        Self.ensureRoom(&entryTerm, pairCount)
        Self.ensureRoom(&entryTf, pairCount)
        Self.ensureRoom(&entryPositionStart, pairCount)
        // Work on local arrays (swapped out, no copies) through raw buffers: no uniqueness checks or
        // exclusivity bookkeeping per pair.
        var seenArray: [UInt64] = [], terms: [UInt32] = [], tfs: [UInt32] = [], starts: [UInt32] = [], ordered: [UInt32] = []
        swap(&seenArray, &termSeen)
        swap(&terms, &entryTerm)
        swap(&tfs, &entryTf)
        swap(&starts, &entryPositionStart)
        swap(&ordered, &positions)
        let docKey = UInt64(doc + 1) << 32
        var entryCount = 0
        var largestTf: UInt32 = 0
        seenArray.withUnsafeMutableBufferPointer { seen in
            terms.withUnsafeMutableBufferPointer { terms in
                tfs.withUnsafeMutableBufferPointer { tfs in
                    pairTerm.withUnsafeBufferPointer { pairs in
                        for term in pairs[..<pairCount] {
                            let t = Int(term)
                            let state = seen[t]
                            if state & 0xFFFF_FFFF_0000_0000 != docKey {
                                seen[t] = docKey | UInt64(entryCount)
                                terms[entryCount] = term
                                tfs[entryCount] = 1
                                entryCount += 1
                            } else {
                                tfs[Int(UInt32(truncatingIfNeeded: state))] += 1
                            }
                        }
                    }
                    // Counting sort of the positions by entry (positions of one term stay in token order).
                    starts.withUnsafeMutableBufferPointer { starts in
                        var start: UInt32 = 0
                        for e in 0..<entryCount {
                            starts[e] = start
                            start += tfs[e]
                            largestTf = max(largestTf, tfs[e])
                            tfs[e] = 0
                        }
                        ordered.withUnsafeMutableBufferPointer { out in
                            pairTerm.withUnsafeBufferPointer { pairs in
                                pairPosition.withUnsafeBufferPointer { pairPositions in
                                    for k in 0..<pairCount {
                                        let e = Int(UInt32(truncatingIfNeeded: seen[Int(pairs[k])]))
                                        out[Int(starts[e] + tfs[e])] = pairPositions[k]
                                        tfs[e] += 1
                                    }
                                }
                            }
                            for e in 0..<entryCount where tfs[e] > 1 {
                                let p0 = Int(starts[e]), p1 = p0 + Int(tfs[e])
                                var sorted = true
                                for k in (p0 + 1)..<p1 where out[k] < out[k - 1] { sorted = false }
                                if !sorted {
                                    var slice = UnsafeMutableBufferPointer(rebasing: out[p0..<p1])
                                    slice.sort()
                                }
                            }
                        }
                    }
                }
            }
        }
        swap(&seenArray, &termSeen)
        // `checkRoom` let the document in with the pool under `limits.maxBytes`; one document with very many
        // distinct terms could still carry it past its 32-bit addresses (a trap in `ByteSlicePool`). Checked once
        // per document, never per posting: past the bound its postings are left out and the buffer is refused.
        if !postingsRefused, pool.usedBytes + Self.poolGrowthBound(newTerms: interner.count - termStates.count,
                                                                  entries: entryCount, pairs: pairCount)
            > limits.addressableBytes {
            postingsRefused = true
        }
        if !postingsRefused {
            terms.withUnsafeBufferPointer { terms in
                tfs.withUnsafeBufferPointer { tfs in
                    starts.withUnsafeBufferPointer { starts in
                        ordered.withUnsafeBufferPointer { ordered in
                            appendPostings(doc: doc, count: entryCount, terms: terms, tfs: tfs, starts: starts,
                                           positions: ordered, largestTf: Int(largestTf))
                        }
                    }
                }
            }
        }
        swap(&ordered, &positions)
        swap(&terms, &entryTerm)
        swap(&tfs, &entryTf)
        swap(&starts, &entryPositionStart)
        // Norms, numeric offsets, stored values, id and domain.
        for f in 0..<norms.count where !norms[f].isEmpty || textTouchedBy[f] == doc + 1 {
            if norms[f].isEmpty { norms[f] = [UInt8](repeating: 0, count: Int(doc)) }
            norms[f].append(FieldNorm.encode(fieldLength[f]))
        }
        for f in touchedText {
            lengthSum[f] += UInt64(fieldLength[f])
            if fieldLength[f] > 0 { fieldDocCount[f] += 1 }
            fieldLength[f] = 0
            fieldNextPosition[f] = 0
        }
        for f in 0..<numericOffsets.count where !numericOffsets[f].isEmpty {
            numericOffsets[f].append(UInt32(numericValues[f].count))
        }
        if let (texts, number) = analyzed {
            let start = number == 0 ? 0 : texts.storedEnds[number - 1]
            storedBytes.append(contentsOf: texts.stored[start..<texts.storedEnds[number]])
        } else {
            StoredFields.encode(document.values, into: &storedBytes)
        }
        storedOffsets.append(UInt32(storedBytes.count))
        appendIdentity(id: document.id, domain: document.domain)
        documentCount += 1
        return Int(doc)
    }

    private mutating func appendIdentity(id: String, domain: String?) {
        idBytes.append(contentsOf: id.utf8)
        idOffsets.append(UInt32(idBytes.count))
        if let domain, !domain.isEmpty {
            if let last = lastDomain, last.name.utf8.elementsEqual(domain.utf8) {
                // Documents come in runs of one domain: no hashing for the rest of the run.
                domainOrdinals.append(last.ordinal)
            } else if let ordinal = domainIndex[ExactIdentifier(domain)] {
                lastDomain = (domain, ordinal)
                domainOrdinals.append(ordinal)
            } else {
                let ordinal = UInt32(domains.count)
                domains.append(domain)
                domainIndex[ExactIdentifier(domain)] = ordinal
                lastDomain = (domain, ordinal)
                domainOrdinals.append(ordinal)
            }
        } else {
            domainOrdinals.append(0)
        }
    }

    /// Encodes `value` as a varint at `out`; returns the bytes written (at most 5).
    @inline(__always)
    private static func encodeVarInt(_ value: UInt32, _ out: UnsafeMutablePointer<UInt8>) -> Int {
        var v = value, n = 0
        while v >= 0x80 {
            out[n] = UInt8(truncatingIfNeeded: v) | 0x80
            v >>= 7
            n += 1
        }
        out[n] = UInt8(v)
        return n + 1
    }

    /// Appends one document's postings, entry `e` for term `terms[e]` with its `tfs[e]` positions from
    /// `positions[starts[e]...]`, to the terms' encoded streams: both varints and then all position deltas are
    /// encoded into scratch and appended to the pool in one bulk copy each.
    private mutating func appendPostings(doc: UInt32, count: Int, terms: UnsafeBufferPointer<UInt32>,
                                         tfs: UnsafeBufferPointer<UInt32>, starts: UnsafeBufferPointer<UInt32>,
                                         positions: UnsafeBufferPointer<UInt32>, largestTf: Int) {
        // Every interned term has its streams, made in id order (the order the ids were given); one interned by a
        // merge for documents all deleted keeps empty ones, which sealing skips.
        while termStates.count < interner.count {
            termStates.append(TermState(docs: pool.makeStream(), positions: pool.makeStream()))
        }
        var docBytes = 0, positionBytes = 0
        // Taken once per document: appends through it pay no copy-on-write check per posting.
        let storage = pool.uniqueStorage()
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10 + 5 * largestTf) { scratch in
            // Initialized: the pool copies eight bytes at a time, past what was encoded.
            scratch.initialize(repeating: 0)
            let out = scratch.baseAddress!
            termStates.withUnsafeMutableBufferPointer { states in
                for e in 0..<count {
                    let t = Int(terms[e]), tf = Int(tfs[e])
                    let delta = doc &- states[t].lastDoc
                    states[t].lastDoc = doc
                    states[t].docFreq += 1
                    // Most postings have tf 1: it rides in the low bit of the doc delta (Lucene's trick).
                    var n: Int
                    if tf == 1 {
                        n = Self.encodeVarInt(delta &<< 1 | 1, out)
                    } else {
                        n = Self.encodeVarInt(delta &<< 1, out)
                        n += Self.encodeVarInt(UInt32(tf), out + n)
                    }
                    storage.append(out, count: n, to: &states[t].docs)
                    docBytes += n
                    n = 0
                    var previous: UInt32 = 0
                    let first = Int(starts[e])
                    for k in first..<(first + tf) {
                        let position = positions[k]
                        n += Self.encodeVarInt(position &- previous, out + n)
                        previous = position
                    }
                    storage.append(out, count: n, to: &states[t].positions)
                    positionBytes += n
                }
            }
        }
        postingCount += count
        docByteCount += docBytes
        positionByteCount += positionBytes
    }

    /// The most pool bytes one document's postings take: two new streams of 12 bytes per term new to the buffer;
    /// per entry a doc varint pair (10 bytes), per pair a position varint (5); allocated slices at most 1.5 times
    /// what fills them (a slice of `s` bytes holds `s - 4`) plus, per stream touched, one last slice of up to 1,028.
    static func poolGrowthBound(newTerms: Int, entries: Int, pairs: Int) -> Int {
        let maxSlice = Int(ByteSlicePool.sizes[ByteSlicePool.sizes.count - 1])
        return 24 * max(newTerms, 0) + (15 + 2 * maxSlice) * entries + 8 * pairs
    }

    /// Grows `array`, whose count is room rather than content, to at least `needed` zeroed elements (at least
    /// doubling, so growth is amortized).
    private static func ensureRoom(_ array: inout [UInt32], _ needed: Int) {
        guard array.count < needed else { return }
        array.append(contentsOf: repeatElement(0, count: max(needed, 2 * array.count) - array.count))
    }

    /// Room for `extra` more pairs after the first `pairCount`.
    private mutating func reservePairs(_ extra: Int) {
        Self.ensureRoom(&pairTerm, pairCount + extra)
        Self.ensureRoom(&pairPosition, pairCount + extra)
    }

    /// Analyzes one text value of `field`, interning each token as the analyzer hands it over (no token buffer in
    /// between), and appends its pairs; returns the next free position. When the value yields more tokens than
    /// its room (`pairRoomDivisor`), it is analyzed again with twice the room: interning the same terms again
    /// changes nothing.
    private mutating func analyzeInterning(_ text: String, field: FieldID, analyzer: Analyzer, first: UInt32) -> UInt32 {
        var room = text.utf8.count / pairRoomDivisor + 16
        while true {
            reservePairs(room)
            let start = pairCount
            let (next, count, overflowed) = pairTerm.withUnsafeMutableBufferPointer { terms in
                pairPosition.withUnsafeMutableBufferPointer { positions in
                    withUnsafeMutablePointer(to: &interner) { interner in
                        var sink = InterningSink(interner: interner, field: field.rawValue, terms: terms.baseAddress! + start,
                                                 positions: positions.baseAddress! + start, capacity: terms.count - start)
                        let next = analyzer.analyze(text, mode: .index, firstPosition: first, scratch: &analyzerScratch,
                                                    into: &sink)
                        return (next, sink.count, sink.overflowed)
                    }
                }
            }
            if !overflowed {
                pairCount = start + count
                return next
            }
            room = 2 * max(room, count)
            pairRoomRetries += 1
        }
    }

    /// Interns the tokens of a value as `analyzeInterning` does, for a value analyzed beforehand.
    private mutating func internTokens(field: FieldID, _ tokens: TokenBuffer, records range: Range<Int>,
                                       hashes: [UInt32]) {
        reservePairs(range.count)
        let start = pairCount
        tokens.bytes.withUnsafeBufferPointer { bytes in
            tokens.records.withUnsafeBufferPointer { records in
                pairTerm.withUnsafeMutableBufferPointer { terms in
                    pairPosition.withUnsafeMutableBufferPointer { positions in
                        for (offset, index) in range.enumerated() {
                            let record = records[index]
                            let termStart = Int(record.termStart)
                            let term = UnsafeBufferPointer(rebasing: bytes[termStart..<termStart + Int(record.termLength)])
                            terms[start + offset] = interner.intern(term, field: field.rawValue, hash: hashes[index])
                            positions[start + offset] = record.position
                        }
                    }
                }
            }
        }
        pairCount += range.count
    }

    private mutating func internKey(field: Int, term: UnsafeBufferPointer<UInt8>) -> UInt32 {
        interner.intern(term, field: UInt16(field))
    }

    /// Appends the live documents of sealed segments (in order) without re-analyzing: per-document data is
    /// copied and every posting is re-interned and renumbered. Used by merges. A segment without deleted
    /// documents (the common case: a commit's batch of new items) takes `appendWhole`, which decodes each term's
    /// postings in blocks and copies its positions whole, without re-interning a posting.
    /// Throws `segmentTooLarge` once what it gathered passes `limits` (checked per source, document and term).
    mutating func append(segment: Segment, live: Bitset) throws(EngineError) {
        if live.cardinality == segment.documentCount {
            try appendWhole(segment)
            return
        }
        guard documentCount + live.cardinality <= limits.maxDocuments,
              idBytes.count + segment.idBytes.count <= limits.maxBytes else { throw .segmentTooLarge }
        let fieldCount = max(segment.norms.count, segment.numericOffsets.count, segment.fieldTerms.count)
        growFields(to: fieldCount)
        var remap = [UInt32](repeating: UInt32.max, count: segment.documentCount)
        let base = documentCount
        for doc in 0..<segment.documentCount where live[doc] {
            // Per document, before its offsets: a record may be long once its cold texts are decompressed.
            guard storedBytes.count <= limits.maxBytes else { throw .segmentTooLarge }
            let newDoc = documentCount
            remap[doc] = UInt32(newDoc)
            for f in 0..<segment.norms.count where !segment.norms[f].isEmpty || !norms[f].isEmpty {
                if norms[f].isEmpty { norms[f] = [UInt8](repeating: 0, count: newDoc) }
                let norm = segment.norms[f].isEmpty ? 0 : segment.norms[f][doc]
                norms[f].append(norm)
                lengthSum[f] += UInt64(FieldNorm.lengths[Int(norm)])
                if norm > 0 { fieldDocCount[f] += 1 }
            }
            for f in 0..<numericOffsets.count where !numericOffsets[f].isEmpty
                || (f < segment.numericOffsets.count && !segment.numericOffsets[f].isEmpty) {
                if numericOffsets[f].isEmpty { numericOffsets[f] = [UInt32](repeating: 0, count: newDoc + 1) }
                if f < segment.numericOffsets.count, !segment.numericOffsets[f].isEmpty {
                    numericValues[f].append(contentsOf: segment.numbers(FieldID(rawValue: UInt16(f)), doc))
                }
                numericOffsets[f].append(UInt32(numericValues[f].count))
            }
            segment.withStoredRecord(doc) { storedBytes.append(contentsOf: $0) }
            storedOffsets.append(UInt32(storedBytes.count))
            appendIdentity(id: segment.id(doc), domain: segment.domain(doc))
            documentCount += 1
        }
        // Norms of fields this builder knows but the segment lacks must stay aligned.
        for f in 0..<norms.count where !norms[f].isEmpty && norms[f].count < documentCount {
            norms[f].append(contentsOf: repeatElement(0, count: documentCount - norms[f].count))
        }
        guard documentCount > base else { return }
        for (f, terms) in segment.fieldTerms.enumerated() {
            guard let terms else { continue }
            for index in 0..<terms.count {
                guard pool.usedBytes <= limits.maxBytes else { throw .segmentTooLarge }
                let termID = terms.withTerm(index) { internKey(field: f, term: $0) }
                let cursor = PostingCursor(segment: segment, terms: terms, index: index, field: f)
                while cursor.next() != PostingCursor.end {
                    let newDoc = remap[cursor.doc]
                    if newDoc == UInt32.max { continue }
                    positions.removeAll(keepingCapacity: true)
                    cursor.positions(into: &positions)
                    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 3) { entry in
                        entry[0] = termID
                        entry[1] = UInt32(positions.count)
                        entry[2] = 0
                        let base = entry.baseAddress!
                        positions.withUnsafeBufferPointer { all in
                            appendPostings(doc: newDoc, count: 1, terms: UnsafeBufferPointer(start: base, count: 1),
                                           tfs: UnsafeBufferPointer(start: base + 1, count: 1),
                                           starts: UnsafeBufferPointer(start: base + 2, count: 1), positions: all,
                                           largestTf: all.count)
                        }
                    }
                }
            }
        }
    }

    /// Appends every document of `segment` (none deleted): documents keep their order, renumbered by a constant
    /// offset, so per-document columns are copied in bulk, and each term's postings are decoded whole
    /// (`PostingBlocks`) and appended as the builder's varints, renumbered. Positions are delta-coded per document,
    /// so they are copied byte for byte. The result is identical to appending document by document.
    private mutating func appendWhole(_ segment: Segment) throws(EngineError) {
        guard segment.documentCount > 0 else { return }
        let base = documentCount
        try appendWholeDocuments(segment)
        let fits = segment.docBytes.withUnsafeBufferPointer { docs in
            segment.positionBytes.withUnsafeBufferPointer { positions in
                for (f, terms) in segment.fieldTerms.enumerated() {
                    guard let terms else { continue }
                    for index in 0..<terms.count {
                        // Per term: the pool's 32-bit addresses keep `SegmentLimits`' headroom.
                        guard pool.usedBytes <= limits.maxBytes else { return false }
                        let termID = terms.withTerm(index) { internKey(field: f, term: $0) }
                        appendEncodedPostings(term: termID, docBase: UInt32(base), docFreq: Int(terms.docFreq[index]),
                                              docs: docs, docStart: Int(terms.postingStart[index]),
                                              positions: positions, positionStart: Int(terms.positionStart[index]))
                    }
                }
                return true
            }
        }
        guard fits else { throw .segmentTooLarge }
    }

    /// Appends everything of a whole segment but its postings: norms, numbers, stored records, ids and domains.
    /// Throws `segmentTooLarge` before an offset could pass `limits` (documents and ids per segment, stored records
    /// per document: a record may be long once its cold texts are decompressed).
    private mutating func appendWholeDocuments(_ segment: Segment) throws(EngineError) {
        let n = segment.documentCount
        guard n > 0 else { return }
        guard documentCount + n <= limits.maxDocuments, idBytes.count + segment.idBytes.count <= limits.maxBytes
        else { throw .segmentTooLarge }
        let fieldCount = max(segment.norms.count, segment.numericOffsets.count, segment.fieldTerms.count)
        growFields(to: fieldCount)
        let base = documentCount
        for f in 0..<segment.norms.count where !segment.norms[f].isEmpty || !norms[f].isEmpty {
            if norms[f].isEmpty { norms[f] = [UInt8](repeating: 0, count: base) }
            let source = segment.norms[f]
            if source.isEmpty {
                norms[f].append(contentsOf: repeatElement(0, count: n))
                lengthSum[f] += UInt64(FieldNorm.lengths[0]) * UInt64(n)
            } else {
                var sum: UInt64 = 0, nonzero: UInt32 = 0
                for doc in 0..<n {
                    let norm = source[doc]
                    sum += UInt64(FieldNorm.lengths[Int(norm)])
                    if norm > 0 { nonzero += 1 }
                }
                norms[f].append(contentsOf: source[0..<n])
                lengthSum[f] += sum
                fieldDocCount[f] += nonzero
            }
        }
        for f in 0..<numericOffsets.count {
            let has = f < segment.numericOffsets.count && !segment.numericOffsets[f].isEmpty
            guard has || !numericOffsets[f].isEmpty else { continue }
            if numericOffsets[f].isEmpty { numericOffsets[f] = [UInt32](repeating: 0, count: base + 1) }
            if has {
                let offsets = segment.numericOffsets[f]
                let first = Int(offsets[0]), current = numericValues[f].count
                numericValues[f].append(contentsOf: segment.numericValues[f][first..<Int(offsets[n])])
                for doc in 1...n { numericOffsets[f].append(UInt32(Int(offsets[doc]) - first + current)) }
            } else {
                numericOffsets[f].append(contentsOf: repeatElement(UInt32(numericValues[f].count), count: n))
            }
        }
        // Whole records (cold texts decompressed): sealing the merged segment compresses them anew, against a
        // dictionary sampled from all of its documents.
        for doc in 0..<n {
            guard storedBytes.count <= limits.maxBytes else { throw .segmentTooLarge }
            segment.withStoredRecord(doc) { storedBytes.append(contentsOf: $0) }
            storedOffsets.append(UInt32(storedBytes.count))
        }
        let idFirst = Int(segment.idOffsets[0]), idBase = idBytes.count
        idBytes.append(contentsOf: segment.idBytes[idFirst..<Int(segment.idOffsets[n])])
        for doc in 1...n { idOffsets.append(UInt32(Int(segment.idOffsets[doc]) - idFirst + idBase)) }
        var ordinals = [UInt32](repeating: 0, count: segment.domains.count)
        for (ordinal, domain) in segment.domains.enumerated() where ordinal != 0 && !domain.isEmpty {
            if let known = domainIndex[ExactIdentifier(domain)] {
                ordinals[ordinal] = known
            } else {
                let new = UInt32(domains.count)
                domains.append(domain)
                domainIndex[ExactIdentifier(domain)] = new
                ordinals[ordinal] = new
            }
        }
        for doc in 0..<n { domainOrdinals.append(ordinals[Int(segment.domainOrdinals[doc])]) }
        documentCount += n
        // Norms of fields this builder knows but the segment lacks must stay aligned.
        for f in 0..<norms.count where !norms[f].isEmpty && norms[f].count < documentCount {
            norms[f].append(contentsOf: repeatElement(0, count: documentCount - norms[f].count))
        }
    }

    /// Appends one term's encoded postings from a sealed segment whose documents are renumbered by `docBase`.
    private mutating func appendEncodedPostings(term: UInt32, docBase: UInt32, docFreq df: Int,
                                                docs: UnsafeBufferPointer<UInt8>, docStart: Int,
                                                positions: UnsafeBufferPointer<UInt8>, positionStart: Int) {
        guard df > 0 else { return }
        let t = Int(term)
        while termStates.count <= t {
            termStates.append(TermState(docs: pool.makeStream(), positions: pool.makeStream()))
        }
        PostingBlocks.decodeTerm(docs, start: docStart, docFreq: df, base: docBase, docs: &wholeDocs, tfs: &wholeTfs)
        // The builder's varints, the first gap from the term's last document here.
        wholeBytes.removeAll(keepingCapacity: true)
        wholeDocs.withUnsafeBufferPointer { docs in
            wholeTfs.withUnsafeBufferPointer { tfs in
                PostingBlocks.appendVarints(docs: docs, tfs: tfs, after: termStates[t].lastDoc, to: &wholeBytes)
            }
        }
        let positionCount = wholeTfs.reduce(0) { $0 + Int($1) }
        wholeBytes.withUnsafeBufferPointer { pool.appendBulk($0.baseAddress!, count: $0.count, to: &termStates[t].docs) }
        docByteCount += wholeBytes.count
        var positionEnd = positionStart
        VarInt.skip(positions, &positionEnd, count: positionCount)
        if positionEnd > positionStart {
            pool.appendBulk(positions.baseAddress! + positionStart, count: positionEnd - positionStart,
                            to: &termStates[t].positions)
            positionByteCount += positionEnd - positionStart
        }
        termStates[t].lastDoc = wholeDocs[df - 1]
        termStates[t].docFreq += UInt32(df)
        postingCount += df
    }

    /// Encodes the buffer as an immutable segment.
    func seal() throws(EngineError) -> Segment {
        // Doc deltas are shifted left by one bit in the postings, so documents stay below 2^31.
        guard fitsLimits else { throw .segmentTooLarge }
        // The stored values compress on another core while the postings are sealed here.
        let stored = StoredRecords.Pending(records: storedBytes, offsets: storedOffsets,
                                           minimumColdBytes: minimumColdBytes)
        let arena = interner.arena
        let starts = interner.starts
        let termFields = interner.fields
        let sorted = TermKeySort.order(arena: arena, starts: starts, fields: termFields)
        var out = SealedPostings(docByteCount: docByteCount, positionByteCount: positionByteCount, fieldCount: norms.count,
                                 maxBytes: limits.maxBytes)
        let impactConstants = self.impactConstants
        var cursor = 0
        while cursor < sorted.count {
            let firstTerm = Int(sorted[cursor])
            let field = Int(termFields[firstTerm])
            var terms = SealedPostings.FieldBuilder()
            while cursor < sorted.count {
                let t = Int(sorted[cursor])
                let s = Int(starts[t]), e = Int(starts[t + 1])
                if Int(termFields[t]) != field { break }
                let df = t < termStates.count ? Int(termStates[t].docFreq) : 0
                cursor += 1
                // Terms whose every posting was dropped (deleted documents in a merge) are not kept.
                guard df > 0 else { continue }
                try out.startTerm(arena[s..<e], of: &terms)
                pool.copy(termStates[t].docs, to: &out.docBytes)
                pool.copy(termStates[t].positions, to: &out.positionBytes)
                try out.endTerm(&terms, docFreq: df, norms: field < norms.count ? norms[field] : [],
                                impactConstant: impactConstants[field])
            }
            try out.finish(terms, field: field)
        }
        return makeSegment(out, impactConstants: impactConstants, stored: stored.wait())
    }

    /// The BM25 impact constant of each field (from its average length), for block maxima.
    private var impactConstants: [Float] {
        (0..<norms.count).map { Segment.impactConstant(lengthSum: lengthSum[$0], documents: fieldDocCount[$0]) }
    }

    /// Merges whole segments (every document live) into one, in order, the same as appending them and sealing but
    /// without re-interning or re-sorting a term: each source's dictionary is sorted, so each field's terms are a
    /// k-way merge, and a term's postings are the sources' postings one after another, renumbered and laid out
    /// anew (`PostingBlocks`: the blocks fall elsewhere; skip data is rebuilt for the longer lists), its positions the
    /// sources' bytes.
    static func mergeWhole(_ sources: [Segment], minimumColdBytes: Int = StoredRecords.minimumColdBytes,
                           limits: SegmentLimits = .standard) throws(EngineError) -> Segment {
        var builder = SegmentBuilder()
        builder.minimumColdBytes = minimumColdBytes
        builder.limits = limits
        var bases: [UInt32] = []
        for segment in sources {
            bases.append(UInt32(builder.documentCount))
            try builder.appendWholeDocuments(segment)
        }
        guard builder.fitsLimits else { throw .segmentTooLarge }
        let stored = StoredRecords.Pending(records: builder.storedBytes, offsets: builder.storedOffsets,
                                           minimumColdBytes: minimumColdBytes)
        let impactConstants = builder.impactConstants
        var out = SealedPostings(docByteCount: sources.reduce(0) { $0 + $1.docBytes.count },
                           positionByteCount: sources.reduce(0) { $0 + $1.positionBytes.count },
                           fieldCount: builder.norms.count, maxBytes: limits.maxBytes)
        for field in 0..<builder.norms.count {
            let norms = builder.norms[field], impactConstant = impactConstants[field]
            var terms = SealedPostings.FieldBuilder()
            let failure = SealedPostings.RawTerms.with(sources, field: field) { dictionaries -> EngineError? in
              do throws(EngineError) {
                var next = [Int](repeating: 0, count: sources.count)
                while true {
                    // The smallest current term; the sources that hold it contribute in order.
                    var smallest = -1
                    for source in sources.indices {
                        guard let dictionary = dictionaries[source], next[source] < dictionary.count else { continue }
                        if smallest < 0 || dictionary.compare(next[source], dictionaries[smallest]!, next[smallest]) < 0 {
                            smallest = source
                        }
                    }
                    guard smallest >= 0 else { break }
                    let lead = dictionaries[smallest]!, leadIndex = next[smallest]
                    try out.startTerm(lead.term(leadIndex), of: &terms)
                    var docFreq = 0
                    for source in smallest..<sources.count {
                        guard let dictionary = dictionaries[source], next[source] < dictionary.count,
                              source == smallest || dictionary.compare(next[source], lead, leadIndex) == 0 else { continue }
                        let index = next[source]
                        next[source] += 1
                        out.appendStream(of: dictionary, index, docBase: bases[source])
                        docFreq += Int(dictionary.docFreq[index])
                    }
                    try out.endTerm(&terms, docFreq: docFreq, norms: norms, impactConstant: impactConstant)
                }
                return nil
              } catch {
                return error
              }
            }
            if let failure { throw failure }
            if terms.count > 0 { try out.finish(terms, field: field) }
        }
        return builder.makeSegment(out, impactConstants: impactConstants, stored: stored.wait())
    }

    /// The segment of this builder's documents with `postings`.
    private func makeSegment(_ postings: SealedPostings, impactConstants: [Float], stored: StoredRecords) -> Segment {
        var numericOffsets = self.numericOffsets
        for f in 0..<numericOffsets.count where !numericOffsets[f].isEmpty && numericOffsets[f].count < documentCount + 1 {
            let last = numericOffsets[f].last ?? 0
            numericOffsets[f].append(contentsOf: repeatElement(last, count: documentCount + 1 - numericOffsets[f].count))
        }
        var norms = self.norms
        for f in 0..<norms.count where !norms[f].isEmpty && norms[f].count < documentCount {
            norms[f].append(contentsOf: repeatElement(0, count: documentCount - norms[f].count))
        }
        return Segment(documentCount: documentCount, fieldTerms: postings.fieldTerms, docBytes: postings.docBytes,
                       positionBytes: postings.positionBytes, skipLastDoc: postings.skipLastDoc,
                       skipDocOffset: postings.skipDocOffset, skipPositionOffset: postings.skipPositionOffset,
                       skipMaxTf: postings.skipMaxTf, skipMaxImpact: postings.skipMaxImpact, impactConstants: impactConstants,
                       norms: norms, lengthSum: lengthSum, fieldDocCount: fieldDocCount,
                       numericOffsets: numericOffsets, numericValues: numericValues,
                       stored: stored, idBytes: idBytes, idOffsets: idOffsets,
                       domainOrdinals: domainOrdinals, domains: domains)
    }

    /// Makes `doc` the buffered document with its id; returns the one it displaces (an earlier version), if any.
    mutating func claimID(of doc: Int) -> Int? {
        let ids = idBytes, offsets = idOffsets
        return ids.withUnsafeBufferPointer { ids in
            let key = Self.id(doc, in: ids, offsets: offsets)
            return identifiers.insert(doc, hash: Segment.hashID(key)) { other in
                other != doc && Self.id(other, in: ids, offsets: offsets).elementsEqual(key)
            }
        }
    }

    /// Forgets the buffered document with external id `id` (deleted); returns it, if any.
    mutating func releaseID(_ id: String) -> Int? {
        let ids = idBytes, offsets = idOffsets
        return id.withUTF8Bytes { key in
            ids.withUnsafeBufferPointer { ids in
                identifiers.remove(hash: Segment.hashID(key)) { Self.id($0, in: ids, offsets: offsets).elementsEqual(key) }
            }
        }
    }

    /// Forgets buffered document `doc` as the holder of its id (deleted).
    mutating func releaseID(of doc: Int) {
        let ids = idBytes, offsets = idOffsets
        ids.withUnsafeBufferPointer { ids in
            _ = identifiers.remove(hash: Segment.hashID(Self.id(doc, in: ids, offsets: offsets))) { $0 == doc }
        }
    }

    /// The id bytes of buffered document `doc`.
    private static func id(_ doc: Int, in ids: UnsafeBufferPointer<UInt8>, offsets: [UInt32]) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: ids[Int(offsets[doc])..<Int(offsets[doc + 1])])
    }

    /// The domain of a buffered document (for deletes inside a batch).
    func domain(_ doc: Int) -> String? {
        let ordinal = Int(domainOrdinals[doc])
        return ordinal == 0 ? nil : domains[ordinal]
    }
}

/// Interns each token as the analyzer hands it over into a document's pair room (`SegmentBuilder.analyzeInterning`);
/// a token past the room is not written and sets `overflowed`.
private struct InterningSink: TokenSink {
    let interner: UnsafeMutablePointer<TermInterner>
    let field: UInt16
    let terms: UnsafeMutablePointer<UInt32>
    let positions: UnsafeMutablePointer<UInt32>
    let capacity: Int
    var count = 0
    var overflowed = false

    @inline(__always)
    mutating func take(_ term: UnsafeBufferPointer<UInt8>, position: UInt32, byteStart: Int, byteEnd: Int, kind: TokenKind) {
        guard count < capacity else {
            overflowed = true
            return
        }
        terms[count] = interner.pointee.intern(term, field: field)
        positions[count] = position
        count += 1
    }
}
