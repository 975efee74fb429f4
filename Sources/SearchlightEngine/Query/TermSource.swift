/// One field's evidence for a scored text leaf: a posting list (term) or a positional conjunction
/// (phrase) that reports a frequency for the current document.
class TermSource {
    /// The field, its 256-entry table of `weight / (1 - b + b·len/avg)` by norm code, and its norms.
    let field: Int
    let fieldFactor: [Float]
    let norms: [UInt8]
    let primary: Bool
    /// Number of query tokens this source matches (1 for a term, n for a phrase): an exact primary
    /// match needs the field length to equal it.
    let span: Int
    /// Whether this source's term is the query text itself (not an expansion): exact boosts need it.
    let isExact: Bool

    init(field: Int, fieldFactor: [Float], norms: [UInt8], primary: Bool, span: Int, isExact: Bool) {
        self.field = field
        self.fieldFactor = fieldFactor
        self.norms = norms
        self.primary = primary
        self.span = span
        self.isExact = isExact
    }

    /// Current document (-1 before the first `next`, `Int.max` when exhausted): a stored property that
    /// subclasses update, so the heap of a term group compares documents without a dynamic call.
    final var doc: Int = -1
    var cost: Int { 0 }
    func next() -> Int {
        doc = Int.max
        return doc
    }
    func advance(_ target: Int) -> Int {
        doc = Int.max
        return doc
    }
    /// `next()` for a caller that only wants documents whose weighted frequency here (frequency × the field factor of
    /// the document's norm) exceeds `floor`: a source may pass over documents up to `last` that cannot, when telling
    /// so costs less than matching them (a phrase checks its terms' frequencies before decoding positions).
    func next(above floor: Float, through last: Int) -> Int { next() }
    /// `next(above:through:)` with the floor `raised` for documents before `until` (a group knows no other source can
    /// add to them).
    func next(above floor: Float, raised: Float, until: Int, through last: Int) -> Int { next(above: floor, through: last) }
    /// Frequency in the current document.
    var frequency: UInt32 { 0 }
    /// Whether the match in the current document starts at position 0.
    func startsField() -> Bool { false }

    @inline(__always)
    func norm(_ doc: Int) -> UInt8 { doc < norms.count ? norms[doc] : 0 }

    /// Stored maxima (a block's or a range's) as a bound of the weighted frequency: the impact scaled by
    /// `impactScale` (see `PostingSource.blockWeightBound`), or, when that is 0 (b = 0: no length normalisation),
    /// the largest frequency times `tfScale`, the field weight.
    @inline(__always)
    static func weightBound(impact: Float, tf: UInt32, impactScale: Float, tfScale: Float) -> Float {
        impactScale > 0 ? impactScale * impact : tfScale * Float(tf)
    }

    /// The current document's primary-field flags (`PostingRuns.startsPrimary`, `PostingRuns.equalsPrimary`),
    /// given its norm code here: whether the match starts a primary field, and whether it is all of it.
    @inline(__always)
    final func primaryFlags(norm: UInt8) -> UInt8 {
        guard primary, startsField() else { return 0 }
        return startFlags(norm: norm)
    }

    /// The primary-field flags of a document where this source's match starts the (primary) field.
    @inline(__always)
    final func startFlags(norm: UInt8) -> UInt8 { Self.startFlags(norm: norm, span: span, isExact: isExact) }

    /// The primary-field flags of a match of `span` positions that starts a field whose norm is `norm`: it starts
    /// the field, and equals it too when `isExact` (the query's own text) and the field is exactly that long.
    @inline(__always)
    static func startFlags(norm: UInt8, span: Int, isExact: Bool) -> UInt8 {
        isExact && Int(FieldNorm.lengths[Int(norm)]) == span
            ? PostingRuns.startsPrimary | PostingRuns.equalsPrimary : PostingRuns.startsPrimary
    }

    /// Block-max data: a bound of this source's weighted frequency for every document from its current
    /// one up to `lastDoc`; nil when unknown.
    func blockWindow() -> (weight: Float, lastDoc: Int)? { nil }

    /// The largest primary-field boost factor this source can give any document: none outside a primary field,
    /// the prefix boost unless the source can equal the field (the query text itself), both otherwise.
    final func maximumBoost(prefix: Float, exact: Float) -> Float {
        primary ? (isExact ? prefix * exact : prefix) : 1
    }

    /// The largest primary-field boost factor this source can give a document of its current block window
    /// (`maximumBoost` unless a source knows its blocks better).
    func boostCeiling(prefix: Float, exact: Float) -> Float { maximumBoost(prefix: prefix, exact: exact) }
}

/// A term's postings in one field.
final class PostingSource: TermSource {
    let cursor: PostingCursor
    /// Converts a block's stored impact into a bound of its weighted frequency (see `blockWeightBound`).
    let impactScale: Float
    /// Used instead when b = 0 (no length normalisation): the field weight times the block's max tf.
    let tfScale: Float

