import Foundation
import XCTest
@testable import Searchlight

/// The query-string table of Apple's "Searching for information in your app" (Core Spotlight), row by row: each
/// query against the values Apple names as matching and as not matching.
final class AppleQueryStringExamplesTests: XCTestCase {
    /// Items titled (and authored) by each value Apple's table mentions.
    static let values = ["Paris", "paris", "I love Paris", "paris-france.jpg", "Comparison", "comparison",
                         "MyWindowClass", "Broken Window", "NSWindow", "Frédéric", "Frederic", "parisol"]

    static let container: SearchlightContainer = {
        makeContainer(values.enumerated().map { index, value in
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.title = value
            set.authorNames = [value]
            return CSSearchableItem(uniqueIdentifier: "\(index)", domainIdentifier: nil, attributeSet: set)
        })
    }()

    /// Asserts that `query` matches every value of `matches` and none of `notMatches`.
    func check(_ query: String, matches: [String], notMatches: [String],
               file: StaticString = #filePath, line: UInt = #line) throws {
        let found = Set(try evaluate(query, in: Self.container).compactMap { Int($0) }.map { Self.values[$0] })
        for value in matches { XCTAssertTrue(found.contains(value), "\(query) should match \(value)", file: file, line: line) }
        for value in notMatches {
            XCTAssertFalse(found.contains(value), "\(query) should not match \(value)", file: file, line: line)
        }
    }

    func testModifierRows() throws {
        try check(#"title == "Paris""#, matches: ["Paris"], notMatches: ["paris", "I love Paris"])
        try check(#"title == "Paris"c"#, matches: ["Paris", "paris"], notMatches: ["I love Paris"])
        try check(#"title == "Paris"wc"#, matches: ["Paris", "paris", "I love Paris", "paris-france.jpg"],
                  notMatches: ["Comparison"])
        try check(#"title == "Window"w"#, matches: ["MyWindowClass", "Broken Window"], notMatches: ["NSWindow"])
        try check(#"authorNames == "Frédéric""#, matches: ["Frédéric"], notMatches: ["Frederic"])
        try check(#"authorNames == "Frédéric"cd"#, matches: ["Frédéric", "Frederic"], notMatches: [])
    }

    func testWildcardRows() throws {
        try check(#"title == "paris*""#, matches: ["paris", "parisol"], notMatches: ["comparison"])
        try check(#"title == "*paris*""#, matches: ["paris", "parisol", "comparison"], notMatches: [])
        try check(#"title == 'paris'"#, matches: ["paris"], notMatches: ["parisol", "Paris"])
    }

    func testPresenceRows() throws {
        try check(#"title == "*""#, matches: Self.values, notMatches: [])
        try check(#"title != "*""#, matches: [], notMatches: Self.values)
    }
}
