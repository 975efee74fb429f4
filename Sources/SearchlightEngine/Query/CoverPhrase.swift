/// A ranked phrase of very frequent words ("for the") read down one of its words' rankings.
///
/// A phrase occurs in a field at most as often as each of its words, so outside a primary field's boosts it
/// scores at most what any of its words scores alone, times the phrase's idf over the word's (BM25F saturates a
/// smaller weighted frequency to a smaller score). A word's phrase cover (`ChampionLists.phraseCover`) lists its
/// best documents in order with their scores: a document not among the first `depth` scores at most the next
/// entry's score for the phrase too. So the phrase reads its key word's cover from the top, bounds each
/// document from frequencies (`phraseBounds(of:)`: per field the smallest term frequency, no positions),
/// scores exactly only those whose bound can still place, and stops once the k-th hit beats what the next
/// cover entry allows (the threshold algorithm again: Fagin, Lotem and Naor, 2003). The hits are the full
/// evaluation's. Documents where the phrase may start a primary field (a boost the key word need not share)
/// are few, since every word of the phrase must be in that field: they are listed whole and scored first.
///
/// The best-first path (`bestFirstPhrase`) bounds every candidate, tens of thousands for two frequent words;
/// this reads a few thousand entries. It gives up, and the caller evaluates the phrase another way, when the
/// cover runs out before it can vouch, the k-th hit shows it would need more than the cover holds, no match
/// appears in the first checks (few matches, which every path must check one by one), or its work passes
/// bounding every candidate.
extension IndexSnapshot {
    /// Cover entries read in the first round, per hit wanted; each later round reads twice as deep, or only as
    /// deep as the k-th hit so far says is enough.
    static let coverPhraseFirstDepth = 4
    /// After this many exact checks without a match, a phrase is taken to have too few matches for a cover (all
    /// its candidates must be checked whatever the order).
    static let coverPhraseBarrenChecks = 64
    /// From this depth on, a cover gives up when even the k-th hit so far needs more of it than it holds. At 512,
    /// "library this" (629 matches among 17,639 candidates) read 640 entries and made 429 checks before giving up;
    /// at 256 it gives up after half that, 338 -> 308 µs, and no phrase of the workload was slower (BENCHMARKS.md
    /// §AP).
    static let coverPhraseJudgedDepth = 256
    /// The cover gives up once its work passes what bounding every candidate costs: an exact check counts as this
    /// many cover entries (through the postings one cost about 190 ns against an entry's 14 on debian-en; position
    /// columns make most checks cheaper, and 3 was set with them, not tuned further)...
    static let coverPhraseCheckCost = 3
    /// ...and bounding a candidate about one entry.
    static let coverPhraseWalkCost = 1