    /// The term's dictionary in this segment and its index there, where a `FrequencyColumn` is found.
    let terms: FieldTerms
    let term: Int

    init(cursor: PostingCursor, terms: FieldTerms, term: Int, field: Int, fieldFactor: [Float], norms: [UInt8],
         primary: Bool, isExact: Bool, impactScale: Float, tfScale: Float) {
        self.cursor = cursor
        self.terms = terms
        self.term = term
        self.impactScale = impactScale
        self.tfScale = tfScale
        super.init(field: field, fieldFactor: fieldFactor, norms: norms, primary: primary, span: 1, isExact: isExact)
    }

    /// Appends this source's remaining postings to the current run of `runs`, each with its weighted frequency and
    /// primary-field flags as a term group's `score()` computes them; false when the runs are full.
    final func appendRemaining(to runs: PostingRuns) -> Bool {
        let primary = self.primary
        var fits = true
        fieldFactor.withUnsafeBufferPointer { factor in
            norms.withUnsafeBufferPointer { norms in
                guard primary else {
                    // A block at a time: the norm loads (random reads over a large segment's norms) are independent
                    // of one another and of the appends, so they overlap.
                    cursor.forEachRemainingBlock { docs, tfs, count in
                        guard let room = runs.room(for: count) else {
                            fits = false
                            return false
                        }
                        for i in 0..<count {
                            let doc = Int(docs[i])
                            let norm = doc < norms.count ? norms[doc] : 0
                            room.docs[i] = docs[i]
                            room.weights[i] = Float(tfs[i]) * factor[Int(norm)]
                            room.flags[i] = 0
                        }
                        runs.didAppend(count)
                        return true
                    }
                    return
                }
                cursor.forEachRemaining { doc, tf in
                    let norm = doc < norms.count ? norms[doc] : 0
                    let flags = primary && cursor.firstPosition() == 0 ? startFlags(norm: norm) : 0
                    fits = runs.append(doc, weight: Float(tf) * factor[Int(norm)], flags: flags)
                    return fits
                }
            }
        }
        doc = cursor.doc
        return fits
    }

    /// The term's frequency column, when it is frequent enough to have one (built by the first search that asks).
    /// Asked once per source (a conjunction scores its candidates batch by batch; the segment's cache takes a lock).
    func frequencyColumn() -> FrequencyColumn? {
        if case .some(let known) = column { return known }
        let found = cursor.segment.frequencyColumn(field: field, terms: terms, index: term, primary: primary)
        column = .some(found)
        return found
    }
    /// The column once asked for (nil: not yet; `.some(nil)`: the term has none).
    private var column: FrequencyColumn??
    override var cost: Int { cursor.docFreq }
    override func next() -> Int {
        doc = cursor.next()
        return doc
    }
    override func advance(_ target: Int) -> Int {
        doc = cursor.advance(target)
        return doc
    }
    override var frequency: UInt32 { cursor.tf }
    override func startsField() -> Bool { cursor.firstPosition() == 0 }

    /// Upper bound of `tf · weight / (1 − b + b·length/average)` over the current block: that equals
    /// `(weight·average/b) · tf/(length + C)` with `C = average(1 − b)/b`, and the block stores the max of
    /// `tf/(length + C0)`; `impactScale` folds in `C0/C` when C < C0.
    @inline(__always)
    var blockWeightBound: Float {
        Self.weightBound(impact: cursor.blockMaxImpact, tf: cursor.blockMaxTf, impactScale: impactScale, tfScale: tfScale)
    }

    /// A bound of the weighted frequency of every posting from `first` through `last`, and whether this source may
    /// have one there. A term of many blocks reads its skip data (nothing decoded); a term of one block, or one in a
    /// primary field (its boost multiplies the whole group's score, so whether the range holds a posting matters),
    /// moves to its first posting from `first`, as scoring a batch there would.
    func weightBound(from first: Int, through last: Int) -> (weight: Float, present: Bool) {
        let maxima: (tf: UInt32, impact: Float)
        let present: Bool
        if !primary, let shallow = cursor.shallowMaxima(from: first, through: last) {
            // (0, 0) when no block can hold a posting there.
            (maxima, present) = (shallow, shallow.tf > 0)
        } else {
            let d = doc < first ? advance(first) : doc
            guard d <= last else { return (0, false) }
            (maxima, present) = (cursor.rangeMaxima(through: last), true)
        }
        // Scaled as `blockWeightBound` scales one block's maxima.
        return (Self.weightBound(impact: maxima.impact, tf: maxima.tf, impactScale: impactScale, tfScale: tfScale), present)
    }

    override func blockWindow() -> (weight: Float, lastDoc: Int)? {
        let d = cursor.doc
        guard d >= 0, d != PostingCursor.end else { return nil }
        return (blockWeightBound, cursor.blockLastDoc)
    }
}

