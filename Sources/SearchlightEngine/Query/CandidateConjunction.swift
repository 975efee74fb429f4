/// A ranked conjunction at the root of a search, evaluated term at a time over its cheapest clause's matches:
/// the lead's documents and scores are listed first, then each other clause, in the conjunction's order,
/// scores all the remaining candidates at once and drops those it does not match.
///
/// Document at a time, every candidate of the lead costs a walk of the conjunction's machinery: each clause's
/// per-field sources advanced through a dynamic call, a heap or scan to find the ones on the document, and
/// block windows recomputed for pruning. A top-k search whose lead has a few thousand matches ends up scoring
/// most of them anyway, so here a term group walks one field's postings through all the candidates before the
/// next field (`DocIterator.scoreCandidates`). Scores are those of `ConjunctionIterator`, bit for bit: each
/// clause's score is computed as its `score()` does, and the clauses add up in the same order.
///
/// Every ranked conjunction at the root is evaluated this way: measured on debian-en, even stopword pairs (a lead
/// of 40,000 documents, whose block-max pruning skips little since descriptions alone reach the top 20) cost 40%
/// fewer instructions than the walk.
enum CandidateConjunction {
    /// The matches of the conjunction of two or more fresh `children` with their scores, as one precomputed list.
    static func iterator(_ children: [DocIterator]) -> DocIterator {
        assert(children.count > 1, "a conjunction of one clause is that clause")
        let ordered = ConjunctionIterator.ordered(children)
        let lead = ordered[0]
        var docs: [UInt32] = []
        var scores: [Float] = []
        docs.reserveCapacity(min(lead.cost, 1 << 16))
        scores.reserveCapacity(min(lead.cost, 1 << 16))
        lead.listMatches(into: &docs, scores: &scores)
        var count = docs.count
        if count > 0 {
            docs.withUnsafeMutableBufferPointer { docs in
                scores.withUnsafeMutableBufferPointer { scores in
                    withUnsafeTemporaryAllocation(of: Float.self, capacity: count) { childScores in
                        withUnsafeTemporaryAllocation(of: Bool.self, capacity: count) { matched in
                            for child in ordered.dropFirst() where count > 0 {
                                child.scoreCandidates(UnsafeBufferPointer(rebasing: docs[..<count]),
                                                      scores: childScores.baseAddress!, matched: matched.baseAddress!)
                                var kept = 0
                                for i in 0..<count where matched[i] {
                                    docs[kept] = docs[i]
                                    scores[kept] = scores[i] + childScores[i]
                                    kept += 1
                                }
                                count = kept
                            }
                        }
                    }
                }
            }
        }
        docs.removeSubrange(count...)
        scores.removeSubrange(count...)
        return MaterializedGroupIterator(docs: docs, scores: scores, idf: 0, label: "and")
    }
}
