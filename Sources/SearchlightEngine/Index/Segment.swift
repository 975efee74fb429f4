import Dispatch
import Synchronization

/// An immutable, sealed segment: flat arrays only (term dictionaries, posting and position byte streams,
/// skip data, norms, numeric columns, stored values, ids and domains), so a durable store can write and
/// load it without re-tokenizing. Deletions live outside, in the snapshot's tombstones.
///
/// Postings: per term, blocks of 128 documents (`PostingBlocks`: a longer term's full blocks bit-packed, other blocks
/// `varint(doc delta << 1 | tf == 1)` per document, followed by `varint(tf)` only when tf > 1); the
/// positions of a block live in `positionBytes` as per-document delta varints. One skip entry per block
/// holds the block's last doc, its byte offsets and its best-case impact (max tf, min norm) for
/// block-max pruning.
final class Segment: Sendable {
    static let blockSize = 128

    let documentCount: Int
    /// Term dictionaries indexed by field id (nil: the field has no terms here).
    let fieldTerms: [FieldTerms?]
    let docBytes: [UInt8]
    let positionBytes: [UInt8]
    let skipLastDoc: [UInt32]
    let skipDocOffset: [UInt32]
    let skipPositionOffset: [UInt32]
    let skipMaxTf: [UInt32]
    /// Per block: max over its documents of `tf / (length + impactConstant)`, the length-dependent part
    /// of BM25F, so a query bounds a block's best score without decoding it.
    let skipMaxImpact: [Float]
    /// Per text field: `C0 = averageLength · (1 − b) / b` with b = 0.75 at seal time.
    let impactConstants: [Float]
    /// Per text field: one norm byte per document (empty array: field absent).
    let norms: [[UInt8]]
    /// Per text field: total token length and number of documents with the field.
    let lengthSum: [UInt64]
    let fieldDocCount: [UInt32]
    /// Per numeric field: offsets (documentCount + 1) into values (empty: field absent).
    let numericOffsets: [[UInt32]]
    let numericValues: [[Double]]
    /// Stored values, long texts compressed (`StoredRecords`).
    let stored: StoredRecords
    let idBytes: [UInt8]
    let idOffsets: [UInt32]
    /// Id hashes sorted, with the document of each, for `lookup(id:)`.
    let idHashes: [UInt64]
    let idHashDocs: [UInt32]
    let domainOrdinals: [UInt32]
    /// Distinct domains; ordinal 0 is "no domain".
    let domains: [String]
    /// The vocabulary of the latest scope asked for (`vocabulary(for:)`): derived, built on first use.
    private let vocabularyCache = Mutex<SegmentVocabulary?>(nil)
    /// The precomputed lists of the wide prefixes searched so far (`PrefixPostings`), by field and prefix: derived,
    /// built on first use.
    private let prefixCache = DerivedCache<PrefixKey, PrefixPostings> { key, list in 48 + key.bytes.count + (list?.memoryBytes ?? 0) }

    /// A wide prefix of one field, whose list records where a term starts the field when the field is primary.
    struct PrefixKey: Hashable, Sendable {
        let field: Int
        let bytes: [UInt8]
        let primary: Bool
    }
    /// The frequency columns of the frequent terms that searches sought through (`FrequencyColumn`), by field and
    /// term: derived, built on first use, at most `columnBudget` bytes of them.
    /// A built column costs its bytes and its entry's; a refused term's entry (a key, bounded by the worthwhile terms)
    /// is not charged to the budget.
    private let columnCache = DerivedCache<ColumnKey, FrequencyColumn> { _, column in column.map { 64 + $0.memoryBytes } ?? 0 }

    /// The position columns of the frequent terms whose phrases were checked at scattered candidates or walked
    /// beside rarer words (`PositionColumn`), by field and term: derived, built on first use, at most
    /// `positionColumnBudget` bytes.
    private let positionColumnCache = DerivedCache<ColumnKey, PositionColumn> { _, column in
        column.map { 64 + $0.memoryBytes } ?? 0
    }

