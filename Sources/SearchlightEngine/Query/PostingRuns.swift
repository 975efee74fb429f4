/// A few terms' postings decoded into flat buffers, one ascending run per term (document, BM25F weighted
/// frequency, primary-boost flags), then merged by document: the scores of a small term group without a heap,
/// dynamic calls or reference counting per posting. Used by a group materialized at the root
/// (`MaterializedGroupIterator(sparse:)`) and by a conjunction's lead (`TermGroupIterator.listMatches`).
final class PostingRuns {
    /// Flag bits of a posting: a primary field starts with the query, and one equals it.
    static let startsPrimary: UInt8 = 1
    static let equalsPrimary: UInt8 = 2

    private let capacity: Int
    private let docs: UnsafeMutablePointer<UInt32>
    private let weights: UnsafeMutablePointer<Float>
    private let flags: UnsafeMutablePointer<UInt8>
    private var filled = 0
    /// Start of each run (`runs` of them; the last one ends at `filled`).
    private let starts: UnsafeMutablePointer<Int>
    private let maximumRuns: Int
    private var runs = 0

    /// Room for `runs` runs and `capacity` postings in all (the terms' document frequencies bound them).
    init(runs: Int, capacity: Int) {
        self.capacity = max(capacity, 1)
        maximumRuns = runs
        docs = .allocate(capacity: self.capacity)
        weights = .allocate(capacity: self.capacity)
        flags = .allocate(capacity: self.capacity)
        starts = .allocate(capacity: max(runs, 1))
    }

    deinit {
        docs.deallocate()
        weights.deallocate()
        flags.deallocate()
        starts.deallocate()
    }

    /// Starts the next term's run.
    func startRun() {
        precondition(runs < maximumRuns, "more runs than the buffers were made for")
        starts[runs] = filled
        runs += 1
    }

    /// Appends a posting to the current run (ascending documents); false when full, and nothing is added. The
    /// buffers are sized by the sources' costs, which bound their postings even on a corrupt segment (a cursor
    /// yields exactly its term's document frequency), so a false means a source broke that bound.
    @inline(__always)
    func append(_ doc: Int, weight: Float, flags bits: UInt8) -> Bool {
        guard filled < capacity else { return false }
        docs[filled] = UInt32(truncatingIfNeeded: doc)
        weights[filled] = weight
        flags[filled] = bits
        filled += 1
        return true
    }

    /// Merges the runs by document, the weights summed in run order, and appends each document with its score
    /// (`MaterializedGroupIterator.score`) to `matchDocs` and `matchScores`.
    func merge(boost: Float, idf: Float, parameters: RankingParameters,
               into matchDocs: inout [UInt32], scores matchScores: inout [Float]) {
        let n = runs
        guard n > 0 else { return }
        let out = UnsafeMutablePointer<UInt32>.allocate(capacity: filled)
        let outScores = UnsafeMutablePointer<Float>.allocate(capacity: filled)
        defer {
            out.deallocate()
            outScores.deallocate()
        }
        var matches = 0
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * n) { bounds in
            // The live runs, in run order (their weights add up in that order): a run leaves when it is exhausted,
            // so the merge narrows as the short runs (titles, keywords) end, and the last one is copied alone.
            let position = bounds.baseAddress!, end = position + n
            var live = 0
            for i in 0..<n {
                let stop = i + 1 < n ? starts[i + 1] : filled
                guard starts[i] < stop else { continue }
                position[live] = starts[i]
                end[live] = stop
                live += 1
            }
            while live > 1 {
                var doc = docs[position[0]]
                for i in 1..<live where docs[position[i]] < doc { doc = docs[position[i]] }
                var w: Float = 0
                var bits: UInt8 = 0
                var i = 0
                while i < live {
                    let p = position[i]
                    guard docs[p] == doc else {
                        i += 1
                        continue
                    }
                    w += weights[p]
                    bits |= flags[p]
                    if p + 1 < end[i] {
                        position[i] = p + 1
                        i += 1
                    } else {
                        for j in i..<(live - 1) {
                            position[j] = position[j + 1]
                            end[j] = end[j + 1]
                        }
                        live -= 1
                    }
                }
                out[matches] = doc
                outScores[matches] = MaterializedGroupIterator.score(
                    w, boost: boost, idf: idf, parameters: parameters,
                    startsPrimary: bits & Self.startsPrimary != 0, equalsPrimary: bits & Self.equalsPrimary != 0)
                matches += 1
            }
            if live == 1 {
                for p in position[0]..<end[0] {
                    out[matches] = docs[p]
                    outScores[matches] = MaterializedGroupIterator.score(
                        weights[p], boost: boost, idf: idf, parameters: parameters,
                        startsPrimary: flags[p] & Self.startsPrimary != 0, equalsPrimary: flags[p] & Self.equalsPrimary != 0)
                    matches += 1
                }
            }
        }
        matchDocs.append(contentsOf: UnsafeBufferPointer(start: out, count: matches))
        matchScores.append(contentsOf: UnsafeBufferPointer(start: outScores, count: matches))
    }
}
