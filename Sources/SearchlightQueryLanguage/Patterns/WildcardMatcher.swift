/// A compiled `StringPattern` that tests whole values, linear in the length of the text.
///
/// Semantics: `*` matches zero or more Unicode scalars, `?` exactly one Unicode scalar, and literal text
/// must match byte for byte (UTF-8). There is no folding here: the caller folds (and normalizes, e.g. NFC)
/// both the pattern literals (`StringPattern.mapLiterals`) and the values with the engine's one folding
/// table, then asks this matcher. Scalars were chosen over grapheme clusters so matching stays a byte scan;
/// after folding, combining marks are gone, so the two rarely differ.
///
/// Algorithm: the pattern is split at `*` into segments of fixed scalar length (literals and `?`). The first
/// segment is anchored at the start and the last at the end (unless the pattern begins or ends with `*`);
/// the middle ones are found greedily leftmost, each search starting where the previous match ended. That is
/// correct because a leftmost match of a fixed-length segment also ends leftmost, leaving the most room for
/// the rest, and it never backtracks: the work is O(text length × pattern length), so `*a*a*a*a*b` over
/// 100 KB is a few scans, never exponential.
public struct WildcardMatcher: Sendable {
    /// A piece of a star-free segment.
    enum Piece: Sendable {
        case bytes([UInt8])
        case oneScalar
    }

    /// Star-free runs of the pattern, in order.
    let segments: [[Piece]]
    /// Whether the pattern contains `*` at all (without one the single segment must span the whole text).
    let hasStar: Bool
    /// First segment pinned to the start of the text.
    let anchoredStart: Bool
    /// Last segment pinned to the end of the text.
    let anchoredEnd: Bool

    /// The pattern this matcher was compiled from.
    public let pattern: StringPattern
    /// Whether the pattern has a `?`.
    public let hasAnyOne: Bool

    public init(_ pattern: StringPattern) {
        self.pattern = pattern
        var segments: [[Piece]] = []
        var current: [Piece] = []
        var hasStar = false
        for segment in pattern.segments {
            switch segment {
            case .literal(let text): current.append(.bytes(Array(text.utf8)))
            case .anyOne: current.append(.oneScalar)
            case .anyRun:
                hasStar = true
                segments.append(current)
                current = []
            }
        }
        segments.append(current)
        // With stars, an empty first/last segment means the pattern starts/ends with `*` (floating); empty
        // middle segments cannot occur because normalization collapses `**`.
        self.hasStar = hasStar
        self.anchoredStart = !(segments.first?.isEmpty ?? true)
        self.anchoredEnd = !(segments.last?.isEmpty ?? true)
        self.segments = segments.filter { !$0.isEmpty }
        hasAnyOne = pattern.segments.contains(.anyOne)
    }

    /// Whether the whole of `text` matches the pattern.
    public func matches(_ text: String) -> Bool {
        var steps = 0
        if let result = text.utf8.withContiguousStorageIfAvailable({ matches(utf8: $0, steps: &steps) }) {
            return result
        }
        return Array(text.utf8).withUnsafeBufferPointer { matches(utf8: $0, steps: &steps) }
    }

    /// Whether the whole of `text` matches the pattern.
    public func matches(_ text: Substring) -> Bool {
        var steps = 0
        if let result = text.utf8.withContiguousStorageIfAvailable({ matches(utf8: $0, steps: &steps) }) {
            return result
        }
        return Array(text.utf8).withUnsafeBufferPointer { matches(utf8: $0, steps: &steps) }
    }

    /// Whether the UTF-8 bytes `text` match the pattern (for callers that keep values as bytes).
    public func matches(utf8 text: UnsafeBufferPointer<UInt8>) -> Bool {
        var steps = 0
        return matches(utf8: text, steps: &steps)
    }

    /// Whether the whole of `text` matches the pattern with `?` matching up to the next of `boundaries` (byte
    /// offsets into `text`, ascending) rather than one scalar: for a folded text whose units are the folds of the
    /// source's characters (ß → ss), so `?` is one source character.
    public func matches(_ text: String, boundaries: [Int]) -> Bool {
        var isBoundary = [Bool](repeating: false, count: text.utf8.count + 1)
        for offset in boundaries where offset <= text.utf8.count { isBoundary[offset] = true }
        var steps = 0
        return Array(text.utf8).withUnsafeBufferPointer { matches(utf8: $0, steps: &steps, boundaries: isBoundary) }
    }

