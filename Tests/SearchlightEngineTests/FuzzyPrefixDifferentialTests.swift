import Foundation
import XCTest
@testable import SearchlightEngine

/// `.fuzzyPrefix` at the planner against brute force (`DifferentialTests.prefixWithinEdits`), seeded.
final class FuzzyPrefixDifferentialTests: XCTestCase {
    /// `.fuzzyPrefix` against brute force at the planner: several segments (a shared vocabulary plus segments
    /// it does not cover), deletions, one field or the default fields, explicit budgets, multi-byte letters.
    /// Queries past the near-prefix cap are left out (which near prefixes it keeps is a ranking of their bytes); a
    /// budget covering the whole text is in (the empty prefix: every term).
    func testFuzzyPrefixAgreesWithBruteForceOverSegmentsRandomized() throws {
        var seed: UInt64 = 4242
        func next(_ n: Int) -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int((seed >> 33) % UInt64(n)) }
        var failures: [String] = [], checked = 0
        for round in 0..<12 {
            let letters = round % 2 == 0 ? Array("abcdeo") : Array("aéжb中x")
            let f = try TitleBodyIndex()
            var model: [String: (String, String)] = [:]
            let word = { String((0..<(1 + next(7))).map { _ in letters[next(letters.count)] }) }
            for _ in 0..<(2 + next(4)) {
                for _ in 0..<(5 + next(40)) {
                    let id = "d\(next(150))"
                    let t = "\(word()) \(word())", b = next(2) == 0 ? word() : ""
                    try f.writer.upsert(f.doc(id, t, b))
                    model[id] = (t, b)
                }
                if next(2) == 0 {
                    for _ in 0..<(1 + next(6)) { let id = "d\(next(150))"; f.writer.delete(ids: [id]); model[id] = nil }
                }
                _ = try f.writer.commit()
            }
            let s = try f.writer.commit()
            let analyzer = Analyzer()
            func terms(_ text: String) -> [[UInt32]] {
                analyzer.tokens(text, mode: .index).map { DifferentialTests.characters(Array($0.term.utf8)) }
            }
            for _ in 0..<40 {
                let q = String((0..<(2 + next(6))).map { _ in letters[next(letters.count)] })
                let edits = next(3)
                let units = DifferentialTests.characters(Array(QueryPlanner.foldedPrefix(q).utf8))
                let titleOnly = next(2) == 0
                let query: Query = titleOnly ? .scoped(.field(f.title), .fuzzyPrefix(q, maxEdits: edits)) : .fuzzyPrefix(q, maxEdits: edits)
                let scope: FieldScope = titleOnly ? .field(f.title) : .defaultFields
                if s.fuzzyPrefixes(q, maxEdits: edits, in: scope).count >= IndexSnapshot.maxNearPrefixes { continue }
                let expected = Set(model.filter { _, value in
                    (terms(value.0) + (titleOnly ? [] : terms(value.1))).contains { DifferentialTests.prefixWithinEdits($0, units, edits) }
                }.keys)
                let found = Set(s.matches(query).compactMap { s.id(of: $0) })
                checked += 1
                if found != expected {
                    failures.append("round \(round) (\(s.segments.count) segments) '\(q)' ~\(edits) title \(titleOnly): missing \(expected.subtracting(found).sorted().prefix(3).map { "\($0)=\(model[$0]!)" }) extra \(found.subtracting(expected).sorted().prefix(3))")
                }
            }
        }
        XCTAssertGreaterThan(checked, 200)
        XCTAssertTrue(failures.isEmpty, "\(failures.count): \(failures.prefix(6).joined(separator: "\n"))")
    }
}
