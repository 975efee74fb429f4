import Foundation
import XCTest
@testable import SearchlightEngine

/// `topTerms(withPrefix:limit:)` against brute force, seeded.
final class TopTermsDifferentialTests: XCTestCase {
    /// `topTerms` against summing `terms(withPrefix:)` (the code it replaced), over several segments, less the terms
    /// no live document holds (deleted documents' terms stay in the dictionaries until a merge).
    func testTopTermsAgreeWithTheTermsItReplacedRandomized() throws {
        var seed: UInt64 = 77
        func next(_ n: Int) -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int((seed >> 33) % UInt64(n)) }
        let letters = Array("abcé中")
        var failures: [String] = []
        for round in 0..<6 {
            let f = try TitleBodyIndex()
            var model: [String: [String]] = [:]
            for _ in 0..<(1 + next(4)) {
                for _ in 0..<(10 + next(50)) {
                    let w = { String((0..<(1 + next(5))).map { _ in letters[next(letters.count)] }) }
                    let (id, title, body) = ("d\(next(200))", "\(w()) \(w())", next(2) == 0 ? w() : "")
                    try f.writer.upsert(f.doc(id, title, body))
                    model[id] = [title, body]
                }
                if next(2) == 0 {
                    let ids = (0..<5).map { _ in "d\(next(200))" }
                    f.writer.delete(ids: ids)
                    for id in ids { model[id] = nil }
                }
                _ = try f.writer.commit()
            }
            let s = try f.writer.commit()
            let liveTerms = Set(model.values.joined().flatMap { Analyzer().tokens($0, mode: .index).map(\.term) })
            for prefix in ["a", "ab", "b", "c", "e", "é", "中", "x", "abc"] {
                var frequency: [String: Int] = [:]
                for info in s.terms(withPrefix: prefix, in: .defaultFields, limit: .max) { frequency[info.term, default: 0] += info.documentFrequency }
                frequency = frequency.filter { liveTerms.contains($0.key) }
                let limit = 1 + next(8)
                let expected = frequency.sorted { $0.value != $1.value ? $0.value > $1.value : Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
                    .prefix(limit).map { "\($0.key)=\($0.value)" }
                let found = s.topTerms(withPrefix: prefix, limit: limit).map { "\($0.term)=\($0.documentFrequency)" }
                if found != Array(expected) { failures.append("round \(round) \(prefix) ~\(limit): \(found) vs \(expected)") }
            }
        }
        XCTAssertTrue(failures.isEmpty, "\(failures.count): \(failures.prefix(6))")
    }
}
