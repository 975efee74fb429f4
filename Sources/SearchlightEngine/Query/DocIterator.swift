/// A cursor over the matching documents of one segment, in increasing order, with the score of the
/// current document. Operators compose these (document-at-a-time evaluation).
class DocIterator {
    static let end = Int.max

    /// Current document: -1 before the first `next`, `end` when exhausted.
    var doc = -1

    /// Moves to the next match.
    func next() -> Int {  // every subclass overrides; the base matches nothing
        doc = Self.end
        return doc
    }

    /// Moves to the first match ≥ `target` (default: repeated `next`).
    func advance(_ target: Int) -> Int {
        while doc < target { _ = next() }
        return doc
    }

    /// Score of the current document.
    func score() -> Float { 0 }

    /// Estimated number of matches (for ordering conjunctions shortest first).
    var cost: Int { 0 }

    /// Score breakdown of the current document.
    func explain() -> Explanation { Explanation(value: score(), summary: "\(type(of: self))") }

    /// Block-max data for top-k pruning: an upper bound of the score of every document from the current
    /// one up to `upTo`; nil when this iterator cannot bound its scores.
    func blockBound() -> (bound: Float, upTo: Int)? { nil }

    /// Moves to the next match that could score above `threshold` (the worst hit of a full top-k heap,
    /// which later documents can only beat, never tie); may skip matches that cannot. Only the top-level
    /// iterator of a ranked search is asked, so no parent ever misses a document it needs. Default: `next()`.
    func nextCompetitive(_ threshold: Float) -> Int { next() }

    /// An upper bound of the score of every match from `first` through `last`, for an iterator scored by
    /// `scoreCandidates` batches: asked before the batch whose candidates lie in that range, after every earlier
    /// batch. It may move the iterator's cursors forward to `first` (the batch would). Nil: no bound.
    func scoreBound(from first: Int, through last: Int) -> Float? { nil }

    /// An upper bound of every score this iterator can produce (infinity: unknown). Lets a conjunction or
    /// disjunction ask a child for `nextCompetitive` with the part of the threshold the other children
    /// cannot make up, so a wide, flat clause does not score every candidate for a top-k. Fixed when the
    /// iterator is made (a parent may read it once).
    var maxScore: Float { .infinity }

    /// The threshold a child must beat so that, with at most `others` from the rest, a document could score
    /// above `threshold` (with a margin for float rounding); nil when nothing can be skipped safely.
    @inline(__always)
    static func childThreshold(_ threshold: Float, others: Float) -> Float? {
        guard others.isFinite, others >= 0 else { return nil }
        let rest = (threshold - others) * 0.999
        return rest > 0 ? rest : nil
    }

    /// Leapfrog intersection: from `start`, the lead's (`refs[0]`) current document, the first document all `count`
    /// iterators are on (`end` when one runs out). Each other iterator advances to the candidate; one that passes it
    /// sends the lead to where it landed. For conjunctions of iterators and for a phrase's cursors, read without
    /// reference counting (the caller keeps them alive).
    @inline(__always)
    static func leapfrog<T: AnyObject>(_ refs: UnsafeMutablePointer<Unmanaged<T>>, count: Int, from start: Int,
                                       advance: (T, Int) -> Int) -> Int {
        var candidate = start
        outer: while candidate != end {
            var k = 1
            while k < count {
                let d = refs[k]._withUnsafeGuaranteedRef { advance($0, candidate) }
                if d > candidate {
                    candidate = refs[0]._withUnsafeGuaranteedRef { advance($0, d) }
                    continue outer
                }
                k += 1
            }
            return candidate
        }
        return end
    }

