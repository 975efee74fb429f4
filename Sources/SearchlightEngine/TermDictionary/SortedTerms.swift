/// A sorted list of distinct terms in one byte buffer with offsets: a field's dictionary (`FieldTerms`) or a
/// vocabulary across fields or segments. What reading a term and the fuzzy walk need.
protocol SortedTerms {
    var bytes: [UInt8] { get }
    /// Start of term `i`; `offsets[count]` is the end of the last term.
    var offsets: [UInt32] { get }
    /// The run index of the first two bytes, for large lists (`RunIndex`).
    var runs: RunIndex? { get }
    /// A filter of the terms for the fuzzy walk's exact completions (`TermBloom`), for large lists walked often.
    var bloom: TermBloom? { get }
}

extension SortedTerms {
    var bloom: TermBloom? { nil }

    /// Calls `body` with the bytes of term `index`.
    @inline(__always)
    func withTerm<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let start = Int(offsets[index]), end = Int(offsets[index + 1])
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    /// Indices of terms within `maxEdits` edits (counted in characters; a swap of adjacent characters counts as
    /// one, within a budget of one or two) of `query`, ascending (`FuzzyWalk`).
    func fuzzy(_ query: [UInt8], maxEdits: Int) -> [Int] {
        FuzzyWalk.matches(query, maxEdits: maxEdits, bytes: bytes, offsets: offsets, runs: runs, bloom: bloom)
    }

    /// The runs of terms that have a prefix within `maxEdits` of `query` (`FuzzyWalk.nearPrefixes`).
    func fuzzyPrefixes(_ query: [UInt8], maxEdits: Int) -> [FuzzyWalk.NearPrefix] {
        FuzzyWalk.nearPrefixes(query, maxEdits: maxEdits, bytes: bytes, offsets: offsets, runs: runs)
    }
}

/// A sorted list that keeps what its fuzzy walks found (the vocabularies the typo-tolerant searches walk).
protocol NearTermsCaching: SortedTerms {
    var nearTermsCache: NearTermsCache { get }
}

extension NearTermsCaching {
    /// `fuzzy(_:maxEdits:)`, walked once per word and budget for the list's life.
    func nearTerms(_ query: [UInt8], maxEdits: Int) -> [Int] {
        nearTermsCache.near(query, maxEdits: maxEdits) { fuzzy(query, maxEdits: maxEdits) }
    }

    /// `fuzzyPrefixes(_:maxEdits:)`, walked once per word and budget for the list's life.
    func nearPrefixes(_ query: [UInt8], maxEdits: Int) -> [FuzzyWalk.NearPrefix] {
        let found = nearTermsCache.near(query, maxEdits: maxEdits, prefix: true) {
            fuzzyPrefixes(query, maxEdits: maxEdits).flatMap { [$0.terms.lowerBound, $0.terms.upperBound, $0.length] }
        }
        return stride(from: 0, to: found.count, by: 3).map {
            FuzzyWalk.NearPrefix(terms: found[$0]..<found[$0 + 1], length: found[$0 + 2])
        }
    }
}
