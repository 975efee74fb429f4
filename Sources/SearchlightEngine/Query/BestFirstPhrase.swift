/// Ranked phrases of frequent words ("for the", "library this") scored best bound first.
///
/// Such a phrase has tens of thousands of candidates (documents holding every term in a field) and a few hundred
/// to a few thousand matches. Walked in document order, every candidate that may still place has its positions
/// decoded, and early on, before the heap holds good hits, that is nearly all of them, even though only a few
/// dozen can reach the final k-th score. Here each candidate is first bounded from frequencies alone: in each
/// field the phrase occurs at most as often as its rarest term, so `min tf × factor[norm]`, summed over the fields
/// and saturated as the phrase is scored (with the most a primary field's boost can give), bounds its score. The
/// lead term's postings are decoded once and the others read from their frequency columns; no position is
/// decoded. Then the candidates are scored by the phrase's own iterator (`scoreCandidates`, so each score is the
/// one the document-order walk gives), the best bounds first, in growing rounds, until the k-th hit beats every
/// bound left: the hits are exactly the full evaluation's.
extension IndexSnapshot {
    /// Bounds sampled, at most, to choose a round's cut.
    static let cutSamples = 2_048
    /// Candidates scored in the first round, per hit wanted (later rounds follow the rate of matches, or grow threefold).
    static let phraseFirstRound = 2
    /// Candidates scored, at most, per this many of a segment's before the rest is walked in document order.
    static let phraseBudgetDivisor = 4

    /// The best `window` hits of `plan` when it is a ranked phrase whose candidates are many enough
    /// (`PhraseTuning`); nil otherwise, and the caller searches in document order. `collecting`: the rescore
    /// applied while collecting, whose ceilings scale the bounds (lifted documents are scored whatever their bound).
    func bestFirstPhrase(_ plan: QueryPlan, planner: inout QueryPlanner, window: Int, options: SearchOptions,
                         collecting: RescoreWhileCollecting?) -> [SearchHit]? {
        guard options.filter == nil, options.boostField == nil, window > 0,
              case .phrase(let fields, _, let offsets, let idf) = plan, offsets.count > 1, idf >= 0 else { return nil }
        let candidates = segments.indices.reduce(0) { $0 + planner.phraseCandidates(fields, segment: $1) }
        let tuning = options.phrases
        guard candidates >= tuning.minimumCandidates,
              candidates >= totalDocuments / max(tuning.shareDivisor, 1) else { return nil }
        let rise = collecting?.ceiling ?? 1
        let span = Int((offsets.max() ?? 0) + 1)
        var top = TopK(k: window)
        var docs: [UInt32] = [], bounds: [Float] = []
        for ordinal in segments.indices {
            docs.removeAll(keepingCapacity: true)
            bounds.removeAll(keepingCapacity: true)
            planner.phraseBounds(fields, span: span, idf: idf, segment: ordinal, docs: &docs, bounds: &bounds)
            let lifted = collecting?.lifted[UInt32(ordinal)] ?? []
            guard !docs.isEmpty else { continue }
            scoreBestFirst(plan, docs: docs, bounds: &bounds, lifted: lifted, rise: rise, ordinal: ordinal,
                           window: window, planner: &planner, collecting: collecting, into: &top)
        }
        return top.sorted()
    }

