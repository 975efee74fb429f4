import Foundation
import XCTest
@testable import Searchlight

/// The bytes of a page in Fixtures/web/.
func webFixture(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> Data {
    let url = fixturesDirectory.appendingPathComponent("web").appendingPathComponent(name)
    return try Data(contentsOf: url)
}

/// Reads a fixture with the default indexer at `url`.
func extractFixture(_ name: String, url: String) throws -> WebPageExtraction {
    try WebMarkupIndexer().extract(html: webFixture(name), url: URL(string: url)!)
}

/// Maps a fixture to its item.
func itemForFixture(_ name: String, url: String) throws -> CSSearchableItem {
    try WebMarkupIndexer().item(fromHTML: webFixture(name), url: URL(string: url)!)
}

/// Reads an in-memory page (UTF-8 text).
func extractHTML(_ html: String, url: String = "https://www.example.com/page") throws -> WebPageExtraction {
    try WebMarkupIndexer().extract(html: Data(html.utf8), url: URL(string: url)!)
}

/// Runs the tokenizer over `html` and returns its tokens in a printable form.
func tokens(_ html: String) -> [String] {
    let bytes = Array(html.utf8)
    return bytes.withUnsafeBufferPointer { buffer in
        var tokenizer = HTMLTokenizer(bytes: buffer)
        var out: [String] = []
        while let token = tokenizer.next() {
            switch token {
            case .startTag(let name, let attributes, let selfClosing, _):
                let attrs = attributes.map { " \($0.name)=\($0.value)" }.joined()
                out.append("<\(name)\(attrs)\(selfClosing ? "/" : "")>")
            case .endTag(let name, _): out.append("</\(name)>")
            case .text(let text): out.append("\"\(text)\"")
            case .rawText(let element, let range):
                out.append("raw(\(element)):" + String(decoding: buffer[range], as: UTF8.self))
            case .comment: out.append("comment")
            case .doctype: out.append("doctype")
            }
        }
        return out
    }
}

