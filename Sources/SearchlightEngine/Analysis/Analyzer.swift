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

    /// Parts or wholes longer than this many bytes are dropped (binary junk, base64 blobs).
    public static let maxTermBytes = 128

    /// Whether plain ASCII words skip the compound splitter (always on; off only to test that both paths
    /// emit the same tokens).
    let asciiFastPath: Bool

    public init() { asciiFastPath = true }

    init(asciiFastPath: Bool) { self.asciiFastPath = asciiFastPath }

    /// Tokenizes `text`; positions start at zero.
    public func tokens(_ text: String, mode: Mode = .index) -> [Token] {
        var buffer = TokenBuffer()
        _ = analyze(text, mode: mode, firstPosition: 0, into: &buffer)
        return buffer.records.map {
            Token(term: buffer.term($0), position: Int($0.position),
                  byteRange: Int($0.byteStart)..<Int($0.byteEnd), kind: $0.kind)
        }
    }

    /// Splits text into words the way the index does (identifier parts, camelCase boundaries, CJK runs),
    /// returning the original, unfolded text of each word.
    public func words(in text: String) -> [String] {
        var buffer = TokenBuffer()
        _ = analyze(text, mode: .words, firstPosition: 0, into: &buffer)
        let utf8 = Array(text.utf8)
        return buffer.records.map { String(decoding: utf8[Int($0.byteStart)..<Int($0.byteEnd)], as: UTF8.self) }
    }

    /// Appends the tokens of `text` to `buffer`, positions starting at `firstPosition`; returns the next
    /// free position.
    func analyze(_ text: String, mode: Mode, firstPosition: UInt32, into buffer: inout TokenBuffer) -> UInt32 {
        var text = text
        return text.withUTF8 { bytes in
            var state = Walker(bytes: bytes, mode: mode, position: firstPosition, fastPath: asciiFastPath)
            swap(&state.whole, &buffer.scratchWhole)
            swap(&state.parts, &buffer.scratchParts)
            state.run(into: &buffer)
            swap(&state.whole, &buffer.scratchWhole)
            swap(&state.parts, &buffer.scratchParts)
            return state.position
        }
    }
}

/// One pass over a UTF-8 buffer; keeps its scratch state on the stack.
private struct Walker {
    let bytes: UnsafeBufferPointer<UInt8>
    let mode: Analyzer.Mode
    let fastPath: Bool
    var position: UInt32
    /// Folded bytes of the current compound (parts and connectors).
    var whole: [UInt8] = []
    /// Parts of the current compound: folded range in `whole`, source byte range.
    var parts: [(foldStart: Int, foldEnd: Int, byteStart: Int, byteEnd: Int)] = []

    init(bytes: UnsafeBufferPointer<UInt8>, mode: Analyzer.Mode, position: UInt32, fastPath: Bool) {
        self.bytes = bytes
        self.mode = mode
        self.position = position
        self.fastPath = fastPath
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
        return (CharacterClass.classify(value), value, length)
    }

