/// Exact lookup in a bytewise-sorted list of distinct keys kept in one buffer with offsets (`offsets[count]` ends
/// the last): the keys of the precomputed prefix lists and of the champion lists.
enum SortedKeys {
    /// The index of `key` among the `offsets.count - 1` keys, if present (a binary search).
    static func index(of key: UnsafeBufferPointer<UInt8>, bytes: [UInt8], offsets: [UInt32]) -> Int? {
        let count = offsets.count - 1
        return bytes.withUnsafeBufferPointer { base in
            var low = 0, high = count
            while low < high {
                let mid = (low + high) >> 1
                let stored = UnsafeBufferPointer(rebasing: base[Int(offsets[mid])..<Int(offsets[mid + 1])])
                if stored.lexicographicallyPrecedes(key) { low = mid + 1 } else { high = mid }
            }
            guard low < count else { return nil }
            let stored = UnsafeBufferPointer(rebasing: base[Int(offsets[low])..<Int(offsets[low + 1])])
            return stored.elementsEqual(key) ? low : nil
        }
    }
}
