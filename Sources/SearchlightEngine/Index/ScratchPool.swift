import Synchronization

/// Idle scratch buffers of one kind (a dense group's accumulators, a champion list's ranking records), kept for
/// reuse: a fresh one would cost a large allocation, page faults and its clearing on every use. At most `limit`
/// are kept; when full, a returned one replaces the smallest if larger.
final class ScratchPool<Scratch: AnyObject & Sendable>: Sendable {
    private let idle = Mutex<[Scratch]>([])
    let limit: Int
    private let capacity: @Sendable (Scratch) -> Int

    init(limit: Int, capacity: @escaping @Sendable (Scratch) -> Int) {
        self.limit = limit
        self.capacity = capacity
    }

    /// An idle scratch that `fits` (the last one returned, among those), taken out of the pool; nil if none.
    func take(where fits: (Scratch) -> Bool) -> Scratch? {
        idle.withLock { idle in
            guard let index = idle.lastIndex(where: fits) else { return nil }
            return idle.remove(at: index)
        }
    }

    /// Returns a scratch for reuse.
    func give(_ scratch: Scratch) {
        idle.withLock { idle in
            if idle.count < limit {
                idle.append(scratch)
            } else if let smallest = idle.indices.min(by: { capacity(idle[$0]) < capacity(idle[$1]) }),
                      capacity(idle[smallest]) < capacity(scratch) {
                idle[smallest] = scratch
            }
        }
    }

    /// Replaces the idle scratches (tests).
    func replaceAll(with scratches: [Scratch]) { idle.withLock { $0 = scratches } }
}
