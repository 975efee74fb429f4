import Foundation

/// The one analyzer used at index time and at query time: it walks UTF-8 bytes (ASCII fast path), folds
/// case and diacritics by table, splits identifiers into parts while keeping the whole, and turns CJK runs
/// into overlapping bigrams plus unigrams (Lucene CJK style).
public struct Analyzer: Sendable {
    /// What to emit.
    public enum Mode: Sendable {
        /// Everything the index stores: parts, whole compounds, CJK unigrams and bigrams.
        case index
        /// What a query matches against: parts only, and CJK bigrams (a lone CJK character as a unigram).
        case query
        /// Word boundaries for the query language's `w` modifier: parts, and each CJK run whole.
        case words
    }

    /// Parts or wholes longer than this many bytes are not kept as terms (binary junk, base64 blobs). Such a word
    /// still takes its position, and the index records it as `overlongTerm`.
    public static let maxTermBytes = 128

    /// The term an index records in place of a word longer than `maxTermBytes`: a control character, which no
    /// word can hold, so it never meets a real term. It lets pattern comparisons (`"*needle*"`) take the values
    /// holding such words as candidates to verify on their raw text; term listings leave it out.
    public static let overlongTerm = "\u{1}"
    static let overlongBytes: [UInt8] = [0x01]

    /// Whether `scalar`, after `previous` (nil at the start of the text), is a format character (soft hyphen, word
    /// joiner, zero-width joiner, direction marks, Arabic tatweel, a zero-width non-joiner after a virama, a variation
    /// selector after any scalar; not the zero-width space or another non-joiner, which separate words): part of
    /// the word around it, but of no term, so query text drops it as analysis does. A tag is one too, but for an
    /// emoji tag sequence's, which the scalar before cannot tell: `droppingFormatCharacters` keeps those.
    package static func isFormatCharacter(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar?) -> Bool {
        guard scalar.value != 0x200C else { return previous.map { CharacterClass.isVirama($0.value) } ?? false }
        // After an emoji or a skin tone (`emojiSequence`: 👍🏻\u{FE0F} → 👍🏻), a CJK character or inside a word (a
        // keycap's digit: 1\u{FE0F}\u{20E3}, `compound`), a variation selector is in no term.
        if CharacterClass.isVariationSelector(scalar.value), previous != nil { return true }
        return scalar.value >= 0x80 && CharacterClass.classify(scalar.value) == .format
    }

    /// `scalars` without their format characters (`isFormatCharacter`, each after the scalar before it), but for a
    /// zero-width joiner between two emoji and an emoji tag sequence's tags, which its term keeps (`emojiSequence`).
    package static func droppingFormatCharacters(_ scalars: some Sequence<Unicode.Scalar>) -> [Unicode.Scalar] {
        let scalars = Array(scalars)
        let tags = tagSequenceTags(scalars)
        func isAside(_ s: Unicode.Scalar) -> Bool {
            s.value &- 0xFE0E < 2 || s.value >= 0x80 && CharacterClass.classify(s.value) == .format
        }
        func isEmoji(_ s: Unicode.Scalar) -> Bool { s.value >= 0x80 && CharacterClass.classify(s.value) == .emoji }
        // A zero-width joiner stays when it joins two emoji: an emoji (or its skin tone) before it and an emoji after
        // it, format characters and variation selectors aside. Both neighbours are found in one pass each way, so a
        // long run of joiners stays linear (searching from each joiner was quadratic).
        var emojiAfter: [Bool] = []
        if scalars.contains(where: { $0.value == 0x200D }) {
            emojiAfter = Array(repeating: false, count: scalars.count)
            var next = false
            for index in scalars.indices.reversed() {
                emojiAfter[index] = next
                if !isAside(scalars[index]) { next = isEmoji(scalars[index]) }
            }
        }
        var kept: [Unicode.Scalar] = []
        var emojiBefore = false
        for (index, scalar) in scalars.enumerated() {
            let previous = index > 0 ? scalars[index - 1] : nil
            if !isFormatCharacter(scalar, after: previous) || scalar.value == 0x200D && emojiBefore && emojiAfter[index]
                || !tags.isEmpty && tags[index] {
                kept.append(scalar)
            }
            if !isAside(scalar) { emojiBefore = isEmoji(scalar) || scalar.value &- 0x1F3FB < 5 }
        }
        return kept
    }

