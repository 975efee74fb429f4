#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Growable per-term byte streams inside one shared buffer (Lucene's byte-slice pool): each stream is a
/// chain of slices of growing size linked by 4-byte forward pointers, so appending a posting to any of
/// hundreds of thousands of terms touches one buffer and allocates nothing per term.
///
/// A value type over one `Storage` (copy on write). The per-posting path takes the storage once
/// (`uniqueStorage()`) and appends through it: an array-backed buffer paid a uniqueness check on every
/// append, two per posting (9.4 M calls, about 4% of the debian-en build).
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

    /// The buffer and the end of the slices handed out (grown ahead of the slices handed out, so a slice is
    /// handed out by moving `top`).
    final class Storage {
        private(set) var base: UnsafeMutablePointer<UInt8>
        private(set) var capacity: Int
        private(set) var top: UInt32 = 0

        init(capacity: Int = 0) {
            self.capacity = capacity
            base = reallocateBytes(nil, to: capacity)
        }

        deinit { free(base) }

        /// An independent copy (the copy-on-write step).
        func copy() -> Storage {
            let copy = Storage(capacity: capacity)
            copy.base.update(from: base, count: Int(top))
            copy.top = top
            return copy
        }

        @inline(__always)
        private func allocate(_ size: UInt32) -> UInt32 {
            let start = top
            let end = Int(start) + Int(size)
            if end > capacity { grow(to: end) }
            top = UInt32(end)
            return start
        }

        /// Grows the buffer by half (at least 64 KB), in place or by moving its pages (`reallocateBytes`): the
        /// pool grows to tens of megabytes, and copying it into fresh memory faulted every page in again. Bytes
        /// past `top` are uninitialized; only bytes a stream wrote are read.
        @inline(never)
        private func grow(to end: Int) {
            let grown = max(end, capacity + max(capacity / 2, 1 << 16))
            base = reallocateBytes(base, to: grown)
            capacity = grown
        }

        func makeStream() -> Stream {
            let start = allocate(ByteSlicePool.sizes[0])
            return Stream(start: start, write: start, end: start + ByteSlicePool.sizes[0] - 4, level: 0)
        }

        @inline(__always)
        func append(_ byte: UInt8, to stream: inout Stream) {
            if stream.write == stream.end { chain(&stream) }
            base[Int(stream.write)] = byte
            stream.write += 1
        }

        /// Appends `count` bytes to a stream: one bulk copy when they fit in the current slice (the common
        /// case), byte by byte across slice boundaries otherwise. `source` must have at least eight readable
        /// bytes even when `count` is smaller.
        @inline(__always)
        func append(_ source: UnsafePointer<UInt8>, count: Int, to stream: inout Stream) {
            let room = Int(stream.end &- stream.write)
            if room >= count {
                let out = UnsafeMutableRawPointer(base + Int(stream.write))
                if count <= 8, room >= 8 {
                    // A posting is a few bytes: one eight-byte move (the bytes past `count` land in the slice's
                    // unwritten room, overwritten by the next append). A byte loop here became a memmove call
                    // per posting (7 M of them for debian-en).
                    out.storeBytes(of: UnsafeRawPointer(source).loadUnaligned(as: UInt64.self), as: UInt64.self)
                } else {
                    out.copyMemory(from: source, byteCount: count)
                }
                stream.write &+= UInt32(count)
            } else {
                for k in 0..<count { append(source[k], to: &stream) }
            }
        }

        /// Allocates the stream's next (larger) slice and links it from the last 4 bytes of the full one.
        @inline(never)
        private func chain(_ stream: inout Stream) {
            let level = min(Int(stream.level) + 1, ByteSlicePool.sizes.count - 1)
            let size = ByteSlicePool.sizes[level]
            let next = allocate(size)
            let at = Int(stream.end)
            base[at] = UInt8(truncatingIfNeeded: next)
            base[at + 1] = UInt8(truncatingIfNeeded: next >> 8)
            base[at + 2] = UInt8(truncatingIfNeeded: next >> 16)
            base[at + 3] = UInt8(truncatingIfNeeded: next >> 24)
            stream.write = next
            stream.end = next + size - 4
            stream.level = UInt8(level)
        }

        /// Appends `count` bytes of any length to a stream, one bulk copy per slice.
        func appendBulk(_ source: UnsafePointer<UInt8>, count: Int, to stream: inout Stream) {
            var copied = 0
            while copied < count {
                if stream.write == stream.end { chain(&stream) }
                let chunk = min(Int(stream.end &- stream.write), count - copied)
                (base + Int(stream.write)).update(from: source + copied, count: chunk)
                stream.write &+= UInt32(chunk)
                copied += chunk
            }
        }
    }

    private var storage = Storage()

    var memoryBytes: Int { storage.capacity }
    /// Bytes of the slices handed out (their 32-bit addresses end here).
    var usedBytes: Int { Int(storage.top) }

    /// The storage, made unique to this pool, for a run of appends that holds no copy of the pool (the
    /// per-document posting loop).
    @inline(__always)
    mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    mutating func makeStream() -> Stream { uniqueStorage().makeStream() }

    mutating func append(_ byte: UInt8, to stream: inout Stream) { uniqueStorage().append(byte, to: &stream) }

    mutating func appendVarInt(_ value: UInt32, to stream: inout Stream) {
        let storage = uniqueStorage()
        var v = value
        while v >= 0x80 {
            storage.append(UInt8(truncatingIfNeeded: v) | 0x80, to: &stream)
            v >>= 7
        }
        storage.append(UInt8(v), to: &stream)
    }

    /// `Storage.append(_:count:to:)` on this pool's own storage.
    mutating func append(_ source: UnsafePointer<UInt8>, count: Int, to stream: inout Stream) {
        uniqueStorage().append(source, count: count, to: &stream)
    }

    /// Appends `count` bytes of any length to a stream, one bulk copy per slice (merges copy whole encoded
    /// posting lists of a term this way).
    mutating func appendBulk(_ source: UnsafePointer<UInt8>, count: Int, to stream: inout Stream) {
        uniqueStorage().appendBulk(source, count: count, to: &stream)
    }

    /// Appends the stream's bytes, in order, to `out`.
    func copy(_ stream: Stream, to out: inout [UInt8]) {
        let bytes = UnsafeBufferPointer(start: UnsafePointer(storage.base), count: Int(storage.top))
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
