import Foundation
import XCTest
@testable import Searchlight

final class HTMLCharacterReferenceTests: XCTestCase {
    private func decode(_ text: String, attribute: Bool = false) -> String {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { HTMLCharacterReferences.decode($0, 0..<$0.count, inAttribute: attribute) }
    }

    func testNamedReferences() {
        XCTAssertEqual(decode("&amp;&lt;&gt;&quot;&apos;&nbsp;&mdash;&hellip;&rsquo;&euro;&copy;&eacute;&Omega;&hearts;"),
                       "&<>\"'\u{A0}—…’€©éΩ♥")
    }

    func testNumericReferences() {
        XCTAssertEqual(decode("&#x4E2D;&#20013;&#X41;&#65"), "中中AA")
        // 0x80–0x9F mean their Windows-1252 characters; invalid code points become U+FFFD.
        XCTAssertEqual(decode("&#128;&#x93;&#x94;&#150;"), "€“”–")
        XCTAssertEqual(decode("&#0;&#xD800;&#x110000;&#99999999999999999999;"), "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}")
        XCTAssertEqual(decode("&#;&#x;&#xZZ;"), "&#;&#x;&#xZZ;")
    }

    func testLegacyNamesWithoutSemicolon() {
        XCTAssertEqual(decode("&copy 2026 &amp &eacutetude &notit; &notin;"), "© 2026 & étude ¬it; ∉")
        // Only legacy names may lose their semicolon.
        XCTAssertEqual(decode("&mdash &hellip"), "&mdash &hellip")
        // In attribute values a legacy name followed by a letter, digit or `=` stays literal (URL queries).
        XCTAssertEqual(decode("/x?a=1&copy=2&amp=3&not_a=4&ampx", attribute: true), "/x?a=1&copy=2&amp=3¬_a=4&ampx")
        XCTAssertEqual(decode("&ampx"), "&x")
    }

    func testUnknownReferencesStayLiteral() {
        XCTAssertEqual(decode("&bogus; & &; &#; AT&T"), "&bogus; & &; &#; AT&T")
        XCTAssertEqual(decode("&"), "&")
        XCTAssertEqual(decode("trailing &am"), "trailing &am")
    }

    func testTableCoversTheCommonSet() {
        XCTAssertGreaterThanOrEqual(HTMLEntityTable.scalars.count, 250)
        // Every Latin-1 character U+00A0…U+00FF has a name, and every legacy name is in the table.
        let covered = Set(HTMLEntityTable.scalars.values)
        for scalar in UInt32(0xA0)...0xFF { XCTAssertTrue(covered.contains(scalar), String(scalar, radix: 16)) }
        for name in HTMLEntityTable.legacyWithoutSemicolon { XCTAssertNotNil(HTMLEntityTable.scalars[name], name) }
        XCTAssertTrue(HTMLEntityTable.scalars.keys.allSatisfy { $0.utf8.count <= HTMLEntityTable.longestName })
        XCTAssertEqual(HTMLEntityTable.scalars["rsquo"], 0x2019)
        XCTAssertEqual(HTMLEntityTable.scalars["euro"], 0x20AC)
    }
}
