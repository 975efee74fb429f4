import SearchlightEngine
import SearchlightQueryLanguage

/// How the postings narrow a text comparison before verification: which dictionary terms of a field every
/// matching value is guaranteed to contain. The engine folds case and diacritics and splits identifiers, so
/// the candidates over-approximate and `TextMatch` verifies each one on the raw stored values.
///
/// Why the terms below are complete (no false negatives): a matching value, folded with the engine's full
/// folding, contains the fully folded pattern literal, and the analyzer indexes every compound whole
/// (`mywindowcontroller`, `report.numbers`) or single part, and every CJK unigram and bigram (a word or whole
/// over 128 bytes: the stand-in below). So
/// - a pattern starting with a literal: the value's first compound term starts with the literal's first
///   token (the longest token at the literal's first offset) → a prefix lookup; for a whole-value pattern
///   without wildcards (and without `w`) it IS that token → one term;
/// - otherwise: some term of the value contains the literal's longest token → a dictionary scan;
/// - `t`: the pattern is matched against the terms themselves (a prefix lookup or a dictionary scan).
/// - `w` with a literal prefix: also the terms that are proper prefixes of that token, since a `w` word can join
///   index parts (NS|Window) in a compound whose whole starts before it; a scan needle lies in the whole.
/// A word longer than `Analyzer.maxTermBytes` (128 bytes) has no term; the index records `Analyzer.overlongTerm` in
/// its place, which every plan but `t`'s adds, so a value whose only match lies inside such a word is still a
/// candidate. (`t` matches the index's terms, and an overlong word is none.)
package enum CandidateTerms {
    /// No postings access path fits: scan the field's documents.
    case scan
    /// Terms to look up in the field (possibly none: nothing can match), with the sum of their document
    /// frequencies (an upper bound of the candidates, deleted documents included; 0 when not looked up).
    case terms([String], documentFrequency: Int)

    /// The plan for a list of dictionary terms.
    static func terms(_ found: [TermInfo]) -> CandidateTerms {
        .terms(found.map(\.term), documentFrequency: found.reduce(0) { $0 + $1.documentFrequency })
    }

    /// The candidate terms of `match` in `field`.
    package static func plan(_ match: TextMatch, pattern: StringPattern, field: FieldID,
                             snapshot: IndexSnapshot) -> CandidateTerms {
        let scope = FieldScope.field(field)
        if match.modifiers.contains(.tokenized) {
            // Looked up as the matcher has it: folded and composed again, as the analyzer composes its terms
            // (`ｶﾞ` folds to カ + U+3099, whose term is ガ).
            let literal = TextMatch.folded(pattern.literalPrefix, options: .all)
            if let exact = pattern.exactText {
                return .terms([TextMatch.droppingFormatCharacters(TextMatch.folded(exact, options: .all))],
                              documentFrequency: 0)
            }
            if !literal.isEmpty {
                let found = snapshot.terms(withPrefix: literal, in: scope, limit: .max)
                return terms(found.filter { match.matcher.matches($0.term) })
            }
            // A dictionary scan with the exact matcher (e.g. `"*port"t`).
            return terms(snapshot.terms(in: scope, where: { match.matcher.matches($0) }))
        }
        let planned = plan(literals: pattern, match: match, field: field, snapshot: snapshot)
        guard case .terms(let list, let documentFrequency) = planned,
              let overlong = snapshot.overlongWords(in: field) else { return planned }
        return .terms(list + [overlong.term], documentFrequency: documentFrequency + overlong.documentFrequency)
    }

    /// The candidate terms of a comparison without `t`, from the pattern's literal text alone.
    private static func plan(literals pattern: StringPattern, match: TextMatch, field: FieldID,
                             snapshot: IndexSnapshot) -> CandidateTerms {
        let scope = FieldScope.field(field)
        let prefix = pattern.literalPrefix
        if !prefix.isEmpty, let first = firstToken(of: Folding.fold(prefix)) {
            let found = snapshot.terms(withPrefix: first, in: scope, limit: .max)
            if pattern.exactText != nil, !match.modifiers.contains(.wordBased) {
                // A whole value equal to the literal (under folding) has the same fully folded text, so its
                // first compound term is exactly the literal's, not merely an extension of it.
                return terms(found.filter { $0.term == first })
            }
            if match.modifiers.contains(.wordBased) {
                // A `w` word may join parts the index split (NS|Window: `TextMatch.modifierWords`) inside a
                // compound whose whole starts elsewhere (`Foo.NSWindow`): its first part is then a term that is
                // a proper prefix of the literal's token.
                let scalars = Array(first.unicodeScalars)
                let prefixes = (1..<max(scalars.count, 1)).map { count in
                    var text = String.UnicodeScalarView()
                    text.append(contentsOf: scalars[..<count])
                    return String(text)
                }
                return terms(found + snapshot.terms(exactly: prefixes, in: field))
            }
            return terms(found)
        }
        if let needle = longestToken(in: pattern.literals) {
            let bytes = Array(needle.utf8)
            return terms(snapshot.terms(in: scope, where: { contains($0, bytes) }))
        }
        // Only wildcards or separators (`"*"`, `"?*"`, `"* *"`): nothing the dictionary can look up.
        return .scan
    }

    /// Whether planning `pattern` walks a whole field dictionary (no literal prefix to look up), which costs
    /// about as much as the field has distinct terms, whatever the result.
    package static func needsDictionaryScan(_ match: TextMatch, pattern: StringPattern) -> Bool {
        if match.modifiers.contains(.tokenized), pattern.exactText != nil { return false }
        return pattern.literalPrefix.isEmpty
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
