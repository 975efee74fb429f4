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
    }

    /// Score multiplier of a fuzzy (typo) match.
    package static let fuzzyWeight: Float = 0.3

    package let words: [Word]

    package init(text: String, lastWordIsPrefix: Bool = true) {
        let tokens = Analyzer().tokens(text, mode: .query)
        let typing = lastWordIsPrefix && !(text.last.map { $0.isWhitespace } ?? true)
        words = tokens.enumerated().map { index, token in
            Word(term: token.term, isPrefix: typing && index == tokens.count - 1)
        }
    }

    /// Nothing to search for.
    package var isEmpty: Bool { words.isEmpty }

    /// The engine query: all words, each exact, fuzzy or (last) prefix.
    package var query: Query {
        guard !words.isEmpty else { return .none }
        return .and(words.map(clause))
    }

    /// The clause of one word.
    package func clause(_ word: Word) -> Query {
        var options: [Query] = [.term(word.term), .boost(.fuzzy(word.term, maxEdits: nil), Self.fuzzyWeight)]
        if word.isPrefix { options.append(.prefix(word.term)) }
        return .or(options)
    }

    /// Whether a folded index term answers `word` (for highlighting): equal, a completion of the last word, or
    /// one of the word's typo-tolerant expansions (`fuzzy`).
    package func accepts(_ term: String, for word: Word, fuzzy: Set<String>) -> Bool {
        term == word.term || (word.isPrefix && term.hasPrefix(word.term)) || fuzzy.contains(term)
    }
}
