import Foundation
import XCTest
@testable import Searchlight

/// Bad input ends in an item or a clear error, never a crash or a hang.
final class WebMalformedInputTests: XCTestCase {
    private let url = URL(string: "https://www.example.com/page")!

    /// Every prefix of a page is a page: each one yields an item or the empty-page error.
    func testTruncationAtEveryByteOffset() throws {
        for name in ["product.html", "broken.html"] {
            let data = try webFixture(name)
            var items = 0
            for cut in 0...data.count {
                do {
                    let item = try WebMarkupIndexer().item(fromHTML: data.prefix(cut), url: url)
                    XCTAssertTrue(item.validationProblems().isEmpty, "\(name) cut at \(cut)")
                    items += 1
                } catch {
                    XCTAssertEqual(error.code, .emptyPage, "\(name) cut at \(cut): \(error)")
                }
            }
            XCTAssertGreaterThan(items, data.count - 10, name)
        }
    }

    func testEveryCutOfTheProductPageKeepsWhatCameBefore() throws {
        let data = try webFixture("product.html")
        let text = String(decoding: data, as: UTF8.self)
        let afterOGTitle = text.range(of: "<meta property=\"og:description\"")!.lowerBound.utf16Offset(in: text)
        let page = try WebMarkupIndexer().extract(html: data.prefix(afterOGTitle), url: url)
        XCTAssertEqual(page.openGraph["og:title"], "Trailblazer 2 Waterproof Hiking Boot")
        XCTAssertNil(page.product)
    }

    func testInvalidJSONLDIsAnIssueWithItsPlace() throws {
        let page = try extractHTML("""
            <title>t</title>
            <script type="application/ld+json">
            {"@type": "Product",
             "name": "x" "oops"}
            </script>
            <script type="application/ld+json">[1, 2, "three", null, {"@type": "Recipe", "name": "ok"}]</script>
            """)
        XCTAssertEqual(page.issues.count, 1)
        let issue = try XCTUnwrap(page.issues.first)
        XCTAssertEqual(issue.kind, .invalidJSONLD)
        XCTAssertEqual(issue.line, 4)
        XCTAssertNotNil(issue.column)
        XCTAssertTrue(issue.description.contains("line 4"), issue.description)
        XCTAssertEqual(page.recipe?.name, "ok", "later blocks still count")
        XCTAssertEqual(WebMarkupIndexer().item(from: page).attributeSet.title, "ok")
    }