    /// The first index at or after `start` of ascending `docs` holding a document ≥ `target` (`docs.count` if
    /// none): doubling steps, then a binary search of the last step. Seeks through a sorted list of candidates
    /// or matches cost the log of the distance moved, not of the list.
    @inline(__always)
    static func gallop(_ docs: UnsafeBufferPointer<UInt32>, from start: Int, atLeast target: Int) -> Int {
        var low = start, step = 1, high = start
        while high < docs.count, Int(docs[high]) < target {
            low = high + 1
            high += step
            step <<= 1
        }
        high = min(high, docs.count)
        while low < high {
            let mid = (low + high) >> 1
            if Int(docs[mid]) < target { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Every match of a fresh iterator (no `next` or `advance` yet) with its score, ascending; consumes the
    /// iterator. The default walks `next`; a term group overrides it with a merge of its sources' postings, a
    /// disjunction with a merge of its children's lists, a precomputed group with a copy of its own.
    func listMatches(into docs: inout [UInt32], scores: inout [Float]) {
        var d = next()
        while d != Self.end {
            docs.append(UInt32(truncatingIfNeeded: d))
            scores.append(score())
            d = next()
        }
    }

    /// Scores a fresh iterator (no `next` or `advance` yet) on ascending `candidates`: `scores[i]` gets the
    /// score `score()` would give candidate `i` and `matched[i]` whether it matches (false: `scores[i]` is
    /// undefined). Consumes the iterator, except for further calls with candidates after these (a conjunction
    /// scores its lead's candidates batch by batch) and `scoreBound`. The default seeks to each candidate in turn;
    /// a term group overrides it to walk one field's postings at a time (`CandidateConjunctionIterator`).
    func scoreCandidates(_ candidates: UnsafeBufferPointer<UInt32>, scores: UnsafeMutablePointer<Float>,
                         matched: UnsafeMutablePointer<Bool>) {
        for (i, candidate) in candidates.enumerated() {
            let target = Int(candidate)
            let d = doc < target ? advance(target) : doc
            matched[i] = d == target
            if d == target { scores[i] = score() }
        }
    }
}

/// No document.
final class EmptyIterator: DocIterator {
    override func next() -> Int {
        doc = Self.end
        return doc
    }
    override func advance(_ target: Int) -> Int { next() }
}

/// Every document of the segment, constant score.
final class AllIterator: DocIterator {
    let count: Int
    let constant: Float
    init(count: Int, constant: Float) {
        self.count = count
        self.constant = constant
    }
    override func next() -> Int {
        doc = doc + 1 < count ? doc + 1 : Self.end
        return doc
    }
    override func advance(_ target: Int) -> Int {
        if doc < target { doc = target < count ? target : Self.end }
        return doc
    }
    override func score() -> Float { constant }
    override var cost: Int { count }
    override func explain() -> Explanation { Explanation(value: constant, summary: "all documents") }
    override var maxScore: Float { max(constant, 0) }
    override func blockBound() -> (bound: Float, upTo: Int)? { (constant, Self.end - 1) }
}

/// A sorted list of documents (ranges, precomputed sets), constant score.
final class ListIterator: DocIterator {
    let docs: [UInt32]
    let constant: Float
    let label: String
    private var index = -1
    init(docs: [UInt32], constant: Float, label: String) {
        self.docs = docs
        self.constant = constant
        self.label = label
    }
    override func next() -> Int {
        index += 1
        doc = index < docs.count ? Int(docs[index]) : Self.end
        return doc
    }
    override func advance(_ target: Int) -> Int {
        if doc >= target { return doc }
        index = Self.firstIndex(in: docs, from: index + 1, atLeast: target)
        doc = index < docs.count ? Int(docs[index]) : Self.end
        return doc
    }
    override func score() -> Float { constant }

    /// The first index at or after `start` of sorted `docs` holding a document ≥ `target` (binary search;
    /// `docs.count` if none): the seek of every iterator over a materialized, sorted document list.
    @inline(__always)
    static func firstIndex(in docs: [UInt32], from start: Int, atLeast target: Int) -> Int {
        var low = start, high = docs.count
        while low < high {
            let mid = (low + high) >> 1
            if Int(docs[mid]) < target { low = mid + 1 } else { high = mid }
        }
        return low
    }
    override var cost: Int { docs.count }
    override func explain() -> Explanation { Explanation(value: constant, summary: label) }
    override var maxScore: Float { max(constant, 0) }
    override func blockBound() -> (bound: Float, upTo: Int)? { (constant, Self.end - 1) }
}

/// AND: children ordered shortest first; the lead proposes, the others advance (galloping in their
/// skip data) until all agree.
final class ConjunctionIterator: DocIterator {
    let children: [DocIterator]
    /// The children without reference counting on the per-document path (`children` keeps them alive).
    private let refs: UnsafeMutablePointer<Unmanaged<DocIterator>>
    /// The most the children after the lead can add, and all of them (read once: every `maxScore` is fixed;
    /// summed in child order, as `score()` adds).
    private let othersMaxScore: Float
    private let totalMaxScore: Float

    init(_ children: [DocIterator]) {
        self.children = Self.ordered(children)
        refs = UnsafeMutablePointer<Unmanaged<DocIterator>>.allocate(capacity: max(children.count, 1))
        for (index, child) in self.children.enumerated() { (refs + index).initialize(to: Unmanaged.passUnretained(child)) }
        othersMaxScore = self.children.dropFirst().reduce(0) { $0 + $1.maxScore }
        totalMaxScore = self.children.reduce(0) { $0 + $1.maxScore }
    }

    deinit { refs.deallocate() }

    /// The children in evaluation order, cheapest (the lead) first: the order `score()` adds them in.
    static func ordered(_ children: [DocIterator]) -> [DocIterator] { children.sorted { $0.cost < $1.cost } }

    override func next() -> Int { align(refs[0]._withUnsafeGuaranteedRef { $0.next() }) }
    override func advance(_ target: Int) -> Int { align(refs[0]._withUnsafeGuaranteedRef { $0.advance(target) }) }

    private func align(_ start: Int) -> Int {
        doc = Self.leapfrog(refs, count: children.count, from: start) { $0.advance($1) }
        return doc
    }

    override func score() -> Float {
        var total: Float = 0
        for k in 0..<children.count { total += refs[k]._withUnsafeGuaranteedRef { $0.score() } }
        return total
    }
    override var cost: Int { children[0].cost }
    override var maxScore: Float { totalMaxScore }

    /// The lead skips to a document whose own score, with the most the others can add, could compete.
    override func nextCompetitive(_ threshold: Float) -> Int {
        if doc == Self.end { return doc }
        assert(othersMaxScore == children.dropFirst().reduce(0) { $0 + $1.maxScore }, "a child's maxScore changed")
        guard let rest = Self.childThreshold(threshold, others: othersMaxScore) else { return next() }
        return align(refs[0]._withUnsafeGuaranteedRef { $0.nextCompetitive(rest) })
    }

    override func blockBound() -> (bound: Float, upTo: Int)? {
        var bound: Float = 0, upTo = Self.end - 1
        for k in 0..<children.count {
            guard let b = refs[k]._withUnsafeGuaranteedRef({ $0.blockBound() }) else { return nil }
            bound += b.bound
            upTo = min(upTo, b.upTo)
        }
        return (bound, upTo)
    }
    override func explain() -> Explanation {
        let parts = children.map { $0.explain() }
        return Explanation(value: parts.reduce(0) { $0 + $1.value }, summary: "sum of (and)", details: parts)
    }
}

/// OR: the smallest current document among the children; scores of the children on it add up.
final class DisjunctionIterator: DocIterator {
    let children: [DocIterator]
    /// The children's bounds summed once (every `maxScore` is fixed), as a conjunction keeps its own.
    private let totalMaxScore: Float

    init(_ children: [DocIterator]) {
        self.children = children
        totalMaxScore = children.reduce(0) { $0 + $1.maxScore }
    }

    override func next() -> Int {
        var minimum = Self.end
        for child in children {
            if child.doc <= doc { _ = child.next() }
            if child.doc < minimum { minimum = child.doc }
        }
        doc = minimum
        return doc
    }
    override func advance(_ target: Int) -> Int {
        if doc >= target { return doc }
        var minimum = Self.end
        for child in children {
            if child.doc < target { _ = child.advance(target) }
            if child.doc < minimum { minimum = child.doc }
        }
        doc = minimum
        return doc
    }
    override func score() -> Float {
        var total: Float = 0
        for child in children where child.doc == doc { total += child.score() }
        return total
    }
    /// The children's bounds added up (a match may match them all).
    override func scoreBound(from first: Int, through last: Int) -> Float? {
        var total: Float = 0
        for child in children {
            guard let bound = child.scoreBound(from: first, through: last) else { return nil }
            total += bound
        }
        return total
    }

    /// Each child scores the candidates in turn; the matching ones add up in child order, as `score()` adds.
    override func scoreCandidates(_ candidates: UnsafeBufferPointer<UInt32>, scores: UnsafeMutablePointer<Float>,
                                  matched: UnsafeMutablePointer<Bool>) {
        let count = candidates.count
        guard count > 0 else { return }
        scores.update(repeating: 0, count: count)
        matched.update(repeating: false, count: count)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: count) { childScores in
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: count) { childMatched in
                for child in children {
                    child.scoreCandidates(candidates, scores: childScores.baseAddress!, matched: childMatched.baseAddress!)
                    for i in 0..<count where childMatched[i] {
                        scores[i] += childScores[i]
                        matched[i] = true
                    }
                }
            }
        }
    }
    /// Each child lists its matches, and the lists merge by document, the scores added in child order from zero,
    /// as `score()` adds them: no dynamic calls per match.
    override func listMatches(into docs: inout [UInt32], scores: inout [Float]) {
        var merged: [UInt32] = [], mergedScores: [Float] = []
        var listed: [UInt32] = [], listedScores: [Float] = []
        var output: [UInt32] = [], outputScores: [Float] = []
        for (number, child) in children.enumerated() {
            listed.removeAll(keepingCapacity: true)
            listedScores.removeAll(keepingCapacity: true)
            child.listMatches(into: &listed, scores: &listedScores)
            if number == 0 {
                swap(&merged, &listed)
                swap(&mergedScores, &listedScores)
                for i in mergedScores.indices { mergedScores[i] = 0 + mergedScores[i] }
                continue
            }
            Self.merge(merged, mergedScores, listed, listedScores, into: &output, &outputScores)
            swap(&merged, &output)
            swap(&mergedScores, &outputScores)
        }
        docs.append(contentsOf: merged)
        scores.append(contentsOf: mergedScores)
        doc = Self.end
    }

    /// The union of two ascending match lists, a document in both scoring `a`'s score plus `b`'s, one only in `b`
    /// zero plus its score (as `score()` sums from zero).
    private static func merge(_ a: [UInt32], _ aScores: [Float], _ b: [UInt32], _ bScores: [Float],
                              into docs: inout [UInt32], _ scores: inout [Float]) {
        let capacity = a.count + b.count
        var n = 0
        docs = [UInt32](unsafeUninitializedCapacity: capacity) { out, count in
            scores = [Float](unsafeUninitializedCapacity: capacity) { outScores, scoreCount in
                var i = 0, j = 0
                while i < a.count || j < b.count {
                    if j == b.count || (i < a.count && a[i] < b[j]) {
                        out[n] = a[i]
                        outScores[n] = aScores[i]
                        i += 1
                    } else if i == a.count || b[j] < a[i] {
                        out[n] = b[j]
                        outScores[n] = 0 + bScores[j]
                        j += 1
                    } else {
                        out[n] = a[i]
                        outScores[n] = aScores[i] + bScores[j]
                        i += 1
                        j += 1
                    }
                    n += 1
                }
                scoreCount = n
            }
            count = n
        }
    }

    override var cost: Int { children.reduce(0) { $0 + $1.cost } }
    override var maxScore: Float { totalMaxScore }

    /// Each child moving past the current document skips to one where it, with the most all the others can
    /// add, could compete. A document a child skipped can still come up through another child, scored
    /// without the skipped part, but then its full score is at most `threshold`, so it cannot enter the
    /// results; every document that can is found with all its matching children on it.
    override func nextCompetitive(_ threshold: Float) -> Int {
        if doc == Self.end { return doc }
        assert(totalMaxScore == children.reduce(0) { $0 + $1.maxScore }, "a child's maxScore changed")
        let total = totalMaxScore
        guard total.isFinite else { return next() }
        var minimum = Self.end
        for child in children {
            if child.doc <= doc {
                if let rest = Self.childThreshold(threshold, others: total - child.maxScore) {
                    _ = child.nextCompetitive(rest)
                } else {
                    _ = child.next()
                }
            }
            if child.doc < minimum { minimum = child.doc }
        }
        doc = minimum
        return doc
    }

    override func blockBound() -> (bound: Float, upTo: Int)? {
        var bound: Float = 0, upTo = Self.end - 1
        for child in children where child.doc != Self.end {
            if child.doc > doc {
                // Not on the current document: it cannot score before its own document.
                upTo = min(upTo, child.doc - 1)
                continue
            }
            guard let b = child.blockBound() else { return nil }
            bound += b.bound
            upTo = min(upTo, b.upTo)
        }
        return (bound, upTo)
    }
    override func explain() -> Explanation {
        let parts = children.filter { $0.doc == doc }.map { $0.explain() }
        return Explanation(value: parts.reduce(0) { $0 + $1.value }, summary: "sum of (or)", details: parts)
    }
}

/// AND-NOT: matches of `include` that `exclude` does not match; scored by `include`.
final class ExclusionIterator: DocIterator {
    let include: DocIterator
    let exclude: DocIterator
    init(include: DocIterator, exclude: DocIterator) {
        self.include = include
        self.exclude = exclude
    }
    override func next() -> Int { skipExcluded(include.next()) }
    override func advance(_ target: Int) -> Int { skipExcluded(include.advance(target)) }
    private func skipExcluded(_ start: Int) -> Int {
        var candidate = start
        while candidate != Self.end, exclude.advance(candidate) == candidate { candidate = include.next() }
        doc = candidate
        return doc
    }
    override func score() -> Float { include.score() }
    override var cost: Int { include.cost }
    // The included query's bounds hold for the subset of its matches this iterator keeps.
    override var maxScore: Float { include.maxScore }
    override func explain() -> Explanation { include.explain() }
    override func blockBound() -> (bound: Float, upTo: Int)? { include.blockBound() }
    override func scoreBound(from first: Int, through last: Int) -> Float? {
        include.scoreBound(from: first, through: last)
    }
    override func nextCompetitive(_ threshold: Float) -> Int {
        var candidate = include.nextCompetitive(threshold)
        while candidate != Self.end, exclude.advance(candidate) == candidate { candidate = include.nextCompetitive(threshold) }
        doc = candidate
        return doc
    }
    /// The included query's batch (a term group's, walking a field at a time), less the excluded candidates.
    override func scoreCandidates(_ candidates: UnsafeBufferPointer<UInt32>, scores: UnsafeMutablePointer<Float>,
                                  matched: UnsafeMutablePointer<Bool>) {
        include.scoreCandidates(candidates, scores: scores, matched: matched)
        for (i, candidate) in candidates.enumerated() where matched[i] {
            let target = Int(candidate)
            if (exclude.doc < target ? exclude.advance(target) : exclude.doc) == target { matched[i] = false }
        }
    }
    /// The included query's list (a term group's merge of its postings), less the excluded documents.
    override func listMatches(into docs: inout [UInt32], scores: inout [Float]) {
        let start = docs.count
        include.listMatches(into: &docs, scores: &scores)
        var kept = start
        for i in start..<docs.count {
            let target = Int(docs[i])
            if (exclude.doc < target ? exclude.advance(target) : exclude.doc) == target { continue }
            docs[kept] = docs[i]
            scores[kept] = scores[i]
            kept += 1
        }
        docs.removeSubrange(kept...)
        scores.removeSubrange(kept...)
    }
}

/// Multiplies a child's score.
final class BoostIterator: DocIterator {
    let child: DocIterator
    let factor: Float
    init(_ child: DocIterator, factor: Float) {
        self.child = child
        self.factor = factor
    }
    override func next() -> Int {
        doc = child.next()
        return doc
    }
    override func advance(_ target: Int) -> Int {
        doc = child.advance(target)
        return doc
    }
    override func score() -> Float { child.score() * factor }
    override func listMatches(into docs: inout [UInt32], scores: inout [Float]) {
        let start = scores.count
        child.listMatches(into: &docs, scores: &scores)
        for i in start..<scores.count { scores[i] = scores[i] * factor }
    }
    override func scoreCandidates(_ candidates: UnsafeBufferPointer<UInt32>, scores: UnsafeMutablePointer<Float>,
                                  matched: UnsafeMutablePointer<Bool>) {
        child.scoreCandidates(candidates, scores: scores, matched: matched)
        for i in candidates.indices where matched[i] { scores[i] = scores[i] * factor }
    }
    override var maxScore: Float { factor >= 0 ? child.maxScore * factor : .infinity }
    override func scoreBound(from first: Int, through last: Int) -> Float? {
        guard factor >= 0, let bound = child.scoreBound(from: first, through: last) else { return nil }
        return bound * factor
    }
    override func nextCompetitive(_ threshold: Float) -> Int {
        guard factor > 0, threshold.isFinite else { return next() }
        doc = child.nextCompetitive(threshold / factor)
        return doc
    }
    override func blockBound() -> (bound: Float, upTo: Int)? {
        guard factor >= 0, let b = child.blockBound() else { return nil }
        return (b.bound * factor, b.upTo)
    }
    override var cost: Int { child.cost }
    override func explain() -> Explanation {
        let inner = child.explain()
        return Explanation(value: inner.value * factor, summary: "boost × \(factor)", details: [inner])
    }
}