    /// The best `window` hits of `plan`, a ranked phrase over the default fields whose candidates are many enough
    /// (`PhraseTuning.minimumCoverCandidates`, and a quarter of the index), when a word's phrase cover vouches for
    /// them; nil otherwise.
    func coverPhrase(_ plan: QueryPlan, planner: inout QueryPlanner, window: Int, options: SearchOptions,
                     collecting: RescoreWhileCollecting?) -> [SearchHit]? {
        guard options.championLists, options.filter == nil, options.boostField == nil, window > 0,
              parameters == factorParameters, let scope = championScope,
              case .phrase(let fields, let terms, let offsets, let idf) = plan, offsets.count > 1,
              idf >= 0, idf.isFinite, !fields.isEmpty, fields.allSatisfy({ scope.fields.contains($0.field) })
        else { return nil }
        let counts = segments.indices.map { planner.phraseCandidates(fields, segment: $0) }
        let tuning = options.phrases
        let candidates = counts.reduce(0, +)
        guard candidates >= tuning.minimumCoverCandidates, candidates >= totalDocuments / max(tuning.coverShareDivisor, 1),
              segments.allSatisfy({ $0.documentCount <= tuning.maximumCoverSegment }) else { return nil }
        let rise = collecting?.ceiling ?? 1
        let span = Int((offsets.max() ?? 0) + 1)
        var top = TopK(k: window)
        for ordinal in segments.indices where counts[ordinal] > 0 {
            let segment = segments[ordinal]
            guard let lists = segment.championLists, lists.scope == scope else { return nil }
            // The key: the word with the fewest postings in the phrase's fields.
            var key = -1, fewest = Int.max
            for k in terms.indices {
                var postings = 0
                for entry in fields {
                    guard let dictionary = segment.terms(FieldID(rawValue: UInt16(entry.field))),
                          ordinal < entry.locations[k].count, entry.locations[k][ordinal] >= 0 else { continue }
                    postings += Int(dictionary.docFreq[Int(entry.locations[k][ordinal])])
                }
                if postings < fewest { (key, fewest) = (k, postings) }
            }
            guard key >= 0 else { return nil }
            guard let cover = lists.phraseCover(terms[key], in: segment) else {
                // Too few postings here for a cover (`ChampionLists.minimumPostings`): a small segment, walked.
                walkRest(plan, scored: [], ordinal: ordinal, window: window, planner: &planner, collecting: collecting,
                         into: &top)
                continue
            }
            // Where the phrase may start a primary field: its rarest word's documents there, scored first.
            var listed: [UInt32] = []
            for entry in fields where planner.isPrimary(entry.field) {
                guard let reader = planner.phraseFieldReader(entry, span: span, segment: ordinal) else { continue }
                guard reader.leadCursor.docFreq <= ChampionLists.phraseCoverCapacity else { return nil }
                reader.leadCursor.forEachRemaining { doc, _ in
                    listed.append(UInt32(doc))
                    return true
                }
            }
            guard readCover(plan, cover: cover, listed: listed, lifted: collecting?.lifted[UInt32(ordinal)] ?? [], fields: fields, span: span, idf: idf,
                            scale: idf * lists.stretch(averages: fieldAverages) * 1.0001, rise: rise,
                            candidates: counts[ordinal],
                            ordinal: ordinal, window: window, planner: &planner, collecting: collecting, into: &top)
            else { return nil }
        }
        return top.sorted()
    }

    /// Reads `cover` in segment `ordinal` in rounds of growing depth (`listed` documents in the first), scoring
    /// into `top` the documents whose frequency bounds can place, and the `lifted` ones (a rescore may raise them
    /// past any bound) whatever their bounds, until none further down can place; false when the cover cannot vouch
    /// (it ends first, the k-th hit shows it would need more than it holds, matches are too rare, or reading it
    /// costs more than bounding the segment's `candidates`).
    private func readCover(_ plan: QueryPlan, cover: ChampionLists.Cover, listed: [UInt32], lifted: [UInt32],
                           fields: [QueryPlan.PhraseField], span: Int, idf: Float, scale: Float, rise: Float,
                           candidates: Int, ordinal: Int, window: Int, planner: inout QueryPlanner,
                           collecting: RescoreWhileCollecting?, into top: inout TopK) -> Bool {
        let rounds = CandidateRounds(documentCount: segments[ordinal].documentCount, alive: live[ordinal])
        var batch: [UInt32] = [], docs: [UInt32] = [], bounds: [Float] = [], exact: [UInt32] = []
        var depth = 0, target = min(window, cover.docs.count) * Self.coverPhraseFirstDepth
        var checks = 0, matches = 0
        for doc in listed { rounds.add(doc) }
        for doc in lifted { rounds.add(doc) }
        let liftedSet = Set(lifted)
        while true {
            let end = min(target, cover.docs.count)
            if depth < end { for doc in cover.docs[depth..<end] { rounds.add(doc) } }
            depth = max(depth, end)
            rounds.drain(into: &batch)
            if !batch.isEmpty {
                docs.removeAll(keepingCapacity: true)
                bounds.removeAll(keepingCapacity: true)
                planner.phraseBounds(fields, span: span, idf: idf, segment: ordinal, of: batch, docs: &docs, bounds: &bounds)
                let threshold = top.isFull ? top.threshold : -.infinity
                exact.removeAll(keepingCapacity: true)
                // Lifted documents whatever their bounds (the set is asked only when a rescore lifts some).
                let anyLifted = !liftedSet.isEmpty
                for i in docs.indices
                where !(bounds[i] * rise * 1.0001 <= threshold) || (anyLifted && liftedSet.contains(docs[i])) {
                    exact.append(docs[i])
                }
                checks += exact.count
                matches += scorePhrase(plan, candidates: exact, ordinal: ordinal, planner: &planner,
                                       collecting: collecting, into: &top)
            }
            // The most a document not yet read scores: nothing when the cover named every document with the key.
            let next = depth < cover.docs.count ? cover.scores[depth] : cover.bound
            if next == -.infinity { return true }
            // Whether a document scoring `score` for the key alone can no longer place.
            func ruledOut(_ score: Float) -> Bool {
                top.isFull && top.threshold > 0 && top.threshold > max(score * scale, 0) * rise * 1.0001
            }
            if ruledOut(next) { return true }
            if depth >= cover.docs.count { return false }
            if matches == 0, checks >= Self.coverPhraseBarrenChecks { return false }
            if depth + Self.coverPhraseCheckCost * checks > Self.coverPhraseWalkCost * candidates { return false }
            target = depth * 2
            if top.isFull {
                // The depth the k-th hit so far makes enough (the scores fall, so a binary search).
                var low = depth, high = cover.docs.count
                while low < high {
                    let middle = (low + high) / 2
                    if ruledOut(cover.scores[middle]) { high = middle } else { low = middle + 1 }
                }
                if low == cover.docs.count, !ruledOut(cover.bound), depth >= Self.coverPhraseJudgedDepth { return false }
                target = min(target, low)
            }
        }
    }
}

