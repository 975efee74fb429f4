/// How the tokenizer sees one Unicode scalar: token characters (with their case, for camelCase splits),
/// connectors that may join identifier parts, CJK characters (bigrammed), emoji (each sequence a token) and
/// separators. A format character (soft hyphen, word joiner, zero-width joiner, direction marks; the Arabic tatweel,
/// and a zero-width non-joiner after a virama, too) is part of the word around it, as UAX #29 has it, but of no term.
enum CharacterClass: UInt8 {
    case separator = 0, lower, upper, digit, otherLetter, mark, cjk, connector, format, emoji

    var isWordCharacter: Bool { self != .separator && self != .connector && self != .cjk && self != .emoji }

    /// Classes of the 128 ASCII bytes: the fast path.
    static let ascii: [CharacterClass] = (0..<128).map { (value: Int) -> CharacterClass in
        switch UInt8(value) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return .lower
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return .upper
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return .digit
        case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): return .connector
        default: return .separator
        }
    }

    /// Class of an ASCII byte by comparisons (no table load, no lazy-global check on the hot path).
    @inline(__always)
    static func ofASCII(_ byte: UInt8) -> CharacterClass {
        if byte &- 0x61 < 26 { return .lower }
        if byte &- 0x41 < 26 { return .upper }
        if byte &- 0x30 < 10 { return .digit }
        if byte == 0x2E || byte == 0x5F || byte == 0x2D { return .connector }
        return .separator
    }

    /// Whether an ASCII byte is a letter or a digit (what `ofASCII` gives a word class).
    @inline(__always)
    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool { byte &- 0x61 < 26 || byte &- 0x41 < 26 || byte &- 0x30 < 10 }

    /// Han, Hiragana, Katakana, Hangul (and their compatibility / half-width forms).
    static func isCJK(_ value: UInt32) -> Bool {
        switch value {
        case 0x3040...0x30FF, 0x31F0...0x31FF,  // Hiragana, Katakana, Katakana extensions
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F,  // Han
            0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F,  // Hangul
            0xFF66...0xFF9F, 0xFFA0...0xFFDC:  // half-width Katakana and Hangul
            return true
        default:
            return false
        }
    }

    /// Whether a CJK scalar may change when its run is folded and put in canonical composition (NFC): conjoining
    /// Hangul jamo, the combining kana voicing marks, compatibility ideographs, half-width katakana. Range tests, so
    /// plain runs keep their fast path.
    @inline(__always)
    static func mayChangeInCJKNormalization(_ value: UInt32) -> Bool {
        value &- 0x1100 < 0x100 || value &- 0x3099 < 2 || value &- 0xF900 < 0x200 || value &- 0x2F800 < 0x220
            || value &- 0xFF66 < 0x3A
    }

    /// Whether a scalar is a variation selector (U+FE00–FE0F, the ideographic ones U+E0100–E01EF), which picks a
    /// glyph of the character before it.
    @inline(__always)
    static func isVariationSelector(_ value: UInt32) -> Bool { value &- 0xFE00 < 0x10 || value &- 0xE0100 < 0xF0 }

    /// Whether a scalar is a virama (canonical combining class 9): a zero-width non-joiner right after one only asks
    /// for a half form or an explicit virama (क्‌ष), so it stays inside the word, a format character.
    static func isVirama(_ value: UInt32) -> Bool {
        Unicode.Scalar(value)?.properties.canonicalCombiningClass == .virama
    }

    /// Whether a scalar is a tag spec (U+E0020–E007E), which an emoji tag sequence ends with TAG CANCEL (U+E007F).
    @inline(__always)
    static func isTagSpec(_ value: UInt32) -> Bool { value &- 0xE0020 < 0x5F }

    /// Whether a scalar is a regional indicator (U+1F1E6–1F1FF), two of which make a flag.
    @inline(__always)
    static func isRegionalIndicator(_ value: UInt32) -> Bool { value &- 0x1F1E6 < 26 }

    /// Classifies a non-ASCII scalar (slow path, by Unicode general category).
    static func classify(_ value: UInt32) -> CharacterClass {
        if isCJK(value) { return .cjk }
        // Full-width `－．＿` fold to `-._`: connectors like them, so text and its fold split into the same words.
        if value == 0xFF0D || value == 0xFF0E || value == 0xFF3F { return .connector }
        // The Arabic tatweel only stretches a word (justification, style): in no term, as Lucene's Arabic normalizer.
        if value == 0x0640 { return .format }
        // ⓜ, the case fold of the emoji Ⓜ: an emoji too, so Ⓜ's folded term reads again as itself (query terms).
        if value == 0x24DC { return .emoji }
        guard let scalar = Unicode.Scalar(value) else { return .separator }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .titlecaseLetter: return .upper
        case .lowercaseLetter: return .lower
        case .otherLetter, .modifierLetter: return .otherLetter
        case .nonspacingMark, .spacingMark, .enclosingMark: return .mark
        case .decimalNumber, .letterNumber, .otherNumber: return .digit
        // The zero-width space separates words (Thai, Khmer), and so does the zero-width non-joiner (Persian
        // compounds: می‌خواهم) but after a virama (`isVirama`, which callers check); the zero-width joiner only
        // shapes a conjunct (ශ්‍රී), inside a word (UAX #29 WB4).
        case .format: return value &- 0x200B < 2 ? .separator : .format
        // An emoji (not a skin tone, which modifies the one before it) starts a token of its own (`emojiSequence`).
        default: return value &- 0x1F3FB >= 5 && scalar.properties.isEmoji ? .emoji : .separator
        }
    }
}
