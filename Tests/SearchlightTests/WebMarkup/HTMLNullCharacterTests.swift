import Foundation
import XCTest
@testable import Searchlight

/// WHATWG: a U+0000 in body text is a parse error the tree builder ignores; in attribute values and RCDATA
/// (`<title>`) it becomes U+FFFD. Neither keeps a NUL in what is indexed.
final class HTMLNullCharacterTests: XCTestCase {
    func testNULInBodyTextIsDropped() throws {
        let page = try extractHTML("<html><body><p>hik\u{0}ing boots</p></body></html>")
        XCTAssertEqual(page.textContent, "hiking boots")
    }

    func testNULInAnAttributeValueBecomesTheReplacementCharacter() throws {
        let page = try extractHTML(#"<meta property="og:title" content="Boot\#u{0}s"><p>x</p>"#)
        XCTAssertEqual(page.openGraph["og:title"], "Boot\u{FFFD}s")
    }

    func testNULInTheTitleBecomesTheReplacementCharacter() throws {
        let page = try extractHTML("<title>Trail\u{0}blazer</title><p>x</p>")
        XCTAssertEqual(page.title, "Trail\u{FFFD}blazer")
    }

    func testNULInAMicrodataTextValueIsDropped() throws {
        let page = try extractHTML("""
            <div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Bo\u{0}ot</span></div>
            """)
        XCTAssertEqual(page.microdata.first?.string("name"), "Boot")
    }
}