    /// Which of `scalars` are the tags of an emoji tag sequence (UTS #51 ED-14a: an emoji, its skin tones and
    /// U+FE0E/FE0F aside, then tag specs and TAG CANCEL), as `emojiSequence` reads them; empty when none is a tag.
    static func tagSequenceTags(_ scalars: [Unicode.Scalar]) -> [Bool] {
        guard scalars.contains(where: { CharacterClass.isTagSpec($0.value) }) else { return [] }
        var tags = Array(repeating: false, count: scalars.count)
        var base = false, index = 0
        while index < scalars.count {
            let value = scalars[index].value
            if base, CharacterClass.isTagSpec(value) {
                var end = index
                while end < scalars.count, CharacterClass.isTagSpec(scalars[end].value) { end += 1 }
                if end < scalars.count, scalars[end].value == 0xE007F {
                    for tag in index...end { tags[tag] = true }
                    index = end + 1
                    base = false
                    continue
                }
            }
            if value >= 0x80, CharacterClass.classify(value) == .emoji {
                base = true
            } else if value &- 0xFE0E >= 2, value &- 0x1F3FB >= 5 {
                base = false
            }
            index += 1
        }
        return tags
    }

    /// The version of the terms this analyzer emits, which a durable store records beside its segments: a store
    /// whose segments another version analyzed has them analyzed again when it opens (`DurableStore`), so old
    /// terms never linger. Raised whenever any text's terms change.
    /// - 1: before 2026-11-30 (stores record no version; they read as 0).
    /// - 2: a word over `maxTermBytes` is recorded as `overlongTerm` (it had no term); folding by table for every
    ///   scalar (112 scalars above U+2000 folded otherwise, U+212B ANGSTROM SIGN to å).
    /// - 3: full-width `－．＿` are connectors, and a connector joins across the combining marks folding removes
    ///   (`１．５` → 1, 5, 1.5; `a-\u{301}b` → a, b, a-b), as in the text's fold.
    /// - 4: a CJK run holding a scalar NFC changes (conjoining jamo, kana with U+3099/U+309A, compatibility
    ///   ideographs) is analyzed in its canonical composition.
    /// - 5: a variation selector (U+FE00–FE0F, U+E0100–E01EF) after a CJK character is part of it, left out of
    ///   the terms (it split the run).
    /// - 6: a format character (soft hyphen, word joiner, direction marks; not U+200B–200D) inside a word is part
    ///   of it and of no term (`Wiki\u{AD}pedia` → wikipedia; it split the word).
    /// - 7: half-width katakana fold to full-width ones (`ｶﾞ` → ガ), as Lucene's CJKWidthFilter does.
    /// - 8: Hebrew points and Arabic harakat are diacritics, removed by folding (`مُحَمَّد` → محمد), as Foundation's
    ///   diacritic-insensitive comparison removes them.
    /// - 9: case folding is Unicode full case folding, as Foundation's (`ﬁnal` → final, ſ → s, µ → μ; it only
    ///   lowercased).
    /// - 10: the Arabic tatweel (U+0640) is a format character, of no term (`محمـــد` → محمد; it stayed in the term).
    /// - 11: the zero-width joiner (U+200D) is a format character (`क्\u{200D}ष` → क्ष; it split the word).
    /// - 12: a fold to three scalars keeps its last one (`ﬃ` → ffi; it was U+100069, `Folding.thirdScalarMask`).
    /// - 13: a zero-width non-joiner (U+200C) right after a virama is a format character (`क्\u{200C}ष` → क्ष; it
    ///   split the word); elsewhere it still separates words (`می\u{200C}خواهم` → می, خواهم).
    /// - 14: an emoji sequence is a token of its own, without its variation selectors and format characters
    ///   (`party🎉 ❤️ 👨\u{200D}👩\u{200D}👧` → party, 🎉, ❤, 👨👩👧; emoji were in no term).
    /// - 15: an emoji sequence's term is folded as other terms are (`Ⓜ` → ⓜ; it kept Ⓜ, which no `t` pattern found).
    /// - 16: an emoji sequence's term keeps the zero-width joiners between its emoji (`👨\u{200D}👩\u{200D}👧`; without
    ///   them the term read again as three tokens, so its suggestion counted nothing).
    /// - 17: a variation selector inside a word is in no term (`1\u{FE0F}\u{20E3}` → 1; it was `1\u{FE0F}`).
    /// - 18: an emoji tag sequence's term keeps its tags (🏴 with England's or Scotland's tags; both were 🏴).
    public static let version: UInt32 = 18

    /// Whether plain ASCII words and compounds skip the general compound splitter (always on; off only to test
    /// that both paths emit the same tokens).
    let asciiFastPath: Bool
    /// Whether the index records `overlongTerm` for a word over `maxTermBytes` (always; off only to build the
    /// segments version 1 built, for the tests of a store's upgrade).
    let recordsOverlongWords: Bool

    public init() {
        asciiFastPath = true
        recordsOverlongWords = true
    }

