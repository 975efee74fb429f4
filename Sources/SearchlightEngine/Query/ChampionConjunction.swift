/// The champion-list answer to a ranked two-clause conjunction over the default fields ("the library", or what
/// a person types: a word and the prefix of the next).
///
/// A conjunction of two frequent keys has thousands of matches, and evaluating it lists one of them in full even
/// when block bounds then drop most candidates. Here each key of a clause (a word, a prefix; a clause may be a
/// weighted disjunction of them) reads its cover (`ChampionLists.Cover`): its best documents in order, and what
/// any other scores at most; a key too small for one names all its matches. The documents at the head of the
/// covers are scored by the clauses' own iterators (`DocIterator.scoreCandidates`, reading only the postings near
/// them), so each score is the one the full evaluation gives. A document not among them scores at most what the
/// next entry of each cover scores, weighted and added up as the query adds its keys: once the k-th hit beats
/// that (times the rescore's ceiling), the hits are exactly the top k (the threshold algorithm: Fagin, Lotem and
/// Naor, 2003). Until then the heads grow. When the covers run out first, the caller evaluates the query in full.
extension IndexSnapshot {
    /// One key of a clause in one segment: its documents best first with their scores (without idf) and the
    /// score of any other (−∞: none), or all its matches (`enumerated`); `scale` turns its scores into bounds of
    /// the clause's (idf, the segment's stretch, the query's weights, room for rounding).
    private struct KeyHead {
        let docs: [UInt32]
        let scores: [Float]
        let tail: Float
        let enumerated: Bool
        let scale: Float

        /// The most a document not among the first `depth` can add to the clause (0: it cannot match the key).
        func unseen(_ depth: Int) -> Float {
            if enumerated { return 0 }
            let score = depth < scores.count ? scores[depth] : tail
            return score == -.infinity ? 0 : max(score * scale, 0)
        }

        /// Whether a document not among the first `depth` can match the key.
        func mayMatchUnseen(_ depth: Int) -> Bool { !enumerated && (depth < scores.count || tail > -.infinity) }
    }

    /// The first heads read, per hit wanted; each further round reads `growth` times as many.
    static let firstDepth = 2
    static let growth = 4

    /// The best `window` hits of `plan`, a ranked conjunction of two clauses over the default fields, when the
    /// clauses' covers vouch for them; nil when they cannot (or the query does not apply), and the caller searches
    /// in full. `collecting`: the rescore applied while collecting, whose ceilings bound a document's rise.
    /// `ordered`: the hits best first; otherwise in any order, for a caller that ranks them again.
    func championConjunction(_ plan: QueryPlan, planner: inout QueryPlanner, window: Int, options: SearchOptions,
                             collecting: RescoreWhileCollecting?, ordered: Bool = true) -> [SearchHit]? {
        guard options.championLists, options.filter == nil, options.boostField == nil, window > 0,
              window * Self.firstDepth <= ChampionLists.coverCapacity, parameters == factorParameters,
              let scope = championScope, case .and(let clauses) = plan, clauses.count == 2,
              clauses.allSatisfy(Self.isWeightedKeys) else { return nil }
        // How far a rescore lifts a score (lifted documents are scored whatever their bound).
        let rise = collecting?.ceiling ?? 1
        // The full evaluation lists the rarer clause's matches: worth avoiding only when they are many, and the
        // heads may score a fraction of them at most.
        let lead = clauses.map { planner.maximumMatches($0) }.min() ?? 0
        let tuning = options.covers
        guard lead >= tuning.minimumLead else { return nil }
        let budget = lead / max(tuning.budgetDivisor, 1)
        var top = TopK(k: window)
        for ordinal in segments.indices {
            let segment = segments[ordinal]
            guard let lists = segment.championLists, lists.scope == scope else { return nil }
            let stretch = lists.stretch(averages: fieldAverages)
            var heads: [[KeyHead]] = []
            for clause in clauses {
                var keys: [KeyHead] = []
                guard collectKeys(clause, factor: 1, ordinal: ordinal, lists: lists, stretch: stretch,
                                  enumerated: tuning.enumeratedMatches, planner: &planner, into: &keys) else { return nil }
                heads.append(keys)
            }
            // A clause without keys here matches nothing in this segment.
            if heads.contains(where: \.isEmpty) { continue }
            // Documents scored so far, and those added this round (drained in order: the round's candidates).
            let rounds = CandidateRounds(documentCount: segment.documentCount, alive: live[ordinal])
            // Every match of an enumerated key, and the lifted documents, in the first round.
            for keys in heads { for key in keys where key.enumerated { for doc in key.docs { rounds.add(doc) } } }
            for doc in collecting?.lifted[UInt32(ordinal)] ?? [] { rounds.add(doc) }
            var previous = 0
            var depth = window * Self.firstDepth
            // The longest cover (enumerated keys were added whole).
            let longest = heads.joined().filter { !$0.enumerated }.map(\.docs.count).max() ?? 0
            var candidates: [UInt32] = []
            while true {
                for keys in heads {
                    for key in keys where !key.enumerated && previous < key.docs.count {
                        for doc in key.docs[previous..<min(depth, key.docs.count)] { rounds.add(doc) }
                    }
                }
                rounds.drain(into: &candidates)
                if !candidates.isEmpty {
                    score(clauses, candidates: candidates, ordinal: ordinal, planner: &planner,
                          collecting: collecting, into: &top)
                }
                // The most a document not yet scored can score: nothing when some clause cannot match it.
                var unseen: Float = 0
                var mayMatch = true
                for keys in heads {
                    guard keys.contains(where: { $0.mayMatchUnseen(depth) }) else {
                        mayMatch = false
                        break
                    }
                    for key in keys { unseen += key.unseen(depth) }
                }
                if !mayMatch { break }
                if top.isFull, top.threshold > 0, top.threshold > unseen * rise * 1.0001 { break }
                // The covers are read to their ends and cannot vouch: the full evaluation decides.
                if depth >= longest { return nil }
                previous = depth
                depth *= Self.growth
                // So is a deeper read that would cost more than the full evaluation saves.
                var next = rounds.count
                for keys in heads {
                    for key in keys where !key.enumerated { next += max(min(depth, key.docs.count) - previous, 0) }
                }
                if next > budget { return nil }
            }
        }
        return ordered ? top.sorted() : top.unordered()
    }

