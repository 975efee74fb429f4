import XCTest
@testable import SearchlightEngine

/// `PostingRuns.merge` against a plain reference: every document of any run, its weights summed in run order from
/// zero and its flags or-ed, then scored. Bit for bit, whichever way each pair of runs is merged (posting by posting,
/// or a short run galloped into one many times longer), and into fresh or non-empty arrays.
final class PostingRunsTests: XCTestCase {
    func testMergeEqualsSummingInRunOrder() {
        var g = DifferentialTests.Generator(state: 71)
        let parameters = RankingParameters()
        var skewedPairs = 0
        for round in 0..<400 {
            // Run lengths from empty to thousands: neighbours often eight or more times apart.
            let runCount = 1 + g.int(5)
            let lengths = (0..<runCount).map { _ in g.chance(0.15) ? 0 : g.int(g.chance(0.5) ? 12 : 3_000) }
            let span = 1 + g.int(g.chance(0.5) ? 200 : 20_000)
            var runs: [[(doc: UInt32, weight: Float, flags: UInt8)]] = []
            for length in lengths {
                let docs = Set((0..<length).map { _ in UInt32(g.int(span)) }).sorted()
                runs.append(docs.map { ($0, Float(g.int(1_000)) / 7 + 0.01, UInt8(g.int(4))) })
            }
            var merged = 0
            for run in runs where !run.isEmpty {
                if merged > 0, run.count >= 8 * merged || merged >= 8 * run.count { skewedPairs += 1 }
                merged += run.count
            }
            let buffers = PostingRuns(runs: runCount, capacity: runs.reduce(0) { $0 + $1.count })
            for run in runs {
                buffers.startRun()
                for posting in run {
                    XCTAssertTrue(buffers.append(Int(posting.doc), weight: posting.weight, flags: posting.flags))
                }
            }
            // The reference: a sum per document in run order.
            var sums: [UInt32: (Float, UInt8)] = [:]
            for run in runs {
                for posting in run {
                    let (sum, flags) = sums[posting.doc] ?? (0, 0)
                    sums[posting.doc] = (sum + posting.weight, flags | posting.flags)
                }
            }
            let expectedDocs = sums.keys.sorted()
            let expectedScores = expectedDocs.map { doc -> Float in
                let (sum, flags) = sums[doc]!
                return MaterializedGroupIterator.score(sum, boost: 1.5, idf: 2.25, parameters: parameters,
                                                       startsPrimary: flags & PostingRuns.startsPrimary != 0,
                                                       equalsPrimary: flags & PostingRuns.equalsPrimary != 0)
            }
            // Into fresh arrays, and after what a caller already holds.
            var docs: [UInt32] = [], scores: [Float] = []
            if round % 2 == 1 { (docs, scores) = ([7, 9], [0.5, 0.25]) }
            let held = docs.count
            buffers.merge(boost: 1.5, idf: 2.25, parameters: parameters, into: &docs, scores: &scores)
            XCTAssertEqual(Array(docs.dropFirst(held)), expectedDocs, "round \(round), runs \(lengths)")
            XCTAssertEqual(Array(scores.dropFirst(held)).map(\.bitPattern), expectedScores.map(\.bitPattern),
                           "round \(round), runs \(lengths)")
            if held > 0 { XCTAssertEqual(Array(docs.prefix(held)), [7, 9]) }
        }
        XCTAssertGreaterThan(skewedPairs, 100, "pairs merged by galloping")
    }
}
