import XCTest
@testable import SearchlightEngine

final class TermKeySortTests: XCTestCase {
    /// Random terms in a few fields, many sharing their first six bytes or being prefixes of each other, with a
    /// byte set that includes 0x00 and 0xFF: the radix order equals a comparison sort by field, then bytes.
    func testOrderEqualsAComparisonSort() {
        var generator = SeededLCG(seed: 0x7E4A5)
        let alphabet: [UInt8] = [0x00, 0x61, 0x62, 0x7A, 0x80, 0xC3, 0xFF]
        for round in 0..<40 {
            let count = round == 0 ? 0 : 1 + generator.below(round < 20 ? 40 : 3_000)
            var terms: [(field: UInt16, bytes: [UInt8])] = []
            for _ in 0..<count {
                let field = UInt16(generator.below(3) * 255)
                var bytes = generator.below(2) == 0 && !terms.isEmpty ? terms[generator.below(terms.count)].bytes : []
                if generator.below(3) == 0, !bytes.isEmpty { bytes.removeLast(generator.below(bytes.count) + 1) }
                for _ in 0..<generator.below(18) { bytes.append(alphabet[generator.below(alphabet.count)]) }
                terms.append((field, bytes))
            }
            var arena: [UInt8] = [], starts: [UInt32] = [0]
            for term in terms {
                arena += term.bytes
                starts.append(UInt32(arena.count))
            }
            let order = TermKeySort.order(arena: arena, starts: starts, fields: terms.map(\.field))
            let expected = terms.indices.sorted { x, y in
                terms[x].field != terms[y].field ? terms[x].field < terms[y].field
                    : terms[x].bytes.lexicographicallyPrecedes(terms[y].bytes)
            }
            // Equal terms may come in either order; their bytes and fields may not.
            XCTAssertEqual(order.map { terms[Int($0)].field }, expected.map { terms[$0].field }, "round \(round)")
            XCTAssertEqual(order.map { terms[Int($0)].bytes }, expected.map { terms[$0].bytes }, "round \(round)")
            XCTAssertEqual(Set(order), Set((0..<UInt32(terms.count)).map { $0 }))
        }
    }
}
