import XCTest
@testable import SearchlightEngine

/// The byte-wise paths for ASCII query text (folding, a prefix's trimming, a prefix query's words) give exactly
/// what the scalar- and character-wise paths give, on seeded random mixes of the characters that decide them.
final class QueryTextFastPathTests: XCTestCase {
    /// Capitals, word characters, separators, punctuation, a carriage return, and a few non-ASCII characters
    /// (which must leave the fast paths).
    /// The neighbours of A–Z ("@", "[", "`", "{") and other control characters (vertical tab, form feed, NUL,
    /// DEL) are there so that an off-by-one in a byte range shows.
    static let alphabet: [String] = ["a", "Z", "Q", "m", "0", "9", "_", "-", ".", "*", "'", " ", " ", "\t", "\n",
                                     "\r", "\r\n", "é", "ß", "中", "\u{301}", "Ａ", "@", "é", "[", "`", "{",
                                     "\u{0B}", "\u{0C}", "\0", "\u{7F}", "A", "z"]

    /// Mostly short texts (small strings), one in eight up to 60 characters (heap strings).
    func randomText(_ random: inout SeededRandom) -> String {
        let length = Int(random.next() % (random.next() % 8 == 0 ? 60 : 12))
        return (0..<length).map { _ in Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))] }.joined()
    }

    func testASCIIPathsAgreeWithGeneralPaths() {
        var random = SeededRandom(seed: 0x5EA5_CA11)
        var asciiCases = 0
        for _ in 0..<20_000 {
            let text = randomText(&random)
            let ascii = text.utf8.allSatisfy { $0 < 0x80 }
            if ascii { asciiCases += 1 }
            for options: Folding.Options in [.all, .caseInsensitive, .diacriticInsensitive] {
                XCTAssertEqual(Folding.fold(text, options: options), Folding.foldScalars(text, options: options),
                               "fold \(text.debugDescription) \(options.rawValue)")
                XCTAssertEqual(Folding.foldASCII(text, options: options) == nil, !ascii, text.debugDescription)
            }
            XCTAssertEqual(QueryPlanner.foldedPrefix(text), QueryPlanner.foldedPrefixByScalars(text), text.debugDescription)
            let fast = QueryPlanner.prefixWords(text), general = QueryPlanner.prefixWordsByCharacters(text)
            XCTAssertEqual(fast?.prefix, general?.prefix, text.debugDescription)
            XCTAssertEqual(fast?.earlier, general?.earlier, text.debugDescription)
            XCTAssertEqual(QueryPlanner.asciiPrefixWords(text) == nil, !ascii || text.utf8.contains(0x0D), text.debugDescription)
        }
        XCTAssertGreaterThan(asciiCases, 1_000, "the fast paths were exercised")
    }

    func testASCIIExamples() {
        XCTAssertEqual(QueryPlanner.foldedPrefix("  Web-*"), "web")
        XCTAssertEqual(QueryPlanner.prefixWords("Open Web*")?.prefix, "web")
        XCTAssertEqual(QueryPlanner.prefixWords("Open Web*")?.earlier, ["Open"])
        XCTAssertEqual(QueryPlanner.prefixWords("alpha -")?.prefix, "alpha")
        XCTAssertNil(QueryPlanner.prefixWords(" - * "))
        XCTAssertEqual(Folding.fold("MiXeD_09"), "mixed_09")
    }
}
