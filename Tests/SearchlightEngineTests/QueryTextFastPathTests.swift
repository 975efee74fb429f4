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

    /// A plain word is planned without the analyzer: only where the analyzer would make it one query token equal to
    /// itself. Random texts over the alphabet above, and over lowercase letters with a few digits and capitals
    /// (most of which are plain words), plus the length limit.
    func testPlainWordsAreExactlyTheAnalyzersSingleTokens() {
        var random = SeededRandom(seed: 0x9A1E_3011)
        let letters = (0..<26).map { String(UnicodeScalar(UInt8(0x61 + $0))) } + ["0", "7", "A", "Z", "_", "é"]
        var plain = 0
        for round in 0..<20_000 {
            let text = round % 2 == 0 ? randomText(&random)
                : (0..<Int(1 + random.next() % 12)).map { _ in letters[Int(random.next() % (random.next() % 4 == 0 ? 32 : 26))] }.joined()
            let tokens = Analyzer().tokens(text, mode: .query)
            let single = tokens.count == 1 && tokens[0].term == text && tokens[0].position == 0
            if let word = QueryPlanner.plainWord(text) {
                plain += 1
                XCTAssertTrue(single, "\(text.debugDescription) is not one token of itself: \(tokens)")
                XCTAssertEqual(word, Array(text.utf8))
            } else if single {
                // Single tokens the fast path leaves to the analyzer must hold something besides a-z.
                XCTAssertFalse(text.utf8.allSatisfy { $0 >= 0x61 && $0 <= 0x7A }, text.debugDescription)
            }
        }
        XCTAssertGreaterThan(plain, 5_000, "the fast path was exercised")
        let longest = String(repeating: "q", count: Analyzer.maxTermBytes)
        XCTAssertEqual(QueryPlanner.plainWord(longest)?.count, Analyzer.maxTermBytes)
        XCTAssertEqual(Analyzer().tokens(longest, mode: .query).map(\.term), [longest])
        XCTAssertNil(QueryPlanner.plainWord(longest + "q"), "longer than a term can be: the analyzer decides")
        XCTAssertNil(QueryPlanner.plainWord(""))
        XCTAssertNil(QueryPlanner.plainWord("x11"), "digits: the analyzer decides")
    }

    /// A plain phrase (plain words separated by single spaces) is planned without the analyzer: only where the
    /// analyzer would make exactly those words its query tokens, at consecutive positions from 0. Random texts over the
    /// alphabet above and over lowercase letters with spaces (and a few digits, capitals and other characters), plus
    /// the length limit of each word.
    func testPlainPhrasesAreExactlyTheAnalyzersTokens() {
        var random = SeededRandom(seed: 0x9A1E_3012)
        let letters = (0..<26).map { String(UnicodeScalar(UInt8(0x61 + $0))) } + [" ", " ", " ", "0", "A", "-", "'", "é"]
        var plain = 0
        for round in 0..<20_000 {
            let text = round % 4 == 0 ? randomText(&random)
                : (0..<Int(1 + random.next() % 24)).map { _ in letters[Int(random.next() % (random.next() % 4 == 0 ? 34 : 29))] }.joined()
            let tokens = Analyzer().tokens(text, mode: .query)
            if let words = QueryPlanner.plainWords(text) {
                plain += 1
                XCTAssertEqual(words.map { String(decoding: $0, as: UTF8.self) }, tokens.map(\.term), text.debugDescription)
                XCTAssertEqual(tokens.map(\.position), Array(0..<tokens.count), text.debugDescription)
                XCTAssertGreaterThan(words.count, 1, text.debugDescription)
            } else if tokens.count > 1, tokens.allSatisfy({ $0.term.utf8.allSatisfy { $0 >= 0x61 && $0 <= 0x7A } }) {
                // Phrases of plain words left to the analyzer must hold something besides their words and single spaces.
                XCTAssertNotEqual(tokens.map(\.term).joined(separator: " "), text, text.debugDescription)
            }
        }
        XCTAssertGreaterThan(plain, 3_000, "the fast path was exercised")
        let longest = String(repeating: "q", count: Analyzer.maxTermBytes)
        XCTAssertEqual(QueryPlanner.plainWords("a " + longest)?.last?.count, Analyzer.maxTermBytes)
        XCTAssertNil(QueryPlanner.plainWords("a " + longest + "q"), "longer than a term can be: the analyzer decides")
        XCTAssertNil(QueryPlanner.plainWords("file"), "one word is a plain word, not a phrase")
        XCTAssertNil(QueryPlanner.plainWords("file  creation"), "two spaces: the analyzer decides")
        XCTAssertNil(QueryPlanner.plainWords(" file creation"))
        XCTAssertNil(QueryPlanner.plainWords("file creation "))
        XCTAssertEqual(QueryPlanner.plainWords("file creation")?.count, 2)
    }

    /// A ZERO WIDTH NON-JOINER after a virama is in no term, as the analyzer has it, so a prefix typed with one
    /// (copied, or typed up to it) is the word's; anywhere else it separates words and is trimmed like a space.
    func testFoldedPrefixDropsAZeroWidthNonJoinerOnlyAfterAVirama() {
        XCTAssertEqual(QueryPlanner.foldedPrefix("क्\u{200C}ष"), "क्ष")
        XCTAssertEqual(QueryPlanner.foldedPrefix("क्\u{200C}"), "क्")
        XCTAssertEqual(QueryPlanner.foldedPrefix("می\u{200C}خ"), "می\u{200C}خ")
        XCTAssertEqual(QueryPlanner.foldedPrefix("\u{200C}می\u{200C}"), "می")
    }

    /// An emoji's variation selector and format characters are in no term, as the analyzer has it, so a prefix typed
    /// with them is the term's.
    func testFoldedPrefixDropsAnEmojisVariationSelector() {
        XCTAssertEqual(QueryPlanner.foldedPrefix("❤️"), "❤")
        XCTAssertEqual(QueryPlanner.foldedPrefix("👨\u{200D}👩\u{200D}"), "👨\u{200D}👩")
        XCTAssertEqual(QueryPlanner.foldedPrefix(" 🎉 "), "🎉")
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