    /// Bytes promised to the frequency and the position columns, built or being built. A build reserves its bytes
    /// before it starts, so first uses of different terms on several threads cannot together pass a budget (each
    /// checking the bytes built so far would let every one of them through).
    private let reservedColumnBytes = Mutex<(frequency: Int, position: Int)>((0, 0))

    /// A term of one field's dictionary, whose column records where it starts the field when the field is primary.
    struct ColumnKey: Hashable, Sendable {
        let field: Int
        let term: Int
        let primary: Bool
    }
    /// The `LeadingKeys` of the latest field asked for: derived, built on first use.
    private let leadingKeysCache = Mutex<LeadingKeys?>(nil)
    /// The named documents and their holders for the latest name field and scope asked for (`names(field:scope:)`):
    /// derived, built on first use.
    private let namesCache = Mutex<SegmentNames?>(nil)
    /// Each numeric field's values in ascending order (`NumericOrder`), by field: derived, built on first use.
    private let numericOrderCache = DerivedCache<Int, NumericOrder> { _, order in 48 + (order?.memoryBytes ?? 0) }
    /// The champion lists of the default fields for the scope the writer last set (nil: none), each key's
    /// built on first use.
    private let championCache = Mutex<ChampionLists?>(nil)

    init(documentCount: Int, fieldTerms: [FieldTerms?], docBytes: [UInt8], positionBytes: [UInt8],
         skipLastDoc: [UInt32], skipDocOffset: [UInt32], skipPositionOffset: [UInt32], skipMaxTf: [UInt32],
         skipMaxImpact: [Float], impactConstants: [Float], norms: [[UInt8]], lengthSum: [UInt64], fieldDocCount: [UInt32],
         numericOffsets: [[UInt32]], numericValues: [[Double]], stored: StoredRecords,
         idBytes: [UInt8], idOffsets: [UInt32], domainOrdinals: [UInt32], domains: [String],
         idHashes loadedHashes: [UInt64]? = nil, idHashDocs loadedHashDocs: [UInt32]? = nil) {
        self.documentCount = documentCount
        self.fieldTerms = fieldTerms
        self.docBytes = docBytes.compacted()
        self.positionBytes = positionBytes.compacted()
        self.skipLastDoc = skipLastDoc.compacted()
        self.skipDocOffset = skipDocOffset.compacted()
        self.skipPositionOffset = skipPositionOffset.compacted()
        self.skipMaxTf = skipMaxTf.compacted()
        self.skipMaxImpact = skipMaxImpact.compacted()
        self.impactConstants = impactConstants
        self.norms = norms.map { $0.compacted() }
        self.lengthSum = lengthSum
        self.fieldDocCount = fieldDocCount
        self.numericOffsets = numericOffsets.map { $0.compacted() }
        self.numericValues = numericValues.map { $0.compacted() }
        self.stored = stored
        self.idBytes = idBytes.compacted()
        self.idOffsets = idOffsets.compacted()
        self.domainOrdinals = domainOrdinals.compacted()
        self.domains = domains
        if let loadedHashes, let loadedHashDocs {
            // Loaded from a durable store's snapshot, which kept the sorted table.
            idHashes = loadedHashes
            idHashDocs = loadedHashDocs
            return
        }
        var pairs: [(UInt64, UInt32)] = []
        pairs.reserveCapacity(documentCount)
        idBytes.withUnsafeBufferPointer { all in
            for doc in 0..<documentCount {
                let slice = UnsafeBufferPointer(rebasing: all[Int(idOffsets[doc])..<Int(idOffsets[doc + 1])])
                pairs.append((Segment.hashID(slice), UInt32(doc)))
            }
        }
        pairs.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        idHashes = pairs.map(\.0)
        idHashDocs = pairs.map(\.1)
    }

    /// The impact constant of a field with these length statistics.
    static func impactConstant(lengthSum: UInt64, documents: UInt32) -> Float {
        let average = documents > 0 ? max(Float(lengthSum) / Float(documents), 1) : 1
        return average * (1 - 0.75) / 0.75
    }

    /// FNV-1a 64 of an id's UTF-8 bytes (stable across processes, unlike `Hasher`).
    static func hashID(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return h
    }

