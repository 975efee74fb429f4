/// The mutable in-memory buffer of the writer. Documents are analyzed once; each (field, term) is
/// interned to an integer id and each document contributes one posting entry per distinct term
/// (term id, doc, tf, positions). `seal()` groups entries by term with a counting sort, sorts the term
/// keys, and encodes the flat arrays of a `Segment`.
struct SegmentBuilder {
    private(set) var documentCount = 0
    /// Keys are a 2-byte big-endian field id followed by the folded term bytes.
    private var interner = TermInterner()
    private var entryTerm: [UInt32] = []
    private var entryDoc: [UInt32] = []
    private var entryTf: [UInt32] = []
    private var entryPositionStart: [UInt32] = []
    private var positions: [UInt32] = []
    private var norms: [[UInt8]] = []
    private var lengthSum: [UInt64] = []
    private var fieldDocCount: [UInt32] = []
    private var numericOffsets: [[UInt32]] = []
    private var numericValues: [[Double]] = []
    private var storedBytes: [UInt8] = []
    private var storedOffsets: [UInt32] = [0]
    private var idBytes: [UInt8] = []
    private var idOffsets: [UInt32] = [0]
    private var domainOrdinals: [UInt32] = []
    private var domains: [String] = [""]
    private var domainIndex: [String: UInt32] = [:]

    // Per-document scratch, reused.
    private var tokens = TokenBuffer()
    private var key: [UInt8] = []
    private var pairTerm: [UInt32] = []
    private var pairPosition: [UInt32] = []
    private var lastSeen: [UInt32] = []
    private var entryOfTerm: [UInt32] = []
    private var fieldLength: [Int] = []
    private var fieldNextPosition: [UInt32] = []

    /// Gap between the values of a multi-valued text field, so a phrase never spans two values.
    static let valueGap: UInt32 = 100

    var isEmpty: Bool { documentCount == 0 }

