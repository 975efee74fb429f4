import SearchlightEngine
import SearchlightQueryLanguage

/// The exact semantics of `attr == "pattern"modifiers` on one text value, shared by the indexed evaluator's
/// verification step (the reference evaluator in the tests re-implements them independently).
///
/// - No `w`/`t`: the pattern (wildcards `*`, `?` over Unicode scalars) must match the WHOLE value.
/// - `c` folds case, `d` folds diacritics, with `SearchlightEngine.Folding`, the engine's own tables, applied
///   to the pattern literals and the value alike. Without them matching is exact (byte for byte).
/// - `w`: the pattern must match one word of the value; words are `Analyzer().words(in:)`: split at
///   non-alphanumerics and at camelCase boundaries (`"Window"w` hits "MyWindowController"), a CJK run is one
///   word. A pattern that itself spans several words never matches under `w`.
/// - `t`: the pattern must match one analyzed token of the value (the index's own tokens: identifier parts
///   and wholes, CJK unigrams and bigrams). Tokens are case- and diacritic-folded, so `t` implies `cd`.
package struct TextMatch: Sendable {
    package let modifiers: StringModifiers
    /// The folding applied to values (and already applied to the matcher's literals).
    package let folding: Folding.Options
    package let matcher: WildcardMatcher

    package init(pattern: StringPattern, modifiers: StringModifiers) {
        self.modifiers = modifiers
        var folding: Folding.Options = []
        if modifiers.contains(.tokenized) {
            folding = .all
        } else {
            if modifiers.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
            if modifiers.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        }
        self.folding = folding
        matcher = pattern.mapLiterals { Folding.fold($0, options: folding) }.compile()
    }

    /// Whether one stored value matches.
    package func matches(_ value: String) -> Bool {
        if modifiers.contains(.tokenized) {
            return Analyzer().tokens(value, mode: .index).contains { matcher.matches($0.term) }
        }
        if modifiers.contains(.wordBased) {
            return Analyzer().words(in: value).contains { matcher.matches(Folding.fold($0, options: folding)) }
        }
        return matcher.matches(Folding.fold(value, options: folding))
    }

    /// Whether any of several values (a multi-valued attribute) matches.
    package func matchesAny(_ values: [String]) -> Bool { values.contains(where: matches) }
}
