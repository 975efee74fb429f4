/// A scored text leaf: the union of its per-field sources (one term in several fields, a prefix or fuzzy
/// expansion, or a phrase per field), combined by BM25F: the weighted, length-normalised frequencies of
/// all fields add up before one saturation, so a term in two fields does not score twice.
///
/// Sources not on the current document wait in a binary heap ordered by their document, so a prefix
/// that expands to hundreds of terms costs O(log n) per posting, not O(n) per document.
final class TermGroupIterator: DocIterator {
    let sources: [TermSource]
    let idf: Float
    let boost: Float
    let parameters: RankingParameters
    let label: String
    /// Multiplier bound of the primary-field boosts (1 when no source is primary).
    let primaryFactor: Float
    /// Whether every source has block skip data (terms, not phrases).
    let hasBlockData: Bool
    /// Sources on the current document.
    private var matching: [Int]
    /// The other live sources, a min-heap by document.
    private var heap: [Int] = []

    init(sources: [TermSource], idf: Float, boost: Float, parameters: RankingParameters, label: String) {
        self.sources = sources
        self.idf = idf
        self.boost = boost
        self.parameters = parameters
        self.label = label
        primaryFactor = sources.contains { $0.primary }
            ? (1 + parameters.primaryPrefixBoost) * (1 + parameters.primaryExactBoost) : 1
        hasBlockData = sources.allSatisfy { $0 is PostingSource }
        matching = Array(sources.indices)
        heap.reserveCapacity(sources.count)
    }

    @inline(__always)
    private func less(_ a: Int, _ b: Int) -> Bool { sources[heap[a]].doc < sources[heap[b]].doc }

    private func push(_ source: Int) {
        guard sources[source].doc != Self.end else { return }
        heap.append(source)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) >> 1
            guard less(child, parent) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func popTop() -> Int {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count, less(left, smallest) { smallest = left }
                if right < heap.count, less(right, smallest) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }

    private func collectMatching() -> Int {
        guard let top = heap.first else {
            doc = Self.end
            return doc
        }
        doc = sources[top].doc
        while let first = heap.first, sources[first].doc == doc { matching.append(popTop()) }
        // Source order, so float sums (and thus ties) do not depend on the heap's history.
        if matching.count > 1 {
            for i in 1..<matching.count {
                var j = i
                let value = matching[i]
                while j > 0, matching[j - 1] > value {
                    matching[j] = matching[j - 1]
                    j -= 1
                }
                matching[j] = value
            }
        }
        return doc
    }

    override func next() -> Int {
        if doc == Self.end { return doc }
        for index in matching {
            _ = sources[index].next()
            push(index)
        }
        matching.removeAll(keepingCapacity: true)
        return collectMatching()
    }

    override func advance(_ target: Int) -> Int {
        if doc >= target { return doc }
        for index in matching {
            _ = sources[index].advance(target)
            push(index)
        }
        matching.removeAll(keepingCapacity: true)
        while let first = heap.first, sources[first].doc < target {
            let index = popTop()
            _ = sources[index].advance(target)
            push(index)
        }
        return collectMatching()
    }

    override var cost: Int { sources.reduce(0) { $0 + $1.cost } }

    /// Best possible score of the documents up to the end of the sources' current blocks.
    override func blockBound() -> (bound: Float, upTo: Int)? {
        guard hasBlockData, doc >= 0, doc != Self.end else { return nil }
        var weighted: Float = 0
        var upTo = Self.end - 1
        for source in sources where source.doc != Self.end && source.doc >= 0 {
            guard let posting = source as? PostingSource else { return nil }
            let cursor = posting.cursor
            weighted += Float(cursor.blockMaxTf) * source.fieldFactor[Int(cursor.blockMinNorm)]
            upTo = min(upTo, cursor.blockLastDoc)
        }
        let bound = boost * idf * weighted * (parameters.k1 + 1) / (weighted + parameters.k1) * primaryFactor
        return (bound, upTo)
    }

    override func score() -> Float {
        var weighted: Float = 0
        var primaryPrefix = false
        var primaryExact = false
        for index in matching {
            let source = sources[index]
            let norm = source.norm(doc)
            weighted += Float(source.frequency) * source.fieldFactor[Int(norm)]
            if source.primary, source.startsField() {
                primaryPrefix = true
                if source.isExact, Int(FieldNorm.lengths[Int(norm)]) == source.span { primaryExact = true }
            }
        }
        var value = boost * idf * weighted * (parameters.k1 + 1) / (weighted + parameters.k1)
        if primaryPrefix { value *= 1 + parameters.primaryPrefixBoost }
        if primaryExact { value *= 1 + parameters.primaryExactBoost }
        return value
    }

    override func explain() -> Explanation {
        var details: [Explanation] = []
        var weighted: Float = 0
        var primaryPrefix = false, primaryExact = false
        for index in matching {
            let source = sources[index]
            let norm = source.norm(doc)
            let part = Float(source.frequency) * source.fieldFactor[Int(norm)]
            weighted += part
            details.append(Explanation(
                value: part,
                summary: "field#\(source.field): freq \(source.frequency) × weight/lengthNorm (length \(FieldNorm.lengths[Int(norm)]))"))
            if source.primary, source.startsField() {
                primaryPrefix = true
                if source.isExact, Int(FieldNorm.lengths[Int(norm)]) == source.span { primaryExact = true }
            }
        }
        let saturated = weighted * (parameters.k1 + 1) / (weighted + parameters.k1)
        details.insert(Explanation(value: idf, summary: "idf"), at: 0)
        details.append(Explanation(value: saturated, summary: "saturated BM25F frequency (k1 \(parameters.k1))"))
        if boost != 1 { details.append(Explanation(value: boost, summary: "boost")) }
        if primaryPrefix { details.append(Explanation(value: 1 + parameters.primaryPrefixBoost, summary: "primary field starts with the query")) }
        if primaryExact { details.append(Explanation(value: 1 + parameters.primaryExactBoost, summary: "primary field equals the query")) }
        return Explanation(value: score(), summary: "BM25F \(label)", details: details)
    }
}
