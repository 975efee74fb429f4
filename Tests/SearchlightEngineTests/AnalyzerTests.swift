import XCTest
@testable import SearchlightEngine

final class AnalyzerTests: XCTestCase {
    let analyzer = Analyzer()

    func terms(_ text: String, _ mode: Analyzer.Mode = .index) -> [String] { analyzer.tokens(text, mode: mode).map(\.term) }

    /// The ASCII fast path emits exactly what the general compound splitter emits (terms, positions,
    /// byte ranges, kinds) in every mode, on seeded random mixes of the characters that decide it.
    func testASCIIFastPathAgreesWithGeneralPath() {
        let general = Analyzer(asciiFastPath: false)
        let pieces = ["a", "z", "Q", "ab", "Ab", "AB", "aB", "x11", "X11R6", "GNU", "GNUmake", "HTTPServer", "7", "42x",
                      ".", "..", "-", "_", " ", "  ", ",", "(", ")", "\n", "é", "É", "中", "文", "\u{301}", "'", "/", "ß",
                      // Runs of lowercase letters longer than eight bytes, and the bytes just outside a-z and A-Z.
                      "abcdefghij", "wordsmithing", "zzzzzzzzz", "`", "{", "@", "[", "\u{7F}", "ÿ", "À"]
        var state: UInt64 = 12345
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<(1 + Int(state % 16)) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                text += pieces[Int((state >> 33) % UInt64(pieces.count))]
            }
            for mode in [Analyzer.Mode.index, .query, .words] {
                XCTAssertEqual(analyzer.tokens(text, mode: mode), general.tokens(text, mode: mode), "\(text) \(mode)")
            }
        }
        let long = String(repeating: "a", count: Analyzer.maxTermBytes + 1) + " b " + String(repeating: "C", count: Analyzer.maxTermBytes)
        XCTAssertEqual(analyzer.tokens(long), general.tokens(long))
        XCTAssertEqual(analyzer.words(in: "foo.Bar baz"), general.words(in: "foo.Bar baz"))
        XCTAssertEqual(analyzer.tokens("abcdefghijklmnopQrstuvwxyz0123 ABCDEFGHIJKLMNOP")
                        .map(\.term), ["abcdefghijklmnop", "qrstuvwxyz0123", "abcdefghijklmnopqrstuvwxyz0123",
                                       "abcdefghijklmnop"])
        // Compounds at and past the ASCII path's limits (parts, bytes), and ones that meet a non-ASCII byte late.
        var limits: [String] = []
        for parts in [31, 32, 33, 40] {
            limits.append(Array(repeating: "a", count: parts).joined(separator: "-"))
            limits.append(String(repeating: "aB", count: parts))
        }
        for bytes in [127, 128, 129, 200] {
            limits.append("x." + String(repeating: "y", count: bytes - 2))
            limits.append("x." + String(repeating: "y", count: bytes - 2) + ".z")
        }
        limits += ["foo-bar-é", "foo-barÉ", "ABé", "AB.é", "x11-common.", "a.b.c-", "GNUmakeÉ"]
        for text in limits {
            for mode in [Analyzer.Mode.index, .query, .words] {
                XCTAssertEqual(analyzer.tokens(text, mode: mode), general.tokens(text, mode: mode), "\(text) \(mode)")
            }
        }
    }

    /// A word longer than `maxTermBytes` keeps its position: the index records `overlongTerm` there (so pattern
    /// comparisons can still find the value), queries leave the position free, `words(in:)` keeps the word, and
    /// `tokens` never reports the stand-in. Both paths of the analyzer agree.
    func testOverlongWordsKeepTheirPositions() {
        let long = String(repeating: "walrus", count: 22)  // 132 bytes
        func records(_ text: String, _ mode: Analyzer.Mode, fastPath: Bool) -> [String] {
            var buffer = TokenBuffer()
            _ = Analyzer(asciiFastPath: fastPath).analyze(text, mode: mode, firstPosition: 0, into: &buffer)
            return buffer.records.map { "\(buffer.term($0).debugDescription)@\($0.position)[\($0.byteStart)..<\($0.byteEnd)] \($0.kind)" }
        }
        let plain = "alpha " + long + " beta"
        let expected = ["\"alpha\"@0[0..<5] word", "\"\\u{01}\"@1[6..<138] overlong", "\"beta\"@2[139..<143] word"]
        XCTAssertEqual(records(plain, .index, fastPath: true), expected)
        XCTAssertEqual(records(plain, .index, fastPath: false), expected)
        let compound = "Long_" + long + "_tail"
        let parts = ["\"long\"@0[0..<4] word", "\"\\u{01}\"@1[5..<137] overlong", "\"tail\"@2[138..<142] word"]
        XCTAssertEqual(records(compound, .index, fastPath: true), parts)
        XCTAssertEqual(records(compound, .index, fastPath: false), parts)
        let analyzer = Analyzer()
        XCTAssertEqual(analyzer.tokens(plain).map(\.description), ["alpha@0[0..<5]", "beta@2[139..<143]"])
        XCTAssertEqual(analyzer.tokens(plain, mode: .query).map(\.description), ["alpha@0[0..<5]", "beta@2[139..<143]"])
        XCTAssertEqual(analyzer.tokens(compound, mode: .query).map(\.term), ["long", "tail"])
        XCTAssertEqual(analyzer.words(in: plain), ["alpha", long, "beta"])
        XCTAssertEqual(analyzer.words(in: compound), ["Long", long, "tail"])
        // A whole too long of short parts: the stand-in in the whole's place, stacked on the first part.
        let slug = "ab_cd_" + String(repeating: "wxyz_", count: 26) + "end"  // 139 bytes
        let slugRecords = records(slug, .index, fastPath: true)
        XCTAssertEqual(slugRecords, records(slug, .index, fastPath: false))
        XCTAssertEqual(slugRecords.count, 30)
        XCTAssertEqual(slugRecords.last, "\"\\u{01}\"@0[0..<139] overlong")
        XCTAssertEqual(records(compound, .index, fastPath: true).filter { $0.hasSuffix("overlong") }.count, 1,
                       "one stand-in per compound")
    }

    func testPlainWordsPositionsAndOffsets() {
        let tokens = analyzer.tokens("Hello, World  again")
        XCTAssertEqual(tokens.map(\.term), ["hello", "world", "again"])
        XCTAssertEqual(tokens.map(\.position), [0, 1, 2])
        XCTAssertEqual(tokens.map(\.byteRange), [0..<5, 7..<12, 14..<19])
    }

    func testFolding() {
        XCTAssertEqual(terms("Café Straße Øre Łódź Æther"), ["cafe", "strasse", "ore", "lodz", "aether"])
        XCTAssertEqual(terms("Ἀθῆναι ά Ωμέγα"), ["αθηναι", "α", "ωμεγα"])
        XCTAssertEqual(terms("Tiếng Việt"), ["tieng", "viet"])
        XCTAssertEqual(terms("ＡＢＣ１２３"), ["abc123"])
        XCTAssertEqual(Folding.foldCase("ÉCOLE Straße"), "école strasse")
        XCTAssertEqual(Folding.foldDiacritics("ÉCOLE Ærø"), "ECOLE AEro")
        XCTAssertEqual(Folding.fold("ÉCOLE"), "ecole")
    }

    /// `c` is Unicode full case folding, as Foundation's `.caseInsensitive` folding: beyond lowercasing it maps
    /// ligatures, long s, micro sign and final sigma to what they are the case variants of; Cherokee folds to its
    /// small letters, as Foundation's does, and İ keeps its dot.
    func testCaseFoldingIsFullCaseFolding() {
        for (text, folded) in [("ﬁnal", "final"), ("ﬆ", "st"), ("ſ", "s"), ("µ", "μ"), ("ς", "σ"), ("ẞ", "ss"),
                               ("ŉ", "ʼn"), ("\u{13A0}\u{AB70}", "\u{AB70}\u{AB70}"), ("İ", "i\u{307}")] {
            XCTAssertEqual(Folding.foldCase(text), folded, text)
            XCTAssertEqual(Folding.foldCase(text), text.folding(options: .caseInsensitive, locale: nil), text)
        }
        XCTAssertEqual(terms("ﬁnal ﬂoor"), ["final", "floor"])
    }

    func testUTF8OffsetsOfNonASCII() {
        let text = "naïve café"
        let tokens = analyzer.tokens(text)
        let bytes = Array(text.utf8)
        XCTAssertEqual(tokens.map { String(decoding: bytes[$0.byteRange], as: UTF8.self) }, ["naïve", "café"])
    }

    func testIdentifiers() {
        let tokens = analyzer.tokens("Report.Numbers")
        XCTAssertEqual(tokens.map(\.term), ["report", "numbers", "report.numbers"])
        XCTAssertEqual(tokens.map(\.position), [0, 1, 0])
        XCTAssertEqual(tokens.map(\.kind), [.word, .word, .compound])
        XCTAssertEqual(terms("foo_bar"), ["foo", "bar", "foo_bar"])
        XCTAssertEqual(terms("MyWindowController"), ["my", "window", "controller", "mywindowcontroller"])
        XCTAssertEqual(terms("HTMLParser"), ["html", "parser", "htmlparser"])
        XCTAssertEqual(terms("x11"), ["x11"])
        // A capitalized word after digits is a part of its own; digits after letters stay with them.
        XCTAssertEqual(terms("Base64Encoder"), ["base64", "encoder", "base64encoder"])
        XCTAssertEqual(terms("HTTP2Server"), ["http2", "server", "http2server"])
        XCTAssertEqual(terms("utf8String"), ["utf8", "string", "utf8string"])
        XCTAssertEqual(terms("Base64Encoder", .query), ["base64", "encoder"])
        XCTAssertEqual(terms("X11R6"), ["x11r6"])
        XCTAssertEqual(terms("3D"), ["3d"])
        XCTAssertEqual(terms("Ünï8Écrit"), ["uni8", "ecrit", "uni8ecrit"])  // the general (non-ASCII) path
        XCTAssertEqual(terms("3.14"), ["3", "14", "3.14"])
        XCTAssertEqual(terms("end. Next"), ["end", "next"])
        XCTAssertEqual(terms("Report.Numbers", .query), ["report", "numbers"])
        XCTAssertEqual(analyzer.tokens("a MyWindow b").map(\.position), [0, 1, 2, 1, 3])
    }

    /// Folding never moves a word boundary: text and its fold split alike, so a pattern folded before it is analyzed
    /// (`CandidateTerms`) finds the terms of the raw value. Full-width `．＿－` fold to connectors and join as they
    /// do; a connector joins across the combining marks folding removes.
    func testFoldingDoesNotMoveWordBoundaries() {
        XCTAssertEqual(terms("１．５"), ["1", "5", "1.5"])
        XCTAssertEqual(terms("ｆｉｌｅ＿ｎａｍｅ－２"), ["file", "name", "2", "file_name-2"])
        XCTAssertEqual(terms("a-\u{301}b"), ["a", "b", "a-b"])
        XCTAssertEqual(terms("a-\u{301}"), ["a"])
        for text in ["１．５倍", "ｆｉｌｅ＿ｎａｍｅ", "Ａ－Ｂ．ｃ", "a-\u{301}b", "x_\u{308}\u{301}y.z", "a．\u{301}b", "e\u{301}-\u{301}e"] {
            XCTAssertEqual(terms(text), terms(Folding.fold(text)), text)
        }
    }

    func testCJKBigramsAndUnigrams() {
        let tokens = analyzer.tokens("中文字")
        XCTAssertEqual(tokens.map(\.term), ["中", "中文", "文", "文字", "字"])
        XCTAssertEqual(tokens.map(\.position), [0, 0, 1, 1, 2])
        XCTAssertEqual(tokens.map(\.kind), [.cjkUnigram, .cjkBigram, .cjkUnigram, .cjkBigram, .cjkUnigram])
        XCTAssertEqual(terms("中文字", .query), ["中文", "文字"])
        XCTAssertEqual(terms("中", .query), ["中"])
        XCTAssertEqual(terms("ひらがなカタカナ한국어"), ["ひ", "ひら", "ら", "らが", "が", "がな", "な", "なカ", "カ", "カタ", "タ", "タカ", "カ", "カナ", "ナ", "ナ한", "한", "한국", "국", "국어", "어"])
        XCTAssertEqual(terms("Linux内核abc"), ["linux", "内", "内核", "核", "abc"])
        let bytes = Array("a中文".utf8)
        XCTAssertEqual(analyzer.tokens("a中文").map { String(decoding: bytes[$0.byteRange], as: UTF8.self) }, ["a", "中", "中文", "文"])
    }

    /// A CJK run is analyzed in canonical composition (NFC), its tokens spanning whole characters of the source.
    func testCJKRunsAreAnalyzedInCanonicalComposition() {
        let jamo = "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}"  // 한국, conjoining jamo
        XCTAssertEqual(terms(jamo), terms("한국"))
        XCTAssertEqual(analyzer.tokens(jamo).map(\.byteRange), [0..<9, 0..<18, 9..<18])
        XCTAssertEqual(terms(jamo, .query), ["한국"])
        XCTAssertEqual(terms("か\u{3099}っこう"), terms("がっこう"))
        XCTAssertEqual(terms("\u{F900}子"), terms("\u{8C48}子"))
        XCTAssertEqual(terms("\u{F900}子 x", .words), ["\u{8C48}子", "x"])
        XCTAssertEqual(analyzer.words(in: "\u{F900}子 x"), ["\u{F900}子", "x"])
    }

    /// A variation selector belongs to the CJK character before it: the run goes on, and the terms leave it out.
    func testVariationSelectorsStayInsideCJKRuns() {
        XCTAssertEqual(terms("葛\u{E0100}飾区"), terms("葛飾区"))
        XCTAssertEqual(analyzer.tokens("葛\u{E0100}飾").map(\.byteRange), [0..<7, 0..<10, 7..<10])
        XCTAssertEqual(terms("葛\u{FE00}飾", .query), ["葛飾"])
        XCTAssertEqual(analyzer.words(in: "葛\u{E0100}飾 x"), ["葛\u{E0100}飾", "x"])
    }

    /// Format characters (soft hyphen, word joiner, direction marks) belong to the word around them (UAX #29 WB4)
    /// and are left out of its terms; the zero-width space and the zero-width non-joiner still separate words.
    func testFormatCharactersStayInsideWords() {
        XCTAssertEqual(terms("Wiki\u{AD}pedia"), ["wikipedia"])
        XCTAssertEqual(analyzer.tokens("Wiki\u{AD}pedia x").map(\.byteRange), [0..<11, 12..<13])
        XCTAssertEqual(terms("\u{AD}co\u{2060}op\u{200E} re-\u{AD}do"), ["coop", "re", "do", "re-do"])
        XCTAssertEqual(terms("a\u{200B}b c\u{200C}d"), ["a", "b", "c", "d"])
        XCTAssertEqual(analyzer.words(in: "Wiki\u{AD}pedia"), ["Wiki\u{AD}pedia"])
    }

    /// A ZERO WIDTH JOINER inside a word (after a virama it asks for a conjunct's other shape: Sinhala ශ්‍රී, Devanagari
    /// half forms) is part of the word and of no term, as UAX #29 and Unicode's case folding for search (NFKC_CF)
    /// have it: "ශ්‍රී" is found by "ශ්රී" as typed (it split the word in two).
    func testZeroWidthJoinerStaysInsideAWord() {
        XCTAssertEqual(terms("ශ්\u{200D}රී ලංකා"), terms("ශ්රී ලංකා"))
        XCTAssertEqual(terms("क्\u{200D}ष", .query), ["क्ष"])
        XCTAssertEqual(analyzer.words(in: "क्\u{200D}ष x"), ["क्\u{200D}ष", "x"])
        XCTAssertEqual(terms("👨\u{200D}👩\u{200D}👧 a\u{200D}"), ["👨\u{200D}👩\u{200D}👧", "a"])
    }

    /// A ZERO WIDTH NON-JOINER right after a virama only asks for its explicit form or a half form (Devanagari क्‌ष,
    /// Bengali, Malayalam): part of the word and of no term, so "क्‌ष" is found by "क्ष" as typed (it split the word).
    /// Anywhere else it still separates words (Persian compounds: می‌خواهم).
    func testZeroWidthNonJoinerAfterAViramaStaysInsideAWord() {
        XCTAssertEqual(terms("क्\u{200C}ष"), ["क्ष"])
        XCTAssertEqual(terms("क्\u{200C}ष", .query), terms("क्ष", .query))
        XCTAssertEqual(terms("ক্\u{200C}ষ ന്\u{200C}മ"), terms("ক্ষ ന്മ"))
        XCTAssertEqual(analyzer.tokens("क्\u{200C}ष x").map(\.byteRange), [0..<12, 13..<14])
        XCTAssertEqual(analyzer.words(in: "क्\u{200C}ष x"), ["क्\u{200C}ष", "x"])
        XCTAssertEqual(terms("می\u{200C}خواهم"), ["می", "خواهم"])
        XCTAssertEqual(terms("क\u{200C}ष \u{200C}a"), ["क", "ष", "a"])
    }

    /// An emoji sequence (an emoji with its skin tone, variation selector, tags, or joined by zero-width joiners; a
    /// pair of regional indicators) is one token of its own, as Lucene's StandardTokenizer emits it, split from the
    /// letters beside it; its variation selectors and format characters are in no term (but the joiners between its
    /// emoji and a tag sequence's tags, so the term reads again as itself), so "❤" finds "❤️" (emoji were in no term).
    func testEmojiSequencesAreTokens() {
        XCTAssertEqual(terms("party🎉 ❤️ 👍🏽ok 🎉🎉"), ["party", "🎉", "❤", "👍🏽", "ok", "🎉", "🎉"])
        XCTAssertEqual(terms("🇫🇷🇩🇪🇮 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"),
                       ["🇫🇷", "🇩🇪", "🇮", "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"])
        XCTAssertEqual(terms("❤️\u{200D}🔥 👁️\u{200D}🗨️", .query), ["❤\u{200D}🔥", "👁\u{200D}🗨"])
        XCTAssertEqual(terms("a-🎉", .query), ["a", "🎉"])
        XCTAssertEqual(analyzer.tokens("a🎉b👨\u{200D}x").map(\.byteRange), [0..<1, 1..<5, 5..<6, 6..<13, 13..<14])
        XCTAssertEqual(analyzer.words(in: "party🎉 ❤️ x"), ["party", "🎉", "❤️", "x"])
    }

    /// An emoji tag sequence (UTS #51 ED-14a: a base, tag specs, a TAG CANCEL) keeps its tags in its term: the
    /// flags of England and Scotland (🏴 with tags) were both "🏴", so each found the other and the black flag.
    /// A tag outside such a sequence (after a letter, without its cancel, a lone cancel) is in no term, as before.
    func testEmojiTagSequencesKeepTheirTags() {
        let england = "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"
        let scotland = "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        XCTAssertEqual(terms("\(england) \(scotland) 🏴 x"), [england, scotland, "🏴", "x"])
        XCTAssertEqual(terms(england, .query), [england])
        XCTAssertEqual(terms(england + "\u{FE0F}" + scotland, .query), [england, scotland])
        XCTAssertEqual(analyzer.tokens(england + "a").map(\.byteRange), [0..<28, 28..<29])
        XCTAssertEqual(analyzer.words(in: england + " x"), [england, "x"])
        XCTAssertEqual(terms("👍🏽\u{E0067}\u{E007F}"), ["👍🏽\u{E0067}\u{E007F}"])
        XCTAssertEqual(terms("a\u{E0067}\u{E0062}\u{E007F}b 🏴\u{E0067}\u{E0062} 🏴\u{E007F} \u{E0067}\u{E007F}"),
                       ["ab", "🏴", "🏴"])
        for text in [england, scotland, "a\u{E0067}\u{E007F} 🏴\u{E0067}\u{E0062}x 🏴\u{200D}\u{E0067}\u{E007F}",
                     "🏴\u{E007F}\u{E0067}\u{E007F}", england + "\u{200D}" + scotland] {
            // A `t` pattern or a prefix keeps just what the index's terms hold.
            let kept = String(String.UnicodeScalarView(Analyzer.droppingFormatCharacters(text.unicodeScalars)))
            XCTAssertEqual(terms(kept, .query), terms(text, .query), text.debugDescription)
            XCTAssertEqual(terms(kept, .query).joined(), kept.filter { $0 != " " }, text.debugDescription)
        }
    }

    /// A keycap (digit, U+FE0F, U+20E3) is read as its digit, as the ASCII paths read it: the variation selector, a
    /// glyph choice, is in no term, as after an emoji or a CJK character (1️⃣ had the term "1\u{FE0F}", which "1" and
    /// "1⃣" never found).
    func testVariationSelectorInAWordIsInNoTerm() {
        XCTAssertEqual(terms("1\u{FE0F}\u{20E3} 2\u{20E3} x1\u{FE0F}\u{20E3}y a\u{FE0E}b"), ["1", "2", "x1y", "ab"])
        XCTAssertEqual(terms("1\u{FE0F}\u{20E3}", .query), ["1"])
        XCTAssertEqual(analyzer.tokens("1\u{FE0F}\u{20E3} x").map(\.byteRange), [0..<7, 8..<9])
        XCTAssertEqual(Analyzer.droppingFormatCharacters("1\u{FE0F}".unicodeScalars), ["1"])
    }

    /// A variation selector after a non-ASCII letter that is not an emoji (Cyrillic, Greek, CJK) is in no term, as
    /// after an ASCII one: dropping format characters (`t` patterns, prefixes, after folding) drops it too, or
    /// the prefix `ж\u{FE0F}ж` looked for a term the index no longer has (it is `жж` since version 17).
    func testVariationSelectorAfterANonASCIILetterIsDroppedAsTheIndexDropsIt() {
        for text in ["ж\u{FE0F}ж", "ω\u{FE0E}mega", "中\u{FE0E}文", "ж\u{FE00}ж"] {
            let dropped = String(String.UnicodeScalarView(Analyzer.droppingFormatCharacters(text.unicodeScalars)))
            XCTAssertEqual(dropped, text.unicodeScalars.filter { !CharacterClass.isVariationSelector($0.value) }
                .map(String.init).joined(), text.debugDescription)
        }
        XCTAssertEqual(terms("Ж\u{FE0F}Ж"), ["жж"])
        XCTAssertEqual(QueryPlanner.foldedPrefix("Ж\u{FE0F}Ж"), "жж")
        XCTAssertEqual(Analyzer.droppingFormatCharacters("❤\u{FE0F} 👍🏻\u{FE0F}".unicodeScalars), ["❤", " ", "👍", "🏻"])
    }

    /// Dropping format characters (`t` patterns, prefixes) is linear: each zero-width joiner looked for the emoji
    /// around it over the whole run of format characters, so 20,000 joiners took minutes.
    func testDroppingFormatCharactersIsLinearInLongRunsOfJoiners() {
        let joiners = String(repeating: "\u{200D}", count: 200_000)
        let start = Date()
        XCTAssertEqual(Analyzer.droppingFormatCharacters(("🎉" + joiners + "a").unicodeScalars), ["🎉", "a"])
        XCTAssertEqual(Analyzer.droppingFormatCharacters(("a" + joiners).unicodeScalars), ["a"])
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        XCTAssertEqual(String(String.UnicodeScalarView(Analyzer.droppingFormatCharacters(
            "👨\u{200D}\u{2060}\u{200D}👩 a\u{200D}🎉 🎉\u{200D}".unicodeScalars))), "👨\u{200D}\u{200D}👩 a🎉 🎉")
    }

    /// The Arabic tatweel (U+0640, a letter stretched for justification or style) is part of the word and of no term,
    /// as Lucene's Arabic normalizer removes it: "محمـــد" is found by "محمد" (it stayed in the term).
    func testArabicTatweelIsInNoTerm() {
        XCTAssertEqual(terms("محمـــد الكتـاب"), ["محمد", "الكتاب"])
        XCTAssertEqual(terms("محمـــد", .query), ["محمد"])
        XCTAssertEqual(analyzer.tokens("محمـــد x").map(\.byteRange), [0..<14, 15..<16])
        XCTAssertEqual(analyzer.words(in: "محمـــد"), ["محمـــد"])
    }

    /// Half-width katakana are analyzed as full-width ones, a half-width voicing mark joining the kana before it.
    func testHalfWidthKatakanaFoldToFullWidth() {
        XCTAssertEqual(terms("ｶﾀｶﾅ ｶﾞｯｺｳ"), terms("カタカナ ガッコウ"))
        XCTAssertEqual(analyzer.tokens("ｶﾞｯ").map(\.byteRange), [0..<6, 0..<9, 6..<9])
        XCTAssertEqual(Folding.foldDiacritics("ｶﾞｯﾊﾟ"), "カ\u{3099}ッハ\u{309A}")
        XCTAssertEqual(Folding.foldCase("ｶ"), "ｶ")
    }

    func testWordSplitter() {
        XCTAssertEqual(analyzer.words(in: "MyWindowController loads Report.Numbers 中文"),
                       ["My", "Window", "Controller", "loads", "Report", "Numbers", "中文"])
    }
}

