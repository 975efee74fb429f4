import Foundation
import SearchlightQueryLanguage
import XCTest
@testable import Searchlight

/// Every operator and modifier of the query language on hand-made items.
final class QueryEvaluationTests: XCTestCase {
    static let clock = TestClock()
    static let day: TimeInterval = 86_400

    static let container: SearchlightContainer = {
        let now = clock.now
        func item(_ id: String, _ configure: (CSSearchableItemAttributeSet) -> Void) -> CSSearchableItem {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            configure(set)
            return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: "tests", attributeSet: set)
        }
        let status = customKey("status")
        let priority = customKey("priority")
        return makeContainer([
            item("paris") {
                $0.title = "Paris"
                $0.keywords = ["travel", "Europe"]
                $0.rating = 4
                $0.contentCreationDate = now.addingTimeInterval(-2 * day)
                $0.textContent = "Visit the Eiffel tower"
                $0.setValue("open", forCustomKey: status)
                $0.setValue(NSNumber(value: 5), forCustomKey: priority)
            },
            item("lower") {
                $0.title = "paris"
                $0.keywords = ["Travel"]
                $0.rating = 2
                $0.contentCreationDate = now.addingTimeInterval(-20 * day)
            },
            item("accent") {
                $0.title = "Páris"
                $0.rating = 4.5
            },
            item("window") {
                $0.title = "MyWindowController"
                $0.displayName = "Report.Numbers"
                $0.setValue("closed", forCustomKey: status)
            },
            item("chopin") {
                $0.title = "Frédéric Chopin"
                $0.authorNames = ["Frédéric Chopin", "George Sand"]
                $0.contentCreationDate = now.addingTimeInterval(3 * day)
            },
            item("bare") {
                $0.setValue(NSNumber(value: 1), forCustomKey: priority)
            },
        ], clock: clock)
    }()

    func ids(_ query: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        do {
            return try evaluate(query, in: Self.container)
        } catch {
            XCTFail("\(query): \(error)", file: file, line: line)
            return []
        }
    }

    func check(_ query: String, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(ids(query, file: file, line: line), expected.sorted(), query, file: file, line: line)
    }

    func testExactIsCaseAndDiacriticSensitiveByDefault() {
        check(#"title == "Paris""#, ["paris"])
        check(#"title == "paris""#, ["lower"])
        check(#"title == "paris"c"#, ["paris", "lower"])
        check(#"title == "Paris"d"#, ["paris", "accent"])
        check(#"title == "paris"cd"#, ["paris", "lower", "accent"])
        check(#"title == "Frederic Chopin"d"#, ["chopin"])
        check(#"title == "Frederic""#, [])
        check(#"title == "Pari""#, [])
    }

    func testWildcards() {
        check(#"title == "Par*""#, ["paris"])
        check(#"title == "par*"cd"#, ["paris", "lower", "accent"])
        check(#"title == "*ris""#, ["paris", "lower", "accent"])
        check(#"title == "*áris""#, ["accent"])
        check(#"title == "*aris*"c"#, ["paris", "lower"])
        check(#"title == "P?ris""#, ["paris", "accent"])
        check(#"title == "?aris""#, ["paris", "lower"])
        check(#"title == "p?ris"c"#, ["paris", "lower", "accent"])
        check(#"title == "*indowCon*""#, ["window"])
        check(#"title == "*indowcon*""#, [])
        check(#"title == "*indowcon*"c"#, ["window"])
        check(#"title == "*é*""#, ["chopin"])
        check(#"title == "My*Controller""#, ["window"])
        check(#"title == "\*aris""#, [])
    }

    /// Canonically equivalent texts are the same text (Swift's `==` says so): a value stored decomposed matches
    /// a precomposed pattern and the other way round, with or without modifiers, and `?` is one character of
    /// either form.
    func testCanonicallyEquivalentTextsMatchAlike() throws {
        func item(_ id: String, _ title: String) -> CSSearchableItem { makeItem(id, title: title) }
        let container = makeContainer([item("nfd", "Pa\u{301}ris"), item("nfc", "Caf\u{E9}"),
                                       item("words", "Cafe\u{301} de Pa\u{301}ris")])
        for (query, expected) in [
            ("title == \"P\u{E1}ris\"", ["nfd"]), ("title == \"P\u{C1}RIS\"c", ["nfd"]),
            ("title == \"P?ris\"", ["nfd"]),
            ("title == \"Cafe\u{301}\"", ["nfc"]), ("title == \"Caf\u{E9}\"", ["nfc"]), ("title == \"caf?\"c", ["nfc"]),
            ("title == \"*\u{E9} de P\u{E1}*\"", ["words"]), ("title == \"P\u{E1}ris\"w", ["nfd", "words"]),
            ("title == \"caf\u{E9}\"cw", ["nfc", "words"]), ("title == \"Paris\"d", ["nfd"]),
            ("title == \"Paris\"", []), ("title == \"Cafe\"", []),
        ] {
            XCTAssertEqual(try evaluate(query, in: container), expected.sorted(), query)
        }
    }

    /// A value equals itself however folding would split it: full-width `．＿－` (which fold to connectors) and a
    /// connector before a combining mark. Fillers make the evaluator take its postings path.
    func testValueWhoseFoldJoinsPartsMatchesItself() throws {
        var items = [makeItem("fwNumber", title: "１．５"), makeItem("fwIdent", title: "ｆｉｌｅ＿ｎａｍｅ"),
                     makeItem("fwPrice", title: "１．５倍の価格"), makeItem("markAfterHyphen", title: "a-\u{301}b")]
        for n in 0..<200 { items.append(makeItem("f\(n)", title: "filler \(n)")) }
        let container = makeContainer(items)
        for (query, expected) in [
            (#"title == "１．５""#, ["fwNumber"]), (#"title == "ｆｉｌｅ＿ｎａｍｅ""#, ["fwIdent"]),
            (#"title == "１．５*""#, ["fwNumber", "fwPrice"]), (#"title == "1.5*"cd"#, ["fwNumber", "fwPrice"]),
            ("title == \"a-\u{301}b\"", ["markAfterHyphen"]), (#"title == "a-b"d"#, ["markAfterHyphen"]),
        ] {
            XCTAssertEqual(try evaluate(query, in: container), expected.sorted(), query)
        }
    }

    /// CJK text is one text in any canonically equivalent form: Hangul stored as conjoining jamo, kana with a
    /// combining voicing mark and a compatibility ideograph match precomposed (canonical) patterns.
    func testCanonicallyEquivalentCJKMatchesAlike() throws {
        for (query, expected) in [
            (#"title == "*한국*""#, "hangulNFD"), (#"title == "한국어*"cdw"#, "hangulNFD"),
            (#"title == "*がっこう*""#, "kanaNFD"), ("title == \"*\u{8C48}子*\"", "compatIdeograph"),
        ] {
            XCTAssertEqual(try evaluate(query, in: scriptsContainer), [expected], query)
        }
    }

    /// `c` is Unicode full case folding, as Foundation's `.caseInsensitive` folding (ﬁ → fi), and the folded
    /// texts are composed again: a capital whose fold takes a mark matches the precomposed small letter.
    func testCaseInsensitiveIsFullCaseFolding() throws {
        XCTAssertEqual(try evaluate(#"title == "final report"c"#, in: scriptsContainer), ["ligature"])
        XCTAssertEqual(try evaluate(#"title == "FINAL*"c"#, in: scriptsContainer), ["ligature"])
        XCTAssertEqual(try evaluate(#"title == "final report""#, in: scriptsContainer), [])
        XCTAssertEqual(runUserQuery("final", in: scriptsContainer).items.map(\.uniqueIdentifier), ["ligature"])
        var items = [makeItem("iota", title: "\u{390}"), makeItem("apostropheN", title: "\u{149}"),
                     makeItem("jCaron", title: "\u{1F0}")]
        for n in 0..<200 { items.append(makeItem("f\(n)", title: "filler \(n)")) }
        let container = makeContainer(items)
        for (query, expected) in [("title == \"\u{3AA}\u{301}\"c", ["iota"]), ("title == \"\u{2BC}N\"c", ["apostropheN"]),
                                  ("title == \"J\u{30C}\"c", ["jCaron"]), ("title == \"\u{3AA}\u{301}\"", [])] {
            XCTAssertEqual(try evaluate(query, in: container), expected, query)
        }
    }

    /// `?` is one character of the value under `c` and `d` too, where folding makes it several scalars (ß → ss,
    /// İ → i̇): a case- or diacritic-insensitive match only adds matches.
    func testSingleCharacterWildcardMatchesACharacterFoldingExpands() throws {
        for (query, expected) in [(#"title == "Gro?e*""#, ["sharp"]), (#"title == "Gro?e*"c"#, ["sharp"]),
                                  (#"title == "gro?e*"cd"#, ["sharp"]), (#"title == "*stra?e"c"#, ["sharp"]),
                                  (#"title == "?stanbul""#, ["turkish"]), (#"title == "?stanbul"c"#, ["turkish"]),
                                  (#"title == "?stanbul"cd"#, ["turkish"]), (#"title == "stra?e"cw"#, ["sharp"]),
                                  (#"title == "gros?e*"c"#, ["sharp"])] {
            XCTAssertEqual(try evaluate(query, in: scriptsContainer), expected, query)
        }
    }

    /// `d` folds half-width katakana to full-width ones, as it folds full-width Latin to ASCII.
    func testDiacriticInsensitiveFoldsHalfWidthKatakana() throws {
        for (query, expected) in [(#"title == "*カタカナ*"cd"#, ["halfwidth"]), (#"title == "カタカナ テスト"d"#, ["halfwidth"]),
                                  (#"title == "*カタカナ*""#, [])] {
            XCTAssertEqual(try evaluate(query, in: scriptsContainer), expected, query)
        }
    }

    /// `d` removes Arabic harakat and Hebrew niqqud, as Foundation's diacritic-insensitive comparison does
    /// (`"مُحَمَّد".compare("محمد", options: .diacriticInsensitive) == .orderedSame`): vocalized text was not found by
    /// its usual unvocalized spelling. Without `d` the marks still count.
    func testDiacriticInsensitiveRemovesArabicAndHebrewMarks() throws {
        XCTAssertEqual("مُحَمَّد".compare("محمد", options: .diacriticInsensitive), .orderedSame)
        for (query, expected) in [(#"title == "*محمد*"d"#, ["arabic"]), (#"title == "*שלום*"cd"#, ["hebrew"]),
                                  (#"title == "محمد*"d"#, ["arabic"]), (#"title == "*محمد*""#, [])] {
            XCTAssertEqual(try evaluate(query, in: scriptsContainer), expected, query)
        }
        XCTAssertEqual(runUserQuery("محمد", in: scriptsContainer).items.map(\.uniqueIdentifier), ["arabic"])
        XCTAssertEqual(runUserQuery("שלום", in: scriptsContainer).items.map(\.uniqueIdentifier), ["hebrew"])
    }

    func testWordModifierSplitsCamelCaseAndPunctuation() {
        check(#"title == "Window"w"#, ["window"])
        check(#"title == "window"w"#, [])
        check(#"title == "window"cw"#, ["window"])
        check(#"title == "Cont*"w"#, ["window"])
        check(#"title == "MyWindowController"w"#, [])
        check(#"displayName == "Numbers"w"#, ["window"])
        check(#"title == "chopin"cw"#, ["chopin"])
        check(#"title == "fred*"cdw"#, ["chopin"])
        check(#"title == "Chopin""#, [])
    }

    func testTokenizedModifierImpliesCaseAndDiacriticFolding() {
        check(#"textContent == "eiffel"t"#, ["paris"])
        check(#"textContent == "EIFF*"t"#, ["paris"])
        check(#"title == "mywindowcontroller"t"#, ["window"])
        check(#"title == "frederic"t"#, ["chopin"])
        check(#"textContent == "*owe*"t"#, ["paris"])
    }

    /// Tokens drop format characters (soft hyphen, word joiner), so a `t` pattern written with one (the stored
    /// text pasted back) is matched as the token it analyzes to; it never matched any token.
    func testTokenizedPatternIgnoresFormatCharacters() throws {
        let items = ["co\u{AD}operation", "a\u{2060}b", "other"].enumerated().map { i, text in makeItem("item\(i)", title: text) }
        let container = makeContainer(items)
        for (query, expected) in [("title == \"co\u{AD}operation\"t", ["item0"]), ("title == \"co\u{AD}op*\"t", ["item0"]),
                                  ("title == \"*\u{AD}operation\"t", ["item0"]), ("title == \"a\u{2060}b\"t", ["item1"]),
                                  ("title == \"cooperation\"t", ["item0"]), ("title == \"co\u{AD}operation\"", ["item0"])] {
            XCTAssertEqual(try evaluate(query, in: container), expected, query)
        }
    }

    /// A `t` pattern is looked up as the token it analyzes to: folded and composed again, so a half-width voiced
    /// kana (`ｶﾞ` → カ + U+3099 → ガ) or decomposed kana finds its term; its fold left uncomposed found none.
    func testTokenizedPatternFindsComposedTermOfHalfWidthOrDecomposedKana() throws {
        let items = ["ｶﾞｲﾄﾞ", "ガイド", "other"].enumerated().map { i, text in makeItem("item\(i)", title: text) }
        let container = makeContainer(items)
        // Kana are CJK: their tokens are unigrams and bigrams.
        for query in ["title == \"ｶﾞｲ\"t", "title == \"ｶﾞ*\"t", "title == \"カ\u{3099}イ\"t", "title == \"ガイ\"t"] {
            XCTAssertEqual(try evaluate(query, in: container), ["item0", "item1"], query)
        }
        XCTAssertEqual(try evaluate("title == \"か\u{3099}っ\"t", in: scriptsContainer), ["kanaNFD"])
    }

    func testMultiValuedAttributesMatchAnyValue() {
        check(#"keywords == "Europe""#, ["paris"])
        check(#"keywords == "travel""#, ["paris"])
        check(#"keywords == "travel"c"#, ["paris", "lower"])
        check(#"authorNames == "George*""#, ["chopin"])
        check(#"keywords != "travel""#, ["lower", "accent", "window", "chopin", "bare"])
    }

    func testPresenceAbsenceAndNotEqual() {
        check(#"title == "*""#, ["paris", "lower", "accent", "window", "chopin"])
        check(#"title == *"#, ["paris", "lower", "accent", "window", "chopin"])
        check(#"title != "*""#, ["bare"])
        check(#"title != "Paris""#, ["lower", "accent", "window", "chopin", "bare"])
        check(#"rating == "*""#, ["paris", "lower", "accent"])
        check(#"rating != "*""#, ["window", "chopin", "bare"])
    }

    /// Data attributes have no text or numbers to index, yet `== "*"` must still tell which items hold one
    /// (it found none before), inside a conjunction too, and `!= "*"` which do not.
    func testPresenceOfDataAttributes() throws {
        func item(_ id: String, thumbnail: Data?, html: Data? = nil) -> CSSearchableItem {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.title = "photo \(id)"
            set.thumbnailData = thumbnail
            set.htmlContentData = html
            return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: "tests", attributeSet: set)
        }
        let container = makeContainer([
            item("a", thumbnail: Data([1, 2, 3])),
            item("b", thumbnail: nil, html: Data("<p>x</p>".utf8)),
            item("c", thumbnail: Data()),
            item("d", thumbnail: nil),
        ])
        XCTAssertEqual(try evaluate(#"thumbnailData == "*""#, in: container), ["a", "c"])
        XCTAssertEqual(try evaluate(#"kMDItemThumbnailData == *"#, in: container), ["a", "c"])
        XCTAssertEqual(try evaluate(#"thumbnailData != "*""#, in: container), ["b", "d"])
        XCTAssertEqual(try evaluate(#"title == "photo"cdw && thumbnailData == "*""#, in: container), ["a", "c"])
        XCTAssertEqual(try evaluate(#"htmlContentData == "*" || thumbnailData == "*""#, in: container), ["a", "b", "c"])
        // Bytes are not text: only presence matches them.
        XCTAssertEqual(try evaluate(#"thumbnailData == "?*""#, in: container), [])
    }

    /// A custom key may hold Data (or an array of Data) too, which no field indexes either: `== "*"` must find
    /// the items holding it and `!= "*"` the others (it found none, and every item).
    func testPresenceOfCustomDataValues() throws {
        let key = customKey("blob")
        func item(_ id: String, _ value: Any?) -> CSSearchableItem {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.title = "file \(id)"
            set.setValue(value, forCustomKey: key)
            return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: "tests", attributeSet: set)
        }
        let container = makeContainer([item("a", Data([1, 2])), item("b", nil), item("c", [Data([3]), Data([4])]),
                                       item("d", "text")])
        XCTAssertEqual(try evaluate(#"blob == "*""#, in: container), ["a", "c", "d"])
        XCTAssertEqual(try evaluate(#"blob != "*""#, in: container), ["b"])
        XCTAssertEqual(try evaluate(#"title == "file"w && blob == "*""#, in: container), ["a", "c", "d"])
        XCTAssertEqual(try evaluate(#"blob == "?*""#, in: container), ["d"])
    }

    /// A person with no name and no handles has no text for a field to hold, as Data has none: only the blob holds
    /// it, so `== "*"` must read it there (the scan took Data alone and called such a key absent).
    func testPresenceOfCustomPersonsWithoutText() throws {
        let key = customKey("contact")
        let bare = CSPerson(displayName: nil, handles: [], handleIdentifier: "email")
        func item(_ id: String, _ value: Any?) -> CSSearchableItem {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.title = "file \(id)"
            set.setValue(value, forCustomKey: key)
            return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: "tests", attributeSet: set)
        }
        let container = makeContainer([item("a", bare), item("b", nil), item("c", [bare, bare]),
                                       item("d", [bare, NSNumber(value: 1)] as [Any])])
        XCTAssertEqual(try evaluate(#"contact == "*""#, in: container), ["a", "c", "d"])
        XCTAssertEqual(try evaluate(#"contact != "*""#, in: container), ["b"])
    }

    /// A key made with `searchable: false` is one "queries may not reference" (reference §1.9): its strings are in
    /// no field, so its Data must not answer `== "*"` either (the blob scan found it).
    func testPresenceIgnoresUnsearchableCustomKeys() throws {
        let hidden = try XCTUnwrap(CSCustomAttributeKey(keyName: "hidden", searchable: false, searchableByDefault: false,
                                                        unique: false, multiValued: false))
        func item(_ id: String, _ value: Any?) -> CSSearchableItem {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.title = "file \(id)"
            set.setValue(value, forCustomKey: hidden)
            return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: "tests", attributeSet: set)
        }
        let container = makeContainer([item("a", Data([1, 2])), item("b", nil), item("c", [Data([3])]),
                                       item("d", "text")])
        XCTAssertEqual(try evaluate(#"hidden == "*""#, in: container), [])
        XCTAssertEqual(try evaluate(#"hidden != "*""#, in: container), ["a", "b", "c", "d"])
        XCTAssertEqual(try evaluate(#"title == "file"w && hidden == "*""#, in: container), [])
    }

    /// A transcript is queried as the body (reference §2.6: "`transcribedTextContent`, queried as `textContent`"):
    /// `textContent` and its `kMDItem` alias found only the `textContent` field.
    func testTextContentCoversTranscribedTextContent() throws {
        func item(_ id: String, _ configure: (CSSearchableItemAttributeSet) -> Void) -> CSSearchableItem {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            configure(set)
            return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: nil, attributeSet: set)
        }
        let container = makeContainer([
            item("song") { $0.textContent = "Follow us on Twitter, today" },
            item("talk") { $0.transcribedTextContent = "the budget meeting about twitter" },
            item("memo") { $0.contentDescription = "budget review" },
        ])
        XCTAssertEqual(try evaluate(#"textContent == "twitter"cdwt"#, in: container), ["song", "talk"])
        XCTAssertEqual(try evaluate(#"kMDItemTextContent == "*budget*"cd"#, in: container), ["talk"])
        XCTAssertEqual(try evaluate(#"* == "budget*"cdw || textContent == "budget*"cdw"#, in: container), ["memo", "talk"])
        XCTAssertEqual(try evaluate(#"transcribedTextContent == "*twitter*"cd"#, in: container), ["talk"])
    }

    func testUnknownAttributeNeverMatchesEqualAndAlwaysMatchesNotEqual() {
        check(#"noSuchAttribute == "*""#, [])
        check(#"noSuchAttribute == "x""#, [])
        check(#"noSuchAttribute != "x""#, ["paris", "lower", "accent", "window", "chopin", "bare"])
        check("noSuchAttribute > 3", [])
    }

    func testNumbersAndInclusiveRanges() {
        check("rating == 4", ["paris"])
        check("rating != 4", ["lower", "accent", "window", "chopin", "bare"])
        check("rating > 2", ["paris", "accent"])
        check("rating >= 2", ["paris", "lower", "accent"])
        check("rating < 4", ["lower"])
        check("rating <= 4", ["paris", "lower"])
        check("InRange(rating, 2, 4)", ["paris", "lower"])
        check("InRange(rating, 4, 4.5)", ["paris", "accent"])
        check("InRange(rating, 4.6, 9)", [])
        check("rating == 0x4", ["paris"])
    }

    func testStringAgainstNumberComparesNumericallyWhenItParses() {
        check(#"rating == "4""#, ["paris"])
        check(#"rating == "4.5""#, ["accent"])
        check(#"rating == "four""#, [])
        check(#"rating > "3""#, ["paris", "accent"])
        check(#"title > "a""#, [])
        check("title == 4", [])
    }

    func testDatesWithTimeExpressionsAndAFixedClock() {
        check("contentCreationDate >= $time.now(-259200)", ["paris", "chopin"])
        check("contentCreationDate < $time.now", ["paris", "lower"])
        check("contentCreationDate > $time.today(-7)", ["paris", "chopin"])
        check("InRange(contentCreationDate, $time.today(-30), $time.today)", ["paris", "lower"])
        let exact = Self.clock.now.addingTimeInterval(-2 * Self.day).timeIntervalSinceReferenceDate
        check("contentCreationDate == \(Int(exact))", ["paris"])
        check("InRange(contentCreationDate, \(Int(exact)), \(Int(exact)))", ["paris"])
        check("kMDItemContentCreationDate > $time.iso(2001-01-01T00:00:00Z)", ["paris", "lower", "chopin"])
    }

    /// A date before the 1582 Gregorian switch matches the same stored instant with or without a zone (UTC
    /// calendar): ISO 8601 dates are proleptic Gregorian.
    func testISODateBeforeTheGregorianSwitchMatchesTheStoredDate() throws {
        let item = makeItem("old", title: "Old map")
        item.attributeSet.contentCreationDate = Date(timeIntervalSinceReferenceDate: -15_804_979_200) // 1500-03-01Z
        let container = makeContainer([item, makeItem("new", title: "New map")])
        XCTAssertEqual(try evaluate("contentCreationDate == $time.iso(1500-03-01T00:00:00Z)", in: container), ["old"])
        XCTAssertEqual(try evaluate("contentCreationDate == $time.iso(1500-03-01T00:00:00)", in: container), ["old"])
        XCTAssertEqual(try evaluate("InRange(contentCreationDate, $time.iso(1500-03-01), $time.iso(1500-03-02))",
                                    in: container), ["old"])
    }

    func testCustomKeysAndAliases() {
        check(#"status == "open""#, ["paris"])
        check(#"status == "OPEN"c"#, ["paris"])
        check(#"status != "open""#, ["lower", "accent", "window", "chopin", "bare"])
        check("priority >= 1", ["paris", "bare"])
        check("priority == 5", ["paris"])
        check(#"kMDItemTitle == "Paris""#, ["paris"])
        check(#"kMDItemKeywords == "Europe""#, ["paris"])
        check(#"kMDItemDisplayName == "Report.Numbers""#, ["window"])
    }

    func testContentTypesAndTheHeaderExample() {
        let everything = ["paris", "lower", "accent", "window", "chopin", "bare"]
        check(#"contentType == "public.text""#, everything)
        check(#"contentTypeTree == "public.data""#, everything)
        check(#"contentTypeTree == "public.image""#, [])
        check(#"contentType == "public.text" && title != "P*""#, ["lower", "window", "chopin", "bare"])
        check(#"kMDItemContentTypeTree == "public.*" && status == "*""#, ["paris", "window"])
    }

    func testDomainIdentifierMatchesTheItemDomain() {
        let everything = ["paris", "lower", "accent", "window", "chopin", "bare"]
        check(#"domainIdentifier == "tests""#, everything)
        check(#"kMDItemDomainIdentifier == "te*""#, everything)
        check(#"domainIdentifier == "TESTS"c && rating == 4"#, ["paris"])
        check(#"domainIdentifier != "tests""#, [])
        check(#"domainIdentifier == "other""#, [])
    }

    func testAnyAttribute() {
        check(#"* == "Europe""#, ["paris"])
        check(#"* == "open""#, ["paris"])
        check(#"* == "eiffel"cdw"#, [])
        check(#"** == "eiffel"cdw"#, ["paris"])
        check(#"* == "numbers"cw"#, ["window"])
        check("* == 4.5", ["accent"])
    }

    func testBooleansAndConstants() {
        check(#"title == "Paris" && rating == 4"#, ["paris"])
        check(#"title == "Paris" && rating == 2"#, [])
        check(#"title == "Paris" || rating == 2"#, ["paris", "lower"])
        check(#"!(title == "paris"c)"#, ["accent", "window", "chopin", "bare"])
        check(#"(title == "Paris" || title == "paris") && keywords == "Travel""#, ["lower"])
        check("true", ["paris", "lower", "accent", "window", "chopin", "bare"])
        check("false", [])
        check("!false && rating == 2", ["lower"])
    }

    func testParseErrorsBecomeInvalidQueryWithPosition() {
        XCTAssertThrowsError(try QueryEvaluator.parse(#"title == "Paris" &&"#)) { error in
            guard let error = error as? CSSearchQueryError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.code, .invalidQuery)
            XCTAssertTrue(error.message.contains("offset"), error.message)
        }
        XCTAssertThrowsError(try QueryEvaluator.parse("")) { error in
            XCTAssertEqual((error as? CSSearchQueryError)?.code, .invalidQuery)
        }
    }

    /// Queries failing with `kind`, one for each place the parser reports it (the number that is not a number
    /// after lexing, a guard, has no example).
    static func failing(_ kind: QueryParseError.Kind) -> [String] {
        switch kind {
        case .emptyQuery: ["", " \n\t "]
        case .unexpectedToken:
            ["title == ", "title == Paris", "a == 1 b == 2", "(a == 1 b == 2)", #""Paris""#, "== 1", "a == 1 &&",
             "title Paris", "InRange(1, 2, 3)", "InRange(a 1, 2)", "InRange(a, 1)", "InRange(a, 1, 2, 3)",
             "InRange(a, true, 3)"]
        case .unexpectedCharacter: ["a == 1 &", "a == 1 | b == 2", "a == -", #"a == "x" @"#]
        case .unterminatedString: [#"title == "Paris"#, "title == 'it"]
        case .unknownModifier: [#"title == "a"x"#]
        case .misplacedModifiers: [#"InRange(a, "x"c, "y")"#]
        case .unbalancedParenthesis: ["a == 1)", "(a == 1", "InRange(a, 1, 2", "a == $time.today(-7"]
        case .invalidNumber: ["a == 12abc", "a == 0x", "a == 1e"]
        case .invalidTime:
            ["a == $time.today(x)", "a == $time.today(99999999)", "a == $time.today(-7 8)", "a == $time.iso",
             "a == $time.iso(2024-13-01)", "a == $time.absolute", "a == $time.absolute(soon)"]
        case .unknownFunction: ["inrange(a, 1, 2)", "Between(a, 1, 2)", "a == $time.tomorrow", "a == $foo"]
        case .nestingTooDeep: [String(repeating: "(", count: 200) + "a == 1", String(repeating: "!", count: 200) + "true"]
        }
    }

    /// Every syntax error, of every kind, tells where it is and what was expected there (the issue's contract
    /// for `invalidQuery`): the message names the offset and says "expected" as a word ("unexpected" does
    /// not count).
    func testEveryParseErrorNamesItsOffsetAndWhatWasExpected() throws {
        var checked = 0
        for kind in QueryParseError.Kind.allCases {
            for query in Self.failing(kind) {
                let offset: Int
                do {
                    let parsed = try QueryParser.parse(query)
                    XCTFail("\(query.debugDescription) parsed as \(parsed)")
                    continue
                } catch {
                    XCTAssertEqual(error.kind, kind, query.debugDescription)
                    offset = error.offset
                }
                XCTAssertThrowsError(try QueryEvaluator.parse(query)) { error in
                    guard let error = error as? CSSearchQueryError else { return XCTFail("\(error)") }
                    XCTAssertEqual(error.code, .invalidQuery)
                    XCTAssertTrue(error.message.contains("offset \(offset)"), "\(query.debugDescription): \(error.message)")
                    XCTAssertNotNil(error.message.range(of: #"\bexpected\b"#, options: .regularExpression),
                                    "\(query.debugDescription): \(error.message)")
                }
                checked += 1
            }
        }
        XCTAssertEqual(checked, 43)
    }
}
