/// Maps term bytes to dense integer ids while a segment is being built: open addressing over a byte
/// arena, so the per-token path allocates nothing and never builds a String.
struct TermInterner {
    private(set) var arena: [UInt8] = []
    /// Start of term `i` in `arena`; `starts[count]` is the arena end.
    private(set) var starts: [UInt32] = [0]
    private var hashes: [UInt32] = []
    /// The field of each term: the same bytes in two fields are two terms.
    private(set) var fields: [UInt16] = []
    private var slots: [UInt32]
    private var mask: Int

    init(capacity: Int = 1 << 12) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [UInt32](repeating: 0, count: size)
        mask = size - 1
    }

    var count: Int { starts.count - 1 }

    var memoryBytes: Int { arena.capacity + starts.capacity * 4 + hashes.capacity * 4 + slots.capacity * 4 }

    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, field: UInt16) -> UInt32 {
        var h: UInt32 = 2_166_136_261 ^ (UInt32(field) &* 0x9E37_79B1)
        for byte in bytes { h = (h ^ UInt32(byte)) &* 16_777_619 }
        return h
    }

    /// The bytes of term `id`.
    func term(_ id: UInt32) -> ArraySlice<UInt8> { arena[Int(starts[Int(id)])..<Int(starts[Int(id) + 1])] }

    /// The id of (`field`, `bytes`), adding it if new.
    mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, field: UInt16) -> UInt32 {
        let h = Self.hash(bytes, field: field)
        var slot = Int(h) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            let id = Int(entry - 1)
            if hashes[id] == h, fields[id] == field {
                let start = Int(starts[id]), end = Int(starts[id + 1])
                if end - start == bytes.count {
                    let same = arena.withUnsafeBufferPointer { a in
                        bytes.count == 0 || memcmp(a.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0
                    }
                    if same { return UInt32(id) }
                }
            }
            slot = (slot + 1) & mask
        }
        let id = UInt32(count)
        arena.append(contentsOf: bytes)
        starts.append(UInt32(arena.count))
        hashes.append(h)
        fields.append(field)
        slots[slot] = id + 1
        if count * 2 > slots.count { grow() }
        return id
    }

    private mutating func grow() {
        let size = slots.count * 2
        slots = [UInt32](repeating: 0, count: size)
        mask = size - 1
        for id in 0..<count {
            var slot = Int(hashes[id]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(id + 1)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
