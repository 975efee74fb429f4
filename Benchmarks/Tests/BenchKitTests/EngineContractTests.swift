import BenchKit
import Foundation
import XCTest

final class FTS5EngineTests: XCTestCase {
    func testContract() throws { try checkContract { try FTS5Engine() } }

    func testBadMatchExpressionIsAnError() throws {
        let engine = try FTS5Engine()
        XCTAssertThrowsError(try engine.search("\"unterminated", limit: 5))
    }
}

final class SearchlightAdapterTests: XCTestCase {
    func testContract() throws { try checkContract { try SearchlightEngineAdapter() } }

    /// The memory components logged after a build add up to the index size reported, largest first.
    func testMemoryComponentsAddUpToTheIndexSize() throws {
        let engine = try SearchlightEngineAdapter()
        try engine.build((0..<50).map {
            CorpusItem(uniqueIdentifier: "i\($0)", domainIdentifier: "d", title: "title \($0)", displayName: "",
                       keywords: [], contentDescription: "a description of item \($0)")
        })
        // A small index gets its champion lists on another thread after the commit, and they count: compare the
        // size with components read before and after it, once both reads agree (nothing landed in between).
        var components = engine.memoryComponents()
        var size = try XCTUnwrap(try engine.indexBytes())
        for _ in 0..<500 {
            let again = engine.memoryComponents()
            if again.map(\.bytes).reduce(0, +) == components.map(\.bytes).reduce(0, +) { break }
            usleep(10_000)
            components = again
            size = try XCTUnwrap(try engine.indexBytes())
        }
        XCTAssertTrue(components.contains { $0.name == "stored" && $0.bytes > 0 }, "\(components)")
        XCTAssertEqual(components.map(\.bytes), components.map(\.bytes).sorted(by: >))
        XCTAssertEqual(components.reduce(0) { $0 + $1.bytes }, size)
        XCTAssertTrue(try FTS5Engine().memoryComponents().isEmpty)
    }
}

func checkContract<E: BenchEngine>(_ make: () throws -> E) throws {
    try EngineContract<E>().run(make)
}

/// The same semantic checks run against every engine of the harness, so the adapter and FTS5 are held to one
/// contract: term, prefix, phrase, AND, diacritics, limit, field weights, delete a domain, replace.
struct EngineContract<Engine: BenchEngine> {
    func item(_ id: String, _ domain: String, title: String = "", display: String = "", keywords: [String] = [],
              text: String = "") -> CorpusItem {
        CorpusItem(uniqueIdentifier: id, domainIdentifier: domain, title: title, displayName: display,
                   keywords: keywords, contentDescription: text)
    }

    func run(_ make: () throws -> Engine) throws {
        try testTermsPrefixesPhrasesAndLimit(make())
        try testWeightsRankTitleAboveDescription(make())
        try testDeleteDomainAndReplace(make())
        try testDeleteByIdentifierAndReindex(make())
    }

    func fill(_ empty: Engine) throws -> Engine {
        try empty.build([
            item("d:body", "docs", display: "a tool", text: "the compression library for everything"),
            item("d:title", "docs", title: "compression", display: "fast tool"),
            item("l:zlib", "libs", title: "zlib", display: "Compression library", keywords: ["compression"],
                 text: "The zlib compression library, café edition"),
            item("l:other", "libs", title: "other", text: "nothing relevant here"),
        ])
        return empty
    }

    func ids(_ engine: Engine, _ text: String, limit: Int = 20) throws -> [String] {
        try engine.topIdentifiers(engine.compile(BenchQuery.parse(kind: "k", text: text)), limit: limit)
    }

    func testTermsPrefixesPhrasesAndLimit(_ empty: Engine) throws {
        let engine = try fill(empty)
        XCTAssertEqual(Set(try ids(engine, "compression")), ["d:body", "d:title", "l:zlib"])
        XCTAssertEqual(try ids(engine, "compression", limit: 2).count, 2)
        XCTAssertEqual(Set(try ids(engine, "compr*")), ["d:body", "d:title", "l:zlib"])
        XCTAssertEqual(Set(try ids(engine, "\"compression library\"")), ["d:body", "l:zlib"])
        XCTAssertEqual(try ids(engine, "\"library compression\""), [])
        XCTAssertEqual(Set(try ids(engine, "tool compression")), ["d:body", "d:title"])
        XCTAssertEqual(try ids(engine, "cafe"), ["l:zlib"], "diacritics fold: é matches e")
        let compiled = try engine.compile(BenchQuery.parse(kind: "k", text: "compression"))
        XCTAssertEqual(try engine.search(compiled, limit: 20), 3)
    }

    func testWeightsRankTitleAboveDescription(_ empty: Engine) throws {
        let engine = try fill(empty)
        let ranked = try ids(engine, "compression")
        XCTAssertEqual(ranked.last, "d:body", "a description-only match ranks below title/keyword matches")
    }

    func testDeleteDomainAndReplace(_ empty: Engine) throws {
        let engine = try fill(empty)
        XCTAssertEqual(try engine.deleteDomain("libs"), 2)
        XCTAssertEqual(Set(try ids(engine, "compression")), ["d:body", "d:title"])
        XCTAssertEqual(try engine.deleteDomain("libs"), 0)
        try engine.replace([item("d:title", "docs", title: "archiver"), item("d:new", "docs", title: "compression")])
        XCTAssertEqual(Set(try ids(engine, "compression")), ["d:body", "d:new"])
        XCTAssertEqual(try ids(engine, "archiver"), ["d:title"])
        XCTAssertGreaterThan(try engine.indexBytes() ?? 0, 0)
    }

    /// What the `reindex` scenario does: delete by identifier (unknown ones skipped), then index the items again.
    func testDeleteByIdentifierAndReindex(_ empty: Engine) throws {
        let engine = try fill(empty)
        let corpus = [item("d:title", "docs", title: "compression"), item("nowhere", "docs")]
        XCTAssertEqual(try engine.delete(corpus[...]), 1)
        XCTAssertEqual(Set(try ids(engine, "compression")), ["d:body", "l:zlib"])
        try engine.replace(corpus[0..<1])
        XCTAssertEqual(Set(try ids(engine, "compression")), ["d:body", "d:title", "l:zlib"])
        XCTAssertEqual(try engine.delete(corpus[...]), 1)
        XCTAssertEqual(try engine.delete(corpus[...]), 0)
    }
}
