/// Byte-oriented LZ77 compression of short blocks (a document's long stored texts) against an optional
/// preset dictionary: the block may copy from text the dictionary holds, so a few hundred bytes of
/// description still compress although they repeat nothing of themselves. Decoding is a loop of copies,
/// fast enough to run for every item a caller fetches.
///
/// Format (the LZ4 block format's sequence layout, with the dictionary logically before the output): each
/// sequence is a token byte (high nibble: literal count, low nibble: match length − 4; 15 means more
/// length bytes follow, each added, until one below 255), the literals, then a 2-byte little-endian offset
/// back from the current output position (1…65,535, reaching into the dictionary when larger than the output
/// so far) and the extra match-length bytes. The last sequence has literals only. The decompressed length
/// is kept by the caller.
///
/// Decoding validates every length and offset against the input, the output capacity and the dictionary:
/// corrupt input yields nil, never a read or write out of bounds.
package enum LZBlock {
    /// Shortest match encoded (a match of 4 bytes saves 1 over literals).
    static let minimumMatch = 4
    /// Farthest offset a sequence can encode.
    static let maximumOffset = 65_535

    /// A preset dictionary with its hash table, built once and shared by every block compressed against it.
    package final class Dictionary: Sendable {
        package let bytes: [UInt8]
        /// For each hash of 4 bytes, the last dictionary position starting with them (−1: none).
        let table: [Int32]
        static let tableBits = 14

        package init(_ bytes: [UInt8]) {
            // Only the last `maximumOffset` bytes are reachable.
            let reachable = bytes.count > LZBlock.maximumOffset ? Array(bytes.suffix(LZBlock.maximumOffset)) : bytes
            self.bytes = reachable
            var table = [Int32](repeating: -1, count: 1 << Self.tableBits)
            if reachable.count >= LZBlock.minimumMatch {
                reachable.withUnsafeBufferPointer { d in
                    for position in 0...(d.count - LZBlock.minimumMatch) {
                        let value = LZBlock.read32(d.baseAddress! + position)
                        table[LZBlock.hash(value, bits: Self.tableBits)] = Int32(position)
                    }
                }
            }
            self.table = table
        }
    }

    @inline(__always)
    static func read32(_ p: UnsafePointer<UInt8>) -> UInt32 {
        UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
    }

    @inline(__always)
    static func hash(_ value: UInt32, bits: Int) -> Int {
        Int((value &* 2_654_435_761) >> UInt32(32 - bits))
    }

    /// Appends the compressed form of `input` to `out`.
    package static func compress(_ input: UnsafeBufferPointer<UInt8>, dictionary: Dictionary?,
                                 into out: inout [UInt8]) {
        let n = input.count
        guard n > 0, let base = input.baseAddress else { return }
        // A small table for the block's own positions, sized to it (cleared per block).
        var bits = 8
        while bits < 13, 1 << bits < n { bits += 1 }
        let empty: [UInt8] = [], emptyTable: [Int32] = []
        // The worst case (all literals): the input, one length byte per 255 literals, the token.
        let capacity = n + n / 255 + 16
        withScratch(capacity: capacity) { buffer in
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 1 << bits) { table in
            table.initialize(repeating: -1)
            (dictionary?.bytes ?? empty).withUnsafeBufferPointer { d in
            (dictionary?.table ?? emptyTable).withUnsafeBufferPointer { dictionaryTable in
                let dictionaryCount = d.count
                var writer = Writer(start: buffer.baseAddress!)
                var anchor = 0, position = 0
                // Consecutive positions without a match: past 32 of them the search steps faster (as LZ4 does),
                // so incompressible stretches cost little.
                var misses = 0
                // Matches start before the last 5 bytes and end before the last byte, as in LZ4, so the block
                // always ends with literals.
                let matchLimit = n - 5, matchEnd = n - 1
                while position < matchLimit {
                    let value = read32(base + position)
                    let slot = hash(value, bits: bits)
                    let own = Int(table[slot])
                    table[slot] = Int32(position)
                    var bestLength = 0, bestOffset = 0
                    if own >= 0, position - own <= maximumOffset, read32(base + own) == value {
                        bestLength = minimumMatch + commonLength(
                            base + own + minimumMatch, base + position + minimumMatch,
                            limit: matchEnd - position - minimumMatch)
                        bestOffset = position - own
                    }
                    // (An empty array's buffer may still have a base address: test the table's size.)
                    if dictionaryTable.count == 1 << Dictionary.tableBits, let dp = d.baseAddress,
                       let dt = dictionaryTable.baseAddress {
                        let candidate = Int(dt[hash(value, bits: Dictionary.tableBits)])
                        let offset = position + dictionaryCount - candidate
                        if candidate >= 0, offset <= maximumOffset, read32(dp + candidate) == value {
                            let length = minimumMatch + commonLength(
                                dp + candidate + minimumMatch, base + position + minimumMatch,
                                limit: min(dictionaryCount - candidate, matchEnd - position) - minimumMatch)
                            if length > bestLength {
                                bestLength = length
                                bestOffset = offset
                            }
                        }
                    }
                    guard bestLength >= minimumMatch else {
                        position += 1 + misses >> 5
                        misses += 1
                        continue
                    }
                    misses = 0
                    writer.sequence(literals: base + anchor, count: position - anchor, offset: bestOffset,
                                    matchLength: bestLength)
                    position += bestLength
                    anchor = position
                }
                writer.sequence(literals: base + anchor, count: n - anchor, offset: 0, matchLength: 0)
                assert(writer.count <= capacity)
                out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: writer.count))
            }
            }
        }
        }
    }

    /// Calls `body` with an uninitialized buffer of `capacity` bytes: on the stack when small, on the heap when
    /// large (a long text must not overflow a thread's stack).
    @inline(__always)
    static func withScratch<R>(capacity: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> R) -> R {
        if capacity <= 4096 { return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity, body) }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        return body(buffer)
    }

    /// How many bytes from `a` and `b` are equal, at most `limit`: eight at a time, then one at a time.
    @inline(__always)
    static func commonLength(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, limit: Int) -> Int {
        var length = 0
        while length + 8 <= limit {
            let x = UnsafeRawPointer(a + length).loadUnaligned(as: UInt64.self)
            let y = UnsafeRawPointer(b + length).loadUnaligned(as: UInt64.self)
            if x != y { return length + (x ^ y).littleEndian.trailingZeroBitCount >> 3 }
            length += 8
        }
        while length < limit, a[length] == b[length] { length += 1 }
        return length
    }

    /// Writes sequences into a buffer sized for the worst case.
    private struct Writer {
        let start: UnsafeMutablePointer<UInt8>
        var count = 0

        /// One sequence: literals, then (when `matchLength` > 0) a match.
        @inline(__always)
        mutating func sequence(literals: UnsafePointer<UInt8>, count literalCount: Int, offset: Int, matchLength: Int) {
            let extra = matchLength > 0 ? matchLength - minimumMatch : 0
            byte(UInt8(min(literalCount, 15) << 4 | min(extra, 15)))
            if literalCount >= 15 { length(literalCount - 15) }
            (start + count).update(from: literals, count: literalCount)
            count += literalCount
            guard matchLength > 0 else { return }
            byte(UInt8(truncatingIfNeeded: offset))
            byte(UInt8(truncatingIfNeeded: offset >> 8))
            if extra >= 15 { length(extra - 15) }
        }

        @inline(__always)
        mutating func byte(_ value: UInt8) {
            start[count] = value
            count += 1
        }

        /// A length continuation: 255 while at least 255 remain, then the rest.
        @inline(__always)
        mutating func length(_ remainder: Int) {
            var remainder = remainder
            while remainder >= 255 {
                byte(255)
                remainder -= 255
            }
            byte(UInt8(remainder))
        }
    }

    /// Decompresses `input` into `output`, which must be exactly the decompressed length. Returns false when
    /// the input is malformed (a length or offset out of range, or output left unfilled).
    package static func decompress(_ input: UnsafeBufferPointer<UInt8>, dictionary: UnsafeBufferPointer<UInt8>,
                                   into output: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        // An empty block is the empty string; anything else ends with a literals-only sequence.
        guard !input.isEmpty else { return output.isEmpty }
        guard let out = output.baseAddress, let source = input.baseAddress else { return false }
        let inputCount = input.count, capacity = output.count, dictionaryCount = dictionary.count
        var i = 0, o = 0
        while i < inputCount {
            let token = Int(source[i])
            i += 1
            var literals = token >> 4
            if literals == 15 {
                guard let more = readLength(source, inputCount, &i) else { return false }
                literals += more
            }
            guard literals <= inputCount - i, literals <= capacity - o else { return false }
            (out + o).update(from: source + i, count: literals)
            i += literals
            o += literals
            // The last sequence: literals only, and the output complete.
            if i == inputCount { return token & 15 == 0 && o == capacity }
            // A match follows.
            guard inputCount - i >= 2 else { return false }
            let offset = Int(source[i]) | Int(source[i + 1]) << 8
            i += 2
            var length = (token & 15) + minimumMatch
            if token & 15 == 15 {
                guard let more = readLength(source, inputCount, &i) else { return false }
                length += more
            }
            guard offset > 0, offset <= o + dictionaryCount, length <= capacity - o else { return false }
            var remaining = length
            if offset > o {
                // Starts in the dictionary, possibly continuing into the output.
                let start = dictionaryCount - (offset - o)
                let fromDictionary = min(remaining, dictionaryCount - start)
                (out + o).update(from: dictionary.baseAddress! + start, count: fromDictionary)
                o += fromDictionary
                remaining -= fromDictionary
                if remaining > 0 {
                    // The rest continues at the output's start (offset now equals the distance back to it).
                    for k in 0..<remaining { out[o + k] = out[k] }
                    o += remaining
                }
            } else if offset >= remaining {
                (out + o).update(from: out + (o - offset), count: remaining)
                o += remaining
            } else {
                // Overlapping copy (a run): byte by byte.
                for _ in 0..<remaining {
                    out[o] = out[o - offset]
                    o += 1
                }
            }
        }
        // The input ended with a match: not a block this codec writes.
        return false
    }

    /// A length continuation: bytes added while they are 255, then one below 255.
    @inline(__always)
    private static func readLength(_ source: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int) -> Int? {
        var total = 0
        while true {
            guard i < count else { return nil }
            let byte = Int(source[i])
            i += 1
            total += byte
            // Bounded: no real block is longer than 4 GiB.
            guard total < 1 << 32 else { return nil }
            if byte != 255 { return total }
        }
    }
}
