/// A wide term group (a prefix or fuzzy expansion, walked lazily) that a ranked conjunction led by a rarer clause
/// asks only to score its lead's candidates (`scoreCandidates`).
///
/// As a `TermGroupIterator` such a group is two objects per term and field, a source and its cursor, made for one
/// search and freed after it. A two-word user query on debian-en ("securely intern", two passes) made 282 objects
/// in its term groups, and making and freeing them cost more than seeking their postings through the candidates.
/// Here the terms are plain values and one cursor is repositioned from term to term. Each term seeks through the
/// candidates as its source would, in source order, so the scores are `TermGroupIterator.scoreCandidates`'s bit
/// for bit. Whatever else a parent asks (a document-at-a-time walk, a listing, an explanation) is answered by that
/// `TermGroupIterator`, built on first need.
final class CandidateGroupIterator: DocIterator {
    /// One term of the group in this segment: its dictionary and index there, its field (a position in `fields`),
    /// and whether it is the query text itself (exact boosts need it).
    struct Term {
        let terms: FieldTerms
        let index: Int
        let slot: Int
        let isExact: Bool
    }

    /// What scoring needs of one field of the group.
    struct Field {
        let field: Int
        let fieldFactor: [Float]
        let norms: [UInt8]
        let primary: Bool
    }

    private let terms: [Term]
    private let fields: [Field]
    private let segment: Segment
    private let idf: Float
    private let boost: Float
    private let parameters: RankingParameters
    private let totalCost: Int
    private let best: Float
    /// Builds the equivalent `TermGroupIterator` (for anything but scoring candidates).
    private let makeWalker: () -> TermGroupIterator
    private var walker: TermGroupIterator?
    /// Made on the first batch: one cursor for every term.
    private var cursor: PostingCursor?

    init(terms: [Term], fields: [Field], segment: Segment, idf: Float, boost: Float, parameters: RankingParameters,
         walker: @escaping () -> TermGroupIterator) {
        self.terms = terms
        self.fields = fields
        self.segment = segment
        self.idf = idf
        self.boost = boost
        self.parameters = parameters
        makeWalker = walker
        totalCost = terms.reduce(0) { $0 + Int($1.terms.docFreq[$1.index]) }
        // As `TermGroupIterator.maxScore`: the largest primary boost any term can give.
        let prefixFactor = 1 + parameters.primaryPrefixBoost, exactFactor = 1 + parameters.primaryExactBoost
        let primaryFactor = terms.reduce(Float(1)) { factor, term in
            guard fields[term.slot].primary else { return max(factor, 1) }
            return max(factor, term.isExact ? prefixFactor * exactFactor : prefixFactor)
        }
        best = max(boost * idf * (parameters.k1 + 1) * primaryFactor, 0)
    }

    override var cost: Int { totalCost }
    override var maxScore: Float { best }

    /// Term at a time over the candidates (ascending), each term's postings sought through them in the group's
    /// source order, then each matched candidate's weighted frequency saturated as `TermGroupIterator` does.
    /// Further calls with later candidates start every term's seek over (one batch is what a lead of up to
    /// `CandidateConjunctionIterator.wholeList` matches asks for).
    override func scoreCandidates(_ candidates: UnsafeBufferPointer<UInt32>, scores: UnsafeMutablePointer<Float>,
                                  matched: UnsafeMutablePointer<Bool>) {
        let count = candidates.count
        guard count > 0 else { return }
        let cursor = self.cursor ?? PostingCursor(segment: segment)
        self.cursor = cursor
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { flagBuffer in
            // bit 0: some term matched, bit 1: a primary field starts with the query, bit 2: one equals it.
            let flags = flagBuffer.baseAddress!
            flags.initialize(repeating: 0, count: count)
            scores.update(repeating: 0, count: count)
            for term in terms {
                let field = fields[term.slot]
                cursor.position(terms: term.terms, index: term.index, field: field.field)
                field.fieldFactor.withUnsafeBufferPointer { factor in
                    field.norms.withUnsafeBufferPointer { norms in
                        if count >= TermGroupIterator.minimumColumnCandidates,
                           let column = segment.frequencyColumn(field: field.field, terms: term.terms, index: term.index,
                                                                primary: field.primary) {
                            TermGroupIterator.scoreCandidates(candidates, cursor: cursor, column: column, factor: factor,
                                                              norms: norms, primary: field.primary,
                                                              isExact: term.isExact, scores: scores, flags: flags)
                            return
                        }
                        var i = 0
                        while i < count {
                            let target = Int(candidates[i])
                            let d = cursor.advance(target)
                            if d == Self.end { break }
                            if d != target {
                                i = Self.gallop(candidates, from: i + 1, atLeast: d)
                                continue
                            }
                            let norm = d < norms.count ? norms[d] : 0
                            scores[i] += Float(cursor.tf) * factor[Int(norm)]
                            let primaryFlags = field.primary && cursor.firstPosition() == 0
                                ? TermSource.startFlags(norm: norm, span: 1, isExact: term.isExact) : 0
                            // Bit 0 marks the match; the primary flags ride one bit higher.
                            flags[i] |= 1 | primaryFlags << 1
                            i += 1
                        }
                    }
                }
            }
            TermGroupIterator.saturate(count, scores: scores, flags: flags, matched: matched, boost: boost, idf: idf,
                                       parameters: parameters)
        }
        doc = Self.end
    }

    /// The group as a `TermGroupIterator`, for a parent that walks it.
    private var walking: TermGroupIterator {
        if let walker { return walker }
        let built = makeWalker()
        walker = built
        return built
    }

    override func next() -> Int {
        doc = walking.next()
        return doc
    }

    override func advance(_ target: Int) -> Int {
        if doc >= target { return doc }
        doc = walking.advance(target)
        return doc
    }

    override func nextCompetitive(_ threshold: Float) -> Int {
        doc = walking.nextCompetitive(threshold)
        return doc
    }

    override func score() -> Float { walking.score() }
    override func blockBound() -> (bound: Float, upTo: Int)? { walking.blockBound() }
    override func explain() -> Explanation { walking.explain() }

    override func listMatches(into docs: inout [UInt32], scores: inout [Float]) {
        walking.listMatches(into: &docs, scores: &scores)
        doc = Self.end
    }
}