/// A phrase in one field: the terms' cursors intersected, then their positions (shifted by each term's
/// offset in the phrase) intersected; the frequency is the number of start positions.
final class PhraseSource: TermSource {
    /// The terms' cursors, rarest first, retained here and read without reference counting; each term's offset in
    /// the phrase; the position scratch. All in `storage`, one allocation (a search builds a phrase source per field
    /// and segment, and tears it down after). Freed in deinit.
    private let count: Int
    private let refs: UnsafeMutablePointer<Unmanaged<PostingCursor>>
    private let offsets: UnsafeMutablePointer<UInt32>
    private let scratch: UnsafeMutablePointer<PositionScratch>
    private let storage: UnsafeMutableRawPointer
    /// The number of the phrase's start positions in the current document (`scratch.pointee.starts`).
    private var startCount = 0

    /// As in `PostingSource`: scales from a block's stored impact (or max tf) to a weighted bound.
    let impactScale: Float
    let tfScale: Float

    /// The field's dictionary (nil: not given) and each term's entry in it, in `refs` order (in `storage`): what
    /// `prepareScatteredChecks` finds the terms' position columns by.
    private let dictionary: FieldTerms?
    private let termIndices: UnsafeMutablePointer<UInt32>
    /// The terms' segment's position stream, which each candidate's check reads: held here, so a check retains
    /// nothing.
    private let positionBytes: [UInt8]
    /// The terms' position columns in `refs` order, when every term has one and a scattered batch asked for them;
    /// retained here (released in deinit) and read without reference counting.
    private var positionColumns: Columns?
    private var columnsAsked = false
    /// The position columns of the terms after the rarest (`walkColumns[k - 1]` for `refs[k]`), when every one of
    /// them has a column and is more frequent than it (`walkRatio`) or all columns exist (`decideWalkColumns`): the
    /// document-order walk then tests each of the rarest term's documents against them instead of seeking their
    /// postings (`findByColumns`), or with `leadColumn` ANDs every column's presence bits (`findByPresence`).
    /// Retained here (released in deinit); decided on the first walk.
    private var walkColumns: Columns?
    /// The rarest term's column, when the walk reads columns, a search built the rarest's already (none is built
    /// for the walk), and the others are about as frequent as it or each in at most `presenceDensity` of the
    /// documents: the walk then goes by the columns' presence bits (`findByPresence`), and the rarest's residues
    /// join the others' (`PositionColumn.aligned`) before anything is decoded.
    private var leadColumn: Unmanaged<PositionColumn>?
    private var walkColumnsDecided = false
    /// Columns retained by the source and read unretained, in a buffer it owns: passing them around or reading one
    /// per candidate costs no reference counting (an array of them cost a retain and a release per `find`).
    typealias Columns = UnsafeMutableBufferPointer<Unmanaged<PositionColumn>>

    private static func retained(_ columns: [PositionColumn]) -> Columns {
        let buffer = Columns.allocate(capacity: columns.count)
        for (k, column) in columns.enumerated() { (buffer.baseAddress! + k).initialize(to: .passRetained(column)) }
        return buffer
    }

    /// Releases what `retained` made (nothing for nil). Called once per buffer: a loop over an array literal of the
    /// two buffers allocated that array in every phrase source's teardown.
    private static func release(_ columns: Columns?) {
        guard let columns else { return }
        for column in columns { column.release() }
        columns.deallocate()
    }
    /// How the walk reads the terms after the rarest (decided on its first step): through their columns, and with
    /// the rarest's column too. For tests.
    var walksByColumns: (others: Bool, lead: Bool) { (walkColumns != nil, leadColumn != nil) }

    /// `dictionary` and `entries` (each term's entry there, in `cursors` order), when given, let scattered checks
    /// read position columns.
    init(cursors: [PostingCursor], offsets: [UInt32], field: Int, fieldFactor: [Float], norms: [UInt8], primary: Bool,
         impactScale: Float, tfScale: Float, dictionary: FieldTerms? = nil, entries: (Int) -> Int = { _ in 0 }) {
        precondition(!cursors.isEmpty && cursors.count == offsets.count, "a phrase has terms, each with its offset")
        self.dictionary = dictionary
        positionBytes = cursors[0].segment.positionBytes
        count = cursors.count
        let scratchBytes = MemoryLayout<PositionScratch>.stride
        let inline = 2 * PositionScratch.inlineCapacity
        storage = .allocate(byteCount: scratchBytes + count * 16 + inline * 4, alignment: 8)
        refs = (storage + scratchBytes).bindMemory(to: Unmanaged<PostingCursor>.self, capacity: count)
        let words = (storage + scratchBytes + count * 8).bindMemory(to: UInt32.self, capacity: 2 * count + inline)
        self.offsets = words
        termIndices = words + count
        scratch = storage.bindMemory(to: PositionScratch.self, capacity: 1)
        scratch.initialize(to: PositionScratch(inline: words + 2 * count))
        // The rarest term leads the document intersection (the others only advance to its candidates); position
        // matching does not depend on the order, since each term keeps its own offset. Insertion sort: stable, and
        // a phrase has a few terms.
        for k in 0..<count {
            var j = k
            while j > 0, refs[j - 1]._withUnsafeGuaranteedRef({ $0.docFreq }) > cursors[k].docFreq {
                refs[j] = refs[j - 1]
                self.offsets[j] = self.offsets[j - 1]
                termIndices[j] = termIndices[j - 1]
                j -= 1
            }
            refs[j] = Unmanaged.passRetained(cursors[k])
            self.offsets[j] = offsets[k]
            termIndices[j] = UInt32(truncatingIfNeeded: entries(k))
        }
        self.impactScale = impactScale
        self.tfScale = tfScale
        super.init(field: field, fieldFactor: fieldFactor, norms: norms, primary: primary,
                   span: Int((offsets.max() ?? 0) + 1), isExact: true)
    }