    /// Scores `candidates` (ascending, live) of segment `ordinal` with the clauses' iterators, which read only the
    /// postings near them, and collects the matches (rescored when `collecting`).
    private func score(_ clauses: [QueryPlan], candidates: [UInt32], ordinal: Int, planner: inout QueryPlanner,
                       collecting: RescoreWhileCollecting?, into top: inout TopK) {
        let n = candidates.count
        var children: [DocIterator] = []
        for clause in clauses {
            let child = planner.iterator(clause, segment: ordinal, scored: true, driver: n)
            if child is EmptyIterator { return }
            children.append(child)
        }
        // The rarer clause first, as a conjunction orders them (two clauses add up alike either way).
        children = ConjunctionIterator.ordered(children)
        var docs = candidates, total = [Float](repeating: 0, count: n)
        var scores = [Float](repeating: 0, count: n), matched = [Bool](repeating: false, count: n)
        var remaining = n
        for (number, child) in children.enumerated() where remaining > 0 {
            docs.withUnsafeBufferPointer { docs in
                scores.withUnsafeMutableBufferPointer { scores in
                    matched.withUnsafeMutableBufferPointer { matched in
                        child.scoreCandidates(UnsafeBufferPointer(rebasing: docs[..<remaining]),
                                              scores: scores.baseAddress!, matched: matched.baseAddress!)
                    }
                }
            }
            // Kept in place: `kept` never passes `i`.
            var kept = 0
            for i in 0..<remaining where matched[i] {
                docs[kept] = docs[i]
                total[kept] = number == 0 ? 0 + scores[i] : total[i] + scores[i]
                kept += 1
            }
            remaining = kept
        }
        guard let collecting else {
            for i in 0..<remaining {
                top.insert(SearchHit(address: DocAddress(segment: UInt32(ordinal), doc: docs[i]), score: total[i]))
            }
            return
        }
        // The segment's lifted documents (ascending, as the candidates are); `next` is the first at or after the
        // current candidate.
        let lifted = collecting.lifted[UInt32(ordinal)] ?? []
        var next = 0
        for i in 0..<remaining {
            let doc = docs[i], score = total[i]
            while next < lifted.count, lifted[next] < doc { next += 1 }
            let most = next < lifted.count && lifted[next] == doc ? collecting.liftedCeiling : collecting.ceiling
            // A hit that cannot place is not rescored (its signals are read from stored values).
            guard RescoreWhileCollecting.mayPlace(score, ceiling: most, in: top) else { continue }
            let address = DocAddress(segment: UInt32(ordinal), doc: doc)
            top.insert(SearchHit(address: address, score: collecting.rescore(address, score)))
        }
    }

