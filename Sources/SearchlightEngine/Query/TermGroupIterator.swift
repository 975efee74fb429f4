/// A scored text leaf: the union of its per-field sources (one term in several fields, a prefix or fuzzy
/// expansion, or a phrase per field), combined by BM25F: the weighted, length-normalised frequencies of
/// all fields add up before one saturation, so a term in two fields does not score twice.
final class TermGroupIterator: DocIterator {
    let sources: [TermSource]
    let idf: Float
    let boost: Float
    let parameters: RankingParameters
    let label: String
    /// Best possible score of any document (for pruning): saturation at infinite frequency.
    let maxScore: Float

    init(sources: [TermSource], idf: Float, boost: Float, parameters: RankingParameters, label: String) {
        self.sources = sources
        self.idf = idf
        self.boost = boost
        self.parameters = parameters
        self.label = label
        let primaryFactor = sources.contains { $0.primary }
            ? (1 + parameters.primaryPrefixBoost) * (1 + parameters.primaryExactBoost) : 1
        maxScore = boost * idf * (parameters.k1 + 1) * primaryFactor
    }

    override func next() -> Int {
        var minimum = Self.end
        for source in sources {
            var d = source.doc
            if d <= doc || d == -1 { d = source.next() }
            if d < minimum { minimum = d }
        }
        doc = minimum
        return doc
    }

    override func advance(_ target: Int) -> Int {
        if doc >= target { return doc }
        var minimum = Self.end
        for source in sources {
            var d = source.doc
            if d < target { d = source.advance(target) }
            if d < minimum { minimum = d }
        }
        doc = minimum
        return doc
    }

    override var cost: Int { sources.reduce(0) { $0 + $1.cost } }

    override func score() -> Float {
        var weighted: Float = 0
        var primaryPrefix = false
        var primaryExact = false
        for source in sources where source.doc == doc {
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
        for source in sources where source.doc == doc {
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