    deinit {
        for k in 0..<count { refs[k].release() }
        Self.release(positionColumns)
        Self.release(walkColumns)
        leadColumn?.release()
        scratch.pointee.release()
        storage.deallocate()
    }

    override var cost: Int { refs[0]._withUnsafeGuaranteedRef { $0.docFreq } }
    override func next() -> Int { find(refs[0]._withUnsafeGuaranteedRef { $0.next() }, floor: -.infinity, through: -1) }
    override func advance(_ target: Int) -> Int {
        doc >= target ? doc : find(refs[0]._withUnsafeGuaranteedRef { $0.advance(target) }, floor: -.infinity, through: -1)
    }

    /// The phrase occurs in a document at most as often as its rarest term there, so a candidate whose smallest term
    /// frequency, weighted by its norm, is at most `floor` is passed over before its positions are decoded.
    override func next(above floor: Float, through last: Int) -> Int {
        find(refs[0]._withUnsafeGuaranteedRef { $0.next() }, floor: floor, through: last)
    }

    override func next(above floor: Float, raised: Float, until: Int, through last: Int) -> Int {
        find(refs[0]._withUnsafeGuaranteedRef { $0.next() }, floor: floor, raised: raised, until: until, through: last)
    }

    private func find(_ start: Int, floor: Float, raised: Float = -.infinity, until: Int = -1, through last: Int) -> Int {
        if !walkColumnsDecided { decideWalkColumns() }
        if let walkColumns {
            if let leadColumn {
                return findByPresence(start, walkColumns, lead: leadColumn, floor: floor, raised: raised, until: until,
                                      through: last)
            }
            return findByColumns(start, walkColumns, floor: floor, raised: raised, until: until, through: last)
        }
        var candidate = start
        while true {
            candidate = DocIterator.leapfrog(refs, count: count, from: candidate) { $0.advance($1) }
            if candidate == PostingCursor.end { break }
            // The window's floor holds through its last document; a raised floor holds before `until`, past it too.
            let bar = Self.bar(at: candidate, floor: floor, raised: raised, until: until, through: last)
            if bar > -.infinity, Float(smallestFrequency()) * fieldFactor[Int(norm(candidate))] <= bar {
                candidate = refs[0]._withUnsafeGuaranteedRef { $0.next() }
                continue
            }
            if matchPositions() {
                doc = candidate
                return doc
            }
            candidate = refs[0]._withUnsafeGuaranteedRef { $0.next() }
        }
        doc = Int.max
        return doc
    }

    /// How many times more documents than the rarest term every other term needs before the walk reads their
    /// position columns, unless all their columns exist already. Seeking a frequent term's postings to each of a rarer
    /// term's documents decodes a block of 128 postings per seek and skips the positions before the document's; a
    /// column answers with a bit, a rank and a count. When the terms are about as frequent, the seeks share their
    /// blocks and the two cost about the same. Of 1, 2 and 8, 2 gave the phrase workload its least total time
    /// (BENCHMARKS.md §AO). When every term's column exists, the residues of the terms' positions rule out most
    /// documents holding them all before any position is decoded, and the columns are read whatever the ratio.
    static let walkRatio = 2

    /// The largest share of the segment's documents a frequent partner may hold for the walk to go by presence bits
    /// beside it (`decideWalkColumns`).
    static let presenceDensity = 0.4

