/// A scored text leaf evaluated up front: every posting is decoded once and its BM25F weighted frequency
/// accumulated per document, then the matching documents are walked in order with their final scores.
/// Scores equal `TermGroupIterator`'s: the same terms summed in the same (source) order.
///
/// Two shapes pay off. Many sources covering a good part of the segment (a wide prefix or fuzzy
/// expansion) use a dense per-document accumulator instead of a heap over hundreds of cursors. A few
/// sources with few postings in all (a term of median frequency in four fields) are merged sparsely: a
/// ranked search scores every one of those documents anyway, and a flat loop over decoded postings costs
/// a fraction of the heap, block bounds and dynamic calls of document-at-a-time evaluation.
final class MaterializedGroupIterator: DocIterator {
    static let minimumSources = 12
    /// The sparse merge is for at most this many sources...
    static let sparseMaximumSources = 8
    /// ...with at most this many postings in all.
    static let sparseMaximumPostings = 2048

    private let docs: [UInt32]
    private let scores: [Float]
    /// The best score of each chunk of `chunk` consecutive matches: block-max bounds for top-k pruning
    /// (without them no conjunction or disjunction holding a wide prefix could skip anything).
    private let chunkMaxima: [Float]
    static let chunk = 64
    private let label: String
    private let idf: Float
    private var index = -1

    /// The precomputed matches (ascending) and their scores, with their chunk bounds; `idf` is only reported.
    init(docs: [UInt32], scores: [Float], idf: Float, label: String) {
        self.docs = docs
        self.scores = scores
        self.idf = idf
        self.label = label
        chunkMaxima = Self.chunkMaxima(scores)
        best = max(chunkMaxima.max() ?? 0, 0)
    }

    /// The final score of a document from its weighted frequency, as `TermGroupIterator.score()` computes it.
    @inline(__always)
    static func score(_ w: Float, boost: Float, idf: Float, parameters: RankingParameters,
                              startsPrimary: Bool, equalsPrimary: Bool) -> Float {
        var value = boost * idf * w * (parameters.k1 + 1) / (w + parameters.k1)
        if startsPrimary { value *= 1 + parameters.primaryPrefixBoost }
        if equalsPrimary { value *= 1 + parameters.primaryExactBoost }
        return value
    }

    /// One (field, term) of a materialized group in one segment: the term's index in the field's dictionary,
    /// and what scoring needs of the field. No cursor: one cursor decodes every term's postings in turn.
    /// Or a wide prefix's precomputed list (`prefixes` non-nil: list `index` there, standing for the prefix's
    /// longer terms, never exact).
    struct Term {
        let terms: FieldTerms
        let index: Int
        let field: Int
        let fieldFactor: [Float]
        let norms: [UInt8]
        let primary: Bool
        let isExact: Bool
        var prefixes: PrefixPostings? = nil

        /// Postings to decode.
        var postings: Int { prefixes.map { Int($0.postingCount[index]) } ?? Int(terms.docFreq[index]) }
    }

    /// Decodes `term`'s postings with `cursor` (repositioned to it): each document with its weighted frequency
    /// and primary-boost flags (bit 0: a primary field starts with the query, bit 1: it equals the query), in
    /// document order, until `body` returns false.
    @inline(__always)
    private static func forEachPosting(of term: Term, cursor: PostingCursor,
                                       _ body: (_ doc: Int, _ weight: Float, _ flags: UInt8) -> Bool) {
        let primary = term.primary, isExact = term.isExact
        if let prefixes = term.prefixes {
            term.fieldFactor.withUnsafeBufferPointer { factor in
                term.norms.withUnsafeBufferPointer { norms in
                    prefixes.forEachPosting(term.index) { doc, tf, starts in
                        let norm = doc < norms.count ? Int(norms[doc]) : 0
                        return body(doc, Float(tf) * factor[norm], primary && starts ? PostingRuns.startsPrimary : 0)
                    }
                }
            }
            return
        }
        cursor.position(terms: term.terms, index: term.index, field: term.field)
        term.fieldFactor.withUnsafeBufferPointer { factor in
            term.norms.withUnsafeBufferPointer { norms in
                guard primary else {
                    // Without positions to read, the decoded blocks are read as they are: the cursor is not
                    // moved posting by posting.
                    cursor.forEachRemainingBlock { docs, tfs, count in
                        for k in 0..<count {
                            let doc = Int(docs[k])
                            let norm = doc < norms.count ? Int(norms[doc]) : 0
                            guard body(doc, Float(tfs[k]) * factor[norm], 0) else { return false }
                        }
                        return true
                    }
                    return
                }
                // Block by block: no call per posting.
                cursor.forEachRemaining { doc, tf in
                    let norm = doc < norms.count ? Int(norms[doc]) : 0
                    var flags: UInt8 = 0
                    // A term matches one position, so the field equals the query when its length is one.
                    if cursor.firstPosition() == 0 {
                        flags = PostingRuns.startsPrimary
                        if isExact, Int(FieldNorm.lengths[norm]) == 1 { flags |= PostingRuns.equalsPrimary }
                    }
                    return body(doc, Float(tf) * factor[norm], flags)
                }
            }
        }
    }

