/// Growable per-term byte streams inside one shared buffer (Lucene's byte-slice pool): each stream is a
/// chain of slices of growing size linked by 4-byte forward pointers, so appending a posting to any of
/// hundreds of thousands of terms touches one buffer and allocates nothing per term.
struct ByteSlicePool {
    /// Slice sizes by level, forward pointer included.
    static let sizes: [UInt32] = [12, 20, 36, 68, 132, 260, 516, 1028]

    struct Stream {
        /// First byte of the first slice.
        var start: UInt32
        /// Next byte to write.
        var write: UInt32
        /// End of the writable part of the current slice (its forward pointer sits here).
        var end: UInt32
        var level: UInt8
    }

    /// The buffer, zeroed past `top` (grown ahead of the slices handed out).
    private(set) var bytes: [UInt8] = []
    /// End of the slices handed out.
    private var top: UInt32 = 0

    var memoryBytes: Int { bytes.capacity }

    @inline(__always)
    private mutating func allocate(_ size: UInt32) -> UInt32 {
        let start = top
        let end = Int(start) + Int(size)
        if end > bytes.count { grow(to: end) }
        top = UInt32(end)
        return start
    }

    /// Grows the buffer by half (at least 64 KB), so that slices are handed out by moving `top`: zeroing the
    /// buffer slice by slice cost a generic append per slice (about 200 instructions, half a million times for
    /// debian-en).
    @inline(never)
    private mutating func grow(to end: Int) {
        let grown = max(end, bytes.count + max(bytes.count / 2, 1 << 16))
        bytes.reserveCapacity(grown)
        bytes.append(contentsOf: repeatElement(0, count: grown - bytes.count))
    }

    mutating func makeStream() -> Stream {
        let start = allocate(Self.sizes[0])
        return Stream(start: start, write: start, end: start + Self.sizes[0] - 4, level: 0)
    }

    @inline(__always)
    mutating func append(_ byte: UInt8, to stream: inout Stream) {
        if stream.write == stream.end { chain(&stream) }
        bytes[Int(stream.write)] = byte
        stream.write += 1
    }

    @inline(__always)
    mutating func appendVarInt(_ value: UInt32, to stream: inout Stream) {
        var v = value
        while v >= 0x80 {
            append(UInt8(truncatingIfNeeded: v) | 0x80, to: &stream)
            v >>= 7
        }
        append(UInt8(v), to: &stream)
    }

    /// Appends `count` bytes to a stream: one bulk copy when they fit in the current slice (the common
    /// case), byte by byte across slice boundaries otherwise. `source` must have at least eight readable bytes
    /// even when `count` is smaller.
    @inline(__always)
    mutating func append(_ source: UnsafePointer<UInt8>, count: Int, to stream: inout Stream) {
        let room = Int(stream.end &- stream.write)
        if room >= count {
            let at = Int(stream.write)
            bytes.withUnsafeMutableBufferPointer { buffer in
                let out = UnsafeMutableRawPointer(buffer.baseAddress! + at)
                if count <= 8, room >= 8 {
                    // A posting is a few bytes: one eight-byte move (the bytes past `count` land in the slice's
                    // unwritten room, overwritten by the next append). A byte loop here became a memmove call
                    // per posting (7 M of them for debian-en).
                    out.storeBytes(of: UnsafeRawPointer(source).loadUnaligned(as: UInt64.self), as: UInt64.self)
                } else {
                    out.copyMemory(from: source, byteCount: count)
                }
            }
            stream.write &+= UInt32(count)
        } else {
            for k in 0..<count { append(source[k], to: &stream) }
        }
    }

    /// Allocates the stream's next (larger) slice and links it from the last 4 bytes of the full one.
    @inline(__always)
    private mutating func chain(_ stream: inout Stream) {
        let level = min(Int(stream.level) + 1, Self.sizes.count - 1)
        let next = allocate(Self.sizes[level])
        let at = Int(stream.end)
        bytes[at] = UInt8(truncatingIfNeeded: next)
        bytes[at + 1] = UInt8(truncatingIfNeeded: next >> 8)
        bytes[at + 2] = UInt8(truncatingIfNeeded: next >> 16)
        bytes[at + 3] = UInt8(truncatingIfNeeded: next >> 24)
        stream.write = next
        stream.end = next + Self.sizes[level] - 4
        stream.level = UInt8(level)
    }

    /// Appends `count` bytes of any length to a stream, one bulk copy per slice (merges copy whole encoded
    /// posting lists of a term this way).
    mutating func appendBulk(_ source: UnsafePointer<UInt8>, count: Int, to stream: inout Stream) {
        var copied = 0
        while copied < count {
            if stream.write == stream.end { chain(&stream) }
            let chunk = min(Int(stream.end &- stream.write), count - copied)
            let at = Int(stream.write)
            bytes.withUnsafeMutableBufferPointer { buffer in
                (buffer.baseAddress! + at).update(from: source + copied, count: chunk)
            }
            stream.write &+= UInt32(chunk)
            copied += chunk
        }
    }

    /// Appends the stream's bytes, in order, to `out`.
    func copy(_ stream: Stream, to out: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { bytes in
            var current = Int(stream.start)
            var level = 0
            var sliceEnd = current + Int(Self.sizes[0]) - 4
            while sliceEnd != Int(stream.end) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[current..<sliceEnd]))
                let next = Int(bytes[sliceEnd]) | Int(bytes[sliceEnd + 1]) << 8 | Int(bytes[sliceEnd + 2]) << 16
                    | Int(bytes[sliceEnd + 3]) << 24
                level = min(level + 1, Self.sizes.count - 1)
                current = next
                sliceEnd = next + Int(Self.sizes[level]) - 4
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[current..<Int(stream.write)]))
        }
    }
}