/// The generated list the folding tables are built from (`FoldingTable.exceptions`) holds, for every scalar, the folds
/// computed from Unicode's data (`FoldingDefinition`): the case fold, the diacritic fold, and the diacritic fold of the
/// case fold. (`FoldingEveryScalarTests` checks what the tables built from it answer.)
final class FoldingTableTests: XCTestCase {
    func testEveryEntryEqualsTheFoldsComputedDirectly() {
        let listed = Self.listedExceptions(), computed = FoldingDefinition.exceptions
        if listed != computed {
            // Another Unicode version: the regenerated list, to replace FoldingTable+Exceptions.swift with.
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("FoldingTable+Exceptions.swift")
            try? Self.exceptionsSource().write(to: path, atomically: true, encoding: .utf8)
            let differing = Set(Set(listed).symmetricDifference(computed).map(\.value)).sorted().prefix(20)
            XCTFail("FoldingTable+Exceptions.swift is out of date (\(listed.count) listed, \(computed.count) computed; "
                    + "first differing scalars \(differing.map { "U+" + String($0, radix: 16) })); regenerated at \(path.path)")
        }
        // Entries the shortcut must not take: scalars whose case fold differs (and carries marks: É, Ά).
        XCTAssertEqual(Folding.fold("ÉCOLE Straße Ά"), "ecole strasse α")
    }