    func testJSONLDDepthBombIsRefusedNotRecursedInto() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let page = try extractHTML("<script type=application/ld+json>\(deep)</script><p>after")
        XCTAssertEqual(page.issues.map(\.kind), [.invalidJSONLD])
        XCTAssertEqual(page.textContent, "after")
    }

    /// 4,000 references to one entity with 4,000 values: the property holds the entity once (a repeat is one value,
    /// as in RDF), so reading it walks those values once, not once per reference (quadratic: ~15 s).
    func testRepeatedJSONLDReferencesResolveToOneValue() throws {
        let n = 4_000
        let refs = Array(repeating: ##"{"@id":"#b"}"##, count: n).joined(separator: ",")
        let empties = Array(repeating: #"{"x":1}"#, count: n).joined(separator: ",")
        let start = Date()
        let page = try extractHTML(#"<script type="application/ld+json">{"@context":"https://schema.org","@graph":["#
            + #"{"@type":"Product","name":["# + refs + ##"]},{"@id":"#b","@type":"Thing","name":["## + empties + "]}]}</script>")
        let elapsed = Date().timeIntervalSince(start)
        let product = try XCTUnwrap(page.jsonLD.first)
        XCTAssertEqual(product.values("name").count, 1)
        XCTAssertEqual(product.node("name")?.values("name").count, n)
        XCTAssertNotNil(page.product)
        XCTAssertNil(page.product?.name)
        XCTAssertLessThan(elapsed, 3)
        // Distinct references and other values keep their places.
        let article = try extractHTML("""
            <script type="application/ld+json">{"@graph":[{"@type":"Article","headline":"H",
              "author":[{"@id":"#a"},{"@id":"#c"},{"@id":"#a"},"Dee",{"@id":"#c"}]},
              {"@id":"#a","name":"Ann"},{"@id":"#c","name":"Cy"}]}</script>
            """).article
        XCTAssertEqual(article?.authors, ["Ann", "Cy", "Dee"])
    }

    func testDeepNestingIsCapped() throws {
        let depth = 20_000
        let html = String(repeating: "<div itemscope itemprop=x>", count: depth) + "deep" + String(repeating: "</div>", count: depth)
        let page = try extractHTML(html)
        XCTAssertEqual(page.textContent, "deep")
        XCTAssertEqual(page.issues.first?.kind, .nestingTooDeep)
        XCTAssertEqual(page.microdata.count, 1)
        // Nested scopes are bounded by the cap, so the outermost item has a finite chain of `x` values.
        var node = page.microdata.first, levels = 0
        while let next = node?.node("x") { node = next; levels += 1 }
        XCTAssertEqual(levels, HTMLMarkupReader.maximumDepth - 1)
    }

    func testManyUnmatchedEndTagsAndUnclosedElements() throws {
        let html = String(repeating: "</span></p></li>", count: 20_000) + String(repeating: "<b><i>x", count: 20_000)
        let page = try extractHTML(html)
        XCTAssertEqual(page.textContent.count, 20_000)
    }

    /// Shapes that would make a backtracking or rescanning reader quadratic. At 256 KB each, a quadratic path
    /// would take minutes (no time is asserted; a regression shows as a hung test). Each must still be read.
    func testAdversarialShapesStayLinear() throws {
        let n = 256 << 10
        func repeated(_ piece: String) -> String { String(repeating: piece, count: n / max(1, piece.utf8.count)) }
        let shapes: [(String, String)] = [
            ("unclosed tags", repeated("<a")),
            ("unclosed attributes", repeated("<a b")),
            ("open scripts", "<script>" + repeated("</scrip<")),
            ("escaped scripts", "<script><!--" + repeated("<script>-<!--</script>")),
            ("open comments", repeated("<!--")),
            ("dashes in a comment", "<!--" + repeated("--!")),
            ("ampersands", repeated("&")),
            ("legacy entity prefixes", repeated("&notin")),
            ("long numeric reference", "&#" + repeated("0")),
            ("implicit closes", repeated("<p><li><dd><td><tr>")),
            ("sibling scopes", repeated("<div itemscope itemtype=https://schema.org/Product><b itemprop=name>x</b></div>")),
            ("nested captures", repeated("<span itemprop=a>") + repeated("x ")),
            ("many itemprop names", "<div itemscope><p itemprop=\"" + repeated("n ") + "\">v</p></div>"),
            ("invalid JSON-LD blocks", repeated("<script type=application/ld+json>{,}</script>")),
            ("keywords", "<meta name=keywords content=\"" + repeated("k,") + "\">"),
            ("CDATA brackets", "<![CDATA[" + repeated("]]")),
        ]
        for (name, html) in shapes {
            XCTAssertNoThrow(try extractHTML(html), name)
        }
    }

    func testBadEntitiesNeverFail() throws {
        let page = try extractHTML("<p>&#; &#x; &#xFFFFFFFFFFFF; &&&; &#-1; &ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ; &am&amp;p; &#1114112;</p>")
        XCTAssertEqual(page.textContent, "&#; &#x; \u{FFFD} &&&; &#-1; &ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ; &am&p; \u{FFFD}")
    }

    func testClearErrorsForUnusableInput() {
        let indexer = WebMarkupIndexer()
        func code(_ data: Data, _ url: String) -> WebMarkupError.Code? {
            do {
                _ = try indexer.item(fromHTML: data, url: URL(string: url)!)
                return nil
            } catch {
                return error.code
            }
        }
        XCTAssertEqual(code(Data(), "https://www.example.com/"), .emptyPage)
        XCTAssertEqual(code(Data([0xEF, 0xBB, 0xBF, 0x20, 0x0A]), "https://www.example.com/"), .emptyPage)
        XCTAssertEqual(code(Data("<p>x".utf8), "ftp://files.example.com/a.html"), .invalidPageURL)
        XCTAssertEqual(code(Data("<p>x".utf8), "file:///tmp/a.html"), .invalidPageURL)
        XCTAssertEqual(code(Data("<p>x".utf8), "relative/path.html"), .invalidPageURL)
        var options = WebMarkupIndexer.Options()
        options.maximumPageBytes = 10
        XCTAssertThrowsError(try WebMarkupIndexer(options: options).item(fromHTML: Data(count: 11), url: url)) {
            XCTAssertEqual(($0 as? WebMarkupError)?.code, .pageTooLarge)
            XCTAssertTrue("\($0)".contains("https://www.example.com/page"))
        }
    }

    /// Seeded random bytes: decoding and reading must terminate with an item or an error, for any input.
    func testFuzzRandomBytes() {
        var rng = SeededGenerator(seed: 0x5EA2C41)
        for round in 0..<300 {
            let length = Int.random(in: 0..<2_000, using: &rng)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            check(Data(bytes), round: round)
        }
    }

    /// Seeded tag soup from HTML-ish fragments, including every construct the reader special-cases.
    func testFuzzTagSoup() {
        let pieces = [
            "<", ">", "</", "/>", "<!--", "-->", "<![CDATA[", "]]>", "<!DOCTYPE html>", "<?xml ?>", "<script>", "</script>",
            "<script type=\"application/ld+json\">", "{\"@type\":\"Product\",\"name\":\"P\"", "}", "[", "]", "<style>",
            "</style>", "<title>", "</title>", "<textarea>", "<div itemscope itemtype=\"https://schema.org/Recipe\">",
            "<span itemprop=\"name\">", "</span>", "</div>", "<meta property=\"og:title\" content=\"T\">",
            "<meta charset=\"latin1\">", "<meta name=\"apple-itunes-app\" content=\"app-id=1, app-argument=x://y\">",
            "<link rel=canonical href=\"/c\">", "<base href=", "\"", "'", "=", "&amp;", "&#x", "&#", "&copy", ";", "é", "中",
            "\u{0}", " ", "\n", "<p>", "<li>", "<table><tr><td>", "<svg><path/>", "</svg>", "<nav>", "<a href=\"tel:1\">",
            "itemprop=telephone", "<time itemprop=startDate datetime=2026-01-01>", "<meta itemprop=latitude content=1>",
        ]
        var rng = SeededGenerator(seed: 42)
        for round in 0..<400 {
            var html = ""
            for _ in 0..<Int.random(in: 0..<120, using: &rng) { html += pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
            var data = Data(html.utf8)
            if round % 7 == 0, !data.isEmpty { data[Int.random(in: 0..<data.count, using: &rng)] = 0xFF }
            check(data, round: round)
        }
    }

    private func check(_ data: Data, round: Int) {
        do {
            let item = try WebMarkupIndexer().item(fromHTML: data, url: url)
            XCTAssertFalse(item.uniqueIdentifier.isEmpty)
            XCTAssertTrue(item.validationProblems().isEmpty, "round \(round): \(item.validationProblems())")
            XCTAssertLessThanOrEqual(item.attributeSet.textContent?.utf8.count ?? 0, WebMarkupIndexer.Options().maximumTextBytes)
        } catch {
            // Typed throws: the only possible error is a WebMarkupError.
            XCTAssertTrue([.emptyPage, .unsupportedCharset].contains(error.code), "round \(round): \(error)")
        }
    }
    /// HTML lets `</head>` be left out: the first element that cannot be in the head (`<body>`, or content such as
    /// a `<div>`) ends it, as a browser's parser does, so the body's text is the page's text, not hidden head.
    func testAnOmittedHeadEndTagEndsTheHeadAtTheBody() throws {
        let page = try extractHTML("<html><head><title>T</title><body><p>Hello world</p></body></html>")
        XCTAssertEqual(page.title, "T")
        XCTAssertEqual(page.textContent, "Hello world")
        let item = try WebMarkupIndexer().item(fromHTML: Data("<head><title>T</title><body><p>Hello world</p>".utf8),
                                              url: URL(string: "https://www.example.com/p")!)
        XCTAssertEqual(item.attributeSet.textContent, "Hello world")
        let content = try extractHTML("<head><meta name=description content=d><title>T</title><div>Shown</div></head><p>too")
        XCTAssertEqual(content.textContent, "Shown too", "content in the head ends it")
        let kept = try extractHTML("<head><script>var x</script><style>p{}</style><noscript>n</noscript><link rel=x>"
                                   + "<meta name=a content=b><title>T</title></head><body>Body")
        XCTAssertEqual(kept.textContent, "Body", "what the head may hold stays in it, hidden")
        XCTAssertEqual(kept.title, "T")
    }

    /// Text (not just whitespace) where `</head>` and `<body>` were left out ends the head too, as in browsers:
    /// `<head><title>T</title>Welcome…` shows "Welcome…", which was read as hidden head text and lost.
    func testTextInAnUnclosedHeadEndsTheHead() throws {
        let page = try extractHTML("<html><head><title>T</title>\n  Welcome to my page<p>Para</p>")
        XCTAssertEqual(page.title, "T")
        XCTAssertEqual(page.textContent, "Welcome to my page Para")
        let spaced = try extractHTML("<head>\n <title>T</title>\n <meta name=description content=d>\n</head><body>Body")
        XCTAssertEqual(spaced.textContent, "Body")
        XCTAssertEqual(spaced.metaDescription, "d", "whitespace keeps the head open")
    }
}
