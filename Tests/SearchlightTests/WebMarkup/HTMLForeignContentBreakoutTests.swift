import Foundation
import XCTest
@testable import Searchlight

/// WHATWG "in foreign content": an HTML start tag such as `<p>`, `<div>` or `<b>` ends an unclosed `<svg>`/`<math>`
/// (the breakout list), except inside an HTML integration point (`foreignObject`, `desc`, `title`, MathML `mi`...).
final class HTMLForeignContentBreakoutTests: XCTestCase {
    func testAnHTMLTagEndsAnUnclosedSVG() throws {
        let page = try extractHTML("""
            <html><body><p>Intro</p><svg viewBox="0 0 1 1"><path d="M0 0">
            <div><p>Visible after the broken icon</p></div><![CDATA[not text]]></body></html>
            """)
        XCTAssertTrue(page.textContent.contains("Visible after the broken icon"), page.textContent)
        XCTAssertFalse(page.textContent.contains("not text"), page.textContent)
    }

    func testHTMLInsideAForeignObjectStaysInTheDrawing() throws {
        let page = try extractHTML("""
            <html><body><svg><foreignObject><div>inside the drawing</div></foreignObject></svg>
            <math><mi><b>x</b></mi></math><p>after</p></body></html>
            """)
        XCTAssertFalse(page.textContent.contains("inside the drawing"), page.textContent)
        XCTAssertEqual(page.textContent, "after")
    }

    func testAnUnclosedMathEndsAtATable() throws {
        let page = try extractHTML("<body><math><mrow><mn>1</mn><table><tr><td>cell text</td></tr></table></body>")
        XCTAssertTrue(page.textContent.contains("cell text"), page.textContent)
    }

    /// The breakout pops foreign elements only down to an HTML integration point: a `<p>` in an SVG nested in a
    /// `foreignObject` stays in the outer drawing (WHATWG pops "while the current node is not ... an HTML
    /// integration point"), and the outer `</svg>` still closes that drawing.
    func testABreakoutStopsAtAnEnclosingForeignObject() throws {
        let page = try extractHTML("""
            <html><body><svg><foreignObject><svg><g><p>drawn label</p></foreignObject></svg>
            <p>after</p></body></html>
            """)
        XCTAssertFalse(page.textContent.contains("drawn label"), page.textContent)
        XCTAssertEqual(page.textContent, "after")
    }
}
