/// LEB128 variable-length integers: the byte codec of posting deltas, term frequencies, positions and
/// stored values.
enum VarInt {
    @inline(__always)
    static func append<Out: ByteAppending>(_ value: UInt32, to out: inout Out) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    @inline(__always)
    static func append64(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// Reads one value at `offset` and moves past it. Malformed input stops at the buffer end.
    @inline(__always)
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> UInt32 {
        var byte = bytes[offset]
        offset += 1
        if byte < 0x80 { return UInt32(byte) }
        var result = UInt32(byte & 0x7F)
        var shift: UInt32 = 7
        repeat {
            guard offset < bytes.count, shift < 32 else { return result }
            byte = bytes[offset]
            offset += 1
            result |= UInt32(byte & 0x7F) << shift
            shift += 7
        } while byte >= 0x80
        return result
    }

    /// `read` without bounds checks, for a caller that knows five bytes lie ahead: reads at most five.
    @inline(__always)
    static func readUnchecked(_ p: inout UnsafePointer<UInt8>) -> UInt32 {
        var byte = p.pointee
        p += 1
        if byte < 0x80 { return UInt32(byte) }
        var result = UInt32(byte & 0x7F)
        var shift: UInt32 = 7
        repeat {
            guard shift < 32 else { return result }
            byte = p.pointee
            p += 1
            result |= UInt32(byte & 0x7F) << shift
            shift += 7
        } while byte >= 0x80
        return result
    }

    /// Decodes `count` postings (`varint(doc delta << 1 | tf == 1)`, then `varint(tf)` only when tf > 1) at `start`
    /// into `docs` and `tfs`, the deltas added to `previous`; returns where they end. The caller guarantees ten bytes
    /// per posting.
    ///
    /// Eight bytes at a time while at least eight postings remain. When all eight are whole one-byte values (a
    /// frequent term's small gaps and frequencies), codes and frequencies are told apart without a branch per value
    /// (`OneByteWord`: which bytes are codes follows from their low bits); otherwise eight postings are read value by
    /// value. Of the words the phrase workload decodes, 62% mix codes and frequencies (a branch on each code's low
    /// bit mispredicted about half the time) and 29% are eight codes with tf 1: more instructions than the branches,
    /// but the phrase p50 and p99 fell 4–7% (BENCHMARKS.md §AF). A separate path for eight codes with tf 1 made no
    /// difference on this machine.
    @inline(__always)
    static func decodePostings(from start: UnsafePointer<UInt8>, count: Int, previous: UInt32,
                               docs: UnsafeMutablePointer<UInt32>, tfs: UnsafeMutablePointer<UInt32>) -> UnsafePointer<UInt8> {
        OneByteWord.table.withUnsafeBufferPointer { table in
            decodePostings(from: start, count: count, previous: previous, docs: docs, tfs: tfs, table: table)
        }
    }

    @inline(__always)
    private static func decodePostings(from start: UnsafePointer<UInt8>, count: Int, previous: UInt32,
                                       docs: UnsafeMutablePointer<UInt32>, tfs: UnsafeMutablePointer<UInt32>,
                                       table: UnsafeBufferPointer<UInt16>) -> UnsafePointer<UInt8> {
        var p = start
        var doc = previous
        var i = 0
        /// One posting, by its codes.
        @inline(__always)
        func decodeOne(_ at: Int) {
            let code = readUnchecked(&p)
            doc &+= code >> 1
            docs[at] = doc
            tfs[at] = code & 1 != 0 ? 1 : readUnchecked(&p)
        }
        while i + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
            guard word & 0x8080_8080_8080_8080 == 0 else {
                // A value of several bytes among the next eight: eight postings value by value.
                for k in 0..<8 { decodeOne(i + k) }
                i += 8
                continue
            }
            // Codes and frequencies, all one byte: which bytes are codes follows from the low bits alone. Each
            // byte writes a posting at `at`, which moves on only past a code (a frequency's write is overwritten by
            // the next posting); at most eight postings come out, and at least eight remain, so every write fits.
            let lowBits = word & 0x0101_0101_0101_0101
            let entry = table[Int(truncatingIfNeeded: (lowBits &* 0x0102_0408_1020_4080) >> 56)]
            let codes = UInt64(entry & 0xFF)
            var at = i
            for k in 0..<8 {
                let byte = UInt32(truncatingIfNeeded: word &>> UInt64(8 * k)) & 0xFF
                let next = k < 7 ? UInt32(truncatingIfNeeded: word &>> UInt64(8 * k + 8)) & 0xFF : 0
                let isCode = Int(truncatingIfNeeded: (codes &>> UInt64(k)) & 1)
                doc &+= (byte &>> 1) & (0 &- UInt32(isCode))
                docs[at] = doc
                tfs[at] = byte & 1 != 0 ? 1 : next
                at &+= isCode
            }
            i = at
            p += Int(entry >> 8)
        }
        while i < count {
            decodeOne(i)
            i += 1
        }
        return p
    }

