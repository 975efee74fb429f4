/// The buffered documents of the segment being built, by external id: which document holds an id now, so
/// an upsert can displace the previous version and a delete can find it. Open addressing over one array of
/// slots (`hash << 32 | doc + 1`; 0 empty, `tombstone` removed), the ids' bytes kept by the builder and
/// compared through `matches`. A `[String: Int]` here hashed every id with SipHash and again on each
/// resize: about 1,360 instructions a document, 2% of building debian-en.
struct IdentifierTable {
    private var slots: [UInt64] = []
    private var mask = -1
    /// Slots not empty, tombstones included: probes pass over a tombstone, and only a rebuild empties it.
    private var occupied = 0
    private static let tombstone: UInt64 = 0xFFFF_FFFF_0000_0000

    /// The slot hash of an id's `Segment.hashID`.
    @inline(__always)
    private static func slotHash(_ hash: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: hash ^ hash >> 29) }

    /// Records `doc` as the document with its id (hash `hash`); returns the document that held it (whose
    /// id `matches` accepts), if any.
    mutating func insert(_ doc: Int, hash: UInt64, matches: (Int) -> Bool) -> Int? {
        if (occupied + 1) * 2 > slots.count { rebuild() }
        let h = Self.slotHash(hash)
        let entry = UInt64(h) << 32 | UInt64(doc + 1)
        var slot = Int(h) & mask
        var free = -1
        while slots[slot] != 0 {
            let current = slots[slot]
            if current == Self.tombstone {
                if free < 0 { free = slot }
            } else if UInt32(truncatingIfNeeded: current >> 32) == h {
                let previous = Int(UInt32(truncatingIfNeeded: current)) - 1
                if matches(previous) {
                    slots[slot] = entry
                    return previous
                }
            }
            slot = (slot + 1) & mask
        }
        if free >= 0 {
            slots[free] = entry
        } else {
            slots[slot] = entry
            occupied += 1
        }
        return nil
    }

    /// Forgets the document with the id of hash `hash` that `matches` accepts; returns it, if any.
    mutating func remove(hash: UInt64, matches: (Int) -> Bool) -> Int? {
        guard !slots.isEmpty else { return nil }
        let h = Self.slotHash(hash)
        var slot = Int(h) & mask
        while slots[slot] != 0 {
            let current = slots[slot]
            if current != Self.tombstone, UInt32(truncatingIfNeeded: current >> 32) == h {
                let doc = Int(UInt32(truncatingIfNeeded: current)) - 1
                if matches(doc) {
                    slots[slot] = Self.tombstone
                    return doc
                }
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Rehashes the live entries into a table at most half full after one more insert, dropping tombstones.
    private mutating func rebuild() {
        let live = slots.filter { $0 != 0 && $0 != Self.tombstone }
        var size = 16
        while size < (live.count + 1) * 4 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
        for entry in live {
            var slot = Int(UInt32(truncatingIfNeeded: entry >> 32)) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
        occupied = live.count
    }

    var memoryBytes: Int { slots.capacity * 8 }
}
