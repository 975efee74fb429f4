/// A scored text leaf with many sources (a wide prefix or fuzzy expansion): instead of a heap over
/// hundreds of cursors, every posting is decoded once into a dense per-document accumulator of BM25F
/// weighted frequencies, then the matching documents are walked in order with their final scores.
/// Scores equal `TermGroupIterator`'s: the same terms summed in the same (source) order.
final class MaterializedGroupIterator: DocIterator {
    static let minimumSources = 12

    private let docs: [UInt32]
    private let scores: [Float]
    /// The best score of each chunk of `chunk` consecutive matches: block-max bounds for top-k pruning
    /// (without them no conjunction or disjunction holding a wide prefix could skip anything).
    private let chunkMaxima: [Float]
    static let chunk = 64
    private let label: String
    private let idf: Float
    private var index = -1

    init(sources: [PostingSource], documentCount: Int, idf: Float, boost: Float, parameters: RankingParameters,
         label: String) {
        self.label = label
        self.idf = idf
        var weighted = [Float](repeating: 0, count: documentCount)
        // bit 0: matched, bit 1: a primary field starts with the query, bit 2: a primary field equals it.
        var flags = [UInt8](repeating: 0, count: documentCount)
        for source in sources {
            let cursor = source.cursor
            var doc = cursor.next()
            while doc != PostingCursor.end {
                guard doc < documentCount else { break }
                let norm = source.norm(doc)
                weighted[doc] += Float(cursor.tf) * source.fieldFactor[Int(norm)]
                flags[doc] |= 1
                if source.primary, cursor.firstPosition() == 0 {
                    flags[doc] |= 2
                    if source.isExact, Int(FieldNorm.lengths[Int(norm)]) == source.span { flags[doc] |= 4 }
                }
                doc = cursor.next()
            }
        }
        var docs: [UInt32] = []
        var scores: [Float] = []
        for doc in 0..<documentCount where flags[doc] != 0 {
            let w = weighted[doc]
            var value = boost * idf * w * (parameters.k1 + 1) / (w + parameters.k1)
            if flags[doc] & 2 != 0 { value *= 1 + parameters.primaryPrefixBoost }
            if flags[doc] & 4 != 0 { value *= 1 + parameters.primaryExactBoost }
            docs.append(UInt32(doc))
            scores.append(value)
        }
        self.docs = docs
        self.scores = scores
        var maxima: [Float] = []
        maxima.reserveCapacity((scores.count + Self.chunk - 1) / Self.chunk)
        var start = 0
        while start < scores.count {
            maxima.append(scores[start..<min(start + Self.chunk, scores.count)].max() ?? 0)
            start += Self.chunk
        }
        chunkMaxima = maxima
        best = max(maxima.max() ?? 0, 0)
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
    override var cost: Int { docs.count }
    override func explain() -> Explanation {
        Explanation(value: score(), summary: "BM25F \(label) (expanded terms, precomputed)",
                    details: [Explanation(value: idf, summary: "idf")])
    }
}