    /// The matcher proper; `steps` counts byte comparisons and scalar steps so tests can check linearity
    /// without timing anything. `boundaries`, when given, flags the offsets `?` steps to (`matches(_:boundaries:)`).
    package func matches(utf8 text: UnsafeBufferPointer<UInt8>, steps: inout Int,
                         boundaries: [Bool]? = nil) -> Bool {
        let count = text.count
        if !hasStar {
            // No wildcard run: the single (possibly empty) segment must cover the text exactly.
            guard let only = segments.first else { return count == 0 }
            return match(only, in: text, at: 0, steps: &steps, boundaries: boundaries) == count
        }
        var position = 0
        var middle = segments[...]
        if anchoredStart, let first = middle.first {
            guard let end = match(first, in: text, at: 0, steps: &steps, boundaries: boundaries) else { return false }
            position = end
            middle = middle.dropFirst()
        }
        var last: [Piece]? = nil
        if anchoredEnd, let tail = middle.last {
            last = tail
            middle = middle.dropLast()
        }
        for segment in middle {
            guard let end = find(segment, in: text, from: position, steps: &steps, boundaries: boundaries) else {
                return false
            }
            position = end
        }
        if let last {
            return matchBackwards(last, in: text, endingAt: count, notBefore: position, steps: &steps,
                                  boundaries: boundaries)
        }
        return true
    }

    /// Matches `segment` starting exactly at `start`; returns the end offset or nil.
    private func match(_ segment: [Piece], in text: UnsafeBufferPointer<UInt8>, at start: Int,
                       steps: inout Int, boundaries: [Bool]?) -> Int? {
        var position = start
        for piece in segment {
            switch piece {
            case .bytes(let bytes):
                guard text.count - position >= bytes.count else { return nil }
                for (i, byte) in bytes.enumerated() {
                    steps += 1
                    if text[position + i] != byte { return nil }
                }
                position += bytes.count
            case .oneScalar:
                guard position < text.count else { return nil }
                steps += 1
                position = Self.nextScalar(in: text, after: position)
                if let boundaries {
                    while position < text.count, !boundaries[position] {
                        position = Self.nextScalar(in: text, after: position)
                    }
                }
            }
        }
        return position
    }

    /// Finds the leftmost match of `segment` at or after `start`; returns its end offset or nil.
    private func find(_ segment: [Piece], in text: UnsafeBufferPointer<UInt8>, from start: Int,
                      steps: inout Int, boundaries: [Bool]?) -> Int? {
        var candidate = start
        if case .bytes(let bytes)? = segment.first, let firstByte = bytes.first {
            // A literal start: jump between occurrences of its first byte (a UTF-8 lead byte, so every hit is
            // on a scalar boundary).
            while candidate < text.count {
                steps += 1
                if text[candidate] == firstByte, let end = match(segment, in: text, at: candidate, steps: &steps,
                                                                  boundaries: boundaries) {
                    return end
                }
                candidate += 1
            }
            return nil
        }
        while candidate < text.count {
            if let end = match(segment, in: text, at: candidate, steps: &steps, boundaries: boundaries) {
                return end
            }
            steps += 1
            candidate = Self.nextScalar(in: text, after: candidate)
        }
        return nil
    }

    /// Matches `segment` so that it ends exactly at `end` and starts no earlier than `floor`.
    private func matchBackwards(_ segment: [Piece], in text: UnsafeBufferPointer<UInt8>, endingAt end: Int,
                                notBefore floor: Int, steps: inout Int, boundaries: [Bool]?) -> Bool {
        var position = end
        for piece in segment.reversed() {
            switch piece {
            case .bytes(let bytes):
                guard position - floor >= bytes.count else { return false }
                position -= bytes.count
                for (i, byte) in bytes.enumerated() {
                    steps += 1
                    if text[position + i] != byte { return false }
                }
            case .oneScalar:
                guard position > floor else { return false }
                steps += 1
                position -= 1
                while position > floor, text[position] & 0xC0 == 0x80 || boundaries?[position] == false {
                    position -= 1
                }
            }
        }
        return true
    }

    /// The offset of the scalar after the one starting at `position` (tolerates malformed UTF-8).
    private static func nextScalar(in text: UnsafeBufferPointer<UInt8>, after position: Int) -> Int {
        var next = position + 1
        while next < text.count, text[next] & 0xC0 == 0x80 { next += 1 }
        return next
    }
}
