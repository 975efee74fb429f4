/// Which text fields a query leaf searches.
public enum FieldScope: Sendable, Equatable {
    /// The unscoped free-text set: every field registered `searchableByDefault`.
    case defaultFields
    /// One field.
    case field(FieldID)
    /// A set of fields, scored together by BM25F.
    case fields([FieldID])
}

/// A numeric bound.
public enum NumericBound: Sendable, Equatable {
    case inclusive(Double)
    case exclusive(Double)

    /// Whether `value` lies within the bounds: `.range` semantics, which callers verifying values themselves
    /// must share (NaN matches no lower bound; nil bounds are open).
    @inline(__always)
    public static func contains(_ value: Double, lower: NumericBound?, upper: NumericBound?) -> Bool {
        switch lower {
        case .inclusive(let bound)?: if !(value >= bound) { return false }
        case .exclusive(let bound)?: if !(value > bound) { return false }
        case nil: if value.isNaN { return false }
        }
        switch upper {
        case .inclusive(let bound)?: if !(value <= bound) { return false }
        case .exclusive(let bound)?: if !(value < bound) { return false }
        case nil: break
        }
        return true
    }
}

/// A query over the engine. Text leaves (term, prefix, phrase, fuzzy, terms) go through the same analyzer
/// as indexing; they search the scope of the nearest enclosing `.scoped`, or the default field set.
public indirect enum Query: Sendable, Equatable {
    /// Analyzed text: one token is a term query; several tokens (`Report.Numbers`, `中文`) become a phrase.
    case term(String)
    /// Terms starting with the folded text. With several words, the last is the prefix and the others
    /// must match as terms. Every term with the prefix matches, scored as one group.
    case prefix(String)
    /// Analyzed text whose tokens must occur at consecutive positions.
    case phrase(String)
    /// Terms within `maxEdits` (nil: 1 from 5 characters, 2 from 9, else exact; a number exact) of the folded text.
    case fuzzy(String, maxEdits: Int?)
    /// Terms with a prefix within `maxEdits` (nil: as `.fuzzy`) of the folded text: a word still being typed, typos
    /// and all ("kwybo" finds "keyboards"), its exact completions too; a budget covering the whole text matches
    /// every term (the empty prefix is within it). At most `IndexSnapshot.maxNearPrefixes` near prefixes (prefixes
    /// of terms within the budget) are expanded; their terms score as one group.
    case fuzzyPrefix(String, maxEdits: Int?)
    /// Exact dictionary terms (already analyzed, e.g. from `terms(matching:)`), scored as one term group.
    case terms([String])
    /// Every clause must match; scores add up.
    case and([Query])
    /// At least one clause must match; scores of matching clauses add up.
    case or([Query])
    /// Matches of the first query that do not match the second (and-not).
    case not(Query, excluding: Query)
    /// Restricts the text leaves inside to a field scope.
    case scoped(FieldScope, Query)
    /// Documents with at least one value of a numeric field inside the bounds (nil: unbounded).
    case range(FieldID, lower: NumericBound?, upper: NumericBound?)
    /// Every document (constant score).
    case all
    /// No document.
    case none
    /// Multiplies the score of the inner query.
    case boost(Query, Float)
    /// A precomputed set of documents of the same snapshot (constant score).
    case documents(DocumentSet)
}

/// A set of documents of one snapshot, e.g. from `IndexSnapshot.matches(_:)`, usable as a query leaf.
public struct DocumentSet: Sendable, Equatable {
    /// Sorted local document numbers per segment ordinal.
    let perSegment: [[UInt32]]

    /// Builds a set from addresses of one snapshot.
    public init(_ addresses: some Sequence<DocAddress>) {
        var perSegment: [[UInt32]] = []
        for address in addresses {
            while perSegment.count <= Int(address.segment) { perSegment.append([]) }
            perSegment[Int(address.segment)].append(address.doc)
        }
        // Addresses from `matches` are sorted and unique already: kept as they are, without hashing.
        self.perSegment = perSegment.map { docs in
            zip(docs, docs.dropFirst()).allSatisfy { $0 < $1 } ? docs : Array(Set(docs)).sorted()
        }
    }

    /// The addresses in the set, sorted.
    public var addresses: [DocAddress] {
        perSegment.enumerated().flatMap { s, docs in docs.map { DocAddress(segment: UInt32(s), doc: $0) } }
    }

    public var count: Int { perSegment.reduce(0) { $0 + $1.count } }
}
