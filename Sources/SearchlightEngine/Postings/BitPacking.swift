/// Fixed-width bit packing of one full posting block's 128 values: value i takes bits `i·w ..< (i+1)·w` of a
/// little-endian bit stream, so the block is `16·w` bytes and every eight values end on a byte boundary. The width
/// is the largest value's bit count (frame of reference without exceptions, as tantivy's and Lucene's blocks).
///
/// Unpacking is what a frequent term's reads cost, so it is specialized per width: with the width a constant,
/// each value is one unaligned 64-bit load, a constant shift and a mask, with no branch (LEB128 varints spend a
/// branch or a table lookup per byte). Unpacking reads up to eight bytes past the packed ones; callers guarantee
/// they are readable (`PostingBlocks` decodes near a buffer's end from a zero-padded copy).
enum BitPacking {
    static let values = 128
    /// How far past its packed bytes unpacking may read.
    static let slack = 8

    /// The bits needed for `value` (0 for 0).
    @inline(__always)
    static func width(of value: UInt32) -> Int { UInt32.bitWidth - value.leadingZeroBitCount }

    /// Appends `values` (exactly 128, each below 2^width) packed at `width` bits: `16 · width` bytes. The bits gather
    /// in a 64-bit word stored whole when full (128 · width bits are exactly 2 · width words): no append per byte.
    static func pack(_ values: UnsafePointer<UInt32>, width: Int, to out: inout [UInt8]) {
        assert(width >= 0 && width <= 32)
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: 16 * width))
        guard width > 0 else { return }
        out.withUnsafeMutableBytes { bytes in
            var at = bytes.baseAddress! + start
            var word: UInt64 = 0, bits = 0
            for i in 0..<Self.values {
                assert(width == 32 || values[i] >> width == 0, "a value wider than its block's width")
                let value = UInt64(values[i])
                word |= value << UInt64(bits)
                bits += width
                if bits >= 64 {
                    at.storeBytes(of: word.littleEndian, as: UInt64.self)
                    at += 8
                    bits -= 64
                    // The value's bits that did not fit (none when it ended the word).
                    word = bits > 0 ? value >> UInt64(width - bits) : 0
                }
            }
            assert(bits == 0 && at == bytes.baseAddress! + start + 16 * width)
        }
    }

    /// Unpacks 128 values of `width` bits (at most 32) at `p` into `out`, each plus `add`.
    @inline(__always)
    static func unpack(_ p: UnsafeRawPointer, width: Int, adding add: UInt32, into out: UnsafeMutablePointer<UInt32>) {
        switch width {
        case 0: out.update(repeating: add, count: values)
        case 1: unpack(p, 1, add, out)
        case 2: unpack(p, 2, add, out)
        case 3: unpack(p, 3, add, out)
        case 4: unpack(p, 4, add, out)
        case 5: unpack(p, 5, add, out)
        case 6: unpack(p, 6, add, out)
        case 7: unpack(p, 7, add, out)
        case 8: unpack(p, 8, add, out)
        default: unpack(p, width, add, out)
        }
    }

    /// Unpacks 128 deltas of `width` bits (at most 32) at `p` into `out` as running sums from `previous` (document
    /// numbers from their gaps); returns the last.
    @inline(__always)
    static func unpackDeltas(_ p: UnsafeRawPointer, width: Int, previous: UInt32,
                             into out: UnsafeMutablePointer<UInt32>) -> UInt32 {
        switch width {
        case 1: return unpackDeltas(p, 1, previous, out)
        case 2: return unpackDeltas(p, 2, previous, out)
        case 3: return unpackDeltas(p, 3, previous, out)
        case 4: return unpackDeltas(p, 4, previous, out)
        case 5: return unpackDeltas(p, 5, previous, out)
        case 6: return unpackDeltas(p, 6, previous, out)
        case 7: return unpackDeltas(p, 7, previous, out)
        case 8: return unpackDeltas(p, 8, previous, out)
        case 9: return unpackDeltas(p, 9, previous, out)
        case 10: return unpackDeltas(p, 10, previous, out)
        case 11: return unpackDeltas(p, 11, previous, out)
        case 12: return unpackDeltas(p, 12, previous, out)
        case 13: return unpackDeltas(p, 13, previous, out)
        case 14: return unpackDeltas(p, 14, previous, out)
        case 15: return unpackDeltas(p, 15, previous, out)
        case 16: return unpackDeltas(p, 16, previous, out)
        default: return unpackDeltas(p, width, previous, out)
        }
    }

    /// One width's loop: eight values (`width` bytes) at a time, their shifts constant once `width` is.
    @inline(__always)
    private static func unpack(_ p: UnsafeRawPointer, _ width: Int, _ add: UInt32, _ out: UnsafeMutablePointer<UInt32>) {
        let mask = UInt64(UInt32.max) >> (32 - width)
        var group = p, o = out
        for _ in 0..<(values / 8) {
            for k in 0..<8 {
                let bit = k * width
                let word = UInt64(littleEndian: group.loadUnaligned(fromByteOffset: bit >> 3, as: UInt64.self))
                o[k] = UInt32(truncatingIfNeeded: (word &>> UInt64(bit & 7)) & mask) &+ add
            }
            group += width
            o += 8
        }
    }

    @inline(__always)
    private static func unpackDeltas(_ p: UnsafeRawPointer, _ width: Int, _ previous: UInt32,
                                     _ out: UnsafeMutablePointer<UInt32>) -> UInt32 {
        let mask = UInt64(UInt32.max) >> (32 - width)
        var group = p, o = out, doc = previous
        for _ in 0..<(values / 8) {
            for k in 0..<8 {
                let bit = k * width
                let word = UInt64(littleEndian: group.loadUnaligned(fromByteOffset: bit >> 3, as: UInt64.self))
                doc &+= UInt32(truncatingIfNeeded: (word &>> UInt64(bit & 7)) & mask)
                o[k] = doc
            }
            group += width
            o += 8
        }
        return doc
    }
}
