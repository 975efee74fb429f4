/// Moving the `k` smallest elements of an array to its front (in no particular order), in linear time on
/// average: a prefix expansion keeps its 256 most frequent terms out of thousands without sorting them all.
extension Array where Element: Comparable {
    /// Reorders the array so that its first `k` elements are its `k` smallest (ties broken arbitrarily), in no
    /// particular order among themselves. Quickselect with a median-of-three pivot; after too many unbalanced
    /// rounds it sorts the remaining range instead, so the worst case stays O(n log n).
    mutating func moveSmallestToFront(_ k: Int) {
        guard k > 0, k < count else { return }
        withUnsafeMutableBufferPointer { buffer in
            var low = 0, high = buffer.count - 1
            var budget = 2 * (Int.bitWidth - buffer.count.leadingZeroBitCount)
            // Invariant: everything before `low` is ≤ everything in low...high, which is ≤ everything after
            // `high`; position k - 1 lies within low...high.
            while low < high {
                if budget == 0 {
                    buffer[low...high].sort()
                    return
                }
                budget -= 1
                let middle = low + (high - low) / 2
                if buffer[middle] < buffer[low] { buffer.swapAt(middle, low) }
                if buffer[high] < buffer[low] { buffer.swapAt(high, low) }
                if buffer[high] < buffer[middle] { buffer.swapAt(high, middle) }
                let pivot = buffer[middle]
                // Hoare partition: i..., ...j meet so that low...j ≤ pivot ≤ j+1...high.
                var i = low, j = high
                while i <= j {
                    while buffer[i] < pivot { i += 1 }
                    while pivot < buffer[j] { j -= 1 }
                    if i <= j {
                        buffer.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if k - 1 <= j {
                    high = j
                } else if k - 1 >= i {
                    low = i
                } else {
                    return  // k - 1 lies between j and i: those elements equal the pivot, in place.
                }
            }
        }
    }
}
