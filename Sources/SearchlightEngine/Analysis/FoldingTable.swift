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
        var caseMap = [UInt64](repeating: 0, count: Int(Self.tableLimit))
        var diacriticMap = caseMap
        var bothMap = caseMap
        for value in 0..<Self.tableLimit {
            guard let scalar = Unicode.Scalar(value) else {
                caseMap[Int(value)] = Self.pack([value])
                diacriticMap[Int(value)] = Self.pack([value])
                bothMap[Int(value)] = Self.pack([value])
                continue
            }
            let folded = Self.caseFold(scalar)
            caseMap[Int(value)] = Self.pack(folded)
            let withoutMarks = Self.diacriticFold([scalar])
            diacriticMap[Int(value)] = Self.pack(withoutMarks)
            // Most scalars are their own case fold: both folds are then the diacritic fold (a Foundation
            // decomposition fewer per scalar, a third of building the table).
            bothMap[Int(value)] = folded == [value] ? Self.pack(withoutMarks)
                : Self.pack(Self.diacriticFold(folded.compactMap(Unicode.Scalar.init)))
        }
        self.caseMap = caseMap
        self.diacriticMap = diacriticMap
        self.bothMap = bothMap
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
