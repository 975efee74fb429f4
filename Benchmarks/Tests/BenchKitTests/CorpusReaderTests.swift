import BenchKit
import Foundation
import XCTest

final class CorpusReaderTests: XCTestCase {
    static let twoItems = """
        {"uniqueIdentifier": "deb:a", "domainIdentifier": "debian.games", "attributeSet": {"title": "a", "displayName": "A game", "keywords": ["x11", "strategy"], "contentDescription": "Long text."}}

        {"uniqueIdentifier": "deb:b", "attributeSet": {"title": "b"}}
        """

    func testParsesItemsAndDefaultsMissingFields() throws {
        let items = try CorpusReader.items(from: Data(Self.twoItems.utf8))
        XCTAssertEqual(items.count, 2)
        XCTAssertEqual(items[0].keywords, ["x11", "strategy"])
        XCTAssertEqual(items[0].domainIdentifier, "debian.games")
        XCTAssertEqual(items[1].domainIdentifier, "")
        XCTAssertEqual(items[1].contentDescription, "")
    }

    func testBadLineIsATypedError() {
        let data = Data("{\"uniqueIdentifier\": \"ok\"}\nnot json\n".utf8)
        XCTAssertThrowsError(try CorpusReader.items(from: data)) { error in
            guard case CorpusReader.Failure.badLine(let number, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(number, 2)
        }
        XCTAssertThrowsError(try CorpusReader.items(from: Data("\n\n".utf8)))
        XCTAssertThrowsError(try CorpusReader.bytes(of: "/nonexistent/corpus.jsonl"))
    }

    func testReplicateGivesFreshIdentifiers() throws {
        let items = try CorpusReader.items(from: Data(Self.twoItems.utf8))
        let copies = CorpusReader.replicate(items, times: 3)
        XCTAssertEqual(copies.count, 6)
        XCTAssertEqual(Set(copies.map(\.uniqueIdentifier)).count, 6)
        XCTAssertEqual(copies[2].uniqueIdentifier, "deb:a#1")
        XCTAssertEqual(copies[5].title, "b")
    }

    func testReadsGzipThroughGzip() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("benchkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("c.jsonl")
        try Data(Self.twoItems.utf8).write(to: plain)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", "-k", plain.path]
        try gzip.run()
        gzip.waitUntilExit()
        XCTAssertEqual(gzip.terminationStatus, 0)
        let items = try CorpusReader.items(from: CorpusReader.bytes(of: plain.path + ".gz"))
        XCTAssertEqual(items.map(\.uniqueIdentifier), ["deb:a", "deb:b"])
    }
}