    /// Reads the other terms' position columns for the walk when the rarest has at least `columnCandidates`
    /// documents (for fewer, the columns' lines cost about what the seeks save), and either each other term is
    /// `walkRatio` times as frequent and has a column (built on first use, within the segment's budget), or every
    /// term's column, the rarest's too, was built already. The rarest's column, never built here, is read when it
    /// exists, beside frequent partners only when each is in at most `presenceDensity` of the segment's documents:
    /// then ANDing presence bits drops most of the rarest's documents before any lookup ("applications library"
    /// 203 -> 104 µs), while beside a partner in most documents it adds a lookup of the rarest's own column to
    /// nearly every one of them ("useful for", "for" in 55%: 64 -> 79 µs; BENCHMARKS.md §AP).
    /// Terms about as frequent as each other gain from columns
    /// only through their residues, read with the rarest's column; building columns for them all would fill the
    /// budget that columns of frequent words beside rare ones put to better use, and beside a rare word the
    /// residues of a frequent one rule out too little to pay for reading the rare word's (BENCHMARKS.md §AO).
    private func decideWalkColumns() {
        walkColumnsDecided = true
        let lead = refs[0]._withUnsafeGuaranteedRef { $0.docFreq }
        guard count > 1, lead >= Self.columnCandidates, let dictionary else { return }
        let segment = refs[0]._withUnsafeGuaranteedRef { $0.segment }
        let frequent = (1..<count).allSatisfy { refs[$0]._withUnsafeGuaranteedRef { $0.docFreq } >= Self.walkRatio * lead }
        let sparse = (1..<count).allSatisfy {
            Double(refs[$0]._withUnsafeGuaranteedRef { $0.docFreq }) <= Self.presenceDensity * Double(segment.documentCount)
        }
        let own = frequent && !sparse ? nil : segment.existingPositionColumn(field: field, index: Int(termIndices[0]))
        guard frequent || own != nil else { return }
        // Nothing is built unless every term may have a column (a refused one would leave the others built for
        // nothing here).
        guard (1..<count).allSatisfy({ segment.mayHavePositionColumn(docFreq: refs[$0]._withUnsafeGuaranteedRef { $0.docFreq }) })
        else { return }
        var columns: [PositionColumn] = []
        for k in 1..<count {
            let column = frequent
                ? segment.positionColumn(field: field, terms: dictionary, index: Int(termIndices[k]))
                : segment.existingPositionColumn(field: field, index: Int(termIndices[k]))
            guard let column else { return }
            columns.append(column)
        }
        walkColumns = Self.retained(columns)
        leadColumn = own.map { Unmanaged.passRetained($0) }
    }

    /// `find` when the terms after the rarest are read through their position columns (and the rarest's is not):
    /// only the rarest term's cursor moves; each of its documents is tested against the columns and their residues,
    /// its frequency floor checked from them, and its positions matched from the position stream. A document where
    /// another term's frequency is saturated in its column is matched through that term's postings.
    private func findByColumns(_ start: Int, _ columns: Columns, floor: Float, raised: Float,
                               until: Int, through last: Int) -> Int {
        var candidate = start
        while candidate != PostingCursor.end {
            var smallest = refs[0]._withUnsafeGuaranteedRef { $0.tf }
            let bar = Self.bar(at: candidate, floor: floor, raised: raised, until: until, through: last)
            // The rarest term's own frequency bounds the phrase's: a candidate it rules out costs no partner's
            // column lines (a bit, a rank and an entry each).
            if bar > -.infinity, Float(smallest) * fieldFactor[Int(norm(candidate))] <= bar {
                candidate = refs[0]._withUnsafeGuaranteedRef { $0.next() }
                continue
            }
            var mask = PositionColumn.Residues.max
            let saturated = foldPartners(candidate, columns, mask: &mask, smallest: &smallest)
            // An absent term's mask is 0, as is that of terms whose positions cannot line up.
            if mask != 0 {
                if bar == -.infinity || Float(smallest) * fieldFactor[Int(norm(candidate))] > bar {
                    let matched = saturated ? matchThroughCursors(candidate, above: bar) : matchByColumns(candidate, columns)
                    if matched {
                        doc = candidate
                        return doc
                    }
                }
            }
            candidate = refs[0]._withUnsafeGuaranteedRef { $0.next() }
        }
        doc = Int.max
        return doc
    }

