import Foundation
import SearchlightQueryLanguage
import XCTest
@testable import Searchlight

/// The `w` modifier splits words at lowercase-to-uppercase transitions only, as Apple documents it
/// ("Searching for information in your app": `title == "Window"w` matches "MyWindowClass" and "Broken Window",
/// but not "NSWindow"): a capitalized word after capitals or digits is no separate word under `w`.
final class WordModifierCaseBoundaryTests: XCTestCase {
    static let container: SearchlightContainer = {
        func item(_ id: String, _ title: String) -> CSSearchableItem {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.title = title
            return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: "d", attributeSet: set)
        }
        return makeContainer([item("class", "MyWindowClass"), item("broken", "Broken Window"),
                              item("ns", "NSWindow"), item("html", "HTMLParser"), item("base", "Base64Encoder"),
                              item("cjk", "東京Window"), item("accent", "ÉTATWindow")])
    }()

    func check(_ query: String, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try evaluate(query, in: Self.container), expected.sorted(), query, file: file, line: line)
    }

    func testAppleExampleWindow() throws {
        try check(#"title == "Window"w"#, ["broken", "class", "cjk"])
        try check(#"title == "window"cw"#, ["broken", "class", "cjk"])
        try check(#"title == "NSWindow"w"#, ["ns"])
    }

    func testCapitalizedWordAfterCapitalsOrDigitsIsNoWord() throws {
        try check(#"title == "Parser"w"#, [])
        try check(#"title == "HTMLParser"w"#, ["html"])
        try check(#"title == "Encoder"w"#, [])
        try check(#"title == "Base64Encoder"w"#, ["base"])
        try check(#"title == "Window"dw"#, ["broken", "class", "cjk"])
        try check(#"title == "ETATWindow"dw"#, ["accent"])
    }

    /// A joined word inside a compound whose whole starts before it (`Foo.NSWindow`) is still found through the
    /// postings: its first index part ("ns") is a candidate term (fillers make the postings pay).
    func testJoinedWordInsideACompoundIsACandidate() throws {
        func item(_ id: String, _ title: String) -> CSSearchableItem {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.title = title
            return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: "d", attributeSet: set)
        }
        let fillers = (0..<400).map { item("filler\($0)", "Filler \($0)") }
        let container = makeContainer(fillers + [item("compound", "Foo.NSWindow"), item("html", "Foo-HTMLParser")])
        XCTAssertEqual(try evaluate(#"title == "NSWin*"w"#, in: container), ["compound"])
        XCTAssertEqual(try evaluate(#"title == "nswindow"cw"#, in: container), ["compound"])
        XCTAssertEqual(try evaluate(#"title == "Window"w"#, in: container), [])
        XCTAssertEqual(try evaluate(#"title == "HTMLParser"w"#, in: container), ["html"])
        XCTAssertEqual(try evaluate(#"title == "Foo"w && title == "HTMLP*"w"#, in: container), ["html"])
    }

    /// The reference evaluator of the differential tests agrees.
    func testReferenceEvaluatorAgrees() throws {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.title = "NSWindow"
        let item = CSSearchableItem(uniqueIdentifier: "ns", domainIdentifier: "d", attributeSet: set)
        let reference = ReferenceEvaluator(now: Date(), calendar: utcCalendar)
        XCTAssertFalse(reference.matches(try QueryEvaluator.parse(#"title == "Window"w"#), item))
        XCTAssertTrue(reference.matches(try QueryEvaluator.parse(#"title == "NSWindow"w"#), item))
    }

    /// Joining a word to the one before it read the joined word whole to find its last character, so a value of
    /// words that all join ("Ab1Ab1…": each capital follows a digit) took time quadratic in its length (768 KB took
    /// 4.3 s in a debug build, so these 3 MB about a minute). A bound far above the linear time, not a timing.
    func testJoiningWordsIsLinear() {
        let match = TextMatch(pattern: StringPattern(literal: "zzz"), modifiers: [.wordBased])
        XCTAssertEqual(TextMatch.modifierWords(in: String(repeating: "Ab1", count: 1000)).count, 1)
        let value = String(repeating: "Ab1", count: 1_000_000)
        let start = Date()
        XCTAssertFalse(match.matches(value))
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
    }
}
