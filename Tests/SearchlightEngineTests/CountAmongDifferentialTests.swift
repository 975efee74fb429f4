import Foundation
import XCTest
@testable import SearchlightEngine

/// `count(_:among:)` and `firstMatch(_:among:)` against a naive model, seeded.
final class CountAmongDifferentialTests: XCTestCase {
    /// `count(_:among:)` and `firstMatch` against a naive model: several segments, deletions, replacements,
    /// and `among` lists of random (ascending) addresses, dead ones included.
    func testCountAmongAndFirstMatchAgreeWithNaiveRandomized() throws {
        var seed: UInt64 = 0xC0FFEE
        func next(_ n: Int) -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int((seed >> 33) % UInt64(n)) }
        let words = ["alpha", "beta", "gamma", "delta", "omega", "alphabet", "betamax"]
        var failures: [String] = []
        for round in 0..<8 {
            let f = try TitleBodyIndex()
            for batch in 0..<(1 + next(4)) {
                for _ in 0..<(5 + next(60)) {
                    let id = "d\(next(120))"
                    let t = (0..<(1 + next(3))).map { _ in words[next(words.count)] }.joined(separator: " ")
                    let b = next(2) == 0 ? words[next(words.count)] : ""
                    try f.writer.upsert(f.doc(id, t, b))
                }
                if next(2) == 0 { f.writer.delete(ids: (0..<(1 + next(8))).map { _ in "d\(next(120))" }) }
                _ = try f.writer.commit()
                _ = batch
            }
            let s = try f.writer.commit()
            var all: [DocAddress] = []
            for (ordinal, segment) in s.segments.enumerated() {
                for doc in 0..<segment.documentCount { all.append(DocAddress(segment: UInt32(ordinal), doc: UInt32(doc))) }
            }
            for _ in 0..<30 {
                let among = all.filter { _ in next(3) != 0 }
                let query: Query = next(3) == 0 ? .prefix(String(words[next(words.count)].prefix(2))) : .term(words[next(words.count)])
                let matching = Set(s.matches(query))
                let expected = among.filter { matching.contains($0) && s.isLive($0) }
                let counted = s.count(query, among: among)
                if counted != expected.count { failures.append("round \(round) \(query): count \(counted) vs \(expected.count)") }
                let skip = next(3)
                var seen = 0
                let first = s.firstMatch(query, among: among) { _ in seen += 1; return seen > skip }
                let expectedFirst = expected.count > skip ? expected[skip] : nil
                if first != expectedFirst { failures.append("round \(round) \(query): first \(String(describing: first)) vs \(String(describing: expectedFirst))") }
            }
        }
        XCTAssertTrue(failures.isEmpty, "\(failures.count): \(failures.prefix(6))")
    }
}
