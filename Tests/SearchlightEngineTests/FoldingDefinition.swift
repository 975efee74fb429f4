import Foundation
@testable import SearchlightEngine

/// What the folding table holds, computed from Unicode's data: the definition `FoldingTableTests` checks every entry
/// of the generated `FoldingTable.exceptions` against, and regenerates them from, and `FoldingEveryScalarTests`
/// checks `Folding.foldScalar` against for every scalar.
enum FoldingDefinition {
    /// Letters that do not decompose canonically but that every search engine folds (ASCII folding).
    static let specialLetters: [UInt32: String] = [
        0xDF: "ss", 0x1E9E: "SS", 0xF8: "o", 0xD8: "O", 0x142: "l", 0x141: "L", 0xE6: "ae", 0xC6: "AE",
        0x153: "oe", 0x152: "OE", 0x111: "d", 0x110: "D", 0xF0: "d", 0xD0: "D", 0xFE: "th", 0xDE: "TH",
        0x131: "i", 0x127: "h", 0x126: "H", 0x167: "t", 0x166: "T", 0x180: "b", 0x1B6: "z", 0x1B5: "Z",
        0x138: "q", 0x149: "n", 0x17F: "s",
    ]

    /// Unicode full case folding, as Foundation's `.caseInsensitive` folding: a scalar case folding changes folds to
    /// the lowercase mapping of its uppercase mapping (ﬁ → fi, ß → ss, ς → σ, ſ → s, µ → μ), ẞ to ss; any
    /// other to its lowercase mapping, so Cherokee folds to its small letters, as Foundation's does (Unicode's
    /// folds them to the capitals: the same classes).
    static func caseFold(_ scalar: Unicode.Scalar) -> [UInt32] {
        if scalar.value == 0x1E9E { return [0x73, 0x73] }
        guard scalar.properties.changesWhenCaseFolded else {
            return scalar.properties.lowercaseMapping.unicodeScalars.map(\.value)
        }
        return scalar.properties.uppercaseMapping.unicodeScalars.flatMap {
            $0.properties.lowercaseMapping.unicodeScalars.map(\.value)
        }
    }

    /// Full-width forms of ASCII (U+FF01–U+FF5E) and the ideographic space, which fold to ASCII though their
    /// decomposition is only a compatibility one: what a search engine does with text typed through a CJK input method.
    static func fullWidthForm(_ value: UInt32) -> UInt32? {
        if value >= 0xFF01, value <= 0xFF5E { return value - 0xFEE0 }
        return value == 0x3000 ? 0x20 : nil
    }

    /// Half-width katakana (U+FF66–U+FF9F), which fold to full-width ones (their compatibility decomposition; the
    /// voicing marks to the combining U+3099 and U+309A, which compose with the kana before them) as Lucene's
    /// CJKWidthFilter and Foundation's width-insensitive comparison do.
    static func halfWidthKatakana(_ value: UInt32) -> UInt32? {
        guard value >= 0xFF66, value <= 0xFF9F, let scalar = Unicode.Scalar(value) else { return nil }
        return String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars.first?.value
    }

    /// The combining marks diacritic folding removes (the blocks of combining diacritical marks, and the Hebrew
    /// points and Arabic harakat: every nonspacing mark of those blocks, as Foundation's `.diacriticInsensitive`
    /// removes them; Indic vowel signs and viramas stay, as there): what the generated list's diacritic entries
    /// fold to nothing.
    static func isCombiningMark(_ value: UInt32) -> Bool {
        (0x300...0x36F).contains(value) || (0x1AB0...0x1AFF).contains(value)
            || (0x1DC0...0x1DFF).contains(value) || (0x20D0...0x20FF).contains(value)
            || (0xFE20...0xFE2F).contains(value) || isHebrewOrArabicMark(value)
    }

    /// The nonspacing marks of the Hebrew (U+0591–U+05C7) and Arabic (U+0610–U+06ED) blocks.
    static func isHebrewOrArabicMark(_ value: UInt32) -> Bool {
        (0x591...0x5BD).contains(value) || value == 0x5BF || (0x5C1...0x5C2).contains(value)
            || (0x5C4...0x5C5).contains(value) || value == 0x5C7 || (0x610...0x61A).contains(value)
            || (0x64B...0x65F).contains(value) || value == 0x670 || (0x6D6...0x6DC).contains(value)
            || (0x6DF...0x6E4).contains(value) || (0x6E7...0x6E8).contains(value) || (0x6EA...0x6ED).contains(value)
    }

    /// Canonical decomposition with combining marks removed, plus the special letters and full-width forms above.
    static func diacriticFold(_ scalars: [Unicode.Scalar]) -> [UInt32] {
        var out: [UInt32] = []
        for scalar in scalars {
            if let special = specialLetters[scalar.value] {
                out.append(contentsOf: special.unicodeScalars.map(\.value))
                continue
            }
            if let ascii = fullWidthForm(scalar.value) { out.append(ascii); continue }
            if isCombiningMark(scalar.value) { continue }
            if scalar.value < 0x80 { out.append(scalar.value); continue }
            let decomposed = String(Character(scalar)).decomposedStringWithCanonicalMapping
            for part in decomposed.unicodeScalars where !isCombiningMark(part.value) {
                out.append(part.value)
            }
        }
        return out
    }

    /// The table's entries for `value`: its case fold, its diacritic fold and the diacritic fold of its case fold,
    /// packed (`FoldingTable.pack`). CJK characters (`CharacterClass.isCJK`: Hangul syllables, kana with voicing
    /// marks, compatibility ideographs decompose canonically) fold to themselves, but for half-width katakana: the
    /// analyzer indexes their source bytes, or their canonical composition, as unigrams and bigrams, so a folded query
    /// literal must keep them whole to find them (`CandidateTerms`).
    static func entries(_ value: UInt32) -> (case: UInt64, diacritic: UInt64, both: UInt64) {
        let same = FoldingTable.pack([value])
        if let fullWidth = halfWidthKatakana(value) {
            return (same, FoldingTable.pack([fullWidth]), FoldingTable.pack([fullWidth]))
        }
        guard let scalar = Unicode.Scalar(value), !CharacterClass.isCJK(value) else { return (same, same, same) }
        let folded = caseFold(scalar)
        let withoutMarks = diacriticFold([scalar])
        let both = folded == [value] ? withoutMarks : diacriticFold(folded.compactMap(Unicode.Scalar.init))
        return (FoldingTable.pack(folded), FoldingTable.pack(withoutMarks), FoldingTable.pack(both))
    }
}

extension FoldingDefinition {
    /// A scalar that does not fold to itself under some option set, with its three entries (`entries(_:)`).
    struct Exception: Hashable, Sendable {
        let value: UInt32
        let `case`: UInt64
        let diacritic: UInt64
        let both: UInt64
    }

    /// Every such scalar from U+0000 to U+10FFFF (surrogates excepted), in scalar order: what
    /// `FoldingTable.exceptions` must list. Computed once per test process (a million scalars, seconds).
    static let exceptions: [Exception] = {
        var found: [Exception] = []
        for value in UInt32(0)...0x10FFFF where !(0xD800...0xDFFF).contains(value) {
            let entries = entries(value), same = FoldingTable.pack([value])
            guard entries.case != same || entries.diacritic != same || entries.both != same else { continue }
            found.append(Exception(value: value, case: entries.case, diacritic: entries.diacritic, both: entries.both))
        }
        return found
    }()
}