    var memoryBytes: Int {
        interner.memoryBytes + (entryTerm.capacity + entryDoc.capacity + entryTf.capacity
            + entryPositionStart.capacity + positions.capacity) * 4 + storedBytes.capacity + idBytes.capacity
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
        }
    }

    /// Adds a document; returns its number in this buffer.
    mutating func add(_ document: Document, schema: Schema, analyzer: Analyzer) -> Int {
        let doc = UInt32(documentCount)
        growFields(to: schema.fields.count)
        pairTerm.removeAll(keepingCapacity: true)
        pairPosition.removeAll(keepingCapacity: true)
        var touchedText: [Int] = []
        for (field, value) in document.values {
            let f = Int(field.rawValue)
            guard let kind = schema.kind(field) else { continue }
            switch (kind, value) {
            case (.text, .text(let text)):
                let seen = touchedText.contains(f)
                if !seen { touchedText.append(f) }
                let first = seen ? fieldNextPosition[f] + Self.valueGap : 0
                tokens.removeAll()
                let next = analyzer.analyze(text, mode: .index, firstPosition: first, into: &tokens)
                fieldLength[f] += Int(next - first)
                fieldNextPosition[f] = next
                internTokens(field: field)
            case (.numeric, .number(let number)):
                if numericOffsets[f].isEmpty { numericOffsets[f] = [UInt32](repeating: 0, count: Int(doc) + 1) }
                numericValues[f].append(number)
            default:
                break
            }
        }
        // Group this document's (term, position) pairs into one entry per term.
        let firstEntry = entryTerm.count
        if lastSeen.count < interner.count {
            lastSeen.append(contentsOf: repeatElement(0, count: interner.count - lastSeen.count + 1024))
            entryOfTerm.append(contentsOf: repeatElement(0, count: lastSeen.count - entryOfTerm.count))
        }
        for term in pairTerm {
            let t = Int(term)
            if lastSeen[t] != doc + 1 {
                lastSeen[t] = doc + 1
                entryOfTerm[t] = UInt32(entryTerm.count)
                entryTerm.append(term)
                entryDoc.append(doc)
                entryTf.append(0)
                entryPositionStart.append(0)
            }
            entryTf[Int(entryOfTerm[t])] += 1
        }
        var start = UInt32(positions.count)
        for e in firstEntry..<entryTerm.count {
            entryPositionStart[e] = start
            start += entryTf[e]
            entryTf[e] = 0
        }
        positions.append(contentsOf: repeatElement(0, count: pairTerm.count))
        for (term, position) in zip(pairTerm, pairPosition) {
            let e = Int(entryOfTerm[Int(term)])
            positions[Int(entryPositionStart[e] + entryTf[e])] = position
            entryTf[e] += 1
        }
        for e in firstEntry..<entryTerm.count where entryTf[e] > 1 {
            let range = Int(entryPositionStart[e])..<Int(entryPositionStart[e] + entryTf[e])
            positions[range].sort()
        }
        // Norms, numeric offsets, stored values, id and domain.
        for f in 0..<norms.count where !norms[f].isEmpty || touchedText.contains(f) {
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
        StoredFields.encode(document.values, into: &storedBytes)
        storedOffsets.append(UInt32(storedBytes.count))
        appendIdentity(id: document.id, domain: document.domain)
        documentCount += 1
        return Int(doc)
    }

    private mutating func appendIdentity(id: String, domain: String?) {
        idBytes.append(contentsOf: id.utf8)
        idOffsets.append(UInt32(idBytes.count))
        if let domain, !domain.isEmpty {
            if let ordinal = domainIndex[domain] {
                domainOrdinals.append(ordinal)
            } else {
                let ordinal = UInt32(domains.count)
                domains.append(domain)
                domainIndex[domain] = ordinal
                domainOrdinals.append(ordinal)
            }
        } else {
            domainOrdinals.append(0)
        }
    }

    private mutating func internTokens(field: FieldID) {
        let hi = UInt8(field.rawValue >> 8), lo = UInt8(field.rawValue & 0xFF)
        for record in tokens.records {
            key.removeAll(keepingCapacity: true)
            key.append(hi)
            key.append(lo)
            let start = Int(record.termStart)
            key.append(contentsOf: tokens.bytes[start..<start + Int(record.termLength)])
            let term = key.withUnsafeBufferPointer { interner.intern($0) }
            pairTerm.append(term)
            pairPosition.append(record.position)
        }
    }

    private mutating func internKey(field: Int, term: UnsafeBufferPointer<UInt8>) -> UInt32 {
        key.removeAll(keepingCapacity: true)
        key.append(UInt8(field >> 8))
        key.append(UInt8(field & 0xFF))
        key.append(contentsOf: term)
        return key.withUnsafeBufferPointer { interner.intern($0) }
    }

    /// Appends the live documents of sealed segments (in order) without re-analyzing: per-document data is
    /// copied and every posting is re-interned and renumbered. Used by merges.
    mutating func append(segment: Segment, live: Bitset) {
        let fieldCount = max(segment.norms.count, segment.numericOffsets.count, segment.fieldTerms.count)
        growFields(to: fieldCount)
        var remap = [UInt32](repeating: UInt32.max, count: segment.documentCount)
        let base = documentCount
        for doc in 0..<segment.documentCount where live[doc] {
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
            storedBytes.append(contentsOf: segment.storedBytes[Int(segment.storedOffsets[doc])..<Int(segment.storedOffsets[doc + 1])])
            storedOffsets.append(UInt32(storedBytes.count))
            appendIdentity(id: segment.id(doc), domain: segment.domain(doc))
            documentCount += 1
        }
        // Norms of fields this builder knows but the segment lacks must stay aligned.
        for f in 0..<norms.count where !norms[f].isEmpty && norms[f].count < documentCount {
            norms[f].append(contentsOf: repeatElement(0, count: documentCount - norms[f].count))
        }
        guard documentCount > base else { return }
        var positionScratch: [UInt32] = []
        for (f, terms) in segment.fieldTerms.enumerated() {
            guard let terms else { continue }
            for index in 0..<terms.count {
                let termID = terms.withTerm(index) { internKey(field: f, term: $0) }
                let cursor = PostingCursor(segment: segment, terms: terms, index: index)
                while cursor.next() != PostingCursor.end {
                    let newDoc = remap[cursor.doc]
                    if newDoc == UInt32.max { continue }
                    positionScratch.removeAll(keepingCapacity: true)
                    cursor.positions(into: &positionScratch)
                    entryTerm.append(termID)
                    entryDoc.append(newDoc)
                    entryTf.append(UInt32(positionScratch.count))
                    entryPositionStart.append(UInt32(positions.count))
                    positions.append(contentsOf: positionScratch)
                }
            }
        }
    }

    /// Encodes the buffer as an immutable segment.
    func seal() throws(EngineError) -> Segment {
        let termCount = interner.count
        guard positions.count < Int(UInt32.max) / 2, storedBytes.count < Int(UInt32.max) else {
            throw .segmentTooLarge
        }
        // Counting sort of entries by term (stable: documents stay in order).
        var termEntryStart = [Int](repeating: 0, count: termCount + 1)
        for term in entryTerm { termEntryStart[Int(term) + 1] += 1 }
        for t in 0..<termCount { termEntryStart[t + 1] += termEntryStart[t] }
        var fill = termEntryStart
        var order = [UInt32](repeating: 0, count: entryTerm.count)
        for (e, term) in entryTerm.enumerated() {
            order[fill[Int(term)]] = UInt32(e)
            fill[Int(term)] += 1
        }
        // Sort term keys bytewise: an 8-byte big-endian prefix first, the full bytes on ties.
        let arena = interner.arena
        let starts = interner.starts
        var prefixes = [UInt64](repeating: 0, count: termCount)
        for t in 0..<termCount {
            var p: UInt64 = 0
            let s = Int(starts[t]), e = Int(starts[t + 1])
            for k in 0..<8 { p = p << 8 | (s + k < e ? UInt64(arena[s + k]) : 0) }
            prefixes[t] = p
        }
        var sorted = Array(0..<UInt32(termCount))
        arena.withUnsafeBufferPointer { a in
            sorted.sort { x, y in
                let px = prefixes[Int(x)], py = prefixes[Int(y)]
                if px != py { return px < py }
                let xs = Int(starts[Int(x)]), xe = Int(starts[Int(x) + 1])
                let ys = Int(starts[Int(y)]), ye = Int(starts[Int(y) + 1])
                let common = min(xe - xs, ye - ys)
                let c = common > 0 ? memcmp(a.baseAddress! + xs, a.baseAddress! + ys, common) : 0
                return c != 0 ? c < 0 : (xe - xs) < (ye - ys)
            }
        }
        var docBytes: [UInt8] = []
        var positionBytes: [UInt8] = []
        docBytes.reserveCapacity(entryTerm.count * 2)
        positionBytes.reserveCapacity(positions.count + positions.count / 4)
        var skipLastDoc: [UInt32] = [], skipDocOffset: [UInt32] = [], skipPositionOffset: [UInt32] = []
        var skipMaxTf: [UInt32] = [], skipMinNorm: [UInt8] = []
        var fieldTerms = [FieldTerms?](repeating: nil, count: norms.count)
        var cursor = 0
        while cursor < sorted.count {
            let firstTerm = Int(sorted[cursor])
            let field = Int(arena[Int(starts[firstTerm])]) << 8 | Int(arena[Int(starts[firstTerm]) + 1])
            var bytes: [UInt8] = [], offsets: [UInt32] = [0], docFreq: [UInt32] = []
            var postingStart: [UInt32] = [], blockStart: [UInt32] = []
            while cursor < sorted.count {
                let t = Int(sorted[cursor])
                let s = Int(starts[t]), e = Int(starts[t + 1])
                let f = Int(arena[s]) << 8 | Int(arena[s + 1])
                if f != field { break }
                bytes.append(contentsOf: arena[(s + 2)..<e])
                offsets.append(UInt32(bytes.count))
                let entries = termEntryStart[t]..<termEntryStart[t + 1]
                docFreq.append(UInt32(entries.count))
                postingStart.append(UInt32(docBytes.count))
                blockStart.append(UInt32(skipLastDoc.count))
                let fieldNorms = field < norms.count ? norms[field] : []
                var previousDoc: UInt32 = 0
                var inBlock = 0
                for k in entries {
                    let entry = Int(order[k])
                    let doc = entryDoc[entry], tf = entryTf[entry]
                    if inBlock == 0 {
                        skipDocOffset.append(UInt32(docBytes.count))
                        skipPositionOffset.append(UInt32(positionBytes.count))
                        skipLastDoc.append(0)
                        skipMaxTf.append(0)
                        skipMinNorm.append(255)
                    }
                    VarInt.append(doc &- previousDoc, to: &docBytes)
                    VarInt.append(tf, to: &docBytes)
                    previousDoc = doc
                    var previousPosition: UInt32 = 0
                    let p0 = Int(entryPositionStart[entry])
                    for p in p0..<(p0 + Int(tf)) {
                        VarInt.append(positions[p] &- previousPosition, to: &positionBytes)
                        previousPosition = positions[p]
                    }
                    let last = skipLastDoc.count - 1
                    skipLastDoc[last] = doc
                    skipMaxTf[last] = max(skipMaxTf[last], tf)
                    if Int(doc) < fieldNorms.count { skipMinNorm[last] = min(skipMinNorm[last], fieldNorms[Int(doc)]) }
                    inBlock += 1
                    if inBlock == Segment.blockSize { inBlock = 0 }
                }
                cursor += 1
            }
            guard docBytes.count < Int(UInt32.max), positionBytes.count < Int(UInt32.max) else {
                throw .segmentTooLarge
            }
            if field < fieldTerms.count {
                fieldTerms[field] = FieldTerms(bytes: bytes, offsets: offsets, docFreq: docFreq,
                                               postingStart: postingStart, blockStart: blockStart)
            }
        }
        var numericOffsets = self.numericOffsets
        for f in 0..<numericOffsets.count where !numericOffsets[f].isEmpty && numericOffsets[f].count < documentCount + 1 {
            let last = numericOffsets[f].last ?? 0
            numericOffsets[f].append(contentsOf: repeatElement(last, count: documentCount + 1 - numericOffsets[f].count))
        }
        var norms = self.norms
        for f in 0..<norms.count where !norms[f].isEmpty && norms[f].count < documentCount {
            norms[f].append(contentsOf: repeatElement(0, count: documentCount - norms[f].count))
        }
        return Segment(documentCount: documentCount, fieldTerms: fieldTerms, docBytes: docBytes,
                       positionBytes: positionBytes, skipLastDoc: skipLastDoc, skipDocOffset: skipDocOffset,
                       skipPositionOffset: skipPositionOffset, skipMaxTf: skipMaxTf, skipMinNorm: skipMinNorm,
                       norms: norms, lengthSum: lengthSum, fieldDocCount: fieldDocCount,
                       numericOffsets: numericOffsets, numericValues: numericValues, storedBytes: storedBytes,
                       storedOffsets: storedOffsets, idBytes: idBytes, idOffsets: idOffsets,
                       domainOrdinals: domainOrdinals, domains: domains)
    }

    /// Document ids and domains of the buffered documents (for deletes inside a batch).
    func id(_ doc: Int) -> String {
        String(decoding: idBytes[Int(idOffsets[doc])..<Int(idOffsets[doc + 1])], as: UTF8.self)
    }

    func domain(_ doc: Int) -> String? {
        let ordinal = Int(domainOrdinals[doc])
        return ordinal == 0 ? nil : domains[ordinal]
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