    func terms(_ field: FieldID) -> FieldTerms? {
        Int(field.rawValue) < fieldTerms.count ? fieldTerms[Int(field.rawValue)] : nil
    }

    /// The union of the dictionaries of `scope`'s fields (at most `SegmentVocabulary.maximumScope`), built on
    /// first use and kept for the latest scope asked for (queries use one scope, the default fields, so it is
    /// built once per segment). Concurrent first uses wait for one build rather than each making its own.
    func vocabulary(for scope: [Int]) -> SegmentVocabulary {
        vocabularyCache.withLock { cached in
            if let vocabulary = cached, vocabulary.scope == scope { return vocabulary }
            let built = SegmentVocabulary(scope: scope, dictionaries: scope.map { terms(FieldID(rawValue: UInt16($0))) })
            cached = built
            return built
        }
    }

    /// The documents by how `field`'s values begin (`LeadingKeys`), built on first use and kept for the latest
    /// field asked for (user queries ask for the title only). Concurrent first uses wait for one build.
    func leadingKeys(for field: FieldID) -> LeadingKeys {
        leadingKeysCache.withLock { cached in
            if let keys = cached, keys.field == field { return keys }
            let built = LeadingKeys(segment: self, field: field)
            cached = built
            return built
        }
    }

    private var leadingKeysMemoryBytes: Int { leadingKeysCache.withLock { $0?.memoryBytes ?? 0 } }

    /// The documents whose `field` holds one term and how many documents hold each such name in `scope`'s fields
    /// (`SegmentNames`), built on first use and kept for the latest field and scope asked for (rankings ask for the
    /// title over the default fields), so every snapshot holding the segment shares one. Concurrent first uses wait
    /// for one build.
    func names(field: FieldID, scope: [Int]) -> SegmentNames {
        namesCache.withLock { cached in
            if let names = cached, names.field == Int(field.rawValue), names.scope == scope { return names }
            let built = SegmentNames(segment: self, field: field, scope: scope)
            cached = built
            return built
        }
    }

    private var namesMemoryBytes: Int { namesCache.withLock { $0?.memoryBytes ?? 0 } }

    /// The precomputed list of the wide prefix `key` of `field`, whose terms in the field's dictionary `terms` are
    /// `range` (the prefix itself first when it is a term), for a `primary` field or not (only a primary field's
    /// list records where its terms start the field); nil when the prefix is not wide (`minimumExpansions`
    /// longer terms or fewer), ends inside a character, or its list does not fit the encoding. Built on first use
    /// and kept (`DerivedCache`: concurrent first uses wait for one build).
    func prefixList(field: Int, key: UnsafeBufferPointer<UInt8>, terms: FieldTerms, range: Range<Int>,
                    primary: Bool) -> PrefixPostings? {
        let exact = !range.isEmpty && terms.compare(range.lowerBound, key) == 0
        let expansions = (exact ? range.lowerBound + 1 : range.lowerBound)..<range.upperBound
        guard expansions.count > PrefixPostings.minimumExpansions else { return nil }
        // A prefix ends on a character boundary: the byte after it does not continue a UTF-8 sequence.
        let next = Int(terms.offsets[expansions.lowerBound]) + key.count
        guard next < Int(terms.offsets[expansions.lowerBound + 1]), terms.bytes[next] & 0xC0 != 0x80 else { return nil }
        let wanted = PrefixKey(field: field, bytes: Array(key), primary: primary)
        return prefixCache.value(wanted) {
            // A list that does not fit the encoding would not next time either.
            PrefixPostings.build(segment: self, field: field, terms: terms, key: wanted.bytes, expansions: expansions,
                                 primary: primary).map { .value($0) } ?? .absentForGood
        }
    }

    /// Bytes the frequency columns of this segment may take together: as many as its postings (a column costs
    /// half a byte per document, so a budget tied to the postings keeps them a bounded share of the index), and
    /// room for a few columns in a small segment.
    var columnBudget: Int { max(docBytes.count, 4 * documentCount) }

