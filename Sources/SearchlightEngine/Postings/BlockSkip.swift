/// Finds the block that may hold a document from the blocks' last documents: how a term's cursor
/// (`PostingCursor`) and a prefix list's (`PrefixSource`) skip whole blocks.
enum BlockSkip {
    /// The first of blocks `from..<count`, whose last documents are `lastDocs[base + i]`, with a last document
    /// of at least `target` (`count`: none). Gallops from `from`, then searches the bracket found.
    @inline(__always)
    static func firstBlock(atLeast target: Int, lastDocs: [UInt32], base: Int, from: Int, count: Int) -> Int {
        var low = from, step = 1, high = from
        while high < count, Int(lastDocs[base + high]) < target {
            low = high + 1
            high += step
            step <<= 1
        }
        high = min(high, count)
        while low < high {
            let mid = (low + high) >> 1
            if Int(lastDocs[base + mid]) < target { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
