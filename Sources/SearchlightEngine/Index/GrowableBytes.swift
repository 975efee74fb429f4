#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A byte buffer that grows to tens of megabytes while a segment is built (its stored records), resized by the
/// C allocator: an array doubles by copying into fresh memory, so each page of every new copy is faulted in
/// again (19,543 page faults, 76 MB, for the debian-en build's records), where `realloc` moves a large block's
/// pages without copying them (glibc remaps a block it got from `mmap`).
///
/// A value: copies share the storage until one of them appends (copy on write).
struct GrowableBytes: @unchecked Sendable {
    // Sound: the storage is mutated only when uniquely referenced, so no two values, and no two threads,
    // ever see one storage change.
    private final class Storage {
        var base: UnsafeMutablePointer<UInt8>?
        var count = 0
        var capacity = 0

        deinit { free(base) }

        /// Room for `needed` more bytes, growing by half (at least 64 KB).
        @inline(__always)
        func reserve(_ needed: Int) {
            if count + needed > capacity { grow(count + needed) }
        }

        @inline(never)
        private func grow(_ wanted: Int) {
            let grown = max(wanted, capacity + max(capacity / 2, 1 << 16))
            base = reallocateBytes(base, to: grown)
            capacity = grown
        }
    }

    private var storage = Storage()

    init() {}

    /// The bytes of `bytes`.
    init(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    var count: Int { storage.count }
    /// Bytes allocated.
    var capacity: Int { storage.capacity }

    @inline(__always)
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) {
            let copy = Storage()
            copy.reserve(storage.count)
            if let from = storage.base, storage.count > 0 { copy.base!.update(from: from, count: storage.count) }
            copy.count = storage.count
            storage = copy
        }
        return storage
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        let storage = uniqueStorage()
        storage.reserve(1)
        storage.base![storage.count] = byte
        storage.count += 1
    }

    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
        let storage = uniqueStorage()
        storage.reserve(bytes.count)
        (storage.base! + storage.count).update(from: from, count: bytes.count)
        storage.count += bytes.count
    }

    mutating func append(contentsOf bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// The bytes as an array (one copy).
    var array: [UInt8] { withUnsafeBufferPointer { Array($0) } }
}

extension GrowableBytes: ByteAppending {
    @inline(__always)
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}