    /// The frequency column of term `index` of `terms` (`field`'s dictionary here), for a `primary` field or not
    /// (only a primary field's column records where the term starts the field); nil when the term is too rare to
    /// get one (`FrequencyColumn.worthwhile`) or the columns built so far fill `columnBudget`. Built on first use
    /// and kept (`DerivedCache`: concurrent first uses wait for one build).
    func frequencyColumn(field: Int, terms: FieldTerms, index: Int, primary: Bool) -> FrequencyColumn? {
        guard FrequencyColumn.worthwhile(docFreq: Int(terms.docFreq[index]), documentCount: documentCount) else { return nil }
        return columnCache.value(ColumnKey(field: field, term: index, primary: primary)) {
            // Columns are kept for the segment's life, so a full budget stays full: the term goes without for good.
            guard reserve(64 + FrequencyColumn.memoryBytes(documentCount: documentCount), positions: false)
            else { return .absentForGood }
            return .value(FrequencyColumn.build(segment: self, terms: terms, index: index, field: field, primary: primary))
        }
    }

    /// Bytes the position columns of this segment may take together: as many as its position stream (a column
    /// costs five bytes per posting), and room for a few in a small segment. At half the stream, the columns the
    /// phrase walk reads crowded out those its scattered checks read (BENCHMARKS.md §AO).
    var positionColumnBudget: Int { max(positionBytes.count, 8 * documentCount) }

    /// The position column of term `index` of `terms` (`field`'s dictionary here); nil when the term is too rare
    /// to get one (as for `frequencyColumn`), the segment too large (`PositionColumn.maximumSegmentDocuments`) or
    /// the columns built so far would pass `positionColumnBudget`. Built on first use and kept.
    func positionColumn(field: Int, terms: FieldTerms, index: Int) -> PositionColumn? {
        let postings = Int(terms.docFreq[index])
        guard mayHavePositionColumn(docFreq: postings) else { return nil }
        return positionColumnCache.value(ColumnKey(field: field, term: index, primary: false)) {
            // Kept for the segment's life, so a term refused for want of room goes without for good.
            guard reserve(64 + PositionColumn.memoryBytes(documentCount: documentCount, postings: postings), positions: true)
            else { return .absentForGood }
            return .value(PositionColumn.build(segment: self, terms: terms, index: index, field: field))
        }
    }

    /// Reserves `bytes` of the position columns' budget (`positions`) or the frequency columns'; false, reserving
    /// nothing, when they would pass it.
    private func reserve(_ bytes: Int, positions: Bool) -> Bool {
        let budget = positions ? positionColumnBudget : columnBudget
        return reservedColumnBytes.withLock { reserved in
            let used = positions ? reserved.position : reserved.frequency
            guard used + bytes <= budget else { return false }
            if positions { reserved.position += bytes } else { reserved.frequency += bytes }
            return true
        }
    }

    /// Whether a term of `docFreq` postings may get a position column here: frequent enough, in a segment not too
    /// large (the budget aside).
    func mayHavePositionColumn(docFreq: Int) -> Bool {
        documentCount <= PositionColumn.maximumSegmentDocuments
            && FrequencyColumn.worthwhile(docFreq: docFreq, documentCount: documentCount)
    }

    /// The position column of term `index` of `terms` in `field` if a search built it: none is built here.
    func existingPositionColumn(field: Int, index: Int) -> PositionColumn? {
        positionColumnCache.existing(ColumnKey(field: field, term: index, primary: false))
    }

    /// Bytes of the frequency columns built so far.
    var columnMemoryBytes: Int { columnCache.memoryBytes }

    /// Bytes of the position columns built so far.
    var positionColumnMemoryBytes: Int { positionColumnCache.memoryBytes }

    /// The terms whose columns were built, by field (as dictionary indexes of this segment).
    var columnKeysBuilt: [ColumnKey] { columnCache.keysWithValues }

    /// The champion lists (nil: the writer wants none, or has not set their scope yet).
    var championLists: ChampionLists? { championCache.withLock { $0 } }

