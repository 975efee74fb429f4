import SearchlightEngine

/// Turns what a person typed into an engine query over the default free-text fields.
///
/// The text is analyzed like the index (case and diacritics folded, identifiers split, CJK as bigrams). Every
/// word must match; each matches as itself or, with a typo budget (1 edit from 5 characters, 2 from 9, none in a
/// number; a swap of adjacent letters is one edit), as a near term scored lower (`fuzzyWeight`). The last word,
/// while still being typed (no space after it), also matches as a prefix, and its near terms are those with a
/// prefix within the budget (`.fuzzyPrefix`: "kwybo" finds "keyboards"). Exact matches score in every clause that
/// accepts them, so they rank above prefix and fuzzy ones; near terms score only where the word as typed does not
/// match, so a match of the words as typed scores the same with and without typo tolerance.
package struct UserQueryPlan: Sendable {
    /// One analyzed word of the input.
    package struct Word: Sendable, Hashable {
        package let term: String
        package let isPrefix: Bool
        /// The typo budget where it is not the engine's default for `term` (`UserQueryPlan.typoBudget`).
        let maxEdits: Int?
        /// No near terms: `UserQueryPlan.fuzzyIsExact(term, maxEdits:)` (found once, it runs the analyzer), or a chosen
        /// completion.
        let fuzzyIsExact: Bool
    }

    /// Score multiplier of a fuzzy (typo) match.
    package static let fuzzyWeight: Float = 0.3

    package let words: [Word]
    /// The words longer than the index's terms (`Analyzer.maxTermBytes`), folded: each must match such a word of
    /// a document's text (`overlongMatches`), the last as a prefix while typed. Their clause in the query matches
    /// the documents holding any such word (`Analyzer.overlongTerm`).
    package let overlong: [Word]
    /// Whether the last word is still being typed (no space after it, even before punctuation), so it matches as a
    /// prefix.
    package let typing: Bool

    /// `lastWordIsChosen`: the last word is a completion the person picked (a suggestion's, an index term), so it
    /// matches as it is, without near terms; the words before it keep their typo tolerance, as they had when the
    /// suggestion was counted.
    package init(text: String, lastWordIsPrefix: Bool = true, lastWordIsChosen: Bool = false) {
        let analyzer = Analyzer()
        let tokens = analyzer.tokens(text, mode: .query)
        let long = text.utf8.count > Analyzer.maxTermBytes ? analyzer.overlongWords(in: text) : []
        // The word being typed: the last token, unless an overlong word comes after it.
        let lastEnd = max(tokens.last?.byteRange.upperBound ?? 0, long.last?.upperBound ?? 0)
        // Typed while no whitespace follows it: a space ends a word, even before punctuation ("budg (").
        let after = String(decoding: text.utf8.dropFirst(lastEnd), as: UTF8.self)
        let typing = lastWordIsPrefix && !text.isEmpty && !after.contains(where: \.isWhitespace)
        self.typing = typing
        let utf8 = Array(text.utf8)
        words = tokens.enumerated().map { index, token in
            let isLast = index == tokens.count - 1 && token.byteRange.upperBound == lastEnd
            let budget = IndexSnapshot.typoBudget(token.term)
            let maxEdits = Self.typoBudget(budget, typed: utf8[token.byteRange])
            return Word(term: token.term, isPrefix: typing && isLast, maxEdits: maxEdits == budget ? nil : maxEdits,
                        fuzzyIsExact: (lastWordIsChosen && isLast) || Self.fuzzyIsExact(token.term, maxEdits: maxEdits))
        }
        overlong = long.map { range in
            Word(term: Self.foldedWord(String(decoding: utf8[range], as: UTF8.self)),
                 isPrefix: typing && range.upperBound == lastEnd, maxEdits: 0, fuzzyIsExact: true)
        }
    }

    /// Nothing to search for.
    package var isEmpty: Bool { words.isEmpty && overlong.isEmpty }

    /// How an overlong word is compared: folded, in canonical composition.
    static func foldedWord(_ word: String) -> String { Folding.fold(TextMatch.composed(word)) }

    /// Whether one document's texts hold every overlong word (each an overlong word of them, equal or, for the
    /// one being typed, extended; by UTF-8 bytes, as the engine compares terms, so a word typed up to inside a
    /// letter still matches).
    func overlongMatches(_ texts: [String]) -> Bool {
        let analyzer = Analyzer()
        let held = texts.flatMap { Self.overlongWords(in: $0, analyzer: analyzer).map(\.folded) }
        return overlong.allSatisfy { word in held.contains { accepts(overlong: $0, for: word) } }
    }

    /// The overlong words of a document's text: their byte ranges, and their text folded as `overlong` is.
    static func overlongWords(in text: String, analyzer: Analyzer) -> [(range: Range<Int>, folded: String)] {
        let utf8 = Array(text.utf8)
        return analyzer.overlongWords(in: text).map { ($0, foldedWord(String(decoding: utf8[$0], as: UTF8.self))) }
    }

    /// Whether a folded overlong word of a document's text answers `word` (one of `overlong`), as
    /// `overlongMatches` compares them.
    func accepts(overlong held: String, for word: Word) -> Bool {
        word.isPrefix ? held.utf8.starts(with: word.term.utf8) : held.utf8.elementsEqual(word.term.utf8)
    }

    /// The engine query: all words, each exact, fuzzy or (last) prefix.
    package var query: Query { query(typoTolerant: true) }

    /// The engine query; without typo tolerance each word's near terms are replaced by the word itself.
    package func query(typoTolerant: Bool) -> Query {
        guard !isEmpty else { return .none }
        let clauses = words.map { clause($0, typoTolerant: typoTolerant) }
        return .and(overlong.isEmpty ? clauses : clauses + [.terms([Analyzer.overlongTerm])])
    }

    /// Whether some word has near terms other than itself (a typo budget), so `typoTolerant` changes the query.
    package var hasTypoBudget: Bool { words.contains { !$0.fuzzyIsExact } }

    /// The clause of one word.
    package func clause(_ word: Word) -> Query { clause(word, typoTolerant: true) }

    /// The clause of one word, with or without its near terms.
    ///
    /// The word itself scores (1 + `fuzzyWeight`) × its term either way, and its near terms score only in the
    /// documents the word as typed does not match (neither the term nor, while typed, a completion): so every
    /// document the exact clause matches scores the same in both, and a page the words as typed fill
    /// (`CSUserQuery`'s exact pass) is the head of the typo-tolerant ranking. Added to the term instead, the
    /// near terms' group (its idf that of its most frequent term) reordered exact matches by their neighbours.
    package func clause(_ word: Word, typoTolerant: Bool) -> Query {
        let asTyped: Query = word.isPrefix ? .prefix(word.term) : .term(word.term)
        var options: [Query] = [.boost(.term(word.term), 1 + Self.fuzzyWeight)]
        if typoTolerant && !word.fuzzyIsExact {
            // `.fuzzy` expands to the term itself too (`.fuzzyPrefix` to its completions): the exclusion leaves its
            // group the typo-only matches.
            let near: Query = word.isPrefix ? .fuzzyPrefix(word.term, maxEdits: word.maxEdits)
                : .fuzzy(word.term, maxEdits: word.maxEdits)
            options.append(.boost(.not(near, excluding: asTyped), Self.fuzzyWeight))
        }
        if word.isPrefix { options.append(asTyped) }
        return options.count == 1 ? options[0] : .or(options)
    }

    /// The typo budget of a word: `budget`, the engine's default for its folded term (`IndexSnapshot.typoBudget`),
    /// but counted in the characters typed (`typed`, its UTF-8 bytes, composed) where folding made more: a letter
    /// folding to several ("maße" to "masse", "ﬁ" to "fi") is one character typed, and counted folded a four-letter
    /// word got a typo. Where folding made fewer (combining marks, format characters), the term's count stands.
    /// Work only for a non-ASCII word.
    static func typoBudget(_ budget: Int, typed: ArraySlice<UInt8>) -> Int {
        guard budget > 0, !typed.allSatisfy({ $0 < 0x80 }) else { return budget }
        let length = TextMatch.composed(String(decoding: typed, as: UTF8.self)).unicodeScalars.count
        return min(budget, IndexSnapshot.typoBudget(length: length))
    }

    /// Whether the fuzzy expansion of `term` (a folded query token) within `maxEdits` is exactly the term's own
    /// exact match: no typo budget, word characters only (nothing trimmed), and one query token equal to itself
    /// (so `.term` plans the same single term).
    static func fuzzyIsExact(_ term: String, maxEdits: Int) -> Bool {
        guard maxEdits == 0,
              term.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }) else { return false }
        let tokens = Analyzer().tokens(term, mode: .query)
        return tokens.count == 1 && tokens[0].term == term
    }

    /// Whether a folded index term answers `word` (for highlighting): equal, a completion of the last word, or
    /// one of the word's typo-tolerant expansions (`fuzzy`: its near terms, or the near prefixes of the word being
    /// typed, which the term then starts with). Prefixes compare by bytes, as the engine matches them: a word
    /// being typed can end inside a grapheme ("किताब" in "किताबो"), which `hasPrefix` would not accept.
    package func accepts(_ term: String, for word: Word, fuzzy: Set<String>) -> Bool {
        if term == word.term || (word.isPrefix && term.utf8.starts(with: word.term.utf8)) { return true }
        return word.isPrefix ? fuzzy.contains { term.utf8.starts(with: $0.utf8) } : fuzzy.contains(term)
    }
}