    @inline(__always)
    static func read64(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return result
    }

    /// Skips `count` values. A value ends at each byte below 0x80, so eight bytes at a time are counted while
    /// the values ending in them all lie before the last one to skip, and the word holding that one is searched
    /// by its marks (the position streams of the documents before a phrase candidate in its block are skipped
    /// this way).
    @inline(__always)
    static func skip(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int, count: Int) {
        var remaining = count
        var at = offset
        let end = bytes.count
        if remaining > 2, let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            // Thirty-two bytes a step while more than 32 values remain: each byte lane of the four words' marks
            // sums to at most 4, so one multiply still adds them all up.
            while remaining > 32, at + 32 <= end {
                let marks = ((~raw.loadUnaligned(fromByteOffset: at, as: UInt64.self) & 0x8080_8080_8080_8080) >> 7)
                    &+ ((~raw.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self) & 0x8080_8080_8080_8080) >> 7)
                    &+ ((~raw.loadUnaligned(fromByteOffset: at + 16, as: UInt64.self) & 0x8080_8080_8080_8080) >> 7)
                    &+ ((~raw.loadUnaligned(fromByteOffset: at + 24, as: UInt64.self) & 0x8080_8080_8080_8080) >> 7)
                let ends = Int(truncatingIfNeeded: (marks &* 0x0101_0101_0101_0101) >> 56)
                guard ends < remaining else { break }
                remaining -= ends
                at += 32
            }
            while at + 8 <= end {
                // A 1 in the low bit of each byte that ends a value, summed into the top byte by one multiply.
                var marks = (~raw.loadUnaligned(fromByteOffset: at, as: UInt64.self) & 0x8080_8080_8080_8080) >> 7
                let ends = Int(truncatingIfNeeded: (marks &* 0x0101_0101_0101_0101) >> 56)
                if ends < remaining {
                    remaining -= ends
                    at += 8
                    continue
                }
                // The last value to skip ends in this word: drop the marks of the ones before it.
                for _ in 1..<remaining { marks &= marks &- 1 }
                at += marks.trailingZeroBitCount >> 3 + 1
                remaining = 0
                break
            }
        }
        while remaining > 0, at < end {
            if bytes[at] < 0x80 { remaining -= 1 }
            at += 1
        }
        offset = at
    }
}

/// Which bytes of eight one-byte values, starting at a posting, are document codes: indexed by the bytes' low bits
/// (bit k: byte k's low bit, 1 when a code says tf 1, so a 0 on a code means the next byte is its frequency).
/// An entry holds the codes' bits (low byte) and how many bytes they use (above): seven when the last byte is a
/// code whose frequency lies in the next word (left for the next step), else eight.
enum OneByteWord {
    static let table: [UInt16] = (0..<256).map { lowBits in
        var codes = 0, k = 0
        while k < 8 {
            let tfFollows = lowBits >> k & 1 == 0
            if tfFollows && k == 7 { return UInt16(codes | 7 << 8) }
            codes |= 1 << k
            k += tfFollows ? 2 : 1
        }
        return UInt16(codes | 8 << 8)
    }
}

/// Somewhere varints and raw bytes are appended: an array, or a builder's `GrowableBytes`.
protocol ByteAppending {
    mutating func append(_ byte: UInt8)
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: ByteAppending where Element == UInt8 {
    @inline(__always)
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}