    init(asciiFastPath: Bool = true, recordsOverlongWords: Bool = true) {
        self.asciiFastPath = asciiFastPath
        self.recordsOverlongWords = recordsOverlongWords
    }

    /// Tokenizes `text`; positions start at zero. A word longer than `maxTermBytes` is skipped, its position
    /// left free.
    public func tokens(_ text: String, mode: Mode = .index) -> [Token] {
        var buffer = TokenBuffer()
        _ = analyze(text, mode: mode, firstPosition: 0, into: &buffer)
        return buffer.records.filter { $0.kind != .overlong }.map {
            Token(term: buffer.term($0), position: Int($0.position),
                  byteRange: Int($0.byteStart)..<Int($0.byteEnd), kind: $0.kind)
        }
    }

    /// The words of `text` longer than `maxTermBytes`, which no term holds (the index records `overlongTerm`),
    /// as byte ranges of `text`, in order: what must be matched on the raw text.
    public func overlongWords(in text: String) -> [Range<Int>] {
        var buffer = TokenBuffer()
        _ = analyze(text, mode: .index, firstPosition: 0, into: &buffer)
        return buffer.records.filter { $0.kind == .overlong }.map { Int($0.byteStart)..<Int($0.byteEnd) }
    }

    /// Whether `scalar`, after `previous` (nil: unknown), continues a word for the analyzer (not a separator, a
    /// connector or CJK, which is split into bigrams): where a word of folded text ends.
    package static func continuesWord(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar?) -> Bool {
        guard scalar.value != 0x200C else { return isFormatCharacter(scalar, after: previous) }
        return (scalar.value < 0x80 ? CharacterClass.ascii[Int(scalar.value)] : CharacterClass.classify(scalar.value)).isWordCharacter
    }

    /// Splits text into words the way the index does (identifier parts, camelCase boundaries, CJK runs),
    /// returning the original, unfolded text of each word.
    public func words(in text: String) -> [String] {
        let utf8 = Array(text.utf8)
        return wordByteRanges(in: text).map { String(decoding: utf8[$0], as: UTF8.self) }
    }

    /// The UTF-8 byte ranges of `words(in:)` within `text`, in order: where two words touch, the split was a
    /// camelCase boundary rather than a separator.
    package func wordByteRanges(in text: String) -> [Range<Int>] {
        var buffer = TokenBuffer()
        _ = analyze(text, mode: .words, firstPosition: 0, into: &buffer)
        return buffer.records.map { Int($0.byteStart)..<Int($0.byteEnd) }
    }

    /// Appends the tokens of `text` to `buffer`, positions starting at `firstPosition`; returns the next
    /// free position.
    func analyze(_ text: String, mode: Mode, firstPosition: UInt32, into buffer: inout TokenBuffer) -> UInt32 {
        var scratch = AnalyzerScratch()
        swap(&scratch, &buffer.scratch)
        defer { swap(&scratch, &buffer.scratch) }
        return analyze(text, mode: mode, firstPosition: firstPosition, scratch: &scratch, into: &buffer)
    }

    /// Hands the tokens of `text` to `sink` one by one, positions starting at `firstPosition`; returns the next
    /// free position. `scratch` keeps its allocations from call to call.
    func analyze<Sink: TokenSink>(_ text: String, mode: Mode, firstPosition: UInt32, scratch: inout AnalyzerScratch,
                                  into sink: inout Sink) -> UInt32 {
        return text.withUTF8Bytes { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Analyzer.maxTermBytes) { fold in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * Walker.maximumASCIIParts) { partBounds in
                    var state = Walker(bytes: bytes, mode: mode, position: firstPosition, fastPath: asciiFastPath,
                                       recordsOverlong: recordsOverlongWords, fold: fold.baseAddress!,
                                       partBounds: partBounds.baseAddress!)
                    swap(&state.scratch, &scratch)
                    state.run(into: &sink)
                    swap(&state.scratch, &scratch)
                    return state.position
                }
            }
        }
    }
}

/// Where the analyzer puts its tokens: a `TokenBuffer` keeps them, the segment builder interns them as they come.
protocol TokenSink {
    /// One token: its folded bytes (valid only during the call), its position, the source bytes it came from.
    mutating func take(_ term: UnsafeBufferPointer<UInt8>, position: UInt32, byteStart: Int, byteEnd: Int, kind: TokenKind)
}

/// The analyzer's reusable working memory: the folded bytes of the current compound (parts and connectors) and
/// its parts (folded range in `whole`, source byte range).
struct AnalyzerScratch {
    var whole: [UInt8] = []
    var parts: [(foldStart: Int, foldEnd: Int, byteStart: Int, byteEnd: Int)] = []
}

