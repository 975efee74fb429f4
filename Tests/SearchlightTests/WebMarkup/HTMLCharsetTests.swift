import Foundation
import XCTest
@testable import Searchlight

final class HTMLCharsetTests: XCTestCase {
    private let url = URL(string: "https://www.example.com/p")!

    func testLatin1FixtureIsDecodedFromISO88591Bytes() throws {
        let data = try webFixture("latin1.html")
        XCTAssertTrue(data.contains(0xE8), "the fixture must really be ISO-8859-1 (è = 0xE8)")
        let page = try WebMarkupIndexer().extract(html: data, url: url)
        XCTAssertEqual(page.charset, .latin1)
        XCTAssertEqual(page.charsetSource, "metaTag")
        XCTAssertEqual(page.title, "Crème brûlée à l'ancienne")
        XCTAssertEqual(page.metaDescription, "Dessert français, prêt en 45 minutes. © Pâtisserie Müller")
        XCTAssertTrue(page.textContent.contains("crème fraîche"), page.textContent)
        XCTAssertTrue(page.textContent.contains("4,50 £ ou ¥ 800"), page.textContent)
    }

    func testWindows1252FixtureUsesTheHighTable() throws {
        let data = try webFixture("windows-1252.html")
        XCTAssertTrue(data.contains(0x93) && data.contains(0x80), "the fixture must hold 0x80–0x9F bytes")
        let page = try WebMarkupIndexer().extract(html: data, url: url)
        XCTAssertEqual(page.charset, .windows1252)
        XCTAssertEqual(page.title, "“Smart” quotes — and € prices")
        XCTAssertEqual(page.textContent, "It’s “quoted” – costs €12 … Œuvre, Šárka, ™.")
    }

    func testByteOrderMarkWins() throws {
        let page = try extractFixture("blog-posting.html", url: "https://blog.example.com/p")
        XCTAssertEqual(page.charsetSource, "byteOrderMark")
        XCTAssertEqual(page.title, "中文 Notes: Learning Chinese Characters")
        // A byte-order mark outranks a contradicting declaration.
        let data = Data([0xEF, 0xBB, 0xBF]) + Data("<meta charset=iso-8859-1><title>é</title>".utf8)
        XCTAssertEqual(try WebMarkupIndexer().extract(html: data, url: url).title, "é")
    }

    func testTransportCharsetOutranksTheMetaTag() throws {
        let data = Data("<meta charset=utf-8><title>caf\u{E9}</title>".utf8.map { $0 }).replacingUTF8("é", with: [0xE9])
        let page = try WebMarkupIndexer().extract(html: data, url: url, contentType: "text/html; charset=ISO-8859-1")
        XCTAssertEqual(page.charsetSource, "transport")
        XCTAssertEqual(page.title, "café")
    }

    func testUndeclaredPagesAreUTF8WhenValidElseWindows1252() throws {
        let utf8 = try WebMarkupIndexer().extract(html: Data("<title>naïve</title>".utf8), url: url)
        XCTAssertEqual(utf8.charsetSource, "validUTF8")
        XCTAssertEqual(utf8.title, "naïve")
        let legacy = try WebMarkupIndexer().extract(html: Data([0x3C, 0x70, 0x3E, 0x93, 0x68, 0x69, 0x94]), url: url)
        XCTAssertEqual(legacy.charsetSource, "fallback")
        XCTAssertEqual(legacy.textContent, "“hi”")
    }

    func testWrongCharsetDeclaredUTF8GetsReplacementCharactersAndAnIssue() throws {
        // Declared UTF-8 but written in Latin-1: each bad byte becomes U+FFFD, the rest survives.
        var data = Data("<meta charset=\"utf-8\"><title>Men".utf8)
        data.append(0xFC)  // ü in Latin-1, invalid as UTF-8
        data.append(contentsOf: Array("</title><p>ok".utf8))
        let page = try WebMarkupIndexer().extract(html: data, url: url)
        XCTAssertEqual(page.title, "Men\u{FFFD}")
        XCTAssertEqual(page.textContent, "ok")
        XCTAssertEqual(page.issues.first?.kind, .invalidUTF8)
    }

    /// A `<meta>` read as ASCII cannot be in UTF-16, so (as the WHATWG prescan says) declaring UTF-16 means UTF-8,
    /// and `x-user-defined` means Windows-1252. A byte-order mark or `Content-Type` saying UTF-16 is still refused.
    func testMetaCharsetUTF16IsReadAsUTF8() throws {
        for label in ["utf-16", "UTF-16LE", "utf-16be", "ucs-2"] {
            let page = try WebMarkupIndexer().extract(html: Data("<meta charset=\"\(label)\"><title>Caf\u{E9}</title>".utf8), url: url)
            XCTAssertEqual(page.charset, .utf8, label)
            XCTAssertEqual(page.charsetSource, "metaTag", label)
            XCTAssertEqual(page.title, "Caf\u{E9}", label)
        }
        let userDefined = Data("<meta charset=x-user-defined><title>caf\u{E9}</title>".utf8).replacingUTF8("é", with: [0xE9])
        let page = try WebMarkupIndexer().extract(html: userDefined, url: url)
        XCTAssertEqual(page.charset, .windows1252)
        XCTAssertEqual(page.title, "caf\u{E9}")
        XCTAssertThrowsError(try WebMarkupIndexer().extract(html: Data("<p>x".utf8), url: url, contentType: "text/html; charset=utf-16")) {
            XCTAssertEqual(($0 as? WebMarkupError)?.code, .unsupportedCharset)
        }
    }

