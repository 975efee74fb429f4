/// A ranked conjunction at the root of a search, evaluated term at a time over its cheapest clause's matches:
/// the lead's documents and scores are listed first, then, a batch of candidates at a time, each other clause,
/// in the conjunction's order, scores the remaining candidates at once and drops those it does not match.
///
/// Document at a time, every candidate of the lead costs a walk of the conjunction's machinery: each clause's
/// per-field sources advanced through a dynamic call, a heap or scan to find the ones on the document, and
/// block windows recomputed for pruning. A top-k search whose lead has a few thousand matches ends up scoring
/// most of them anyway, so here a term group walks one field's postings through a batch of candidates before
/// the next field (`DocIterator.scoreCandidates`). Scores are those of `ConjunctionIterator`, bit for bit: each
/// clause's score is computed as its `score()` does, and the clauses add up in the same order.
///
/// Batches let the collector's threshold prune (block-max, term at a time): once the top-k heap is full, a
/// candidate whose lead score plus the other clauses' bounds over the batch's range (`DocIterator.scoreBound`,
/// from their skip data) cannot beat the k-th hit is dropped before any other clause scores it. On debian-en a
/// word paired with a stopword ("the library") drops 96% of them: the stopword adds at most a seventh of the
/// k-th score. Two stopwords ("the and") still drop most, over ranges where neither reaches its best; what they
/// cost is then listing the lead, every posting of it in four fields.
final class CandidateConjunctionIterator: DocIterator {
    /// The clauses after the lead, in scoring order.
    private let others: [DocIterator]
    /// The lead's matches and scores, listed when the iterator is made.
    private let leadDocs: [UInt32]
    private let leadScores: [Float]
    /// The first listed match not yet in a batch.
    private var nextCandidate = 0
    /// The current batch's matches (`count`, the current one at `index`) and their scores, and scratch for a
    /// clause's scores of them; one allocation of `capacity` each, freed in deinit.
    private let docs: UnsafeMutablePointer<UInt32>
    private let scores: UnsafeMutablePointer<Float>
    private let childScores: UnsafeMutablePointer<Float>
    private let matched: UnsafeMutablePointer<Bool>
    private let storage: UnsafeMutableRawPointer
    private var count = 0
    private var index = 0
    /// Unbounded batches to score (as one) before the next bounded one, and how many the last unprofitable
    /// bound earned (doubling, up to `maximumUnboundedBatches`).
    private var unboundedBatches = 0
    private var idleBounds = 0
    static let maximumUnboundedBatches = 15
    private let totalMaxScore: Float
    /// Lead matches dropped by the bounds, never scored by the other clauses (for tests).
    private(set) var prunedCandidates = 0

    /// Candidates per batch: a range narrow enough for the other clauses' block bounds to stay tight, wide
    /// enough that bounding it (a few skip entries per field) costs little beside scoring it. On debian-en,
    /// four stopword pairs cost 4.45 M instructions with 256, 4.65 M with 128 and 4.60 M with 512.
    static let batch = 256
    /// A lead of at most this many matches is scored in one batch: bounding a few batches costs about what
    /// it saves, and a median two-word query's lead, even at a million items, is shorter.
    static let wholeList = 2048
    private let batchSize: Int
    private let capacity: Int

    /// The conjunction of two or more fresh `children`; the lead is listed here. `batch` and `wholeList` are
    /// the defaults but for tests.
    init(_ children: [DocIterator], batch: Int = CandidateConjunctionIterator.batch,
         wholeList: Int = CandidateConjunctionIterator.wholeList) {
        assert(children.count > 1, "a conjunction of one clause is that clause")
        let ordered = ConjunctionIterator.ordered(children)
        let lead = ordered[0]
        others = Array(ordered.dropFirst())
        var docs: [UInt32] = []
        var scores: [Float] = []
        docs.reserveCapacity(min(lead.cost, 1 << 16))
        scores.reserveCapacity(min(lead.cost, 1 << 16))
        lead.listMatches(into: &docs, scores: &scores)
        leadDocs = docs
        leadScores = scores
        let listed = max(docs.count, 1)
        batchSize = listed <= wholeList ? listed : max(batch, 1)
        // Room for the longest run of unbounded batches, scored as one.
        capacity = min(listed, batchSize * Self.maximumUnboundedBatches)
        storage = .allocate(byteCount: capacity * (4 + 4 + 4 + 1), alignment: 4)
        self.docs = storage.bindMemory(to: UInt32.self, capacity: capacity)
        self.scores = (storage + 4 * capacity).bindMemory(to: Float.self, capacity: capacity)
        childScores = (storage + 8 * capacity).bindMemory(to: Float.self, capacity: capacity)
        matched = (storage + 12 * capacity).bindMemory(to: Bool.self, capacity: capacity)
        totalMaxScore = others.reduce(lead.maxScore) { $0 + $1.maxScore }
    }

    deinit { storage.deallocate() }