/// One pass over a UTF-8 buffer; keeps its scratch state on the stack.
private struct Walker {
    let bytes: UnsafeBufferPointer<UInt8>
    let mode: Analyzer.Mode
    let fastPath: Bool
    let recordsOverlong: Bool
    var position: UInt32
    var scratch = AnalyzerScratch()
    /// Room for one ASCII word or compound folded to lowercase (`Analyzer.maxTermBytes`).
    let fold: UnsafeMutablePointer<UInt8>
    /// Room for the source byte ranges of an ASCII compound's parts (start, end: `maximumASCIIParts` of them).
    let partBounds: UnsafeMutablePointer<Int>
    static let maximumASCIIParts = 32

    init(bytes: UnsafeBufferPointer<UInt8>, mode: Analyzer.Mode, position: UInt32, fastPath: Bool,
         recordsOverlong: Bool, fold: UnsafeMutablePointer<UInt8>, partBounds: UnsafeMutablePointer<Int>) {
        self.bytes = bytes
        self.mode = mode
        self.position = position
        self.fastPath = fastPath
        self.recordsOverlong = recordsOverlong
        self.fold = fold
        self.partBounds = partBounds
    }

    /// Decodes the scalar at `index` (the buffer is valid UTF-8: it comes from a String).
    @inline(__always)
    func decode(_ index: Int) -> (value: UInt32, length: Int) {
        let b0 = UInt32(bytes[index])
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0, index + 1 < bytes.count {
            return ((b0 & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F), 2)
        }
        if b0 < 0xF0, index + 2 < bytes.count {
            return ((b0 & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F), 3)
        }
        if index + 3 < bytes.count {
            return ((b0 & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F), 4)
        }
        return (0xFFFD, 1)
    }

    @inline(__always)
    func classify(_ index: Int) -> (cls: CharacterClass, value: UInt32, length: Int) {
        let byte = bytes[index]
        if byte < 0x80 { return (CharacterClass.ofASCII(byte), UInt32(byte), 1) }
        let (value, length) = decode(index)
        if value == 0x200C { return (zeroWidthNonJoinerClass(at: index), value, length) }
        return (CharacterClass.classify(value), value, length)
    }

    /// The class of the zero-width non-joiner at `index`: a format character right after a virama, where it only
    /// picks a half form or an explicit virama (क्‌ष), else a separator (Persian compounds: می‌خواهم). Rare: out of line.
    @inline(never)
    func zeroWidthNonJoinerClass(at index: Int) -> CharacterClass {
        var start = index - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return start >= 0 && CharacterClass.isVirama(decode(start).value) ? .format : .separator
    }

    mutating func run<Sink: TokenSink>(into sink: inout Sink) {
        var index = 0
        while index < bytes.count {
            let (cls, _, length) = classify(index)
            switch cls {
            case .separator, .connector, .mark, .format:
                index += length
            case .cjk:
                index = cjkRun(from: index, into: &sink)
            case .emoji:
                index = emojiSequence(from: index, into: &sink)
            default:
                if fastPath, let end = asciiWord(from: index, into: &sink) ?? asciiCompound(from: index, into: &sink) {
                    index = end
                } else {
                    index = compound(from: index, into: &sink)
                }
            }
        }
    }