    /// `findByColumns` when every term's column is read, the rarest's too (`leadColumn`): the documents holding every
    /// term come from ANDing the columns' presence words, from `start` on, so a document missing a term costs a bit,
    /// not a step of the rarest term's cursor and a look into each other column (in debian-en's descriptions, 5,208
    /// documents hold both "can" and "used", of the 10,339 holding "used"). A column takes a term of at least one
    /// document in 64 of the segment (`FrequencyColumn.worthwhile`), so the words read are never many beside the
    /// rarest's documents. The rarest term's cursor moves only to a document whose residues line up and whose
    /// frequencies pass the floor (its own frequency is read from its column unless saturated there), and to the end
    /// once none is left.
    private func findByPresence(_ start: Int, _ columns: Columns, lead: Unmanaged<PositionColumn>,
                                floor: Float, raised: Float, until: Int, through last: Int) -> Int {
        let words = lead._withUnsafeGuaranteedRef { $0.wordCount }
        @inline(__always) func common(_ word: Int) -> UInt64 {
            var bits = lead._withUnsafeGuaranteedRef { $0.presence(word) }
            for k in 1..<count where bits != 0 { bits &= columns[k - 1]._withUnsafeGuaranteedRef { $0.presence(word) } }
            return bits
        }
        var word = start == PostingCursor.end ? words : start >> 6
        var bits = word < words ? common(word) & (UInt64.max << UInt64(start & 63)) : 0
        while true {
            while bits == 0 {
                word += 1
                guard word < words else {
                    refs[0]._withUnsafeGuaranteedRef { _ = $0.advance(PostingCursor.end) }
                    doc = Int.max
                    return doc
                }
                bits = common(word)
            }
            let candidate = word << 6 | bits.trailingZeroBitCount
            bits &= bits &- 1
            let own = lead._withUnsafeGuaranteedRef { $0.entry(candidate) }
            var mask = PositionColumn.aligned(own.mask, offset: offsets[0])
            var smallest = own.count == PositionColumn.saturated ? UInt32.max : UInt32(own.count)
            let bar = Self.bar(at: candidate, floor: floor, raised: raised, until: until, through: last)
            // The rarest term's own frequency, when its column knows it, bounds the phrase's before any partner's
            // entry is read.
            if bar > -.infinity, smallest != .max, Float(smallest) * fieldFactor[Int(norm(candidate))] <= bar { continue }
            let saturated = foldPartners(candidate, columns, mask: &mask, smallest: &smallest)
            if mask == 0 { continue }
            // A saturated frequency everywhere leaves `smallest` unknown: the cursor's frequency decides below.
            if bar > -.infinity, smallest != .max, Float(smallest) * fieldFactor[Int(norm(candidate))] <= bar { continue }
            let reached = refs[0]._withUnsafeGuaranteedRef { $0.doc < candidate ? $0.advance(candidate) : $0.doc }
            // Only a corrupt stream has a column holding a document its postings lack.
            if reached != candidate { continue }
            if own.count == PositionColumn.saturated, bar > -.infinity,
               Float(min(smallest, refs[0]._withUnsafeGuaranteedRef { $0.tf })) * fieldFactor[Int(norm(candidate))] <= bar {
                continue
            }
            // The rarest term's positions come from its cursor, now on the candidate, when saturated in its column.
            let matched = saturated ? matchThroughCursors(candidate, above: bar) : matchByColumns(candidate, columns, own: own)
            if matched {
                doc = candidate
                return doc
            }
        }
    }

    /// The weight a candidate must pass: a raised floor before `until`, the window's floor through `last`, none after.
    @inline(__always)
    private static func bar(at candidate: Int, floor: Float, raised: Float, until: Int, through last: Int) -> Float {
        candidate < until ? raised : candidate <= last ? floor : -.infinity
    }

    /// Folds the residues of the terms after the rarest at `candidate` (from their `columns`, each rotated back by its
    /// offset) into `mask`, stopping once it is empty, and their frequencies into `smallest`; whether one of them is
    /// saturated in its column (its frequency then unknown here).
    @inline(__always)
    private func foldPartners(_ candidate: Int, _ columns: Columns, mask: inout PositionColumn.Residues,
                              smallest: inout UInt32) -> Bool {
        var saturated = false
        for k in 1..<count where mask != 0 {
            let entry = columns[k - 1]._withUnsafeGuaranteedRef { $0.entry(candidate) }
            mask &= PositionColumn.aligned(entry.mask, offset: offsets[k])
            if entry.count == PositionColumn.saturated { saturated = true } else { smallest = min(smallest, UInt32(entry.count)) }
        }
        return saturated
    }

    /// Moves the other terms' cursors to `target`, which their columns hold, checks the frequency floor `bar` with
    /// the frequencies they give (a saturated column's is a lower bound), and matches positions there.
    private func matchThroughCursors(_ target: Int, above bar: Float) -> Bool {
        for k in 1..<count {
            let d = refs[k]._withUnsafeGuaranteedRef { $0.doc < target ? $0.advance(target) : $0.doc }
            if d != target { return false }
        }
        if bar > -.infinity, Float(smallestFrequency()) * fieldFactor[Int(norm(target))] <= bar { return false }
        return matchPositions()
    }

    /// `matchPositions` with the other terms' positions from their columns (none saturated there), and the rarest
    /// term's from its column when it has one and is not saturated there, else from its cursor (on `target`).
    /// `own` is the rarest term's entry when the caller read it already.
    private func matchByColumns(_ target: Int, _ columns: Columns, own given: PositionColumn.Entry? = nil) -> Bool {
        let found = positionBytes.withUnsafeBufferPointer { bytes in
            var found: Int
            let own = given ?? leadColumn?._withUnsafeGuaranteedRef { $0.entry(target) }
            if let own, own.count != PositionColumn.saturated {
                found = startsFromColumn(bytes, own)
            } else {
                scratch.pointee.reserve(refs[0]._withUnsafeGuaranteedRef { $0.decodablePositions })
                found = refs[0]._withUnsafeGuaranteedRef { $0.decodePositions(to: scratch.pointee.starts) }
                found = Self.shiftStarts(scratch.pointee.starts, found, by: offsets[0])
            }
            return lineUpFromColumns(bytes, found) { k in columns[k - 1]._withUnsafeGuaranteedRef { $0.entry(target) } }
        }
        startCount = found
        return found > 0
    }

