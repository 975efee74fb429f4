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
            let keys = terms.enumerated().map { index, term -> (prefix: UInt64, term: UInt32) in
                var prefix = UInt64(term.field)
                for k in 0..<6 { prefix = prefix << 8 | (k < term.bytes.count ? UInt64(term.bytes[k]) : 0) }
                return (prefix, UInt32(index))
            }
            func precedes(_ a: UInt32, _ b: UInt32) -> Bool {
                terms[Int(a)].bytes.lexicographicallyPrecedes(terms[Int(b)].bytes)
            }
            func next(_ t: UInt32) -> UInt64 {
                let bytes = terms[Int(t)].bytes
                return (6..<14).reduce(UInt64(0)) { $0 << 8 | ($1 < bytes.count ? UInt64(bytes[$1]) : 0) }
            }
            let order = TermKeySort.order(keys, next: next, precedes)
            let expected = keys.sorted { x, y in x.prefix != y.prefix ? x.prefix < y.prefix : precedes(x.term, y.term) }
            // Equal terms may come in either order; their bytes and fields may not.
            XCTAssertEqual(order.map { terms[Int($0)].field }, expected.map { terms[Int($0.term)].field }, "round \(round)")
            XCTAssertEqual(order.map { terms[Int($0)].bytes }, expected.map { terms[Int($0.term)].bytes }, "round \(round)")
            XCTAssertEqual(Set(order), Set(keys.map(\.term)))
        }
    }
}