    /// Sparse merge of a few terms: each term's postings are decoded once into flat buffers (document,
    /// weighted frequency, primary-boost flags), then merged by document with contributions summed in
    /// term order. No per-posting dynamic calls, reference counting or bounds checks.
    convenience init(sparse terms: [Term], segment: Segment, idf: Float, boost: Float, parameters: RankingParameters,
                     label: String) {
        let runs = PostingRuns(runs: terms.count, capacity: terms.reduce(0) { $0 + $1.postings })
        let cursor = PostingCursor(segment: segment)
        for term in terms {
            runs.startRun()
            Self.forEachPosting(of: term, cursor: cursor) { doc, weight, flags in runs.append(doc, weight: weight, flags: flags) }
        }
        var docs: [UInt32] = []
        var scores: [Float] = []
        runs.merge(boost: boost, idf: idf, parameters: parameters, into: &docs, scores: &scores)
        self.init(docs: docs, scores: scores, idf: idf, label: label)
    }

    /// Dense accumulation of many terms over the whole segment: per-document accumulators (pooled, so no
    /// query pays to allocate and clear a segment's worth), and a bitset of the touched documents, so
    /// collecting the matches scans a word per 64 documents rather than every document. One cursor decodes
    /// every term's postings in turn: no objects per term.
    convenience init(dense terms: [Term], segment: Segment, idf: Float, boost: Float,
                     parameters: RankingParameters, label: String) {
        let documentCount = segment.documentCount
        let wordCount = (documentCount + 63) >> 6
        let cursor = PostingCursor(segment: segment)
        var docs: [UInt32] = []
        var scores: [Float] = []
        Accumulator.withAccumulator(documents: documentCount) { accumulator in
            // bit 0 of a flag: a primary field starts with the query, bit 1: it equals it.
            let weighted = accumulator.weights, flags = accumulator.flags, touched = accumulator.touched
            var matched = 0
            for term in terms {
                Self.forEachPosting(of: term, cursor: cursor) { doc, weight, termFlags in
                    guard doc < documentCount else { return false }
                    weighted[doc] += weight
                    let bit: UInt64 = 1 << UInt64(doc & 63)
                    if touched[doc >> 6] & bit == 0 {
                        touched[doc >> 6] |= bit
                        matched += 1
                    }
                    flags[doc] |= termFlags
                    return true
                }
            }
            // Collects the matches in order, leaving the accumulator zeroed for its next user.
            docs = [UInt32](unsafeUninitializedCapacity: matched) { docBuffer, docCount in
                scores = [Float](unsafeUninitializedCapacity: matched) { scoreBuffer, scoreCount in
                    var n = 0
                    for word in 0..<wordCount {
                        var bits = touched[word]
                        guard bits != 0 else { continue }
                        touched[word] = 0
                        while bits != 0 {
                            let doc = word << 6 | bits.trailingZeroBitCount
                            bits &= bits - 1
                            docBuffer[n] = UInt32(doc)
                            scoreBuffer[n] = Self.score(weighted[doc], boost: boost, idf: idf, parameters: parameters,
                                                        startsPrimary: flags[doc] & 1 != 0, equalsPrimary: flags[doc] & 2 != 0)
                            n += 1
                            weighted[doc] = 0
                            flags[doc] = 0
                        }
                    }
                    assert(n == matched, "the bitset holds the documents counted")
                    scoreCount = n
                }
                docCount = scores.count
            }
        }
        self.init(docs: docs, scores: scores, idf: idf, label: label)
    }

