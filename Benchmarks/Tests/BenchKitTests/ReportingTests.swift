import BenchKit
import Foundation
import XCTest

final class ReportingTests: XCTestCase {
    func testNearestRankPercentiles() {
        let stats = LatencyStats(nanoseconds: (1...100).map { UInt64($0) * 1000 }, queries: 20, hits: 7)
        XCTAssertEqual(stats.p50, 50)
        XCTAssertEqual(stats.p99, 99)
        XCTAssertEqual(stats.mean, 50.5, accuracy: 1e-9)
        XCTAssertEqual(stats.executions, 100)
        XCTAssertEqual(stats.hits, 7)
        XCTAssertEqual(LatencyStats(nanoseconds: [], queries: 0, hits: 0).p99, 0)
    }

    func report(_ engine: String, termHits: Int) -> EngineReport {
        EngineReport(
            engine: engine, docs: 10, buildSeconds: 0.5, rssBytes: 2 * 1_048_576, indexBytes: nil,
            kinds: [("term", LatencyStats(nanoseconds: [1000, 3000], queries: 2, hits: termHits))],
            scenarios: [("delete-domain", [("delete_ms", 1.5)])])
    }

    func testJSONLineHasTheAgreedKeys() throws {
        let line = report("fts5", termHits: 4).jsonLine
        XCTAssertFalse(line.contains("\n"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(object["engine"] as? String, "fts5")
        XCTAssertEqual(object["docs"] as? Int, 10)
        XCTAssertEqual(object["docs_per_s"] as? Int, 20)
        XCTAssertEqual((object["rss_mb"] as? NSNumber)?.doubleValue, 2.0)
        let term = try XCTUnwrap((object["queries"] as? [String: Any])?["term"] as? [String: Any])
        XCTAssertEqual(term["n"] as? Int, 2)
        XCTAssertEqual(term["hits"] as? Int, 4)
        XCTAssertEqual((term["p50_us"] as? NSNumber)?.doubleValue, 1.0)
        XCTAssertEqual((term["mean_us"] as? NSNumber)?.doubleValue, 2.0)
        XCTAssertNil(object["build_process_cpu_s"], "absent unless measured")
    }

    /// The build's CPU on every thread (helper threads of the engine included) is reported beside the building
    /// thread's.
    func testBuildCPUOfAllThreadsIsReported() throws {
        var measured = report("searchlight", termHits: 4)
        measured.buildCPUSeconds = 1.25
        measured.buildProcessCPUSeconds = 1.5
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(measured.jsonLine.utf8)) as? [String: Any])
        XCTAssertEqual((object["build_cpu_s"] as? NSNumber)?.doubleValue, 1.25)
        XCTAssertEqual((object["build_process_cpu_s"] as? NSNumber)?.doubleValue, 1.5)
        let table = TableReport.render([measured])
        XCTAssertTrue(table.contains("build all-threads cpu s"), table)
        XCTAssertTrue(table.contains("1.50"), table)
    }

    func testTableShowsRatioAgainstFTS5() {
        let table = TableReport.render([report("searchlight", termHits: 4), report("fts5", termHits: 4)])
        XCTAssertTrue(table.contains("searchlight/fts5"), table)
        XCTAssertTrue(table.contains("1.00x"), table)
    }

    func testAgreementCheck() {
        XCTAssertNil(AgreementCheck.disagreement([report("a", termHits: 100), report("b", termHits: 90)], tolerance: 0.25))
        XCTAssertNotNil(AgreementCheck.disagreement([report("a", termHits: 100), report("b", termHits: 10)], tolerance: 0.25))
        XCTAssertNil(AgreementCheck.disagreement([report("a", termHits: 100)], tolerance: 0))
        XCTAssertNotNil(AgreementCheck.disagreement([report("a", termHits: 0), report("b", termHits: 0)], tolerance: 0.25))
        XCTAssertNotNil(AgreementCheck.disagreement([report("a", termHits: 100), report("b", termHits: 100)],
                                                    kind: "prefix", tolerance: 0.25))
    }

    /// The reindex scenario reports the build, every round and the growth, through the runner.
    func testReindexScenarioReportsEachRound() throws {
        var options = try BenchOptions.parse(["--corpus", "-", "--queries", "q", "--rounds", "1",
                                              "--scenario", "reindex", "--reindex-rounds", "2"])
        options.limit = 5
        let items = (0..<40).map {
            CorpusItem(uniqueIdentifier: "i\($0)", domainIdentifier: "d", title: "title \($0)", displayName: "",
                       keywords: [], contentDescription: "item number \($0)")
        }
        let report = try BenchRunner(options: options).run(
            { try SearchlightEngineAdapter() }, items: items, queries: [try BenchQuery.parse(kind: "term", text: "item")])
        let metrics = try XCTUnwrap(report.scenarios.first { $0.name == "reindex" }?.metrics)
        let names = metrics.map(\.0)
        for name in ["rounds", "build_index_mb", "round1_s", "round1_index_mb", "round2_index_mb", "index_growth_pct"] {
            XCTAssertTrue(names.contains(name), "\(name) missing from \(names)")
        }
        XCTAssertFalse(names.contains("round3_s"))
        XCTAssertEqual(report.stats(for: "term")?.hits, 5)
    }

    func testOptions() throws {
        let options = try BenchOptions.parse(["--corpus", "-", "--queries", "q.tsv", "--limit", "5", "--replicate", "16",
                                              "--json", "--scenario", "delete-domain,churn", "--slowest", "7"])
        XCTAssertEqual(options.corpus, "-")
        XCTAssertEqual(options.limit, 5)
        XCTAssertEqual(options.replicate, 16)
        XCTAssertTrue(options.json)
        XCTAssertEqual(options.scenarios, [.deleteDomain, .churn])
        XCTAssertEqual(options.slowest, 7)
        XCTAssertEqual(try BenchOptions.parse(["--corpus", "-", "--queries", "q"]).slowest, 0)
        let reindex = try BenchOptions.parse(["--corpus", "-", "--queries", "q", "--scenario", "reindex", "--reindex-rounds", "3"])
        XCTAssertEqual(reindex.scenarios, [.reindex])
        XCTAssertEqual(reindex.reindexRounds, 3)
        XCTAssertEqual(try BenchOptions.parse(["--corpus", "-", "--queries", "q"]).reindexRounds, 10)
        XCTAssertThrowsError(try BenchOptions.parse(["--corpus", "-", "--queries", "q", "--reindex-rounds", "0"]))
        XCTAssertThrowsError(try BenchOptions.parse(["--corpus", "-", "--queries", "q", "--slowest", "x"]))
        XCTAssertThrowsError(try BenchOptions.parse(["--corpus", "-"]))
        XCTAssertThrowsError(try BenchOptions.parse(["--corpus", "-", "--queries", "q", "--limit", "0"]))
        XCTAssertThrowsError(try BenchOptions.parse(["--corpus", "-", "--queries", "q", "--engines", "lucene"]))
        XCTAssertThrowsError(try BenchOptions.parse(["--corpus", "-", "--queries", "q", "--scenario", "nope"]))
        XCTAssertThrowsError(try BenchOptions.parse(["--corpus"]))
    }
}
