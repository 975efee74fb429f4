import Foundation

/// Precomputed per-scalar folding maps (case, diacritics, both) for the scalars below U+2000 plus the
/// full-width forms, built once at first use so the analyzer never calls `lowercased()` per token.
///
/// An entry packs up to three output scalars (21 bits each) and a count in the top two bits; a count of
/// zero means the scalar folds to nothing (a combining mark under diacritic folding).
final class FoldingTable: Sendable {
    /// Scalars below this bound are looked up in the flat tables; above it only ranges are special-cased.
    static let tableLimit: UInt32 = 0x2000

    let caseMap: [UInt64]
    let diacriticMap: [UInt64]
    let bothMap: [UInt64]

    static let shared = FoldingTable()

    private init() {
        // Every scalar folds to itself but the listed ones (`FoldingTable+Exceptions.swift`, generated from the
        // folds computed directly, `computedEntries`): computing them at first use cost each process about 65 M
        // instructions of Unicode property and Foundation decomposition calls.
        var caseMap = (0..<Self.tableLimit).map { Self.pack([$0]) }
        var diacriticMap = caseMap
        var bothMap = caseMap
        let exceptions = Self.exceptions
        var k = 0
        while k + 3 < exceptions.count {
            let value = Int(exceptions[k])
            if value < caseMap.count {
                caseMap[value] = exceptions[k + 1]
                diacriticMap[value] = exceptions[k + 2]
                bothMap[value] = exceptions[k + 3]
            }
            k += 4
        }
        self.caseMap = caseMap
        self.diacriticMap = diacriticMap
        self.bothMap = bothMap
    }

    /// The entries of `value` (case, diacritic and both folds, packed) computed from Unicode's properties and
    /// canonical decompositions: what the table holds, and what `exceptions` lists where it is not the scalar.
    static func computedEntries(_ value: UInt32) -> (case: UInt64, diacritic: UInt64, both: UInt64) {
        guard let scalar = Unicode.Scalar(value) else { return (pack([value]), pack([value]), pack([value])) }
        let folded = caseFold(scalar)
        let withoutMarks = diacriticFold([scalar])
        // Most scalars are their own case fold: both folds are then the diacritic fold.
        let both = folded == [value] ? withoutMarks : diacriticFold(folded.compactMap(Unicode.Scalar.init))
        return (pack(folded), pack(withoutMarks), pack(both))
    }

    static func pack(_ scalars: [UInt32]) -> UInt64 {
        let count = min(scalars.count, 3)
        var packed = UInt64(count) << 62
        for index in 0..<count { packed |= UInt64(scalars[index]) << (UInt64(index) * 21) }
        return packed
    }

    /// Letters that do not decompose canonically but that every search engine folds (ASCII folding).
    static let specialLetters: [UInt32: String] = [
        0xDF: "ss", 0x1E9E: "SS", 0xF8: "o", 0xD8: "O", 0x142: "l", 0x141: "L", 0xE6: "ae", 0xC6: "AE",
        0x153: "oe", 0x152: "OE", 0x111: "d", 0x110: "D", 0xF0: "d", 0xD0: "D", 0xFE: "th", 0xDE: "TH",
        0x131: "i", 0x127: "h", 0x126: "H", 0x167: "t", 0x166: "T", 0x180: "b", 0x1B6: "z", 0x1B5: "Z",
        0x138: "q", 0x149: "n", 0x17F: "s",
    ]

    static func isCombiningMark(_ value: UInt32) -> Bool {
        (0x300...0x36F).contains(value) || (0x1AB0...0x1AFF).contains(value)
            || (0x1DC0...0x1DFF).contains(value) || (0x20D0...0x20FF).contains(value)
            || (0xFE20...0xFE2F).contains(value)
    }

    /// Full Unicode lowercase mapping, plus ß → ss (case folding, not just lowercasing).
    static func caseFold(_ scalar: Unicode.Scalar) -> [UInt32] {
        if scalar.value == 0xDF || scalar.value == 0x1E9E { return [0x73, 0x73] }
        if scalar.value == 0x3C2 { return [0x3C3] }  // final sigma folds to sigma
        return scalar.properties.lowercaseMapping.unicodeScalars.map(\.value)
    }

    /// Canonical decomposition with combining marks removed, plus the special letters above.
    static func diacriticFold(_ scalars: [Unicode.Scalar]) -> [UInt32] {
        var out: [UInt32] = []
        for scalar in scalars {
            if let special = specialLetters[scalar.value] {
                out.append(contentsOf: special.unicodeScalars.map(\.value))
                continue
            }
            if isCombiningMark(scalar.value) { continue }
            if scalar.value < 0x80 { out.append(scalar.value); continue }
            let decomposed = String(Character(scalar)).decomposedStringWithCanonicalMapping
            for part in decomposed.unicodeScalars where !isCombiningMark(part.value) {
                out.append(part.value)
            }
        }
        return out
    }
}