    /// `FoldingTable.exceptions` read back as the definition's exceptions.
    static func listedExceptions() -> [FoldingDefinition.Exception] {
        let list = FoldingTable.exceptions
        return stride(from: 0, to: list.count - 3, by: 4).map { k in
            FoldingDefinition.Exception(value: UInt32(list[k]), case: list[k + 1], diacritic: list[k + 2], both: list[k + 3])
        }
    }

    /// The source of `FoldingTable+Exceptions.swift` for this toolchain's Unicode data: every scalar whose folds are
    /// not itself, with its three entries.
    static func exceptionsSource() -> String {
        func hex(_ v: UInt64) -> String { "0x" + String(v, radix: 16, uppercase: true) }
        let lines = FoldingDefinition.exceptions.map { e in
            "        \(hex(UInt64(e.value))), \(hex(e.case)), \(hex(e.diacritic)), \(hex(e.both)),"
        }
        return """
            /// Generated by `FoldingTableTests.exceptionsSource()`, which the test of every entry writes out when one
            /// differs: each scalar (U+0000 to U+10FFFF) that does not fold to itself, then its case, diacritic and both
            /// entries (`FoldingTable.pack`). \(lines.count) scalars.
            extension FoldingTable {
                static let exceptions: [UInt64] = [

            """ + lines.joined(separator: "\n") + "\n    ]\n}\n"
    }

    /// `ASCIIWord`'s eight-bytes-at-once answers equal the byte-at-a-time ones, for words of random bytes (every
    /// value, and letters with their neighbours at the range edges).
    func testASCIIWordAgreesWithByteAtATime() {
        var state: UInt64 = 0xA5C11
        let edges: [UInt8] = [0x40, 0x41, 0x5A, 0x5B, 0x60, 0x61, 0x7A, 0x7B, 0x7F, 0x80, 0xC1, 0xDA, 0xE1, 0xFA, 0xFF, 0x00]
        for round in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<8 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let r = Int(state >> 33)
                bytes.append(round % 2 == 0 ? UInt8(truncatingIfNeeded: r) : r % 3 == 0 ? edges[(r >> 2) % edges.count]
                                : UInt8(0x61 + (r >> 2) % 26))
            }
            let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            let run = bytes.firstIndex { !($0 >= 0x61 && $0 <= 0x7A) } ?? 8
            XCTAssertEqual(ASCIIWord.lowercaseRun(word), run, "\(bytes)")
            let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            let expected = lowered.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            XCTAssertEqual(ASCIIWord.lowercased(word), expected, "\(bytes)")
        }
    }
}
