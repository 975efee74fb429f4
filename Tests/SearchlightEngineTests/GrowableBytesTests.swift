import XCTest
@testable import SearchlightEngine

final class GrowableBytesTests: XCTestCase {
    /// Random appends of single bytes, buffers and array slices, through many growths, read back as an array
    /// would hold them.
    func testAppendsAcrossGrowthsMatchAnArray() {
        var generator = SeededLCG(seed: 0xB17E5)
        var bytes = GrowableBytes()
        var expected: [UInt8] = []
        while expected.count < 600_000 {
            switch generator.below(3) {
            case 0:
                let byte = UInt8(generator.below(256))
                bytes.append(byte)
                expected.append(byte)
            case 1:
                let chunk = (0..<generator.below(5_000)).map { _ in UInt8(generator.below(256)) }
                chunk.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
                expected += chunk
            default:
                let chunk = (0..<generator.below(300)).map { _ in UInt8(generator.below(256)) }
                let cut = generator.below(chunk.count + 1)
                bytes.append(contentsOf: chunk[cut...])
                expected += chunk[cut...]
            }
            XCTAssertEqual(bytes.count, expected.count)
        }
        XCTAssertGreaterThanOrEqual(bytes.capacity, bytes.count)
        XCTAssertEqual(bytes.array, expected)
        bytes.withUnsafeBufferPointer { XCTAssertEqual(Array($0), expected) }
    }

    /// A copy is a value: appending to either, past the point where the shared storage would have to grow, leaves
    /// the other as it was.
    func testCopiesAreIndependent() {
        var original = GrowableBytes([1, 2, 3])
        var copy = original
        let many = [UInt8](repeating: 9, count: 200_000)
        many.withUnsafeBufferPointer { copy.append(contentsOf: $0) }
        original.append(4)
        XCTAssertEqual(original.array, [1, 2, 3, 4])
        XCTAssertEqual(copy.array, [1, 2, 3] + many)
        var third = copy
        third.append(5)
        XCTAssertEqual(copy.count, 3 + many.count)
        XCTAssertEqual(third.array.last, 5)
        XCTAssertEqual(GrowableBytes().array, [])
    }

    /// The stored-record encoder writes the same bytes into either kind of buffer.
    func testRecordEncodingIsTheSameInAnArrayAndAGrowableBuffer() {
        let values: [(FieldID, FieldValue)] = [
            (FieldID(rawValue: 0), .text("Héllo, wörld")), (FieldID(rawValue: 300), .number(-2.5)),
            (FieldID(rawValue: 2), .bytes(Array(0..<200))), (FieldID(rawValue: 1), .text(String(repeating: "x", count: 70_000))),
        ]
        var array: [UInt8] = [7]
        var growable = GrowableBytes([7])
        StoredFields.encode(values, into: &array)
        StoredFields.encode(values, into: &growable)
        XCTAssertEqual(growable.array, array)
        let decoded = array.withUnsafeBufferPointer { StoredFields.decode(UnsafeBufferPointer(rebasing: $0[1...])) }
        XCTAssertEqual(decoded.map(\.0), values.map(\.0))
        XCTAssertEqual(decoded.map(\.1), values.map(\.1))
    }
}