    /// Whether `plan` is a weighted disjunction of words and prefixes (what `collectKeys` reads).
    private static func isWeightedKeys(_ plan: QueryPlan) -> Bool {
        switch plan {
        case .none, .prefix: return true
        case .group(let entries, _, _):
            return loneTerm(entries) != nil
        case .boost(let inner, let weight): return weight > 0 && weight.isFinite && isWeightedKeys(inner)
        case .or(let options): return options.allSatisfy(isWeightedKeys)
        default: return false
        }
    }

    /// The term of a group that is one exact term in each field it occurs in (a word's plan), or nil.
    private static func loneTerm(_ entries: [QueryPlan.GroupEntry]) -> [UInt8]? {
        guard let key = entries.first?.term, entries.allSatisfy({ $0.isExact && $0.term == key }) else { return nil }
        return key
    }

    /// Appends the keys of `plan`, a clause or part of one weighted by `factor`, in segment `ordinal`; false when
    /// the clause is not a weighted disjunction of words and prefixes (a phrase, a typo expansion, a range), a key
    /// reaches a field outside the default fields (which its cover does not rank) or can be neither enumerated nor
    /// covered.
    private func collectKeys(_ plan: QueryPlan, factor: Float, ordinal: Int, lists: ChampionLists, stretch: Float,
                             enumerated: Int, planner: inout QueryPlanner, into keys: inout [KeyHead]) -> Bool {
        switch plan {
        case .none:
            return true
        case .group(let entries, let idf, _):
            // A cover ranks the key over the default fields: it bounds a clause in those fields only.
            guard let key = Self.loneTerm(entries), entries.allSatisfy({ lists.scope.fields.contains($0.field) }),
                  let head = keyHead(plan, key: key, prefix: false, scale: idf * factor * stretch, ordinal: ordinal,
                                     lists: lists, enumerated: enumerated, planner: &planner) else { return false }
            keys.append(head)
            return true
        case .prefix(let fields, let key?, let idf, _):
            guard fields.allSatisfy({ lists.scope.fields.contains($0.field) }),
                  let head = keyHead(plan, key: key, prefix: true, scale: idf * factor * stretch, ordinal: ordinal,
                                     lists: lists, enumerated: enumerated, planner: &planner) else { return false }
            keys.append(head)
            return true
        case .boost(let inner, let weight):
            guard weight > 0, weight.isFinite else { return false }
            return collectKeys(inner, factor: factor * weight, ordinal: ordinal, lists: lists, stretch: stretch,
                               enumerated: enumerated, planner: &planner, into: &keys)
        case .or(let options):
            for option in options {
                guard collectKeys(option, factor: factor, ordinal: ordinal, lists: lists, stretch: stretch,
                                  enumerated: enumerated, planner: &planner, into: &keys) else { return false }
            }
            return true
        default:
            return false
        }
    }

    /// One key (`plan`, a term group or a prefix) in segment `ordinal`: its cover, or all its matches when they
    /// are few (or it has no cover here: few postings in the segment); nil when it has neither.
    private func keyHead(_ plan: QueryPlan, key: [UInt8], prefix: Bool, scale: Float, ordinal: Int,
                         lists: ChampionLists, enumerated: Int, planner: inout QueryPlanner) -> KeyHead? {
        guard scale >= 0, scale.isFinite else { return nil }
        if planner.maximumMatches(plan) > enumerated,
           let cover = lists.cover(key, prefix: prefix, in: segments[ordinal]) {
            return KeyHead(docs: cover.docs, scores: cover.scores, tail: cover.bound, enumerated: false,
                           scale: scale * 1.0001)
        }
        let iterator = planner.iterator(plan, segment: ordinal, scored: false)
        var docs: [UInt32] = [], scores: [Float] = []
        iterator.listMatches(into: &docs, scores: &scores)
        guard docs.count <= ChampionLists.coverCapacity * 4 else { return nil }
        return KeyHead(docs: docs, scores: [], tail: -.infinity, enumerated: true, scale: 0)
    }
}
