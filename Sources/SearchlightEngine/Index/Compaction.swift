extension Array {
    /// A copy whose capacity equals its count: sealed segments never grow, so they should not keep the
    /// up-to-2× slack of amortized appends.
    func compacted() -> [Element] {
        // Allocator rounding (a few bytes to a page) is not slack worth a copy: arrays loaded from a store
        // are allocated at their exact count and would otherwise be copied a second time.
        let slack = capacity - count
        guard slack > 0, slack > count / 64 || slack * MemoryLayout<Element>.stride > 4096 else { return self }
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            _ = buffer.initialize(from: self)
            initialized = count
        }
    }
}
