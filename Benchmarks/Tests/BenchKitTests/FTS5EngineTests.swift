import BenchKit
import XCTest

final class FTS5EngineTests: XCTestCase {
    func item(_ id: String, _ domain: String, title: String = "", display: String = "", keywords: [String] = [],
              text: String = "") -> CorpusItem {
        CorpusItem(uniqueIdentifier: id, domainIdentifier: domain, title: title, displayName: display,
                   keywords: keywords, contentDescription: text)
    }

    func makeEngine() throws -> FTS5Engine {
        let engine = try FTS5Engine()
        try engine.build([
            item("d:body", "docs", display: "a tool", text: "the compression library for everything"),
            item("d:title", "docs", title: "compression", display: "fast tool"),
            item("l:zlib", "libs", title: "zlib", display: "Compression library", keywords: ["compression"],
                 text: "The zlib compression library, café edition"),
            item("l:other", "libs", title: "other", text: "nothing relevant here"),
        ])
        return engine
    }

    func ids(_ engine: FTS5Engine, _ text: String, limit: Int = 20) throws -> [String] {
        try engine.topIdentifiers(engine.compile(BenchQuery.parse(kind: "k", text: text)), limit: limit)
    }

    func testTermsPrefixesPhrasesAndLimit() throws {
        let engine = try makeEngine()
        XCTAssertEqual(Set(try ids(engine, "compression")), ["d:body", "d:title", "l:zlib"])
        XCTAssertEqual(try ids(engine, "compression", limit: 2).count, 2)
        XCTAssertEqual(Set(try ids(engine, "compr*")), ["d:body", "d:title", "l:zlib"])
        XCTAssertEqual(Set(try ids(engine, "\"compression library\"")), ["d:body", "l:zlib"])
        XCTAssertEqual(try ids(engine, "\"library compression\""), [])
        XCTAssertEqual(Set(try ids(engine, "tool compression")), ["d:body", "d:title"])
        XCTAssertEqual(try ids(engine, "cafe"), ["l:zlib"], "remove_diacritics folds é")
        let compiled = try engine.compile(BenchQuery.parse(kind: "k", text: "compression"))
        XCTAssertEqual(try engine.search(compiled, limit: 20), 3)
    }

    func testWeightsRankTitleAboveDescription() throws {
        let engine = try makeEngine()
        let ranked = try ids(engine, "compression")
        XCTAssertEqual(ranked.last, "d:body", "a description-only match ranks below title/keyword matches")
    }

    func testDeleteDomainAndReplace() throws {
        let engine = try makeEngine()
        XCTAssertEqual(try engine.deleteDomain("libs"), 2)
        XCTAssertEqual(Set(try ids(engine, "compression")), ["d:body", "d:title"])
        XCTAssertEqual(try engine.deleteDomain("libs"), 0)
        try engine.replace([item("d:title", "docs", title: "archiver"), item("d:new", "docs", title: "compression")])
        XCTAssertEqual(Set(try ids(engine, "compression")), ["d:body", "d:new"])
        XCTAssertEqual(try ids(engine, "archiver"), ["d:title"])
        XCTAssertGreaterThan(try engine.indexBytes() ?? 0, 0)
    }

    func testBadMatchExpressionIsAnError() throws {
        let engine = try makeEngine()
        XCTAssertThrowsError(try engine.search("\"unterminated", limit: 5))
    }
}