    /// The phrase's possible starts from the rarest term's column `entry` (not saturated): its positions (the
    /// entry's own when it has one, else decoded from the position stream `bytes`) in the scratch, shifted back by
    /// its offset; how many.
    @inline(__always)
    private func startsFromColumn(_ bytes: UnsafeBufferPointer<UInt8>, _ entry: PositionColumn.Entry) -> Int {
        scratch.pointee.reserve(Int(entry.count))
        let found: Int
        if entry.count == 1 {
            scratch.pointee.starts[0] = entry.position
            found = 1
        } else {
            found = PostingCursor.decodePositions(bytes, at: entry.start, count: Int(entry.count), into: scratch.pointee.starts)
        }
        return Self.shiftStarts(scratch.pointee.starts, found, by: offsets[0])
    }

    /// Keeps the first `found` starts in the scratch that every term after the rarest lines up with, each term's
    /// positions read from its column `entry(k)` (not saturated) when it has one, else decoded from `bytes` where the
    /// entry says; how many are kept.
    @inline(__always)
    private func lineUpFromColumns(_ bytes: UnsafeBufferPointer<UInt8>, _ found: Int,
                                   entry: (Int) -> PositionColumn.Entry) -> Int {
        var found = found
        for k in 1..<count where found > 0 {
            let entry = entry(k)
            scratch.pointee.reserve(Int(entry.count), keeping: found)
            let other = scratch.pointee.other
            let otherCount: Int
            if entry.count == 1 {
                other[0] = entry.position
                otherCount = 1
            } else {
                otherCount = PostingCursor.decodePositions(bytes, at: entry.start, count: Int(entry.count), into: other)
            }
            found = Self.keepLinedUp(scratch.pointee.starts, found, other, otherCount, offset: offsets[k])
        }
        return found
    }

    /// The smallest frequency among the terms in the document they are all on.
    @inline(__always)
    private func smallestFrequency() -> UInt32 {
        var smallest = UInt32.max
        for k in 0..<count { smallest = min(smallest, refs[k]._withUnsafeGuaranteedRef { $0.tf }) }
        return smallest
    }

    /// Fills `starts` with the positions where every term lines up (each term's positions shifted back by its
    /// offset in the phrase); false when there are none.
    private func matchPositions() -> Bool {
        scratch.pointee.reserve(refs[0]._withUnsafeGuaranteedRef { $0.decodablePositions })
        var found = refs[0]._withUnsafeGuaranteedRef { $0.decodePositions(to: scratch.pointee.starts) }
        found = Self.shiftStarts(scratch.pointee.starts, found, by: offsets[0])
        for k in 1..<count where found > 0 {
            let cursor = refs[k]
            // Growing may move the starts, which are kept.
            scratch.pointee.reserve(cursor._withUnsafeGuaranteedRef { $0.decodablePositions }, keeping: found)
            let other = scratch.pointee.other
            let otherCount = cursor._withUnsafeGuaranteedRef { $0.decodePositions(to: other) }
            found = Self.keepLinedUp(scratch.pointee.starts, found, other, otherCount, offset: offsets[k])
        }
        startCount = found
        return found > 0
    }

    /// Shifts the first term's positions back by its offset in the phrase (dropping those before it); the count kept.
    @inline(__always)
    private static func shiftStarts(_ starts: UnsafeMutablePointer<UInt32>, _ found: Int, by shift: UInt32) -> Int {
        guard shift > 0 else { return found }
        var kept = 0
        for k in 0..<found where starts[k] >= shift {
            starts[kept] = starts[k] - shift
            kept += 1
        }
        return kept
    }

    /// Keeps the starts that another term's positions (ascending) hold at `offset` past them; the count kept.
    @inline(__always)
    private static func keepLinedUp(_ starts: UnsafeMutablePointer<UInt32>, _ found: Int, _ other: UnsafeMutablePointer<UInt32>,
                                    _ otherCount: Int, offset: UInt32) -> Int {
        var kept = 0, j = 0
        for index in 0..<found {
            let start = starts[index]
            // Only a corrupt stream holds positions this large; the starts ascend, so none after lines up either.
            let (wanted, overflow) = start.addingReportingOverflow(offset)
            if overflow { break }
            while j < otherCount, other[j] < wanted { j += 1 }
            if j < otherCount, other[j] == wanted {
                starts[kept] = start
                kept += 1
            }
        }
        return kept
    }

    /// Candidates in one batch from which `prepareScatteredChecks` reads position columns (building those missing:
    /// one pass over a term's postings, kept by the segment).
    static let columnCandidates = 16

