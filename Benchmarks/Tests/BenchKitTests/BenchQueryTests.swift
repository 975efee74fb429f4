import Foundation
import BenchKit
import XCTest

final class BenchQueryTests: XCTestCase {
    func testWordsPrefixesAndPhrases() throws {
        let query = try BenchQuery.parse(kind: "mix", text: "web* \"the command\" useful \"solo\"")
        XCTAssertEqual(query.clauses, [.prefix("web"), .phrase(["the", "command"]), .term("useful"), .term("solo")])
    }

    func testWorkloadLinesAndErrors() throws {
        let queries = try BenchQuery.parseWorkload("term\tprogram\n\n# comment\nand2\tuseful contains\r\n")
        XCTAssertEqual(queries.map(\.kind), ["term", "and2"])
        XCTAssertEqual(queries[1].clauses, [.term("useful"), .term("contains")])
        XCTAssertThrowsError(try BenchQuery.parseWorkload("no tab here")) { error in
            XCTAssertEqual(error as? BenchQuery.Failure, .badLine(number: 1, line: "no tab here"))
        }
        XCTAssertThrowsError(try BenchQuery.parseWorkload("phrase\t\"open")) { error in
            XCTAssertEqual(error as? BenchQuery.Failure, .unterminatedQuote(number: 1, query: "\"open"))
        }
        XCTAssertThrowsError(try BenchQuery.parseWorkload("term\t  ")) { error in
            XCTAssertEqual(error as? BenchQuery.Failure, .emptyQuery(number: 1))
        }
    }

    func testFTS5MatchExpression() throws {
        let query = try BenchQuery.parse(kind: "mix", text: "web* \"the command\" say\"s")
        XCTAssertEqual(FTS5Engine.matchExpression(query), "\"web\"* AND \"the command\" AND \"say\"\"s\"")
        let quoted = BenchQuery(kind: "t", text: "", clauses: [.term("a\"b")])
        XCTAssertEqual(FTS5Engine.matchExpression(quoted), "\"a\"\"b\"")
    }

    func testTheSmokeWorkloadParses() throws {
        // Benchmarks/smoke-queries.tsv: 120 queries drawn from the shared workload, in the same format.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("smoke-queries.tsv")
        let text = try String(contentsOf: url, encoding: .utf8)
        let queries = try BenchQuery.parseWorkload(text)
        XCTAssertEqual(queries.count, 120)
        XCTAssertEqual(Set(queries.map(\.kind)), ["term", "prefix", "and2", "phrase"])
        for query in queries where query.kind == "phrase" {
            guard case .phrase(let words) = query.clauses.first else { return XCTFail("not a phrase: \(query.text)") }
            XCTAssertEqual(words.count, 2, query.text)
        }
        for query in queries where query.kind == "prefix" {
            guard case .prefix = query.clauses.first else { return XCTFail("not a prefix: \(query.text)") }
        }
    }
}
