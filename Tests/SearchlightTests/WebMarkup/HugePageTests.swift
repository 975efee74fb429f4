import Foundation
import XCTest
@testable import Searchlight

/// A 10 MB page is read completely (markup at its very end still counts). Timing is measured separately in a
/// release build (see the WebMarkup README); unit tests never assert on time.
final class HugePageTests: XCTestCase {
    /// A page of about `bytes` bytes: a realistic article repeated, with scripts, comments, entities, microdata
    /// and a JSON-LD block at the very end.
    static func hugePage(bytes: Int) -> Data {
        let block = """
            <div class="row"><p>Paragraph with <a href="/x?a=1&amp;b=2">a link</a>, &eacute;l&egrave;ve &mdash; caf&#xE9; \
            and <b>bold <i>misnested</b> text</i>.</p><!-- comment <p> --><script>var x = "<p>" + 1 < 2;</script>
            <ul><li>one<li>two<li>three</ul><span itemprop="orphan">z</span><img src="/i.png" alt="i"></div>

            """
        var page = Data("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Huge</title></head><body>".utf8)
        let blockData = Data(block.utf8)
        page.reserveCapacity(bytes + 1_000)
        while page.count < bytes { page.append(blockData) }
        page.append(Data("""
            <script type="application/ld+json">{"@type":"Product","name":"Found at the end","offers":{"price":"5"}}</script>
            </body></html>
            """.utf8))
        return page
    }

    func testTenMegabytePageIsReadToTheEnd() throws {
        let data = Self.hugePage(bytes: 10 << 20)
        XCTAssertGreaterThanOrEqual(data.count, 10 << 20)
        let page = try WebMarkupIndexer().extract(html: data, url: URL(string: "https://www.example.com/huge")!)
        XCTAssertEqual(page.title, "Huge")
        XCTAssertEqual(page.product?.name, "Found at the end")
        XCTAssertEqual(page.product?.price, 5)
        XCTAssertTrue(page.textTruncated)
        XCTAssertLessThanOrEqual(page.textContent.utf8.count, WebMarkupIndexer.Options().maximumTextBytes)
        XCTAssertTrue(page.textContent.hasPrefix("Paragraph with a link, élève — café and bold misnested text. one two three z"),
                      String(page.textContent.prefix(120)))
    }

    /// Degenerate shapes (sizes kept small: these are about never scanning back, not about size).
    func testMegabytesOfOneTextNodeOrOneTag() throws {
        let url = URL(string: "https://www.example.com/huge")!
        let text = Data(repeating: UInt8(ascii: "a"), count: 2 << 20)
        let page = try WebMarkupIndexer().extract(html: text, url: url)
        XCTAssertLessThanOrEqual(page.textContent.utf8.count, WebMarkupIndexer.Options().maximumTextBytes)
        // One start tag that never ends: dropped, so there is nothing visible.
        var tag = Data("<p>before<div ".utf8)
        tag.append(Data(repeating: UInt8(ascii: "x"), count: 1 << 20))
        XCTAssertEqual(try WebMarkupIndexer().extract(html: tag, url: url).textContent, "before")
        // An attribute value quoted but never closed.
        var attribute = Data("<p>before<div title=\"".utf8)
        attribute.append(Data(repeating: UInt8(ascii: "&"), count: 1 << 20))
        XCTAssertEqual(try WebMarkupIndexer().extract(html: attribute, url: url).textContent, "before")
        // An unterminated comment full of dashes.
        var comment = Data("<p>before<!--".utf8)
        comment.append(Data(repeating: UInt8(ascii: "-"), count: 1 << 20))
        XCTAssertEqual(try WebMarkupIndexer().extract(html: comment, url: url).textContent, "before")
    }
}
