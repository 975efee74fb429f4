/// Where a term is in one field's dictionary of each segment of a snapshot: its index there, by segment ordinal
/// (-1: the segment lacks it). The first segment's index is kept inline, so planning a term over a one-segment
/// snapshot (the common case, and a plan is made for every search) allocates nothing for it.
struct TermLocations: RandomAccessCollection, MutableCollection, Sendable {
    /// The snapshot's segment count.
    let count: Int
    private var first: Int32 = -1
    private var rest: [Int32]

    /// Absent from all `count` segments.
    init(absentIn count: Int) {
        self.count = count
        rest = count > 1 ? [Int32](repeating: -1, count: count - 1) : []
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(ordinal: Int) -> Int32 {
        get {
            assert(ordinal >= 0 && ordinal < count, "segment ordinal out of range")
            return ordinal == 0 ? first : rest[ordinal - 1]
        }
        set {
            assert(ordinal >= 0 && ordinal < count, "segment ordinal out of range")
            if ordinal == 0 { first = newValue } else { rest[ordinal - 1] = newValue }
        }
    }
}
