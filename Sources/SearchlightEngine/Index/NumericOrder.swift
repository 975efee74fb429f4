/// One segment's values of a numeric field in ascending order, each with its document: built on first use and kept
/// on the segment (`Segment.numericOrder(of:)`), so the values within a range (the expired items) and the smallest
/// live one above a bound (the next expiration) are found by binary search, where a `.range` query reads every
/// document of the segment.
final class NumericOrder: Sendable {
    /// Every value of the field in the segment, ascending, ties by document (NaN left out: it lies in no range).
    let values: [Double]
    /// The document of each value.
    let docs: [UInt32]

    init(segment: Segment, field: Int) {
        var pairs: [(value: Double, doc: UInt32)] = []
        if field < segment.numericOffsets.count, !segment.numericOffsets[field].isEmpty {
            let offsets = segment.numericOffsets[field], all = segment.numericValues[field]
            pairs.reserveCapacity(all.count)
            for doc in 0..<segment.documentCount {
                for k in Int(offsets[doc])..<Int(offsets[doc + 1]) where !all[k].isNaN {
                    pairs.append((all[k], UInt32(doc)))
                }
            }
        }
        pairs.sort { $0.value != $1.value ? $0.value < $1.value : $0.doc < $1.doc }
        values = pairs.map(\.value)
        docs = pairs.map(\.doc)
    }

    /// The position of the first value within `lower` (`values.count` when none is); `probes` counts the values read.
    func start(_ lower: NumericBound?, probes: inout Int) -> Int {
        guard let lower else { return 0 }
        return partition(probes: &probes) { NumericBound.contains($0, lower: lower, upper: nil) }
    }

    /// The position after the last value within `upper` (never before `start`'s when the bounds are inverted: the
    /// caller clamps); `probes` counts the values read.
    func end(_ upper: NumericBound?, probes: inout Int) -> Int {
        guard let upper else { return values.count }
        return partition(probes: &probes) { !NumericBound.contains($0, lower: nil, upper: upper) }
    }

    /// The first position whose value satisfies `isAfter`, which holds for a suffix of the ascending values.
    private func partition(probes: inout Int, _ isAfter: (Double) -> Bool) -> Int {
        var low = 0, high = values.count
        while low < high {
            let mid = (low + high) >> 1
            probes += 1
            if isAfter(values[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    var memoryBytes: Int { values.capacity * 8 + docs.capacity * 4 }
}

extension IndexSnapshot {
    /// The live documents holding a value of `field` within the bounds, in address order: what `.range` matches,
    /// read from each segment's `NumericOrder` (a binary search, then only the values in range) rather than from
    /// every document. `examined` counts the values read.
    package func numericMatches(_ field: FieldID, lower: NumericBound?, upper: NumericBound?,
                                examined: inout Int) -> [DocAddress] {
        var result: [DocAddress] = []
        for (ordinal, segment) in segments.enumerated() {
            let order = segment.numericOrder(of: field)
            let from = order.start(lower, probes: &examined)
            let to = max(from, order.end(upper, probes: &examined))
            guard from < to else { continue }
            examined += to - from
            let live = self.live[ordinal]
            var docs = order.docs[from..<to].filter { live[Int($0)] }
            docs.sort()
            var previous: UInt32?
            for doc in docs where doc != previous {
                result.append(DocAddress(segment: UInt32(ordinal), doc: doc))
                previous = doc
            }
        }
        return result
    }

    /// The smallest value of `field` that a live document holds within `lower` (nil: none), from each segment's
    /// `NumericOrder`: a binary search, then its values from there up to the first live document's (deleted
    /// documents' values are passed over). `examined` counts the values read.
    package func smallestNumber(_ field: FieldID, lower: NumericBound?, examined: inout Int) -> Double? {
        var smallest: Double?
        for (ordinal, segment) in segments.enumerated() {
            let order = segment.numericOrder(of: field)
            var position = order.start(lower, probes: &examined)
            while position < order.values.count {
                let value = order.values[position]
                if let smallest, value >= smallest { break }
                examined += 1
                if live[ordinal][Int(order.docs[position])] {
                    smallest = value
                    break
                }
                position += 1
            }
        }
        return smallest
    }
}
