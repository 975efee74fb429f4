import Foundation
import XCTest
@testable import Searchlight

/// Mutated inputs must give an item or a typed `InterchangeError`, never a trap.
final class InterchangeFuzzTests: XCTestCase {
    /// SplitMix64: a small deterministic generator so failures reproduce.
    private struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    func testMutatedLinesNeverTrap() throws {
        let url = fixturesDirectory.appendingPathComponent("debian-cjk-sample.jsonl")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").prefix(40).map { Array($0.utf8) }
        let interesting: [UInt8] = Array("{}[]\":,\\u0123456789.eE-+tfn \n\u{7f}".utf8) + [0x00, 0x80, 0xC3, 0xE6, 0xFF]
        var rng = SplitMix64(state: 0x5EA2C41)
        var parsed = 0, rejected = 0
        for round in 0..<3000 {
            var bytes = lines[round % lines.count]
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                guard !bytes.isEmpty else { break }
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes[at] = interesting.randomElement(using: &rng) ?? 0
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(interesting.randomElement(using: &rng) ?? 0, at: at)
                default: bytes.removeSubrange(at...)
                }
            }
            do {
                _ = try ItemJSON.decodeItem(from: Data(bytes))
                parsed += 1
            } catch {
                XCTAssertFalse(error.message.isEmpty)
                rejected += 1
            }
        }
        XCTAssertEqual(parsed + rejected, 3000)
        XCTAssertGreaterThan(rejected, 1000, "mutations should mostly break the JSON")
        XCTAssertGreaterThan(parsed, 0, "some mutations (inside string values) stay valid")
    }
}