    /// A UTF-16 page saved without a byte-order mark is refused like one with it: its NUL bytes are valid UTF-8, so
    /// it was indexed as "<\0h\0t\0m\0l\0>…" with no title and no error.
    func testUTF16WithoutByteOrderMarkIsRefused() throws {
        let html = "<html><head><meta charset=\"utf-16\"><title>Wide page</title></head><body><p>Hello</p></body></html>"
        for data in [html.data(using: .utf16LittleEndian)!, html.data(using: .utf16BigEndian)!, ("\n" + html).data(using: .utf16LittleEndian)!] {
            XCTAssertThrowsError(try WebMarkupIndexer().extract(html: data, url: url)) {
                XCTAssertEqual(($0 as? WebMarkupError)?.code, .unsupportedCharset, "\($0)")
            }
        }
        // A stray NUL in an ordinary page is not UTF-16.
        XCTAssertEqual(try WebMarkupIndexer().extract(html: Data("<title>a\u{0}b</title>".utf8), url: url).title, "a\u{FFFD}b")
    }

    /// A label that names no encoding (a template placeholder, MySQL's `utf8mb4`) is ignored, as browsers do:
    /// detection goes on to the next declaration, then to sniffing. A real encoding Searchlight lacks is still refused.
    func testLabelsThatNameNoEncodingAreIgnored() throws {
        let bogusMeta = try WebMarkupIndexer().extract(html: Data("<meta charset=\"{{charset}}\"><title>Hello</title>".utf8), url: url)
        XCTAssertEqual(bogusMeta.charsetSource, "validUTF8")
        XCTAssertEqual(bogusMeta.title, "Hello")
        let latin1 = Data("<meta charset=utf8mb4><meta charset=iso-8859-1><title>caf\u{E9}</title>".utf8).replacingUTF8("é", with: [0xE9])
        let nextMeta = try WebMarkupIndexer().extract(html: latin1, url: url)
        XCTAssertEqual(nextMeta.charsetSource, "metaTag")
        XCTAssertEqual(nextMeta.title, "caf\u{E9}")
        let transport = try WebMarkupIndexer().extract(html: latin1, url: url, contentType: "text/html; charset=utf8mb4")
        XCTAssertEqual(transport.charsetSource, "metaTag")
        XCTAssertEqual(transport.title, "caf\u{E9}")
        for label in ["KOI8-R", "gb2312", "x-mac-cyrillic", "iso-2022-kr"] {
            XCTAssertThrowsError(try WebMarkupIndexer().extract(html: Data("<meta charset=\"\(label)\"><p>x".utf8), url: url)) {
                XCTAssertEqual(($0 as? WebMarkupError)?.code, .unsupportedCharset, label)
            }
        }
    }

    func testUnsupportedCharsetIsATypedErrorWithItsPlace() {
        let html = "<!doctype html>\n<html><head>\n  <meta charset=\"shift_jis\">\n<title>x</title>"
        XCTAssertThrowsError(try WebMarkupIndexer().extract(html: Data(html.utf8), url: url)) { error in
            guard let error = error as? WebMarkupError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.code, .unsupportedCharset)
            XCTAssertEqual(error.line, 3)
            XCTAssertEqual(error.column, 3)
            XCTAssertTrue(error.description.contains("shift_jis"), error.description)
            XCTAssertTrue(error.description.contains("https://www.example.com/p"), error.description)
        }
        XCTAssertThrowsError(try WebMarkupIndexer().extract(html: Data([0xFF, 0xFE, 0x3C, 0x00]), url: url)) { error in
            XCTAssertEqual((error as? WebMarkupError)?.code, .unsupportedCharset)
        }
        XCTAssertThrowsError(try WebMarkupIndexer().extract(html: Data("<p>x".utf8), url: url, contentType: "text/html; charset=koi8-r")) {
            XCTAssertEqual(($0 as? WebMarkupError)?.code, .unsupportedCharset)
        }
    }

    func testHTTPEquivAndLabels() {
        XCTAssertEqual(HTMLCharsetDetection.charsetParameter("text/html; charset=\"Windows-1252\""), "windows-1252")
        XCTAssertNil(HTMLCharsetDetection.charsetParameter("text/html"))
        XCTAssertEqual(HTMLCharset(label: " UTF8 "), .utf8)
        XCTAssertEqual(HTMLCharset(label: "latin1"), .latin1)
        XCTAssertEqual(HTMLCharset(label: "cp1252"), .windows1252)
        XCTAssertEqual(HTMLCharset(label: "us-ascii"), .windows1252)
        XCTAssertNil(HTMLCharset(label: "gb2312"))
    }

    func testUTF8ValidatorRejectsOverlongsAndSurrogates() {
        func valid(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer(HTMLCharset.isValidUTF8) }
        XCTAssertTrue(valid(Array("aé中😀".utf8)))
        XCTAssertFalse(valid([0xC0, 0xAF]))
        XCTAssertFalse(valid([0xE0, 0x80, 0xAF]))
        XCTAssertFalse(valid([0xED, 0xA0, 0x80]))
        XCTAssertFalse(valid([0xF4, 0x90, 0x80, 0x80]))
        XCTAssertFalse(valid([0xE4, 0xB8]))
    }
}

private extension Data {
    /// The data with the UTF-8 bytes of `text` replaced by `bytes` (to build legacy-encoded pages in tests).
    func replacingUTF8(_ text: String, with bytes: [UInt8]) -> Data {
        let needle = Array(text.utf8)
        var out: [UInt8] = [], all = Array(self), i = 0
        while i < all.count {
            if i + needle.count <= all.count, Array(all[i..<i + needle.count]) == needle {
                out += bytes
                i += needle.count
            } else {
                out.append(all[i])
                i += 1
            }
        }
        all = out
        return Data(all)
    }
}