    /// Scores the candidates of segment `ordinal` (`docs` ascending, with their bounds, which it overwrites) into
    /// `top`, best bounds first, until none left can place.
    ///
    /// While the page is not full, a round scores the candidates whose bounds are at or above a cut chosen from a
    /// sample of the bounds, so it holds about as many as the page needs at the rate matches have appeared so far,
    /// gathered in document order so the iterator's cursors only move forward; once the page is full, rounds grow
    /// threefold and take only candidates that can still place. A handled candidate's bound becomes −∞. Bounds tie
    /// (a frequency and one of 256 norms), so a round stops at a cap, and only a round that was not cut short lowers
    /// the ceiling of the candidates left, which the k-th hit must beat. Scored one by one, scattered candidates cost
    /// several times what the walk pays for each (a position seek inside each one's block): when the candidates to
    /// score would pass a quarter of the segment's (few matches, or bounds that rule out little), the rest of the
    /// segment is walked instead.
    private func scoreBestFirst(_ plan: QueryPlan, docs: [UInt32], bounds: inout [Float], lifted: [UInt32],
                                rise: Float, ordinal: Int, window: Int, planner: inout QueryPlanner,
                                collecting: RescoreWhileCollecting?, into top: inout TopK) {
        let n = docs.count, budget = n / Self.phraseBudgetDivisor
        let alive = live[ordinal]
        let liftedSet = Set(lifted)
        var batch: [UInt32] = []
        var scoredDocs: [UInt32] = []
        // Every candidate not handled has a bound at most `ceilingLeft`.
        var ceilingLeft = Float.infinity, scored = 0, found = 0, first = true
        while true {
            let full = top.isFull
            let size: Int
            if first {
                size = window * Self.phraseFirstRound
            } else if full {
                size = scored * 3
            } else {
                // As many as the rate of matches says fill the page (twice over); all when none has matched.
                let needed = window - top.count
                size = found == 0 ? n : max(2 * needed * scored / found, window)
            }
            if !first, !full, scored + size > budget {
                return walkRest(plan, scored: scoredDocs, ordinal: ordinal, window: window, planner: &planner,
                                collecting: collecting, into: &top)
            }
            let threshold = full ? top.threshold : -.infinity
            // The cut, never below what a full page's k-th hit rules out (the gather checks each bound exactly).
            var low = Self.cut(bounds, count: size)
            if full { low = max(low, threshold / (rise * 1.0001) * 0.9999) }
            let cap = first ? max(4 * size, window) : max(budget - scored, size)
            batch.removeAll(keepingCapacity: true)
            var capped = false
            // Candidates below the cut, left for later rounds (counted unless the round is capped).
            var below = 0
            docs.withUnsafeBufferPointer { docs in
                bounds.withUnsafeMutableBufferPointer { bounds in
                    for i in 0..<n {
                        let bound = bounds[i]
                        // At or above the cut (the first round: bounds that are not numbers too); −∞: handled.
                        guard bound != -.infinity else { continue }
                        guard !(bound < low) else {
                            below += 1
                            continue
                        }
                        let doc = docs[i]
                        bounds[i] = -.infinity
                        guard alive[Int(doc)], !(bound * rise * 1.0001 <= threshold), !liftedSet.contains(doc) else { continue }
                        batch.append(doc)
                        if batch.count >= cap {
                            capped = true
                            break
                        }
                    }
                }
            }
            // More can still place than the budget allows: the walk is cheaper than scoring them one by one.
            if full, capped {
                return walkRest(plan, scored: scoredDocs, ordinal: ordinal, window: window, planner: &planner,
                                collecting: collecting, into: &top)
            }
            // Lifted documents are scored in the first round, whatever their bound, and never again.
            if first, !lifted.isEmpty {
                for doc in lifted where Int(doc) < alive.count && alive[Int(doc)] { batch.append(doc) }
                batch.sort()
            }
            first = false
            if !capped { ceilingLeft = min(ceilingLeft, low) }
            scored += batch.count
            scoredDocs += batch
            found += scorePhrase(plan, candidates: batch, ordinal: ordinal, planner: &planner, collecting: collecting,
                                 into: &top)
            // Every candidate handled: nothing is left to place, even when the k-th hit cannot beat the cut (a
            // rescored page of zeros, whose cut is 0).
            if ceilingLeft == -.infinity || (!capped && below == 0) { return }
            if top.isFull, top.threshold > ceilingLeft * rise * 1.0001 { return }
        }
    }

    /// A value such that about `count` of `bounds` not yet handled (not −∞) are at or above it (−∞: all of them),
    /// read from a sample of at most `cutSamples` bounds; any value is correct, a close one saves rounds or scoring.
    private static func cut(_ bounds: [Float], count: Int) -> Float {
        let n = bounds.count
        guard count < n else { return -.infinity }
        let stride = max(1, n / cutSamples)
        // The sample's bounds in 256 buckets over [0, the sample's largest].
        var top: Float = 0
        for i in Swift.stride(from: 0, to: n, by: stride) where bounds[i] > top { top = bounds[i] }
        guard top > 0, top.isFinite else { return -.infinity }
        var histogram = [Int](repeating: 0, count: 256)
        let scale = 255 / top
        for i in Swift.stride(from: 0, to: n, by: stride) where bounds[i] >= 0 {
            histogram[min(Int(bounds[i] * scale), 255)] += 1
        }
        // From the best bucket down until the sample, scaled up, holds `count`.
        var taken = 0
        for b in Swift.stride(from: 255, through: 0, by: -1) {
            taken += histogram[b] * stride
            if taken >= count { return Float(b) / scale }
        }
        return -.infinity
    }