    /// Makes the lists rank for `scope`: lists for another scope (the default fields or ranking parameters
    /// changed, or a store was loaded before its writer was configured) are dropped; nil drops them. Nothing is
    /// built here: each key's list is built by the first search that asks for it. Writers call it on every
    /// segment when they publish.
    func refreshChampionLists(scope: ChampionLists.Scope?) {
        championCache.withLock { lists in
            guard lists?.scope != scope else { return }
            lists = scope.map { ChampionLists(segment: self, scope: $0) }
        }
    }

    /// Bytes of the champion lists built so far.
    var championMemoryBytes: Int { championCache.withLock { $0?.memoryBytes ?? 0 } }

    /// The prefixes whose lists were built, by field.
    var prefixKeysBuilt: [PrefixKey] { prefixCache.keysWithValues }

    /// Builds the prefix and champion lists and the frequency columns that searches built in `sources` (the
    /// segments this one was merged from), for the keys they still have here: a background merge calls it on its
    /// own thread so that the searches after the merge is published find the lists of the keys in use, as they did
    /// before (a merge run by the commit does not: the commit stays short, and first searches build what they
    /// need). Champion lists are built for the scope of the sources' (publishing drops them if the writer's scope
    /// changed meanwhile).
    func buildLists(searchedIn sources: [Segment]) {
        for prefix in Set(sources.flatMap(\.prefixKeysBuilt)) {
            guard let terms = terms(FieldID(rawValue: UInt16(prefix.field))) else { continue }
            prefix.bytes.withUnsafeBufferPointer { key in
                let range = terms.prefixRange(key)
                if !range.isEmpty {
                    _ = prefixList(field: prefix.field, key: key, terms: terms, range: range, primary: prefix.primary)
                }
            }
        }
        for source in sources {
            for key in source.columnKeysBuilt {
                guard let from = source.terms(FieldID(rawValue: UInt16(key.field))),
                      let terms = terms(FieldID(rawValue: UInt16(key.field))) else { continue }
                // Sources share frequent terms: the cache builds each once, whatever index it had there.
                if let index = from.withTerm(key.term, { terms.find($0) }) {
                    _ = frequencyColumn(field: key.field, terms: terms, index: index, primary: key.primary)
                }
            }
        }
        guard let scope = sources.lazy.compactMap({ $0.championLists?.scope }).first else { return }
        var termKeys = Set<[UInt8]>(), prefixKeys = Set<[UInt8]>()
        for source in sources where source.championLists?.scope == scope {
            guard let built = source.championLists?.keysBuilt else { continue }
            termKeys.formUnion(built.terms)
            prefixKeys.formUnion(built.prefixes)
        }
        refreshChampionLists(scope: scope)
        guard let lists = championLists else { return }
        for key in termKeys { _ = lists.list(key, prefix: false, in: self) }
        for key in prefixKeys { _ = lists.list(key, prefix: true, in: self) }
    }

    /// Bytes of the prefix lists built so far.
    var prefixMemoryBytes: Int { prefixCache.memoryBytes }

    /// Prefix lists kept, built or remembered as not fitting the encoding (tests).
    var prefixListsSeen: Int { prefixCache.count }

    /// The scope of the cached vocabulary (nil before a fuzzy lookup built one).
    var vocabularyScope: [Int]? { vocabularyCache.withLock { $0?.scope } }

    /// The field of the cached leading keys (nil before a search built them).
    var leadingKeysField: FieldID? { leadingKeysCache.withLock { $0?.field } }

    /// The field and scope of the cached names (nil before a ranking built them).
    var namesKey: (field: FieldID, scope: [Int])? {
        namesCache.withLock { $0.map { (FieldID(rawValue: UInt16($0.field)), $0.scope) } }
    }

    /// Bytes of the cached vocabulary (0 before a fuzzy lookup built one).
    var vocabularyMemoryBytes: Int { vocabularyCache.withLock { $0?.memoryBytes ?? 0 } }
    /// Bytes of the near terms its vocabulary keeps (`NearTermsCache`).
    var nearTermsMemoryBytes: Int { vocabularyCache.withLock { $0?.nearTermsCache.memoryBytes ?? 0 } }