    /// The best score of each run of `chunk` matches (block bounds of a precomputed list).
    private static func chunkMaxima(_ scores: [Float]) -> [Float] {
        var maxima: [Float] = []
        maxima.reserveCapacity((scores.count + chunk - 1) / chunk)
        var start = 0
        while start < scores.count {
            maxima.append(scores[start..<min(start + chunk, scores.count)].max() ?? 0)
            start += chunk
        }
        return maxima
    }

    /// The best score of all matches.
    private let best: Float
    override var maxScore: Float { best }

    /// The next match scoring above `threshold` (the scores are known: a scan of floats).
    override func nextCompetitive(_ threshold: Float) -> Int {
        if doc == Self.end { return doc }
        index += 1
        while index < scores.count, scores[index] <= threshold { index += 1 }
        doc = index < docs.count ? Int(docs[index]) : Self.end
        return doc
    }

    /// The best score from the current match to the end of its chunk.
    override func blockBound() -> (bound: Float, upTo: Int)? {
        guard index >= 0, index < docs.count else { return nil }
        let chunk = index / Self.chunk
        return (chunkMaxima[chunk], Int(docs[min((chunk + 1) * Self.chunk, docs.count) - 1]))
    }

    override func next() -> Int {
        index += 1
        doc = index < docs.count ? Int(docs[index]) : Self.end
        return doc
    }

    override func advance(_ target: Int) -> Int {
        if doc >= target { return doc }
        index = ListIterator.firstIndex(in: docs, from: index + 1, atLeast: target)
        doc = index < docs.count ? Int(docs[index]) : Self.end
        return doc
    }

    override func score() -> Float { index < scores.count ? scores[index] : 0 }

    /// Every match and score: the precomputed lists, copied whole.
    override func listMatches(into docs: inout [UInt32], scores: inout [Float]) {
        assert(index == -1, "listMatches wants a fresh iterator")
        docs.append(contentsOf: self.docs)
        scores.append(contentsOf: self.scores)
        index = self.docs.count
        doc = Self.end
    }

    /// Where the next batch of candidates starts its merge: the first match after the last batch's candidates.
    private var scoredUpTo = 0

    /// Scores ascending candidates by a merge with the precomputed matches, galloping ahead when the candidates
    /// are sparser than the matches.
    override func scoreCandidates(_ candidates: UnsafeBufferPointer<UInt32>, scores: UnsafeMutablePointer<Float>,
                                  matched: UnsafeMutablePointer<Bool>) {
        assert(index == -1 || index == self.docs.count, "scoreCandidates wants an iterator that was not walked")
        self.docs.withUnsafeBufferPointer { docs in
            self.scores.withUnsafeBufferPointer { own in
                var at = scoredUpTo
                for (i, candidate) in candidates.enumerated() {
                    at = Self.gallop(docs, from: at, atLeast: Int(candidate))
                    let found = at < docs.count && docs[at] == candidate
                    matched[i] = found
                    if found { scores[i] = own[at] }
                }
                scoredUpTo = at
            }
        }
        index = self.docs.count
        doc = Self.end
    }

    /// The best score of the chunks holding the matches in the range.
    override func scoreBound(from first: Int, through last: Int) -> Float? {
        docs.withUnsafeBufferPointer { docs in
            scoredUpTo = Self.gallop(docs, from: scoredUpTo, atLeast: first)
            // No match in the range: nothing to bound.
            guard scoredUpTo < docs.count, Int(docs[scoredUpTo]) <= last else { return 0 }
            var chunk = scoredUpTo / Self.chunk
            var bound = chunkMaxima[chunk]
            chunk += 1
            while chunk < chunkMaxima.count, Int(docs[chunk * Self.chunk]) <= last {
                bound = max(bound, chunkMaxima[chunk])
                chunk += 1
            }
            return bound
        }
    }

    override var cost: Int { docs.count }
    override func explain() -> Explanation {
        Explanation(value: score(), summary: "BM25F \(label) (expanded terms, precomputed)",
                    details: [Explanation(value: idf, summary: "idf")])
    }
}