    /// Walks segment `ordinal` in document order (`collect`) into a top k of its own, and offers `top` the hits not
    /// among `scored` (already offered). Exact: a match the walk leaves out has `window` better ones in the segment,
    /// all offered.
    func walkRest(_ plan: QueryPlan, scored: [UInt32], ordinal: Int, window: Int, planner: inout QueryPlanner,
                          collecting: RescoreWhileCollecting?, into top: inout TopK) {
        var local = TopK(k: window)
        let iterator = planner.iterator(plan, segment: ordinal, scored: true, root: true)
        if iterator is EmptyIterator { return }
        if let collecting {
            collectRescoring(iterator, segment: ordinal, boostField: nil, rescore: collecting, into: &local)
        } else {
            collect(iterator, segment: ordinal, boostField: nil, into: &local)
        }
        let offered = Set(scored)
        for hit in local.sorted() where !offered.contains(hit.address.doc) { top.insert(hit) }
    }

    /// Scores `candidates` (ascending, live) of segment `ordinal` with the phrase's iterator and collects the
    /// matches (rescored when `collecting`); returns how many matched.
    func scorePhrase(_ plan: QueryPlan, candidates: [UInt32], ordinal: Int, planner: inout QueryPlanner,
                             collecting: RescoreWhileCollecting?, into top: inout TopK) -> Int {
        let n = candidates.count
        guard n > 0 else { return 0 }
        let iterator = planner.iterator(plan, segment: ordinal, scored: true, driver: n)
        if iterator is EmptyIterator { return 0 }
        var scores = [Float](repeating: 0, count: n), matched = [Bool](repeating: false, count: n)
        candidates.withUnsafeBufferPointer { docs in
            scores.withUnsafeMutableBufferPointer { scores in
                matched.withUnsafeMutableBufferPointer { matched in
                    iterator.scoreCandidates(docs, scores: scores.baseAddress!, matched: matched.baseAddress!)
                }
            }
        }
        var found = 0
        for i in 0..<n where matched[i] {
            let address = DocAddress(segment: UInt32(ordinal), doc: candidates[i])
            top.insert(SearchHit(address: address, score: collecting.map { $0.rescore(address, scores[i]) } ?? scores[i]))
            found += 1
        }
        return found
    }
}

extension QueryPlanner {
    /// The phrase's candidates in segment `ordinal` at most: per field, its rarest term's documents there.
    func phraseCandidates(_ fields: [QueryPlan.PhraseField], segment ordinal: Int) -> Int {
        let segment = snapshot.segments[ordinal]
        var total = 0
        for entry in fields {
            guard let terms = segment.terms(FieldID(rawValue: UInt16(entry.field))) else { continue }
            var smallest = Int.max
            for locations in entry.locations {
                guard ordinal < locations.count, locations[ordinal] >= 0 else {
                    smallest = 0
                    break
                }
                smallest = min(smallest, Int(terms.docFreq[Int(locations[ordinal])]))
            }
            if smallest != .max { total += smallest }
        }
        return total
    }

    /// Appends the phrase's candidates in segment `ordinal` (documents holding every term in some field, ascending)
    /// to `docs`, and to `bounds` the most each can score: per field, the smallest term frequency times the field's
    /// factor for the document's norm, with the primary boosts a match starting the field would earn, summed and
    /// saturated as the phrase's group scores (`PostingRuns.merge`). Nothing but frequencies is read.
    func phraseBounds(_ fields: [QueryPlan.PhraseField], span: Int, idf: Float, segment ordinal: Int,
                      docs: inout [UInt32], bounds: inout [Float]) {
        let capacity = phraseCandidates(fields, segment: ordinal)
        let runs = PostingRuns(runs: fields.count, capacity: capacity)
        for entry in fields {
            guard let reader = phraseFieldReader(entry, span: span, segment: ordinal) else { continue }
            let (columns, cursors) = (reader.columns, reader.cursors)
            let views = columns.map(\.view), unretained = cursors.map { Unmanaged.passUnretained($0) }
            runs.startRun()
            let cursor = reader.leadCursor
            var fits = true
            withExtendedLifetime((columns, cursors)) {
                reader.norms.withUnsafeBufferPointer { norms in
                    reader.factor.withUnsafeBufferPointer { factor in
                        reader.flagByNorm.withUnsafeBufferPointer { flagByNorm in
                            let tables = NormTables(norms: norms, factor: factor.baseAddress!, flags: flagByNorm.baseAddress!)
                            cursor.forEachRemainingBlock { leadDocs, tfs, count in
                                guard let room = runs.room(for: count) else {
                                    fits = false
                                    return false
                                }
                                let kept = columns.count == 1 && cursors.isEmpty
                                    ? Self.boundBlock(leadDocs, tfs, count, column: columns[0], tables: tables, into: room)
                                    : Self.boundBlock(leadDocs, tfs, count, columns: views, cursors: unretained,
                                                      tables: tables, into: room)
                                runs.didAppend(kept)
                                return true
                            }
                        }
                    }
                }
            }
            assert(fits, "a term gave more postings than its document frequency")
        }
        docs.reserveCapacity(capacity)
        bounds.reserveCapacity(capacity)
        runs.merge(boost: 1, idf: idf, parameters: snapshot.parameters, into: &docs, scores: &bounds)
    }