    func id(_ doc: Int) -> String {
        String(decoding: idBytes[Int(idOffsets[doc])..<Int(idOffsets[doc + 1])], as: UTF8.self)
    }

    func domain(_ doc: Int) -> String? {
        let ordinal = Int(domainOrdinals[doc])
        return ordinal == 0 ? nil : domains[ordinal]
    }

    /// All documents (live or not) whose id is `id`, in doc order.
    func documents(withID id: String) -> [Int] {
        id.withUTF8Bytes { key in documents(withID: key, hash: Segment.hashID(key)) }
    }

    /// All documents (live or not) whose id has these UTF-8 bytes and `hashID` (computed once for many segments).
    func documents(withID key: UnsafeBufferPointer<UInt8>, hash h: UInt64) -> [Int] {
        var low = 0, high = idHashes.count
        while low < high {
            let mid = (low + high) >> 1
            if idHashes[mid] < h { low = mid + 1 } else { high = mid }
        }
        var found: [Int] = []
        while low < idHashes.count, idHashes[low] == h {
            let doc = Int(idHashDocs[low])
            let matches = idBytes.withUnsafeBufferPointer { all in
                let slice = all[Int(idOffsets[doc])..<Int(idOffsets[doc + 1])]
                return slice.elementsEqual(key)
            }
            if matches { found.append(doc) }
            low += 1
        }
        return found
    }

    func norm(_ field: Int, _ doc: Int) -> UInt8 {
        field < norms.count && !norms[field].isEmpty ? norms[field][doc] : 0
    }

    /// The numeric values of a document's field.
    func numbers(_ field: FieldID, _ doc: Int) -> ArraySlice<Double> {
        let f = Int(field.rawValue)
        guard f < numericOffsets.count, !numericOffsets[f].isEmpty else { return [] }
        return numericValues[f][Int(numericOffsets[f][doc])..<Int(numericOffsets[f][doc + 1])]
    }

    /// `field`'s values in ascending order with their documents (`NumericOrder`), built on first use and kept
    /// (concurrent first uses wait for one build).
    func numericOrder(of field: FieldID) -> NumericOrder {
        let f = Int(field.rawValue)
        return numericOrderCache.value(f) { .value(NumericOrder(segment: self, field: f)) }
            ?? NumericOrder(segment: self, field: f)
    }

    /// Calls `body` with the bytes of document `doc`'s whole stored record (`StoredFields`).
    @inline(__always)
    func withStoredRecord<R>(_ doc: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        stored.withRecord(doc, body)
    }

    /// Calls `body` with a stored record of document `doc` that holds `field`'s values (long texts of other
    /// fields may be left compressed).
    @inline(__always)
    func withStoredRecord<R>(_ doc: Int, holding field: FieldID, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        stored.withRecord(doc, holding: field, body)
    }

    func storedValues(_ doc: Int, only: FieldID? = nil) -> [(FieldID, FieldValue)] {
        guard let only else { return withStoredRecord(doc) { StoredFields.decode($0) } }
        return withStoredRecord(doc, holding: only) { StoredFields.decode($0, only: only) }
    }

    func storedTexts(_ doc: Int, field: FieldID) -> [String] {
        withStoredRecord(doc, holding: field) { StoredFields.texts($0, field: field) }
    }

    func storedValues(_ doc: Int, fields: Set<FieldID>) -> [(FieldID, FieldValue)] {
        stored.withRecord(doc, holding: fields) { StoredFields.decode($0, fields: fields) }
    }

