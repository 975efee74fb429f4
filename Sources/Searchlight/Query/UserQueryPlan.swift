import SearchlightEngine

/// Turns what a person typed into an engine query over the default free-text fields.
///
/// The text is analyzed like the index (case and diacritics folded, identifiers split, CJK as bigrams). Every
/// word must match; each matches as itself or, with a typo budget (1 edit from 5 characters, 2 from 9),
/// as a near term scored lower (`fuzzyWeight`). The last word, while still being typed (no trailing space),
/// also matches as a prefix. Exact matches score in every clause that accepts them, so they rank above
/// prefix and fuzzy ones.
package struct UserQueryPlan: Sendable {
    /// One analyzed word of the input.
    package struct Word: Sendable, Hashable {
        package let term: String
        package let isPrefix: Bool
        /// `UserQueryPlan.fuzzyIsExact(term)`, found once (it runs the analyzer).
        let fuzzyIsExact: Bool
    }

    /// Score multiplier of a fuzzy (typo) match.
    package static let fuzzyWeight: Float = 0.3

    package let words: [Word]

    package init(text: String, lastWordIsPrefix: Bool = true) {
        let tokens = Analyzer().tokens(text, mode: .query)
        let typing = lastWordIsPrefix && !(text.last.map { $0.isWhitespace } ?? true)
        words = tokens.enumerated().map { index, token in
            Word(term: token.term, isPrefix: typing && index == tokens.count - 1, fuzzyIsExact: Self.fuzzyIsExact(token.term))
        }
    }

    /// Nothing to search for.
    package var isEmpty: Bool { words.isEmpty }

    /// The engine query: all words, each exact, fuzzy or (last) prefix.
    package var query: Query { query(typoTolerant: true) }

    /// The engine query; without typo tolerance each word's near terms are replaced by the word itself.
    package func query(typoTolerant: Bool) -> Query {
        guard !words.isEmpty else { return .none }
        return .and(words.map { clause($0, typoTolerant: typoTolerant) })
    }

    /// Whether some word has near terms other than itself (a typo budget), so `typoTolerant` changes the query.
    package var hasTypoBudget: Bool { words.contains { !$0.fuzzyIsExact } }

    /// The clause of one word.
    package func clause(_ word: Word) -> Query { clause(word, typoTolerant: true) }

    /// The clause of one word, with or without its near terms.
    package func clause(_ word: Word, typoTolerant: Bool) -> Query {
        var options: [Query]
        if typoTolerant && !word.fuzzyIsExact {
            options = [.term(word.term), .boost(.fuzzy(word.term, maxEdits: nil), Self.fuzzyWeight)]
        } else {
            // The word is its own only near term (no typo budget, or typo tolerance off): term + 0.3 × term,
            // one term group instead of two identical ones in a disjunction (same score up to float rounding).
            options = [.boost(.term(word.term), 1 + Self.fuzzyWeight)]
        }
        if word.isPrefix { options.append(.prefix(word.term)) }
        return options.count == 1 ? options[0] : .or(options)
    }

    /// Whether the engine's default fuzzy expansion of `term` (a folded query token) is exactly the term's
    /// own exact match: no typo budget (under 5 characters), word characters only (nothing trimmed), and one
    /// query token equal to itself (so `.term` plans the same single term).
    static func fuzzyIsExact(_ term: String) -> Bool {
        guard term.unicodeScalars.count < 5,
              term.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }) else { return false }
        let tokens = Analyzer().tokens(term, mode: .query)
        return tokens.count == 1 && tokens[0].term == term
    }

    /// Whether a folded index term answers `word` (for highlighting): equal, a completion of the last word, or
    /// one of the word's typo-tolerant expansions (`fuzzy`).
    package func accepts(_ term: String, for word: Word, fuzzy: Set<String>) -> Bool {
        term == word.term || (word.isPrefix && term.hasPrefix(word.term)) || fuzzy.contains(term)
    }
}
