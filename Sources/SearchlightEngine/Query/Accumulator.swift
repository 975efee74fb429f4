/// Per-document scratch of a dense group evaluation (`MaterializedGroupIterator(dense:)`): weighted
/// frequencies, primary-boost flags and a bitset of the touched documents, for up to `capacity` documents.
/// Kept zeroed between uses (a user clears what it touched), and pooled: a fresh one would cost a
/// large allocation, page faults and a memset of several bytes per document of the segment on every query.
final class Accumulator: @unchecked Sendable {
    let capacity: Int
    let weights: UnsafeMutablePointer<Float>
    let flags: UnsafeMutablePointer<UInt8>
    let touched: UnsafeMutablePointer<UInt64>

    private init(capacity: Int) {
        self.capacity = capacity
        weights = .allocate(capacity: capacity)
        weights.initialize(repeating: 0, count: capacity)
        flags = .allocate(capacity: capacity)
        flags.initialize(repeating: 0, count: capacity)
        touched = .allocate(capacity: (capacity + 63) >> 6)
        touched.initialize(repeating: 0, count: (capacity + 63) >> 6)
    }

    deinit {
        weights.deallocate()
        flags.deallocate()
        touched.deallocate()
    }

    /// Idle accumulators (one per thread that searched at once, at most 8).
    private static let pool = ScratchPool<Accumulator>(limit: 8) { $0.capacity }

    /// Calls `body` with a zeroed accumulator of at least `documents` entries, which it must leave zeroed.
    static func withAccumulator<R>(documents: Int, _ body: (Accumulator) -> R) -> R {
        let wanted = max(documents, 1)
        let accumulator = pool.take { $0.capacity >= wanted } ?? Accumulator(capacity: wanted)
        let result = body(accumulator)
        assert((0..<wanted).allSatisfy { accumulator.weights[$0] == 0 && accumulator.flags[$0] == 0 }, "left dirty")
        pool.give(accumulator)
        return result
    }
}
