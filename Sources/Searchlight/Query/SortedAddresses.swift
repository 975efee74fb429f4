import SearchlightEngine

/// Set operations on strictly increasing address arrays (the evaluator's document sets): linear merges,
/// no hashing, results stay sorted.
enum SortedAddresses {
    static func intersect(_ a: [DocAddress], _ b: [DocAddress]) -> [DocAddress] {
        if a.isEmpty || b.isEmpty { return [] }
        if a.count > b.count { return intersect(b, a) }
        var result: [DocAddress] = []
        result.reserveCapacity(a.count)
        if a.count * 16 < b.count {
            // Much smaller side: binary search (galloping from the last position) in the larger one.
            var low = 0
            for x in a {
                var high = b.count
                while low < high {
                    let mid = (low + high) >> 1
                    if b[mid] < x { low = mid + 1 } else { high = mid }
                }
                if low == b.count { break }
                if b[low] == x { result.append(x) }
            }
            return result
        }
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i] < b[j] { i += 1 } else if b[j] < a[i] { j += 1 } else {
                result.append(a[i])
                i += 1
                j += 1
            }
        }
        return result
    }

    static func union(_ a: [DocAddress], _ b: [DocAddress]) -> [DocAddress] {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        var result: [DocAddress] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i] < b[j] {
                result.append(a[i])
                i += 1
            } else if b[j] < a[i] {
                result.append(b[j])
                j += 1
            } else {
                result.append(a[i])
                i += 1
                j += 1
            }
        }
        result.append(contentsOf: a[i...])
        result.append(contentsOf: b[j...])
        return result
    }

    /// The elements of `a` not in `b`.
    static func subtract(_ a: [DocAddress], _ b: [DocAddress]) -> [DocAddress] {
        if a.isEmpty || b.isEmpty { return a }
        var result: [DocAddress] = []
        result.reserveCapacity(a.count)
        var j = 0
        for x in a {
            while j < b.count, b[j] < x { j += 1 }
            if j < b.count, b[j] == x { continue }
            result.append(x)
        }
        return result
    }
}
