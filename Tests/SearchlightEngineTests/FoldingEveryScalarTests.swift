import XCTest
@testable import SearchlightEngine

/// `Folding.foldScalar`, the one entry point the analyzer and the query layer fold through, gives for every Unicode
/// scalar (not only those the flat tables cover) what `FoldingDefinition` computes from Unicode's data, under each of
/// the three option sets: a scalar above the flat tables' range folds by the same rules as one below it.
final class FoldingEveryScalarTests: XCTestCase {
    func testEveryScalarFoldsAsTheDefinitionSays() {
        let defined = Dictionary(uniqueKeysWithValues: FoldingDefinition.exceptions.map { ($0.value, $0) })
        var mismatches: [String] = []
        var count = 0
        var scalarsAbove = Set<UInt32>()
        var out: (UInt32, UInt32, UInt32) = (0, 0, 0)
        for value in UInt32(0)...0x10FFFF where !(0xD800...0xDFFF).contains(value) {
            let same = FoldingTable.pack([value]), expected = defined[value]
            for (options, entry, name) in [(Folding.Options.caseInsensitive, expected?.case ?? same, "case"),
                                           (.diacriticInsensitive, expected?.diacritic ?? same, "diacritics"),
                                           (.all, expected?.both ?? same, "both")] {
                let n = Folding.foldScalar(value, options: options, into: &out)
                let actual = FoldingTable.pack(Array([out.0, out.1, out.2].prefix(n)))
                guard actual != entry else { continue }
                count += 1
                if value >= 0x2000 { scalarsAbove.insert(value) }
                if mismatches.count < 40 {
                    mismatches.append("U+\(String(value, radix: 16, uppercase: true)) \(name): \(Self.describe(actual)) "
                                      + "instead of \(Self.describe(entry))")
                }
            }
        }
        XCTAssertEqual(count, 0, "\(scalarsAbove.count) scalars from U+2000 up disagree; first disagreements:\n"
                       + mismatches.joined(separator: "\n"))
    }

    /// A fold to three scalars (ﬃ → ffi, ΐ → ΐ) keeps its third scalar: the count's low bit (bit 62) is not part
    /// of it. Re-packing the output, as the test above does, sets that bit again and cannot tell.
    func testThreeScalarFoldsKeepTheirLastScalar() {
        XCTAssertEqual(Folding.fold("\u{FB03}", options: .caseInsensitive), "ffi")
        XCTAssertEqual(Folding.fold("o\u{FB03}ce", options: .all), "office")
        var out: (UInt32, UInt32, UInt32) = (0, 0, 0)
        for exception in FoldingDefinition.exceptions {
            guard let scalar = Unicode.Scalar(exception.value) else { continue }
            let expected = FoldingDefinition.caseFold(scalar)
            let n = Folding.foldScalar(exception.value, options: .caseInsensitive, into: &out)
            XCTAssertEqual(Array([out.0, out.1, out.2].prefix(n)), expected, "U+\(String(exception.value, radix: 16))")
        }
    }

    /// A packed entry (`FoldingTable.pack`) as its scalars, e.g. `[U+61 U+73]`.
    static func describe(_ packed: UInt64) -> String {
        let count = Int(packed >> 62)
        let scalars = (0..<count).map { "U+" + String((packed >> (UInt64($0) * 21)) & 0x1F_FFFF, radix: 16, uppercase: true) }
        return "[" + scalars.joined(separator: " ") + "]"
    }
}