    /// The parts of this segment whose contents differ from `other`'s (empty: the same bytes throughout). Two
    /// ways of building one segment (serial or parallel, merged or built at once) must give the same layout.
    package func differences(from other: Segment) -> [String] {
        var parts: [String] = []
        func check(_ same: Bool, _ part: String) { if !same { parts.append(part) } }
        check(documentCount == other.documentCount, "documentCount")
        check(docBytes == other.docBytes, "docBytes")
        check(positionBytes == other.positionBytes, "positionBytes")
        check(skipLastDoc == other.skipLastDoc, "skipLastDoc")
        check(skipDocOffset == other.skipDocOffset, "skipDocOffset")
        check(skipPositionOffset == other.skipPositionOffset, "skipPositionOffset")
        check(skipMaxTf == other.skipMaxTf, "skipMaxTf")
        check(skipMaxImpact == other.skipMaxImpact, "skipMaxImpact")
        check(fieldTerms.count == other.fieldTerms.count, "fieldTerms.count")
        for (field, (a, b)) in zip(fieldTerms, other.fieldTerms).enumerated() {
            check(a?.bytes == b?.bytes && a?.offsets == b?.offsets && a?.docFreq == b?.docFreq
                  && a?.postingStart == b?.postingStart && a?.blockStart == b?.blockStart
                  && a?.positionStart == b?.positionStart, "terms of field \(field)")
        }
        check(norms == other.norms, "norms")
        check(lengthSum == other.lengthSum, "lengthSum")
        check(fieldDocCount == other.fieldDocCount, "fieldDocCount")
        check(numericOffsets == other.numericOffsets, "numericOffsets")
        check(numericValues == other.numericValues, "numericValues")
        check(stored == other.stored, "stored")
        check(idBytes == other.idBytes, "idBytes")
        check(idOffsets == other.idOffsets, "idOffsets")
        check(domains == other.domains, "domains")
        check(domainOrdinals == other.domainOrdinals, "domainOrdinals")
        return parts
    }

    var memoryBytes: Int {
        var total = docBytes.capacity + positionBytes.capacity + stored.memoryBytes + idBytes.capacity
        total += (skipLastDoc.capacity + skipDocOffset.capacity + skipPositionOffset.capacity + skipMaxTf.capacity) * 4
        total += skipMaxImpact.capacity * 4 + (idOffsets.capacity + domainOrdinals.capacity) * 4
        total += idHashes.capacity * 8 + idHashDocs.capacity * 4
        for terms in fieldTerms { total += terms?.memoryBytes ?? 0 }
        for n in norms { total += n.capacity }
        for o in numericOffsets { total += o.capacity * 4 }
        for v in numericValues { total += v.capacity * 8 }
        for d in domains { total += d.utf8.count + 16 }
        return total + vocabularyMemoryBytes + nearTermsMemoryBytes + prefixMemoryBytes + championMemoryBytes
            + leadingKeysMemoryBytes + namesMemoryBytes + numericOrderCache.memoryBytes
            + columnMemoryBytes + positionColumnMemoryBytes
    }

    /// Bytes per component, for diagnosing where memory goes.
    var memoryBreakdown: [String: Int] {
        var terms = 0
        for t in fieldTerms { terms += t?.memoryBytes ?? 0 }
        return [
            "postings": docBytes.capacity, "positions": positionBytes.capacity,
            "skipData": (skipLastDoc.capacity + skipDocOffset.capacity + skipPositionOffset.capacity + skipMaxTf.capacity
                + skipMaxImpact.capacity) * 4,
            "termDictionary": terms, "vocabulary": vocabularyMemoryBytes, "nearTerms": nearTermsMemoryBytes,
            "prefixPostings": prefixMemoryBytes,
            "championLists": championMemoryBytes, "leadingKeys": leadingKeysMemoryBytes, "names": namesMemoryBytes,
            "frequencyColumns": columnMemoryBytes, "positionColumns": positionColumnMemoryBytes,
            "stored": stored.memoryBytes - stored.coldMemoryBytes, "storedCompressed": stored.coldMemoryBytes,
            "ids": idBytes.capacity + idOffsets.capacity * 4 + idHashes.capacity * 8 + idHashDocs.capacity * 4
                + domainOrdinals.capacity * 4 + domains.reduce(0) { $0 + $1.utf8.count + 16 },
            "norms": norms.reduce(0) { $0 + $1.capacity }, "numericOrders": numericOrderCache.memoryBytes,
            "numeric": numericOffsets.reduce(0) { $0 + $1.capacity * 4 } + numericValues.reduce(0) { $0 + $1.capacity * 8 },
        ]
    }

    var termCount: Int { fieldTerms.reduce(0) { $0 + ($1?.count ?? 0) } }
}