    mutating func run(into buffer: inout TokenBuffer) {
        var index = 0
        while index < bytes.count {
            let (cls, _, length) = classify(index)
            switch cls {
            case .separator, .connector, .mark:
                index += length
            case .cjk:
                index = cjkRun(from: index, into: &buffer)
            default:
                if fastPath, let end = asciiWord(from: index, into: &buffer) {
                    index = end
                } else {
                    index = compound(from: index, into: &buffer)
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
    mutating func asciiWord(from start: Int, into buffer: inout TokenBuffer) -> Int? {
        let count = bytes.count
        var i = start
        var upperAfterFirst = false, lower = false, upper = false
        while i < count {
            let b = bytes[i]
            if b &- 0x61 < 26 {
                lower = true
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
                if next >= 0x80 || next &- 0x61 < 26 || next &- 0x41 < 26 || next &- 0x30 < 10 { return nil }
            }
        }
        let length = i - start
        if length <= Analyzer.maxTermBytes {
            let termStart = buffer.bytes.count
            buffer.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
            if upper {
                buffer.bytes.withUnsafeMutableBufferPointer { out in
                    for k in termStart..<(termStart + length) where out[k] &- 0x41 < 26 { out[k] |= 0x20 }
                }
            }
            buffer.records.append(.init(termStart: UInt32(termStart), termLength: UInt32(length), position: position,
                                        byteStart: UInt32(start), byteEnd: UInt32(i), kind: .word))
            position += 1
        }
        return i
    }

    /// Reads one compound (word characters joined by `.`, `_` or `-`), splits it into parts at connectors
    /// and camelCase boundaries, and emits the parts (and the whole when there are several parts).
    mutating func compound(from start: Int, into buffer: inout TokenBuffer) -> Int {
        whole.removeAll(keepingCapacity: true)
        parts.removeAll(keepingCapacity: true)
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
                    if !boundary, previous == .upper, index + length < bytes.count {
                        boundary = classify(index + length).cls == .lower
                    }
                    if boundary {
                        parts.append((partFoldStart, whole.count, partByteStart, index))
                        partFoldStart = whole.count
                        partByteStart = index
                    }
                }
                if value < 0x80 {
                    whole.append(cls == .upper ? UInt8(value) | 0x20 : UInt8(value))
                } else {
                    let count = Folding.foldScalar(value, options: .all, into: &folded)
                    if count > 0 { Self.appendUTF8(folded.0, to: &whole) }
                    if count > 1 { Self.appendUTF8(folded.1, to: &whole) }
                    if count > 2 { Self.appendUTF8(folded.2, to: &whole) }
                }
                if cls != .mark { previous = cls }
                index += length
            } else if cls == .connector, index + 1 < bytes.count, classify(index + 1).cls.isWordCharacter,
                      classify(index + 1).cls != .mark {
                parts.append((partFoldStart, whole.count, partByteStart, index))
                whole.append(UInt8(value))
                partFoldStart = whole.count
                partByteStart = index + 1
                previous = .separator
                index += 1
            } else {
                break
            }
        }
        parts.append((partFoldStart, whole.count, partByteStart, index))
        let base = position
        var emitted: UInt32 = 0
        for part in parts where part.foldEnd > part.foldStart && part.foldEnd - part.foldStart <= Analyzer.maxTermBytes {
            emit(whole[part.foldStart..<part.foldEnd], position: base + emitted,
                 byteStart: part.byteStart, byteEnd: part.byteEnd, kind: .word, into: &buffer)
            emitted += 1
        }
        if mode == .index, emitted > 1, whole.count <= Analyzer.maxTermBytes {
            emit(whole[...], position: base, byteStart: start, byteEnd: index, kind: .compound, into: &buffer)
        }
        position = base + emitted
        return index
    }

    @inline(__always)
    func emit(_ term: ArraySlice<UInt8>, position: UInt32, byteStart: Int, byteEnd: Int, kind: TokenKind,
              into buffer: inout TokenBuffer) {
        let termStart = UInt32(buffer.bytes.count)
        buffer.bytes.append(contentsOf: term)
        buffer.records.append(.init(termStart: termStart, termLength: UInt32(term.count), position: position,
                                    byteStart: UInt32(byteStart), byteEnd: UInt32(byteEnd), kind: kind))
    }

    /// Reads a run of CJK characters and emits unigrams and overlapping bigrams.
    mutating func cjkRun(from start: Int, into buffer: inout TokenBuffer) -> Int {
        parts.removeAll(keepingCapacity: true)
        var index = start
        while index < bytes.count {
            let (cls, _, length) = classify(index)
            guard cls == .cjk else { break }
            parts.append((0, 0, index, index + length))
            index += length
        }
        let count = parts.count
        let base = position
        let bytes = self.bytes
        let slice = { (from: Int, to: Int) in bytes[from..<to] }
        switch mode {
        case .words:
            emitRaw(slice(start, index), position: base, byteStart: start, byteEnd: index, kind: .word, into: &buffer)
        case .query where count > 1:
            for k in 0..<(count - 1) {
                emitRaw(slice(parts[k].byteStart, parts[k + 1].byteEnd), position: base + UInt32(k),
                        byteStart: parts[k].byteStart, byteEnd: parts[k + 1].byteEnd, kind: .cjkBigram, into: &buffer)
            }
        default:
            for k in 0..<count {
                emitRaw(slice(parts[k].byteStart, parts[k].byteEnd), position: base + UInt32(k),
                        byteStart: parts[k].byteStart, byteEnd: parts[k].byteEnd, kind: .cjkUnigram, into: &buffer)
                if mode == .index, k + 1 < count {
                    emitRaw(slice(parts[k].byteStart, parts[k + 1].byteEnd), position: base + UInt32(k),
                            byteStart: parts[k].byteStart, byteEnd: parts[k + 1].byteEnd, kind: .cjkBigram,
                            into: &buffer)
                }
            }
        }
        position = base + UInt32(mode == .words ? 1 : count)
        return index
    }

    @inline(__always)
    func emitRaw(_ term: Slice<UnsafeBufferPointer<UInt8>>, position: UInt32, byteStart: Int, byteEnd: Int,
                 kind: TokenKind, into buffer: inout TokenBuffer) {
        let termStart = UInt32(buffer.bytes.count)
        buffer.bytes.append(contentsOf: term)
        buffer.records.append(.init(termStart: termStart, termLength: UInt32(term.count), position: position,
                                    byteStart: UInt32(byteStart), byteEnd: UInt32(byteEnd), kind: kind))
    }
}
