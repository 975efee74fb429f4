import XCTest
@testable import SearchlightEngine

final class TermInternerTests: XCTestCase {
    /// Terms of every length up to 24 bytes that differ in one byte (anywhere: in the eight-byte words the hash and
    /// the comparison read, or in their tails) get their own ids; the same bytes again, in the same field, get the
    /// same id, and in another field another one.
    func testTermsDifferingInOneByteGetTheirOwnIds() {
        var interner = TermInterner(capacity: 4)
        var ids: [[UInt8]: UInt32] = [:]
        var expectedCount = 0
        for length in 1...24 {
            let base = (0..<length).map { UInt8(0x61 + $0 % 26) }
            var variants = [base]
            for position in 0..<length {
                var changed = base
                changed[position] = 0x30 + UInt8(position % 10)
                variants.append(changed)
            }
            for term in variants where ids[term] == nil {
                let id = term.withUnsafeBufferPointer { interner.intern($0, field: 0) }
                XCTAssertEqual(Int(id), expectedCount, "a new term gets the next id")
                ids[term] = id
                expectedCount += 1
            }
        }
        XCTAssertEqual(interner.count, expectedCount)
        for (term, id) in ids {
            XCTAssertEqual(term.withUnsafeBufferPointer { interner.intern($0, field: 0) }, id)
            XCTAssertEqual(Array(interner.term(id)), term)
            let hash = term.withUnsafeBufferPointer { TermInterner.hash($0, field: 0) }
            XCTAssertEqual(term.withUnsafeBufferPointer { interner.intern($0, field: 0, hash: hash) }, id)
        }
        XCTAssertEqual(interner.count, expectedCount, "nothing added twice")
        let other = [UInt8]("abcdefghij".utf8).withUnsafeBufferPointer { interner.intern($0, field: 1) }
        XCTAssertEqual(Int(other), expectedCount, "the same bytes in another field are another term")
        XCTAssertNotEqual(other, ids[Array("abcdefghij".utf8)])
    }

    /// Two terms of the same length and hash (found by trying random ones: 32-bit hashes collide within about
    /// 2^16 tries) are still two terms: the bytes are compared, the eight-byte words and the tail.
    func testTermsWithTheSameHashAreComparedByTheirBytes() throws {
        var generator = SeededRandom(seed: 0x5EED)
        // (length, bytes kept the same at the start): a tail alone, a word alone, a word and a tail differing in the
        // tail only, two words differing in the second.
        for (length, shared) in [(5, 0), (8, 0), (12, 8), (16, 8)] {
            let prefix = (0..<shared).map { UInt8(0x61 + $0) }
            var seen: [UInt32: [UInt8]] = [:]
            var pair: ([UInt8], [UInt8])?
            for _ in 0..<2_000_000 {
                let term = prefix + (shared..<length).map { _ in UInt8.random(in: 0x61...0x7A, using: &generator) }
                let hash = term.withUnsafeBufferPointer { TermInterner.hash($0, field: 3) }
                if let other = seen[hash], other != term {
                    pair = (other, term)
                    break
                }
                seen[hash] = term
            }
            let (a, b) = try XCTUnwrap(pair, "a collision of \(length)-byte terms")
            var interner = TermInterner()
            let first = a.withUnsafeBufferPointer { interner.intern($0, field: 3) }
            let second = b.withUnsafeBufferPointer { interner.intern($0, field: 3) }
            XCTAssertNotEqual(first, second, "\(a) and \(b)")
            XCTAssertEqual(a.withUnsafeBufferPointer { interner.intern($0, field: 3) }, first)
            XCTAssertEqual(b.withUnsafeBufferPointer { interner.intern($0, field: 3) }, second)
            XCTAssertEqual(interner.count, 2)
        }
    }

    /// The byte comparison behind a hash match, for every length up to 24 and a difference at every position
    /// (eight-byte words, then four, two and one byte): terms of equal hash differing in one byte are rarer than a
    /// test can find.
    func testEqualBytesComparesEveryByte() {
        for length in 0...24 {
            let a = (0..<length).map { UInt8(0x61 + $0) }
            a.withUnsafeBytes { x in
                XCTAssertTrue(TermInterner.equal(x.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!,
                                                 x.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, count: length))
                let copy = (0..<length).map { UInt8(0x61 + $0) }
                copy.withUnsafeBytes { y in
                    XCTAssertTrue(TermInterner.equal(x.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!,
                                                     y.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, count: length))
                }
            }
            for position in 0..<length {
                var b = a
                b[position] ^= 0x01
                a.withUnsafeBytes { x in
                    b.withUnsafeBytes { y in
                        XCTAssertFalse(TermInterner.equal(x.baseAddress!, y.baseAddress!, count: length),
                                       "length \(length), byte \(position)")
                    }
                }
            }
        }
    }
}
