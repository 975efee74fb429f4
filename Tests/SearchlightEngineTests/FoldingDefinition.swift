import Foundation
@testable import SearchlightEngine

/// What the folding table holds, computed from Unicode's data: the definition `FoldingTableTests` checks every entry
/// of the generated `FoldingTable.exceptions` against, and regenerates them from.
enum FoldingDefinition {
    /// Letters that do not decompose canonically but that every search engine folds (ASCII folding).
    static let specialLetters: [UInt32: String] = [
        0xDF: "ss", 0x1E9E: "SS", 0xF8: "o", 0xD8: "O", 0x142: "l", 0x141: "L", 0xE6: "ae", 0xC6: "AE",
        0x153: "oe", 0x152: "OE", 0x111: "d", 0x110: "D", 0xF0: "d", 0xD0: "D", 0xFE: "th", 0xDE: "TH",
        0x131: "i", 0x127: "h", 0x126: "H", 0x167: "t", 0x166: "T", 0x180: "b", 0x1B6: "z", 0x1B5: "Z",
        0x138: "q", 0x149: "n", 0x17F: "s",
    ]

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
            if FoldingTable.isCombiningMark(scalar.value) { continue }
            if scalar.value < 0x80 { out.append(scalar.value); continue }
            let decomposed = String(Character(scalar)).decomposedStringWithCanonicalMapping
            for part in decomposed.unicodeScalars where !FoldingTable.isCombiningMark(part.value) {
                out.append(part.value)
            }
        }
        return out
    }

    /// The table's entries for `value`: its case fold, its diacritic fold and the diacritic fold of its case fold,
    /// packed (`FoldingTable.pack`).
    static func entries(_ value: UInt32) -> (case: UInt64, diacritic: UInt64, both: UInt64) {
        let same = FoldingTable.pack([value])
        guard let scalar = Unicode.Scalar(value) else { return (same, same, same) }
        let folded = caseFold(scalar)
        let withoutMarks = diacriticFold([scalar])
        let both = folded == [value] ? withoutMarks : diacriticFold(folded.compactMap(Unicode.Scalar.init))
        return (FoldingTable.pack(folded), FoldingTable.pack(withoutMarks), FoldingTable.pack(both))
    }
}