    /// What bounding a phrase's candidates in one field reads: the rarest term's cursor (`leadCursor`), each other
    /// term's frequency column or, without one, a cursor on its postings, the field's norm codes, its factor per
    /// norm code and the primary flags a match starting the field may earn per norm code (it equals the field
    /// when the field is as long as the phrase).
    struct PhraseFieldReader {
        let terms: FieldTerms
        let leadIndex: Int
        let leadCursor: PostingCursor
        let columns: [FrequencyColumn]
        let cursors: [PostingCursor]
        let norms: [UInt8]
        let factor: [Float]
        let flagByNorm: [UInt8]
    }

    /// The flags of a field that is not primary, for every norm code.
    static let noFlags = [UInt8](repeating: 0, count: 256)

    /// The flags a phrase of `span` positions starting a primary field may earn, for every norm code; spans up to
    /// 16 are computed once.
    static func primaryFlags(span: Int) -> [UInt8] {
        span < primaryFlagsBySpan.count ? primaryFlagsBySpan[span] : makePrimaryFlags(span: span)
    }

    private static let primaryFlagsBySpan = (0...16).map { makePrimaryFlags(span: $0) }

    private static func makePrimaryFlags(span: Int) -> [UInt8] {
        (0..<256).map { TermSource.startFlags(norm: UInt8($0), span: span, isExact: true) }
    }

    /// The reader of `entry`'s field in segment `ordinal`; nil when the segment lacks a term there.
    func phraseFieldReader(_ entry: QueryPlan.PhraseField, span: Int, segment ordinal: Int) -> PhraseFieldReader? {
        let segment = snapshot.segments[ordinal]
        let field = entry.field
        guard let terms = segment.terms(FieldID(rawValue: UInt16(field))) else { return nil }
        var indices: [Int] = []
        for locations in entry.locations {
            guard ordinal < locations.count, locations[ordinal] >= 0 else { return nil }
            indices.append(Int(locations[ordinal]))
        }
        // The rarest term is listed; each other is read from its column, or seeks its postings without one.
        guard let lead = indices.indices.min(by: { terms.docFreq[indices[$0]] < terms.docFreq[indices[$1]] })
        else { return nil }
        let primary = isPrimary(field)
        var columns: [FrequencyColumn] = [], cursors: [PostingCursor] = []
        for (k, index) in indices.enumerated() where k != lead {
            if let column = segment.frequencyColumn(field: field, terms: terms, index: index, primary: primary) {
                columns.append(column)
            } else {
                cursors.append(PostingCursor(segment: segment, terms: terms, index: index, field: field))
            }
        }
        let flagByNorm = primary ? Self.primaryFlags(span: span) : Self.noFlags
        return PhraseFieldReader(terms: terms, leadIndex: indices[lead], leadCursor: PostingCursor(segment: segment, terms: terms, index: indices[lead], field: field),
                                 columns: columns, cursors: cursors,
                                 norms: field < segment.norms.count ? segment.norms[field] : [], factor: factors(field),
                                 flagByNorm: flagByNorm)
    }

    /// What bounding a field's candidate reads per norm: the document's norm code, the field's factor for each code,
    /// and the primary flags a match may earn for each.
    struct NormTables {
        let norms: UnsafeBufferPointer<UInt8>
        let factor: UnsafePointer<Float>
        let flags: UnsafePointer<UInt8>

        @inline(__always)
        func norm(_ doc: Int) -> Int { doc < norms.count ? Int(norms[doc]) : 0 }
    }