    /// The next batch of matches, pruned against `threshold` (−∞: nothing is) unless a run of unbounded batches
    /// is due; false when the lead is used up.
    private func fill(_ threshold: Float) -> Bool {
        let listed = leadDocs.count
        while nextCandidate < listed {
            let start = nextCandidate
            // Unbounded batches in a row are scored as one.
            let bounded = threshold > -.infinity && unboundedBatches == 0
            let end = min(start + (bounded ? batchSize : min(batchSize * max(unboundedBatches, 1), capacity)), listed)
            nextCandidate = end
            unboundedBatches = 0
            let n = leadDocs.withUnsafeBufferPointer { leadDocs in
                leadScores.withUnsafeBufferPointer { leadScores in
                    batch(leadDocs.baseAddress! + start, leadScores.baseAddress! + start, count: end - start,
                          threshold: bounded ? threshold : -.infinity)
                }
            }
            if n > 0 {
                count = n
                index = -1
                return true
            }
        }
        count = 0
        return false
    }

    /// Scores the `n` lead matches at `candidates` (ascending) with `leadScores` into the batch buffers: those
    /// that may beat `threshold` (all while it is −∞), then, clause by clause, those each other clause matches.
    /// Returns how many are left.
    @inline(__always)
    private func batch(_ candidates: UnsafePointer<UInt32>, _ leadScores: UnsafePointer<Float>, count n: Int,
                       threshold: Float) -> Int {
        var from = candidates, fromScores = leadScores, n = n
        if threshold > -.infinity {
            // What the other clauses can add to a match in this range.
            var bound: Float = 0
            let first = Int(candidates[0]), last = Int(candidates[n - 1])
            for other in others { bound += other.scoreBound(from: first, through: last) ?? other.maxScore }
            if bound < .infinity {
                // Branch-free: each candidate is written, and kept by moving past it (no mispredicted jumps on
                // scores that pass or fail at random).
                var kept = 0
                for i in 0..<n {
                    docs[kept] = candidates[i]
                    scores[kept] = leadScores[i]
                    kept &+= Self.cannotBeat(leadScores[i] + bound, threshold) ? 0 : 1
                }
                prunedCandidates += n - kept
                // A batch that prunes little (clauses that all score alike) makes the next few go unbounded, more
                // of them each time: bounding costs what it saves only when it drops a good part of a batch.
                if kept * 4 > n * 3 {
                    idleBounds = min(idleBounds * 2 + 1, Self.maximumUnboundedBatches)
                    unboundedBatches = idleBounds
                } else {
                    idleBounds = 0
                }
                (from, fromScores, n) = (UnsafePointer(docs), UnsafePointer(scores), kept)
            } else {
                // A clause without bounds: nothing will ever be pruned.
                idleBounds = Self.maximumUnboundedBatches
                unboundedBatches = idleBounds
            }
        }
        for other in others where n > 0 {
            other.scoreCandidates(UnsafeBufferPointer(start: from, count: n), scores: childScores, matched: matched)
            // Kept in place (or copied from the lead's list on the first pass): `kept` never passes `i`.
            var kept = 0
            for i in 0..<n {
                let isMatch = matched[i]
                docs[kept] = from[i]
                // An unmatched candidate's score is left undefined by `scoreCandidates`: not read.
                scores[kept] = isMatch ? fromScores[i] + childScores[i] : 0
                kept &+= isMatch ? 1 : 0
            }
            (from, fromScores, n) = (UnsafePointer(docs), UnsafePointer(scores), kept)
        }
        return n
    }

    /// Whether a score bound cannot beat `threshold`, with a margin for float rounding (the bounds are computed
    /// in another order than the scores).
    @inline(__always)
    static func cannotBeat(_ bound: Float, _ threshold: Float) -> Bool { bound + abs(bound) * 0.0001 <= threshold }

    override func next() -> Int { nextCompetitive(-.infinity) }

    /// The next match scoring above `threshold`: matches of the current batch are skipped by their known scores,
    /// and the next batch is pruned against it.
    override func nextCompetitive(_ threshold: Float) -> Int {
        if doc == Self.end { return doc }
        while true {
            index += 1
            while index < count, scores[index] <= threshold { index += 1 }
            if index < count {
                doc = Int(docs[index])
                return doc
            }
            guard fill(threshold) else { break }
        }
        doc = Self.end
        return doc
    }

    /// The first match ≥ `target`: the lead's candidates before it are never scored.
    override func advance(_ target: Int) -> Int {
        if doc >= target { return doc }
        if count > 0, Int(docs[count - 1]) >= target {
            index = max(index, 0)
            while Int(docs[index]) < target { index += 1 }
            doc = Int(docs[index])
            return doc
        }
        nextCandidate = leadDocs.withUnsafeBufferPointer { Self.gallop($0, from: nextCandidate, atLeast: target) }
        count = 0
        index = 0
        return next()
    }

    override func score() -> Float { index < count ? scores[index] : 0 }
    override var cost: Int { leadDocs.count }
    override var maxScore: Float { totalMaxScore }
}