    /// Prepares `lands(on:)` for a batch of `count` scattered candidates: from `columnCandidates` on, the terms'
    /// position columns answer each candidate with a load per term instead of a block decoded per term, when every
    /// term has one (`Segment.positionColumn`: frequent terms, within a budget).
    func prepareScatteredChecks(_ count: Int) {
        guard !columnsAsked, count >= Self.columnCandidates, let dictionary else { return }
        columnsAsked = true
        let segment = refs[0]._withUnsafeGuaranteedRef { $0.segment }
        var columns: [PositionColumn] = []
        for k in 0..<self.count {
            guard let column = segment.positionColumn(field: field, terms: dictionary, index: Int(termIndices[k])) else { return }
            columns.append(column)
        }
        positionColumns = Self.retained(columns)
    }

    /// `lands(on:)` through the terms' position columns; nil when a term's frequency there is saturated (the
    /// postings then answer).
    private func landsByColumns(_ target: Int, _ columns: Columns) -> Bool? {
        // An absent term's mask is 0, as is that of terms whose positions cannot line up.
        var mask = PositionColumn.Residues.max
        var saturated = false
        for k in 0..<count {
            let entry = columns[k]._withUnsafeGuaranteedRef { $0.entry(target) }
            mask &= PositionColumn.aligned(entry.mask, offset: offsets[k])
            if mask == 0 { return false }
            if entry.count == PositionColumn.saturated { saturated = true }
        }
        if saturated { return nil }
        return positionBytes.withUnsafeBufferPointer { bytes in
            let first = startsFromColumn(bytes, columns[0]._withUnsafeGuaranteedRef { $0.entry(target) })
            let found = lineUpFromColumns(bytes, first) { k in columns[k]._withUnsafeGuaranteedRef { $0.entry(target) } }
            startCount = found
            doc = target
            return found > 0
        }
    }

    override var frequency: UInt32 { UInt32(startCount) }

    /// Whether the phrase occurs in `target` (called with ascending targets): the terms' cursors move to it and its
    /// positions are matched, without the walk on to the next match that `advance` makes through documents nobody
    /// asked about. On `target` (its `frequency` counted) when true.
    func lands(on target: Int) -> Bool {
        if let positionColumns, let answer = landsByColumns(target, positionColumns) { return answer }
        for k in 0..<count {
            let d = refs[k]._withUnsafeGuaranteedRef { $0.doc < target ? $0.advance(target) : $0.doc }
            if d != target { return false }
        }
        guard matchPositions() else { return false }
        doc = target
        return true
    }

    /// A phrase occurs at most as often as its rarest term in a document, so the smallest of the terms'
    /// block bounds bounds the phrase, up to the first end of their current blocks.
    /// Walking by columns, the other terms' cursors lag behind, so the rarest term's bound alone serves.
    override func blockWindow() -> (weight: Float, lastDoc: Int)? {
        var weight = Float.infinity
        var lastDoc = Int.max - 1
        for k in 0..<(walkColumns == nil ? count : 1) {
            let ended: Bool = refs[k]._withUnsafeGuaranteedRef { cursor in
                let d = cursor.doc
                guard d >= 0, d != PostingCursor.end else { return true }
                let bound = Self.weightBound(impact: cursor.blockMaxImpact, tf: cursor.blockMaxTf, impactScale: impactScale,
                                             tfScale: tfScale)
                weight = min(weight, bound)
                lastDoc = min(lastDoc, cursor.blockLastDoc)
                return false
            }
            if ended { return nil }
        }
        return weight.isFinite ? (weight, lastDoc) : nil
    }
    override func startsField() -> Bool { startCount > 0 && scratch.pointee.starts[0] == 0 }
}

/// A phrase source's two position buffers (the phrase's start positions and one other term's positions), which grow
/// to the largest frequency asked for. They start inline in the source's allocation. Reached through a pointer, so
/// no access to them is checked for exclusivity at run time (such checks once cost the phrase walk more than
/// decoding the positions did).
private struct PositionScratch {
    static let inlineCapacity = 16
    private(set) var starts: UnsafeMutablePointer<UInt32>
    private(set) var other: UnsafeMutablePointer<UInt32>
    private var capacity = PositionScratch.inlineCapacity
    /// Whether the buffers were allocated here (not the inline ones).
    private var owned = false

    /// Two inline buffers of `inlineCapacity` at `inline`.
    init(inline: UnsafeMutablePointer<UInt32>) {
        starts = inline
        other = inline + Self.inlineCapacity
    }

    /// Room for at least `needed` positions in each buffer, keeping the first `kept` starts.
    @inline(__always)
    mutating func reserve(_ needed: Int, keeping kept: Int = 0) {
        if needed > capacity { grow(needed, keeping: kept) }
    }

    @inline(never)
    private mutating func grow(_ needed: Int, keeping kept: Int) {
        let newCapacity = max(needed, 2 * capacity)
        let newStarts = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * newCapacity)
        newStarts.initialize(from: starts, count: kept)
        release()
        (starts, other, capacity, owned) = (newStarts, newStarts + newCapacity, newCapacity, true)
    }

    /// Frees allocated buffers (the owner's deinit, and a growth).
    func release() {
        if owned { starts.deallocate() }
    }
}
