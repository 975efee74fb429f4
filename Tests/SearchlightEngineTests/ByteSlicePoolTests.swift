import XCTest
@testable import SearchlightEngine

final class ByteSlicePoolTests: XCTestCase {
    /// Hundreds of streams written in random interleavings (single bytes, varints, short copies that take the
    /// eight-byte move, longer copies, bulk copies across slices) each read back exactly what was appended to
    /// it: no append spills into a neighbouring slice or over a forward pointer.
    func testInterleavedStreamsReadBackWhatWasAppended() {
        var generator = SeededLCG(seed: 0x5EED_B17E)
        func random(_ bound: Int) -> Int { generator.below(bound) }
        var pool = ByteSlicePool()
        var streams: [ByteSlicePool.Stream] = []
        var expected: [[UInt8]] = []
        for _ in 0..<300 {
            streams.append(pool.makeStream())
            expected.append([])
        }
        // A source with room past every copy's end (the eight-byte move reads up to eight bytes).
        var source = [UInt8](repeating: 0, count: 64)
        for _ in 0..<60_000 {
            let s = random(streams.count)
            switch random(4) {
            case 0:
                let byte = UInt8(random(256))
                pool.append(byte, to: &streams[s])
                expected[s].append(byte)
            case 1:
                let value = UInt32(truncatingIfNeeded: random(1 << 30)) >> UInt32(random(30))
                pool.appendVarInt(value, to: &streams[s])
                VarInt.append(value, to: &expected[s])
            case 2:
                let count = 1 + random(random(4) == 0 ? 40 : 8)
                for k in 0..<source.count { source[k] = UInt8(random(256)) }
                source.withUnsafeBufferPointer { pool.append($0.baseAddress!, count: count, to: &streams[s]) }
                expected[s] += source[..<count]
            default:
                let count = random(300)
                let bytes = (0..<count).map { _ in UInt8(random(256)) }
                bytes.withUnsafeBufferPointer { buffer in
                    if let base = buffer.baseAddress { pool.appendBulk(base, count: count, to: &streams[s]) }
                }
                expected[s] += bytes
            }
        }
        for s in streams.indices {
            var out: [UInt8] = []
            pool.copy(streams[s], to: &out)
            XCTAssertEqual(out, expected[s], "stream \(s)")
        }
    }

    /// A copy of a pool is a value: appends to either (through its storage, as the builder's posting loop does)
    /// leave the other's streams as they were, including across the slices that growing the copy allocates.
    func testCopiesAreIndependent() {
        var pool = ByteSlicePool()
        var stream = pool.makeStream()
        let first: [UInt8] = Array(0..<40)
        first.withUnsafeBufferPointer { pool.appendBulk($0.baseAddress!, count: 40, to: &stream) }
        var copy = pool
        var copied = stream
        let more = [UInt8](repeating: 0xAB, count: 200_000)
        more.withUnsafeBufferPointer { copy.appendBulk($0.baseAddress!, count: more.count, to: &copied) }
        let storage = pool.uniqueStorage()
        var extra = [UInt8](repeating: 7, count: 8)
        extra.withUnsafeMutableBufferPointer { storage.append($0.baseAddress!, count: 3, to: &stream) }
        var out: [UInt8] = []
        pool.copy(stream, to: &out)
        XCTAssertEqual(out, first + [7, 7, 7])
        out = []
        copy.copy(copied, to: &out)
        XCTAssertEqual(out, first + more)
    }
}
