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

    /// The precomputed matches and scores, with their chunk bounds.
    private init(docs: [UInt32], scores: [Float], idf: Float, label: String) {
        self.docs = docs
        self.scores = scores
        self.idf = idf
        self.label = label
        chunkMaxima = Self.chunkMaxima(scores)
        best = max(chunkMaxima.max() ?? 0, 0)
    }

    /// The final score of a document from its weighted frequency, as `TermGroupIterator.score()` computes it.
    @inline(__always)
    private static func score(_ w: Float, boost: Float, idf: Float, parameters: RankingParameters,
                              startsPrimary: Bool, equalsPrimary: Bool) -> Float {
        var value = boost * idf * w * (parameters.k1 + 1) / (w + parameters.k1)
        if startsPrimary { value *= 1 + parameters.primaryPrefixBoost }
        if equalsPrimary { value *= 1 + parameters.primaryExactBoost }
        return value
    }

    /// Sparse merge of a few sources: documents in order, contributions summed in source order.
    convenience init(sparse sources: [PostingSource], idf: Float, boost: Float, parameters: RankingParameters,
                     label: String) {
        let total = sources.reduce(0) { $0 + $1.cost }
        var docs: [UInt32] = []
        var scores: [Float] = []
        docs.reserveCapacity(total)
        scores.reserveCapacity(total)
        var current = [Int](repeating: PostingCursor.end, count: sources.count)
        for (index, source) in sources.enumerated() { current[index] = source.cursor.next() }
        while true {
            var doc = PostingCursor.end
            for d in current where d < doc { doc = d }
            if doc == PostingCursor.end { break }
            var w: Float = 0
            var startsPrimary = false, equalsPrimary = false
            for (index, source) in sources.enumerated() where current[index] == doc {
                let cursor = source.cursor
                let norm = source.norm(doc)
                w += Float(cursor.tf) * source.fieldFactor[Int(norm)]
                if source.primary, cursor.firstPosition() == 0 {
                    startsPrimary = true
                    if source.isExact, Int(FieldNorm.lengths[Int(norm)]) == source.span { equalsPrimary = true }
                }
                current[index] = cursor.next()
            }
            docs.append(UInt32(doc))
            scores.append(Self.score(w, boost: boost, idf: idf, parameters: parameters,
                                     startsPrimary: startsPrimary, equalsPrimary: equalsPrimary))
        }
        self.init(docs: docs, scores: scores, idf: idf, label: label)
    }

    /// Whether the sparse merge suits a group of these sources.
    static func suitsSparse(_ sources: [TermSource]) -> Bool {
        guard sources.count <= sparseMaximumSources else { return false }
        var total = 0
        for source in sources {
            guard source is PostingSource else { return false }
            total += source.cost
        }
        return total <= sparseMaximumPostings
    }

    /// Dense accumulation of many sources over the whole segment.
    convenience init(sources: [PostingSource], documentCount: Int, idf: Float, boost: Float,
                     parameters: RankingParameters, label: String) {
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
            docs.append(UInt32(doc))
            scores.append(Self.score(weighted[doc], boost: boost, idf: idf, parameters: parameters,
                                     startsPrimary: flags[doc] & 2 != 0, equalsPrimary: flags[doc] & 4 != 0))
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
    override var cost: Int { docs.count }
    override func explain() -> Explanation {
        Explanation(value: score(), summary: "BM25F \(label) (expanded terms, precomputed)",
                    details: [Explanation(value: idf, summary: "idf")])
    }
}