    @inline(__always)
    static func appendUTF8(_ value: UInt32, to out: inout [UInt8]) {
        if value < 0x80 {
            out.append(UInt8(value))
        } else if value < 0x800 {
            out.append(UInt8(0xC0 | (value >> 6)))
            out.append(UInt8(0x80 | (value & 0x3F)))
        } else if value < 0x10000 {
            out.append(UInt8(0xE0 | (value >> 12)))
            out.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (value & 0x3F)))
        } else {
            out.append(UInt8(0xF0 | (value >> 18)))
            out.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (value & 0x3F)))
        }
    }

    /// The common case of `compound` without its bookkeeping: a run of ASCII letters and digits that has
    /// no camelCase boundary (no uppercase letter after the first unless there is no lowercase letter at
    /// all) and is not joined to more word characters by a connector or a non-ASCII byte. Emits it as one
    /// word, folded to lowercase, and returns its end; nil sends the caller to the general path.
    @inline(__always)
    mutating func asciiWord<Sink: TokenSink>(from start: Int, into sink: inout Sink) -> Int? {
        let count = bytes.count
        var i = start
        var upperAfterFirst = false, lower = false, upper = false
        while i < count {
            let b = bytes[i]
            if b &- 0x61 < 26 {
                lower = true
                // The lowercase letters after it, up to eight at once (most words are all lowercase).
                if i + 9 <= count {
                    let next = UnsafeRawPointer(bytes.baseAddress! + i + 1).loadUnaligned(as: UInt64.self)
                    i += ASCIIWord.lowercaseRun(UInt64(littleEndian: next))
                }
            } else if b &- 0x41 < 26 {
                upper = true
                if i > start { upperAfterFirst = true }
            } else if b &- 0x30 >= 10 {
                break
            }
            i += 1
        }
        if i == start || (upperAfterFirst && lower) { return nil }
        if i < count {
            let b = bytes[i]
            if b >= 0x80 { return nil }
            if b == 0x2E || b == 0x5F || b == 0x2D, i + 1 < count {
                // A connector joins the next character when that is a word character (non-ASCII: unknown).
                let next = bytes[i + 1]
                if next >= 0x80 || CharacterClass.isASCIIAlphanumeric(next) { return nil }
            }
        }
        let length = i - start
        if length <= Analyzer.maxTermBytes {
            let term: UnsafeBufferPointer<UInt8>
            if upper {
                term = foldASCII(start..<i)
            } else {
                // Already folded: the source bytes themselves.
                term = UnsafeBufferPointer(rebasing: bytes[start..<i])
            }
            sink.take(term, position: position, byteStart: start, byteEnd: i, kind: .word)
            position += 1
        } else {
            overlong(position: position, byteStart: start, byteEnd: i, into: &sink)
            position += 1
        }
        return i
    }

    /// A word longer than `maxTermBytes` at `position`: the index records `overlongTerm` there, a query leaves the
    /// position free (so phrases across it still line up), and word splitting (`words(in:)`) keeps the word.
    /// Rare, so kept out of line: inlined, it changed the code of the hot walk (+0.6% of the build's instructions).
    @inline(never)
    mutating func overlong<Sink: TokenSink>(position: UInt32, byteStart: Int, byteEnd: Int, into sink: inout Sink) {
        switch mode {
        case .index:
            guard recordsOverlong else { return }
            Analyzer.overlongBytes.withUnsafeBufferPointer {
                sink.take($0, position: position, byteStart: byteStart, byteEnd: byteEnd, kind: .overlong)
            }
        case .words:
            sink.take(UnsafeBufferPointer(rebasing: bytes[byteStart..<byteEnd]), position: position,
                      byteStart: byteStart, byteEnd: byteEnd, kind: .word)
        case .query:
            break
        }
    }

    /// The ASCII bytes of `range` (at most `maxTermBytes`) lowercased into `fold`.
    @inline(__always)
    func foldASCII(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        var k = 0
        let source = bytes.baseAddress! + range.lowerBound
        if range.count < 8, range.lowerBound + 8 <= bytes.count {
            // A short word (most capitalized ones): one word's worth, the bytes past it ignored.
            let word = UnsafeRawPointer(source).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(fold).storeBytes(of: ASCIIWord.lowercased(word), as: UInt64.self)
            return UnsafeBufferPointer(start: fold, count: range.count)
        }
        while k + 8 <= range.count {
            let word = UnsafeRawPointer(source + k).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(fold + k).storeBytes(of: ASCIIWord.lowercased(word), as: UInt64.self)
            k += 8
        }
        while k < range.count {
            let b = source[k]
            fold[k] = b &- 0x41 < 26 ? b | 0x20 : b
            k += 1
        }
        return UnsafeBufferPointer(start: fold, count: range.count)
    }

    /// `compound` for a compound of ASCII bytes only (`x11-common`, `GNUmake`, `e.g`), without its bookkeeping:
    /// the parts are byte ranges of the source and the whole is the source folded to lowercase. Emits what
    /// `compound` emits and returns its end; nil (nothing emitted) sends the caller to `compound`: a non-ASCII byte
    /// where the compound could go on, more than `maximumASCIIParts` parts, or more than `maxTermBytes` bytes.
    @inline(__always)
    mutating func asciiCompound<Sink: TokenSink>(from start: Int, into sink: inout Sink) -> Int? {
        let count = bytes.count
        var index = start, partStart = start, parts = 0
        var previous = CharacterClass.separator
        // Classes as `CharacterClass.ofASCII` gives them; the boundaries as `compound` finds them.
        while index < count {
            let b = bytes[index]
            if b >= 0x80 { return nil }
            let cls = CharacterClass.ofASCII(b)
            if cls == .lower || cls == .upper || cls == .digit {
                if index > partStart, cls == .upper {
                    var boundary = previous == .lower
                    // A non-ASCII byte next ends this path on the next step, whatever is decided here.
                    if !boundary, previous == .upper || previous == .digit, index + 1 < count {
                        boundary = bytes[index + 1] &- 0x61 < 26
                    }
                    if boundary {
                        guard parts < Self.maximumASCIIParts else { return nil }
                        partBounds[2 * parts] = partStart
                        partBounds[2 * parts + 1] = index
                        parts += 1
                        partStart = index
                    }
                }
                previous = cls
                index += 1
            } else if cls == .connector, index + 1 < count {
                let next = bytes[index + 1]
                if next >= 0x80 { return nil }
                guard CharacterClass.isASCIIAlphanumeric(next) else { break }
                guard parts < Self.maximumASCIIParts else { return nil }
                partBounds[2 * parts] = partStart
                partBounds[2 * parts + 1] = index
                parts += 1
                partStart = index + 1
                previous = .separator
                index += 1
            } else {
                break
            }
            // Longer than a whole can be: `compound` emits the parts alone.
            if index - start > Analyzer.maxTermBytes { return nil }
        }
        guard index > start, parts < Self.maximumASCIIParts else { return nil }
        partBounds[2 * parts] = partStart
        partBounds[2 * parts + 1] = index
        parts += 1
        _ = foldASCII(start..<index)
        // Every part holds at least one byte and fits (the whole does).
        let base = position
        for part in 0..<parts {
            let from = partBounds[2 * part], to = partBounds[2 * part + 1]
            sink.take(UnsafeBufferPointer(start: fold + (from - start), count: to - from), position: base + UInt32(part),
                      byteStart: from, byteEnd: to, kind: .word)
        }
        if mode == .index, parts > 1 {
            sink.take(UnsafeBufferPointer(start: fold, count: index - start), position: base, byteStart: start,
                      byteEnd: index, kind: .compound)
        }
        position = base + UInt32(parts)
        return index
    }

    /// Reads one compound (word characters joined by `.`, `_` or `-`), splits it into parts at connectors
    /// and camelCase boundaries, and emits the parts (and the whole when there are several parts).
    mutating func compound<Sink: TokenSink>(from start: Int, into sink: inout Sink) -> Int {
        scratch.whole.removeAll(keepingCapacity: true)
        scratch.parts.removeAll(keepingCapacity: true)
        var partFoldStart = 0
        var partByteStart = start
        var previous = CharacterClass.separator
        var index = start
        var folded: (UInt32, UInt32, UInt32) = (0, 0, 0)
        while index < bytes.count {
            let (cls, value, length) = classify(index)
            if cls.isWordCharacter {
                if index > partByteStart, cls == .upper {
                    var boundary = previous == .lower
                    // A capitalized word after capitals or digits starts a part too: HTML|Parser, Base64|Encoder.
                    if !boundary, previous == .upper || previous == .digit, index + length < bytes.count {
                        boundary = classify(index + length).cls == .lower
                    }
                    if boundary {
                        scratch.parts.append((partFoldStart, scratch.whole.count, partByteStart, index))
                        partFoldStart = scratch.whole.count
                        partByteStart = index
                    }
                }
                if value < 0x80 {
                    scratch.whole.append(cls == .upper ? UInt8(value) | 0x20 : UInt8(value))
                } else if cls != .format && !CharacterClass.isVariationSelector(value) {
                    // A variation selector only picks a glyph (a keycap's 1\u{FE0F}\u{20E3} is 1): in no term.
                    let count = Folding.foldScalar(value, options: .all, into: &folded)
                    if count > 0 { Self.appendUTF8(folded.0, to: &scratch.whole) }
                    if count > 1 { Self.appendUTF8(folded.1, to: &scratch.whole) }
                    if count > 2 { Self.appendUTF8(folded.2, to: &scratch.whole) }
                }
                if cls != .mark && cls != .format { previous = cls }
                index += length
            } else if cls == .connector, let next = joinedPart(after: index + length) {
                scratch.parts.append((partFoldStart, scratch.whole.count, partByteStart, index))
                // A full-width connector folds to its ASCII one (U+FF0D, U+FF0E, U+FF3F are U+FEE0 above it).
                scratch.whole.append(UInt8(value < 0x80 ? value : value - 0xFEE0))
                partFoldStart = scratch.whole.count
                partByteStart = next
                previous = .separator
                index = next
            } else {
                break
            }
        }
        scratch.parts.append((partFoldStart, scratch.whole.count, partByteStart, index))
        let base = position
        var emitted: UInt32 = 0
        scratch.whole.withUnsafeBufferPointer { whole in
            var overlongPart = false
            for part in scratch.parts where part.foldEnd > part.foldStart {
                if part.foldEnd - part.foldStart <= Analyzer.maxTermBytes {
                    sink.take(UnsafeBufferPointer(rebasing: whole[part.foldStart..<part.foldEnd]), position: base + emitted,
                              byteStart: part.byteStart, byteEnd: part.byteEnd, kind: .word)
                } else {
                    overlong(position: base + emitted, byteStart: part.byteStart, byteEnd: part.byteEnd, into: &sink)
                    overlongPart = true
                }
                emitted += 1
            }
            if mode == .index, emitted > 1 {
                if whole.count <= Analyzer.maxTermBytes {
                    sink.take(whole, position: base, byteStart: start, byteEnd: index, kind: .compound)
                } else if !overlongPart {
                    // A whole too long to keep, of short parts (`a_long_snake_case_slug…`): the stand-in takes its
                    // place, stacked on the first part, so patterns spanning its connectors still find it.
                    overlong(position: base, byteStart: start, byteEnd: index, into: &sink)
                }
            }
        }
        position = base + emitted
        return index
    }

    /// Where the part a connector joins starts: the word character at `index`, or after the combining marks there
    /// that folding removes (the connector joins the word in the fold, so it does in the text) and the format
    /// characters; nil when no word character (or a mark that stays) follows, and the connector ends the compound.
    func joinedPart(after index: Int) -> Int? {
        var index = index
        var folded: (UInt32, UInt32, UInt32) = (0, 0, 0)
        while index < bytes.count {
            let (cls, value, length) = classify(index)
            if cls != .format {
                guard cls == .mark else { return cls.isWordCharacter ? index : nil }
                guard Folding.foldScalar(value, options: .all, into: &folded) == 0 else { return nil }
            }
            index += length
        }
        return nil
    }

    /// Reads one emoji sequence (UTS #51) and emits it as one token: an emoji with its skin tones and tags (a tag
    /// sequence: 🏴 with England's), joined by zero-width joiners to the emoji after them, or two regional indicators
    /// (a flag). Its format characters and variation selectors are part of it but of no term, as
    /// `Analyzer.isFormatCharacter` has them, so "❤" finds "❤️". The term is the other scalars, folded (only Ⓜ
    /// changes: to ⓜ), with the joiners between its emoji and a tag sequence's tags (`Analyzer.tagSequenceTags`).
    @inline(never)
    mutating func emojiSequence<Sink: TokenSink>(from start: Int, into sink: inout Sink) -> Int {
        scratch.whole.removeAll(keepingCapacity: true)
        var index = start
        // Whether an emoji next joins the sequence (its first one, or one after a zero-width joiner), and whether a
        // regional indicator does (after the first of a flag's two).
        var joins = true, pairs = false
        // Whether a zero-width joiner was read since the last emoji: kept in the term before the next one, so the
        // term reads again as one token (👨\u{200D}👩; without it, 👨👩 is two), as a chosen suggestion is searched.
        var joiner = false
        // Whether tags may follow: after an emoji (its skin tones and U+FE0E/FE0F aside), a tag base.
        var base = false
        var folded: (UInt32, UInt32, UInt32) = (0, 0, 0)
        while index < bytes.count {
            let (cls, value, length) = classify(index)
            if base, CharacterClass.isTagSpec(value), let end = tagSequenceEnd(from: index) {
                // Its tags tell a subdivision flag from another (England's 🏴 from Scotland's): in the term, as read.
                scratch.whole.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                base = false
                index = end
                continue
            }
            if cls == .emoji, joins || pairs && CharacterClass.isRegionalIndicator(value) {
                if joiner { Self.appendUTF8(0x200D, to: &scratch.whole) }
                pairs = index == start && CharacterClass.isRegionalIndicator(value)
                joins = false
                joiner = false
                base = true
            } else if cls == .format || value &- 0xFE0E < 2 {
                base = base && value &- 0xFE0E < 2
                joins = joins || value == 0x200D
                joiner = joiner || value == 0x200D
                index += length
                continue
            } else if value &- 0x1F3FB >= 5 {
                break
            }
            // Folded as every term is, or a `t` pattern (folded) would miss it: Ⓜ case-folds to ⓜ.
            let count = Folding.foldScalar(value, options: .all, into: &folded)
            if count > 0 { Self.appendUTF8(folded.0, to: &scratch.whole) }
            if count > 1 { Self.appendUTF8(folded.1, to: &scratch.whole) }
            if count > 2 { Self.appendUTF8(folded.2, to: &scratch.whole) }
            index += length
        }
        if scratch.whole.count <= Analyzer.maxTermBytes {
            scratch.whole.withUnsafeBufferPointer {
                sink.take($0, position: position, byteStart: start, byteEnd: index, kind: .word)
            }
        } else {
            overlong(position: position, byteStart: start, byteEnd: index, into: &sink)
        }
        position += 1
        return index
    }

    /// Where the tag specs at `index` and their TAG CANCEL end, or nil when no cancel ends them (UTS #51 ED-14a).
    func tagSequenceEnd(from index: Int) -> Int? {
        var index = index
        while index < bytes.count {
            let (value, length) = decode(index)
            index += length
            if value == 0xE007F { return index }
            guard CharacterClass.isTagSpec(value) else { return nil }
        }
        return nil
    }

    /// Reads a run of CJK characters and emits unigrams and overlapping bigrams: of the source bytes, or of the
    /// run's canonical composition when it holds a scalar NFC changes (`normalizeCJKRun`).
    mutating func cjkRun<Sink: TokenSink>(from start: Int, into sink: inout Sink) -> Int {
        scratch.parts.removeAll(keepingCapacity: true)
        var index = start
        var normalizes = false
        while index < bytes.count {
            let (cls, value, length) = classify(index)
            if cls != .cjk {
                // A variation selector picks a glyph of the character before it: part of that character.
                guard CharacterClass.isVariationSelector(value) else { break }
                normalizes = true
            } else {
                normalizes = normalizes || CharacterClass.mayChangeInCJKNormalization(value)
                scratch.parts.append((index, index + length, index, index + length))
            }
            index += length
        }
        if normalizes {
            normalizeCJKRun(start..<index)
            let terms = scratch.whole
            terms.withUnsafeBufferPointer { emitCJK(from: $0, start: start, end: index, into: &sink) }
        } else {
            emitCJK(from: bytes, start: start, end: index, into: &sink)
        }
        return index
    }

    /// Replaces the parts of a CJK run with its characters' folded canonical compositions, kept in `scratch.whole`
    /// (decomposed Hangul, as macOS file names store it, kana with a combining voicing mark, compatibility
    /// ideographs, half-width katakana), without variation selectors (a glyph choice: 葛 with or without one is one word to search):
    /// equivalent texts get the same terms, and each part still spans whole characters of the source, where
    /// highlights fall. Rare, so kept out of line.
    @inline(never)
    mutating func normalizeCJKRun(_ run: Range<Int>) {
        scratch.whole.removeAll(keepingCapacity: true)
        scratch.parts.removeAll(keepingCapacity: true)
        var byteStart = run.lowerBound
        var folded: (UInt32, UInt32, UInt32) = (0, 0, 0)
        for character in String(decoding: UnsafeBufferPointer(rebasing: bytes[run]), as: UTF8.self) {
            let byteEnd = byteStart + character.utf8.count
            let foldStart = scratch.whole.count
            var scalars = String.UnicodeScalarView()
            for scalar in character.unicodeScalars where !CharacterClass.isVariationSelector(scalar.value) {
                // Folding changes only half-width katakana here (to full-width: `ｶﾞ` to `カ` U+3099, composed below).
                let count = Folding.foldScalar(scalar.value, options: .all, into: &folded)
                if count > 0, let s = Unicode.Scalar(folded.0) { scalars.append(s) }
                if count > 1, let s = Unicode.Scalar(folded.1) { scalars.append(s) }
                if count > 2, let s = Unicode.Scalar(folded.2) { scalars.append(s) }
            }
            scratch.whole.append(contentsOf: String(scalars).precomposedStringWithCanonicalMapping.utf8)
            if scratch.whole.count > foldStart {
                scratch.parts.append((foldStart, scratch.whole.count, byteStart, byteEnd))
            }
            byteStart = byteEnd
        }
    }

    /// Emits the unigrams and bigrams of the parts in `scratch.parts`, whose terms are the `fold` ranges of `terms`.
    mutating func emitCJK<Sink: TokenSink>(from terms: UnsafeBufferPointer<UInt8>, start: Int, end: Int,
                                           into sink: inout Sink) {
        let parts = scratch.parts
        let count = parts.count
        let base = position
        let slice = { (from: Int, to: Int) in UnsafeBufferPointer(rebasing: terms[from..<to]) }
        switch mode {
        case .words:
            if count > 0 {
                sink.take(slice(parts[0].foldStart, parts[count - 1].foldEnd), position: base, byteStart: start,
                          byteEnd: end, kind: .word)
            }
        case .query where count > 1:
            for k in 0..<(count - 1) {
                sink.take(slice(parts[k].foldStart, parts[k + 1].foldEnd), position: base + UInt32(k),
                          byteStart: parts[k].byteStart, byteEnd: parts[k + 1].byteEnd, kind: .cjkBigram)
            }
        default:
            for k in 0..<count {
                sink.take(slice(parts[k].foldStart, parts[k].foldEnd), position: base + UInt32(k),
                          byteStart: parts[k].byteStart, byteEnd: parts[k].byteEnd, kind: .cjkUnigram)
                if mode == .index, k + 1 < count {
                    sink.take(slice(parts[k].foldStart, parts[k + 1].foldEnd), position: base + UInt32(k),
                              byteStart: parts[k].byteStart, byteEnd: parts[k + 1].byteEnd, kind: .cjkBigram)
                }
            }
        }
        position = base + UInt32(mode == .words ? min(count, 1) : count)
    }
}
