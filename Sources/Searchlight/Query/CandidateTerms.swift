import SearchlightEngine
import SearchlightQueryLanguage

/// How the postings narrow a text comparison before verification: which dictionary terms of a field every
/// matching value is guaranteed to contain. The engine folds case and diacritics and splits identifiers, so
/// the candidates over-approximate and `TextMatch` verifies each one on the raw stored values.
///
/// Why the terms below are complete (no false negatives): a matching value, folded with the engine's full
/// folding, contains the fully folded pattern literal, and the analyzer indexes every compound whole
/// (`mywindowcontroller`, `report.numbers`) or single part, and every CJK unigram and bigram. So
/// - a pattern starting with a literal: the value's first compound term starts with the literal's first
///   token (the longest token at the literal's first offset) → a prefix lookup;
/// - otherwise: some term of the value contains the literal's longest token → a dictionary scan;
/// - `t`: the pattern is matched against the terms themselves (a prefix lookup or a dictionary scan).
/// Known gap: a compound or part longer than `Analyzer.maxTermBytes` (128 bytes) is not indexed, so a value whose
/// only match lies in such a run is not found by the postings.
package enum CandidateTerms {
    /// No postings access path fits: scan the field's documents.
    case scan
    /// Terms to look up in the field (possibly none: nothing can match).
    case terms([String])

    /// The candidate terms of `match` in `field`.
    package static func plan(_ match: TextMatch, pattern: StringPattern, field: FieldID,
                             snapshot: IndexSnapshot) -> CandidateTerms {
        let scope = FieldScope.field(field)
        if match.modifiers.contains(.tokenized) {
            let literal = pattern.literalPrefix
            if let exact = pattern.exactText {
                return .terms([Folding.fold(exact)])
            }
            if !literal.isEmpty {
                let found = snapshot.terms(withPrefix: literal, in: scope, limit: .max)
                return .terms(found.map(\.term).filter { match.matcher.matches($0) })
            }
            // A dictionary scan with the exact matcher (e.g. `"*port"t`).
            return .terms(snapshot.terms(in: scope, where: { match.matcher.matches($0) }).map(\.term))
        }
        let prefix = pattern.literalPrefix
        if !prefix.isEmpty, let first = firstToken(of: Folding.fold(prefix)) {
            return .terms(snapshot.terms(withPrefix: first, in: scope, limit: .max).map(\.term))
        }
        if let needle = longestToken(in: pattern.literals) {
            let bytes = Array(needle.utf8)
            return .terms(snapshot.terms(in: scope, where: { contains($0, bytes) }).map(\.term))
        }
        // Only wildcards or separators (`"*"`, `"?*"`, `"* *"`): nothing the dictionary can look up.
        return .scan
    }

    /// The longest token starting at the first token offset of already folded text.
    static func firstToken(of folded: String) -> String? {
        let tokens = Analyzer().tokens(folded, mode: .index)
        guard let start = tokens.map(\.byteRange.lowerBound).min() else { return nil }
        return tokens.filter { $0.byteRange.lowerBound == start }.max { $0.term.utf8.count < $1.term.utf8.count }?.term
    }

    /// The longest token of any of the literals (folded).
    static func longestToken(in literals: [String]) -> String? {
        var best: String?
        for literal in literals {
            for token in Analyzer().tokens(Folding.fold(literal), mode: .index)
            where token.term.utf8.count > (best?.utf8.count ?? 0) {
                best = token.term
            }
        }
        return best
    }

    /// Byte-wise substring test (terms are folded UTF-8, so bytes are exact).
    static func contains(_ term: String, _ needle: [UInt8]) -> Bool {
        let hay = Array(term.utf8)
        guard needle.count <= hay.count else { return false }
        if needle.isEmpty { return true }
        var i = 0
        while i + needle.count <= hay.count {
            if hay[i] == needle[0], hay[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
