import Foundation
import XCTest
@testable import Searchlight

/// WHATWG: in HTML content the self-closing flag on a non-void element is ignored, so `<script/>`, `<style/>` and
/// `<title/>` still read their contents to the matching end tag; only in SVG/MathML does `/>` close an element.
final class HTMLSelfClosingRawTextTests: XCTestCase {
    func testASelfClosingScriptStillReadsItsScriptData() throws {
        let page = try extractHTML("""
            <html><body><p>Visible words</p>
            <div><script src="/app.js"/>document.write("</div>"); var secretToken = 1;</script></div>
            <p>After</p></body></html>
            """)
        XCTAssertFalse(page.textContent.contains("secretToken"), page.textContent)
        XCTAssertTrue(page.textContent.contains("Visible words"), page.textContent)
        XCTAssertTrue(page.textContent.contains("After"), page.textContent)
    }

    func testASelfClosingJSONLDScriptKeepsItsJSON() throws {
        let page = try extractHTML("""
            <html><head><script type="application/ld+json"/>{"@type": "Product", "name": "Boot"}</script></head>
            <body><p>Text</p></body></html>
            """)
        XCTAssertEqual(page.product?.name, "Boot")
        XCTAssertFalse(page.textContent.contains("Product"), page.textContent)
    }

    func testASelfClosingTitleStillReadsItsText() throws {
        let page = try extractHTML("<html><head><title/>Real title</title></head><body><p>Body</p></body></html>")
        XCTAssertEqual(page.title, "Real title")
        XCTAssertFalse(page.textContent.contains("Real title"), page.textContent)
    }

    func testInSVGASelfClosingScriptClosesAtOnce() throws {
        let page = try extractHTML("""
            <html><body><svg><script href="x.js"/></svg><p>After the drawing</p>
            <script type="application/ld+json">{"@type": "Product", "name": "Boot"}</script></body></html>
            """)
        XCTAssertTrue(page.textContent.contains("After the drawing"), page.textContent)
        XCTAssertEqual(page.product?.name, "Boot")
    }

    func testTheTokenizerReadsRawTextAfterSelfClosingTagsOnlyInHTMLContent() {
        func kinds(_ html: String, foreign: Bool) -> [String] {
            let bytes = Array(html.utf8)
            return bytes.withUnsafeBufferPointer { buffer in
                var tokenizer = HTMLTokenizer(bytes: buffer)
                tokenizer.inForeignContent = foreign
                var out: [String] = []
                while let token = tokenizer.next() {
                    switch token {
                    case .rawText(_, let range): out.append("raw:" + String(decoding: buffer[range], as: UTF8.self))
                    case .text(let text): out.append("text:" + text)
                    case .startTag(let name, _, _, _): out.append("<\(name)>")
                    case .endTag(let name, _): out.append("</\(name)>")
                    default: out.append("other")
                    }
                }
                return out
            }
        }
        XCTAssertEqual(kinds("<script/>a<b>c</script>", foreign: false), ["<script>", "raw:a<b>c", "</script>"])
        XCTAssertEqual(kinds("<title/>a<b>c</title>", foreign: false), ["<title>", "text:a<b>c", "</title>"])
        XCTAssertEqual(kinds("<script/>a<b>c</script>", foreign: true),
                       ["<script>", "text:a", "<b>", "text:c", "</script>"])
    }
}
