extension Array {
    /// A copy whose capacity equals its count: sealed segments never grow, so they should not keep the
    /// up-to-2× slack of amortized appends.
    func compacted() -> [Element] {
        guard capacity > count else { return self }
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            _ = buffer.initialize(from: self)
            initialized = count
        }
    }
}
