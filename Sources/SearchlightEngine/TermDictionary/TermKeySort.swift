/// Orders a segment's interned terms for sealing: by field, then bytewise. Each term gets a key, its field (two
/// bytes, big-endian) and first six bytes packed into a `UInt64` whose order is theirs. The keys are sorted by
/// least-significant-digit radix (a pass per byte some key varies in, the rest skipped), and only runs of equal keys
/// (terms that share a field and six bytes) are compared further: by their next eight bytes packed the same way,
/// then by their full bytes. A comparison sort of the keys cost about 130 M instructions of building debian-en;
/// this, about 92 M.
enum TermKeySort {
    /// The ids of the terms, term `t` being `arena[starts[t]..<starts[t + 1]]` in field `fields[t]`, in order.
    static func order(arena: [UInt8], starts: [UInt32], fields: [UInt16]) -> [UInt32] {
        let count = fields.count
        return arena.withUnsafeBufferPointer { a in
            starts.withUnsafeBufferPointer { starts in
                var prefixes = [UInt64](repeating: 0, count: count)
                for t in 0..<count {
                    prefixes[t] = pack(a, from: Int(starts[t]), end: Int(starts[t + 1]), bytes: 6, onto: UInt64(fields[t]))
                }
                var terms = (0..<UInt32(count)).map { $0 }
                radixSort(&prefixes, carrying: &terms)
                // Runs of equal prefixes, ordered by the next eight bytes and then the full bytes.
                var start = 0
                var run: [(next: UInt64, term: UInt32)] = []
                while start < count {
                    var end = start + 1
                    while end < count, prefixes[end] == prefixes[start] { end += 1 }
                    if end - start > 1 {
                        run.removeAll(keepingCapacity: true)
                        for t in terms[start..<end] {
                            run.append((pack(a, from: Int(starts[Int(t)]) + 6, end: Int(starts[Int(t) + 1]), bytes: 8), t))
                        }
                        run.sort { x, y in
                            if x.next != y.next { return x.next < y.next }
                            let xs = Int(starts[Int(x.term)]), xe = Int(starts[Int(x.term) + 1])
                            let ys = Int(starts[Int(y.term)]), ye = Int(starts[Int(y.term) + 1])
                            return UnsafeBufferPointer(rebasing: a[xs..<xe])
                                .lexicographicallyPrecedes(UnsafeBufferPointer(rebasing: a[ys..<ye]))
                        }
                        for (offset, entry) in run.enumerated() { terms[start + offset] = entry.term }
                    }
                    start = end
                }
                return terms
            }
        }
    }

    /// `onto` shifted left by `bytes` bytes, with the term's bytes from `from` (zero from `end` on) below it,
    /// big-endian: integers that compare as the bytes do.
    @inline(__always)
    static func pack(_ a: UnsafeBufferPointer<UInt8>, from: Int, end: Int, bytes: Int, onto: UInt64 = 0) -> UInt64 {
        var key = onto
        for k in 0..<bytes { key = key << 8 | (from + k < end ? UInt64(a[from + k]) : 0) }
        return key
    }

    /// Sorts `keys` ascending by LSD radix, one pass per byte that differs between some keys, moving `payload`
    /// along (stable).
    static func radixSort(_ keys: inout [UInt64], carrying payload: inout [UInt32]) {
        let count = keys.count
        guard let first = keys.first else { return }
        var varying: UInt64 = 0
        for key in keys { varying |= key ^ first }
        var otherKeys = [UInt64](repeating: 0, count: count), otherPayload = [UInt32](repeating: 0, count: count)
        var counts = [Int](repeating: 0, count: 256)
        for byte in 0..<8 where (varying >> UInt64(8 * byte)) & 0xFF != 0 {
            let shift = UInt64(8 * byte)
            counts.withUnsafeMutableBufferPointer { counts in
                keys.withUnsafeBufferPointer { keys in
                    payload.withUnsafeBufferPointer { payload in
                        otherKeys.withUnsafeMutableBufferPointer { outKeys in
                            otherPayload.withUnsafeMutableBufferPointer { outPayload in
                                counts.update(repeating: 0)
                                for key in keys { counts[Int((key >> shift) & 0xFF)] += 1 }
                                var start = 0
                                for digit in 0..<256 {
                                    let n = counts[digit]
                                    counts[digit] = start
                                    start += n
                                }
                                for i in 0..<count {
                                    let digit = Int((keys[i] >> shift) & 0xFF)
                                    let at = counts[digit]
                                    counts[digit] = at + 1
                                    outKeys[at] = keys[i]
                                    outPayload[at] = payload[i]
                                }
                            }
                        }
                    }
                }
            }
            swap(&keys, &otherKeys)
            swap(&payload, &otherPayload)
        }
    }
}
