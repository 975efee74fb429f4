import Foundation
import SearchlightEngine
import SearchlightQueryLanguage

/// The exact semantics of `attr == "pattern"modifiers` on one text value, shared by the indexed evaluator's
/// verification step (the reference evaluator in the tests re-implements them independently).
///
/// - No `w`/`t`: the pattern (wildcards `*`, `?` over Unicode scalars) must match the WHOLE value. Under `c`/`d`,
///   `?` also matches one character whose fold is several scalars (ß → ss).
/// - `c` folds case, `d` folds diacritics, with `SearchlightEngine.Folding`, the engine's own tables, applied
///   to the pattern literals and the value alike. Without them matching is exact (byte for byte) between the
///   texts' canonical compositions (NFC): canonically equivalent texts are one text, as Swift's `==` has it.
/// - `w`: the pattern must match one word of the value; words are `Analyzer().words(in:)`: split at
///   non-alphanumerics and at lowercase-to-uppercase transitions (`"Window"w` hits "MyWindowController" but not
///   "NSWindow", as Apple documents; see `modifierWords(in:)`), a CJK run is one word. A pattern that itself
///   spans several words never matches under `w`.
/// - `t`: the pattern must match one analyzed token of the value (the index's own tokens: identifier parts
///   and wholes, CJK unigrams and bigrams). Tokens are case- and diacritic-folded, so `t` implies `cd`, and hold
///   no format characters (soft hyphen, word joiner), so the pattern's are dropped too.
package struct TextMatch: Sendable {
    package let modifiers: StringModifiers
    /// The folding applied to values (and already applied to the matcher's literals).
    package let folding: Folding.Options
    package let matcher: WildcardMatcher
    /// The byte-level form of a whole-value pattern of simple shape, or nil (see `quickMatch`).
    private let quick: Quick?
    private let foldsCase: Bool

    /// A whole-value pattern as folded UTF-8 bytes.
    private enum Quick: Sendable {
        case presence
        case exact([UInt8])
        case prefix([UInt8])
        case suffix([UInt8])
        case infix([UInt8])
    }

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
        matcher = pattern.mapLiterals { literal in
            let folded = Self.folded(literal, options: folding)
            return modifiers.contains(.tokenized) ? Self.droppingFormatCharacters(folded) : folded
        }.compile()
        foldsCase = folding.contains(.caseInsensitive)
        if modifiers.contains(.tokenized) || modifiers.contains(.wordBased) {
            quick = nil
        } else {
            let bytes = { (text: String) in Array(Self.folded(text, options: folding).utf8) }
            switch pattern.shape {
            case .presence: quick = .presence
            case .exact(let text): quick = .exact(bytes(text))
            case .prefix(let text): quick = .prefix(bytes(text))
            case .suffix(let text): quick = .suffix(bytes(text))
            case .infix(let text): quick = .infix(bytes(text))
            case .general: quick = nil
            }
        }
    }

    /// The whole-value match of an ASCII value without building its folded copy: folding is a per-scalar map
    /// (`Folding.foldScalar`) that sends ASCII to ASCII (only A–Z change, under `c`), and `*` runs between
    /// literals match the same bytes as scalars. Nil when there is no quick form or the value is not ASCII.
    private func quickMatch(_ value: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let quick else { return nil }
        for byte in value where byte >= 0x80 { return nil }
        @inline(__always) func fold(_ byte: UInt8) -> UInt8 {
            foldsCase ? Folding.lowercasedASCII(byte) : byte
        }
        @inline(__always) func equal(_ literal: [UInt8], at start: Int) -> Bool {
            for k in 0..<literal.count where fold(value[start + k]) != literal[k] { return false }
            return true
        }
        switch quick {
        case .presence:
            return true
        case .exact(let literal):
            return value.count == literal.count && equal(literal, at: 0)
        case .prefix(let literal):
            return value.count >= literal.count && equal(literal, at: 0)
        case .suffix(let literal):
            return value.count >= literal.count && equal(literal, at: value.count - literal.count)
        case .infix(let literal):
            guard value.count >= literal.count else { return false }
            for start in 0...(value.count - literal.count) where equal(literal, at: start) { return true }
            return false
        }
    }

    /// The canonical composition (NFC) of `text`; ASCII text is its own.
    static func composed(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCanonicalMapping
    }

    /// `text` composed, folded, and composed again: folding can leave a combining mark a character takes (a
    /// half-width voicing mark folds to U+3099, which composes with the kana before it).
    static func folded(_ text: String, options: Folding.Options) -> String {
        options.isEmpty ? composed(text) : composed(Folding.fold(composed(text), options: options))
    }

    /// `text` without the format characters (soft hyphen, word joiner, zero-width joiner, direction marks, Arabic
    /// tatweel, a zero-width non-joiner after a virama) that no token holds, as the analyzer drops them inside words:
    /// a `t` pattern written with one still matches its token. The zero-width space and other non-joiners separate
    /// words instead, so they stay (and never match).
    static func droppingFormatCharacters(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: Analyzer.droppingFormatCharacters(text.unicodeScalars))
        return String(scalars)
    }

    /// Whether one stored value matches.
    package func matches(_ value: String) -> Bool {
        if modifiers.contains(.tokenized) {
            return Analyzer().tokens(value, mode: .index).contains { matcher.matches($0.term) }
        }
        if modifiers.contains(.wordBased) {
            let words = Self.modifierWords(in: Self.composed(value))
            return words.contains {
                matcher.matches(Self.folded($0, options: folding)) || matchesByCharacter($0)
            }
        }
        var value = value
        if let quick = value.withUTF8({ quickMatch($0) }) { return quick }
        return matcher.matches(Self.folded(value, options: folding)) || matchesByCharacter(value)
    }

    /// The words the `w` modifier matches in `value`: the analyzer's words, except that a camelCase split is a
    /// word boundary only after a lowercase letter. Apple documents `w` as treating "transitions from lowercase to
    /// uppercase" as boundaries (`"Window"w` hits "MyWindowClass" but not "NSWindow"), while the analyzer, for
    /// the index, also splits a capitalized word after capitals or digits (NS|Window, Base64|Encoder).
    static func modifierWords(in value: String) -> [String] {
        let utf8 = Array(value.utf8)
        // The scalars either side of a join, read alone: decoding the joined word each time was quadratic.
        func scalar(at start: Int) -> Unicode.Scalar? {
            var end = start + 1
            while end < utf8.count, utf8[end] & 0xC0 == 0x80 { end += 1 }
            return String(decoding: utf8[start..<end], as: UTF8.self).unicodeScalars.first
        }
        func scalar(endingAt end: Int) -> Unicode.Scalar? {
            var start = end - 1
            while start > 0, utf8[start] & 0xC0 == 0x80 { start -= 1 }
            return scalar(at: start)
        }
        var words: [Range<Int>] = []
        for range in Analyzer().wordByteRanges(in: value) {
            if let last = words.last, last.upperBound == range.lowerBound, !last.isEmpty, !range.isEmpty,
               let before = scalar(endingAt: last.upperBound),
               let after = scalar(at: range.lowerBound),
               after.properties.isUppercase, !before.properties.isLowercase,
               before.properties.isUppercase || before.properties.numericType == .decimal {
                words[words.count - 1] = last.lowerBound..<range.upperBound
            } else {
                words.append(range)
            }
        }
        return words.map { String(decoding: utf8[$0], as: UTF8.self) }
    }

    /// Whether `value` matches with each `?` taking one character's whole fold: where folding makes a character
    /// several scalars (ß → ss, İ → i̇), `?` still matches that one character, so a case- or
    /// diacritic-insensitive match only adds matches. False when the pattern has no `?` or no fold expands.
    private func matchesByCharacter(_ value: String) -> Bool {
        guard matcher.hasAnyOne, !folding.isEmpty else { return false }
        var text = "", ends: [Int] = [], expands = false
        for character in Self.composed(value) {
            let fold = Self.folded(String(character), options: folding)
            expands = expands || fold.unicodeScalars.count > 1
            text += fold
            ends.append(text.utf8.count)
        }
        return expands && matcher.matches(text, boundaries: ends)
    }

    /// Whether one stored value, given as its UTF-8 bytes, matches: an ASCII value of a simple whole-value
    /// pattern is decided on the bytes, anything else on the decoded string.
    package func matches(utf8 value: UnsafeBufferPointer<UInt8>) -> Bool {
        if let quick = quickMatch(value) { return quick }
        return matches(String(decoding: value, as: UTF8.self))
    }

    /// Whether any of several values (a multi-valued attribute) matches.
    package func matchesAny(_ values: [String]) -> Bool { values.contains(where: matches) }
}