extension QueryPlanner {
    /// `phraseBounds` of `candidates` only (ascending documents of segment `ordinal`), not of every candidate:
    /// each is looked up in each field's terms (a frequency column, else a cursor moving forward), so candidates
    /// scattered over the segment cost a lookup each, not the decoding of the lists they lie in. Appends those
    /// holding every term in some field to `docs`, with their bounds to `bounds`.
    func phraseBounds(_ fields: [QueryPlan.PhraseField], span: Int, idf: Float, segment ordinal: Int,
                      of candidates: [UInt32], docs: inout [UInt32], bounds: inout [Float]) {
        guard !candidates.isEmpty else { return }
        let segment = snapshot.segments[ordinal]
        let runs = PostingRuns(runs: fields.count, capacity: fields.count * candidates.count)
        for entry in fields {
            guard let reader = phraseFieldReader(entry, span: span, segment: ordinal) else { continue }
            let primary = isPrimary(entry.field)
            // The rarest term too is read from its column when it has one (else from its cursor).
            var columns = reader.columns
            let leadColumn = segment.frequencyColumn(field: entry.field, terms: reader.terms, index: reader.leadIndex,
                                                     primary: primary)
            if let leadColumn { columns.append(leadColumn) }
            let cursors = leadColumn == nil ? reader.cursors + [reader.leadCursor] : reader.cursors
            runs.startRun()
            guard let room = runs.room(for: candidates.count) else { continue }
            // No term's frequency is known ahead: each starts unbounded (a candidate every column saturates keeps an
            // unbounded weight, a bound that holds, and is checked exactly).
            let unbounded = [UInt32](repeating: .max, count: candidates.count)
            let views = columns.map(\.view), unretained = cursors.map { Unmanaged.passUnretained($0) }
            let kept = withExtendedLifetime((columns, cursors)) {
                reader.norms.withUnsafeBufferPointer { norms in
                    reader.factor.withUnsafeBufferPointer { factor in
                        reader.flagByNorm.withUnsafeBufferPointer { flags in
                            candidates.withUnsafeBufferPointer { docs in
                                unbounded.withUnsafeBufferPointer { tfs in
                                    Self.boundBlock(docs.baseAddress!, tfs.baseAddress!, candidates.count, columns: views,
                                                    cursors: unretained,
                                                    tables: NormTables(norms: norms, factor: factor.baseAddress!,
                                                                       flags: flags.baseAddress!),
                                                    into: room)
                                }
                            }
                        }
                    }
                }
            }
            runs.didAppend(kept)
        }
        runs.merge(boost: 1, idf: idf, parameters: snapshot.parameters, into: &docs, scores: &bounds)
    }
}