    /// Bounds one block of the lead's postings where the phrase's one other term is read from `column` (a phrase
    /// of two frequent words): writes the candidates to `room` and returns how many.
    @inline(__always)
    private static func boundBlock(_ docs: UnsafePointer<UInt32>, _ tfs: UnsafePointer<UInt32>, _ count: Int,
                                   column: FrequencyColumn, tables: NormTables,
                                   into room: (docs: UnsafeMutablePointer<UInt32>, weights: UnsafeMutablePointer<Float>,
                                               flags: UnsafeMutablePointer<UInt8>)) -> Int {
        let saturated = column.saturated
        var kept = 0
        for k in 0..<count {
            let doc = Int(docs[k])
            let value = column.nibble(doc) & saturated
            // A saturated frequency stands for that many or more: the lead's bounds the pair.
            let tf = value < saturated ? min(tfs[k], UInt32(value)) : tfs[k]
            let norm = tables.norm(doc)
            room.docs[kept] = docs[k]
            room.weights[kept] = Float(tf) * tables.factor[norm]
            room.flags[kept] = tables.flags[norm]
            // Kept only where the other term is there.
            kept &+= value != 0 ? 1 : 0
        }
        return kept
    }

    /// Bounds one block of the lead's postings against the other terms, each read from its column or, without one,
    /// by seeking its postings: writes the candidates to `room` and returns how many.
    /// The caller keeps `cursors` alive (they are read unretained, as `columns` are through their views).
    static func boundBlock(_ docs: UnsafePointer<UInt32>, _ tfs: UnsafePointer<UInt32>, _ count: Int,
                           columns: [FrequencyColumn.View], cursors: [Unmanaged<PostingCursor>], tables: NormTables,
                                   into room: (docs: UnsafeMutablePointer<UInt32>, weights: UnsafeMutablePointer<Float>,
                                               flags: UnsafeMutablePointer<UInt8>)) -> Int {
        var kept = 0
        candidateLoop: for k in 0..<count {
            let doc = Int(docs[k])
            var tf = tfs[k]
            for column in columns {
                let value = column.nibble(doc) & column.saturated
                // Not there; or a frequency (a saturated one stands for that many or more).
                if value == 0 { continue candidateLoop }
                if value < column.saturated { tf = min(tf, UInt32(value)) }
            }
            for other in cursors {
                let found = other._withUnsafeGuaranteedRef { other -> UInt32? in
                    (other.doc < doc ? other.advance(doc) : other.doc) == doc ? other.tf : nil
                }
                guard let found else { continue candidateLoop }
                tf = min(tf, found)
            }
            let norm = tables.norm(doc)
            room.docs[kept] = docs[k]
            room.weights[kept] = Float(tf) * tables.factor[norm]
            room.flags[kept] = tables.flags[norm]
            kept += 1
        }
        return kept
    }
}

/// When a ranked phrase is read down a word's cover (`IndexSnapshot.coverPhrase`) or scored best bound first
/// (`IndexSnapshot.bestFirstPhrase`); tests lower the thresholds so small corpora take those paths.
package struct PhraseTuning: Sendable {
    /// Candidates (per field, the rarest term's documents, summed) below which the document-order walk is cheaper.
    /// Measured on debian-en (BENCHMARKS.md §AM): phrase p99 444 µs at 8,192, 450 at 4,096 (where "and set", 4,297
    /// candidates and 124 matches, paid for bounds it could not use) and 477 at 16,384 (where "from the" and
    /// "module for" stayed walked). What it costs: a phrase of frequent words with almost no matches ("can used",
    /// 4) bounds its candidates, finds nothing among the best, and is walked after all (417 µs against 316).
    package var minimumCandidates = 8_192
    /// ... and below this share of the index's documents. At a million items (debian-en sixteen times) a median
    /// phrase has tens of thousands of candidates, but sixteen copies of its best documents fill the page at once
    /// and the walk's floors then prune nearly all of them: bounding every candidate made the median slower (p50
    /// 248 µs against 228).
    package var shareDivisor = 8
    /// Candidates below which a phrase is not read down a word's cover (`IndexSnapshot.coverPhrase`)...
    package var minimumCoverCandidates = 16_384
    /// ... and below this share of the index's documents. Phrases with fewer (on debian-en, "data with" with 11,300
    /// of 63,666) fill the page deep in the cover, and at a million items a median phrase has tens of thousands of
    /// candidates that the best-first path serves better: covering them made the first execution's mean 3.0 ms
    /// (0.8 before) for no gain in the timed ones.
    package var coverShareDivisor = 4
    /// Segments past this many documents are not read down covers. How deep a cover must be read grows with the
    /// segment ("for the" takes 2,656 entries of 63,666 documents, 4%), so a cover of 8,192 vouches only in
    /// segments of up to about 200,000; in the million-item index (one segment) "for the" gave up at 640 entries,
    /// where the k-th hit showed it would need more than the cover holds, after paying for the cover's ranking.
    package var maximumCoverSegment = 131_072

    package init() {}
}
