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
    /// The one allocation the buffers above lie in.
    private let storage: UnsafeMutableRawPointer
    private var runs = 0

    /// Room for `runs` runs and `capacity` postings in all (the terms' document frequencies bound them).
    init(runs: Int, capacity: Int) {
        self.capacity = max(capacity, 1)
        maximumRuns = runs
        // One allocation: run starts, then documents, weights and flags.
        let room = self.capacity, runRoom = max(runs, 1)
        storage = UnsafeMutableRawPointer.allocate(byteCount: 8 * runRoom + 9 * room, alignment: 8)
        starts = storage.bindMemory(to: Int.self, capacity: runRoom)
        docs = (storage + 8 * runRoom).bindMemory(to: UInt32.self, capacity: room)
        weights = (storage + 8 * runRoom + 4 * room).bindMemory(to: Float.self, capacity: room)
        flags = (storage + 8 * runRoom + 8 * room).bindMemory(to: UInt8.self, capacity: room)
    }

    deinit { storage.deallocate() }

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

    /// Room for `count` more postings of the current run, to write in place and then count with `didAppend`; nil
    /// when they do not fit (as `append`'s false: a source broke its bound).
    @inline(__always)
    func room(for count: Int) -> (docs: UnsafeMutablePointer<UInt32>, weights: UnsafeMutablePointer<Float>,
                                  flags: UnsafeMutablePointer<UInt8>)? {
        guard capacity - filled >= count else { return nil }
        return (docs + filled, weights + filled, flags + filled)
    }

    /// Counts `count` postings written to `room(for:)`.
    @inline(__always)
    func didAppend(_ count: Int) {
        assert(filled + count <= capacity)
        filled += count
    }

    /// Merges the runs by document, the weights summed in run order, and appends each document with its score
    /// (`MaterializedGroupIterator.score`) to `matchDocs` and `matchScores`.
    ///
    /// Two at a time, in run order: the runs merged so far with the next run. A document's weight is then
    /// `((w0 + w1) + w2)…` over the runs that hold it, the additions in the order a k-way merge makes them (from
    /// zero: `0 + w == w` for these non-negative weights), so scores are the same to the bit; and each step is a
    /// two-way merge, without the scan over all live runs per document a k-way merge makes.
    func merge(boost: Float, idf: Float, parameters: RankingParameters,
               into matchDocs: inout [UInt32], scores matchScores: inout [Float]) {
        let n = runs
        guard n > 0, filled > 0 else { return }
        // Two buffers the merged runs alternate between (the first run is read where it lies).
        let room = filled
        let merged = UnsafeMutableRawPointer.allocate(byteCount: 18 * room, alignment: 4)
        defer { merged.deallocate() }
        let mergedDocs = merged.bindMemory(to: UInt32.self, capacity: 2 * room)
        let mergedWeights = (merged + 8 * room).bindMemory(to: Float.self, capacity: 2 * room)
        let mergedFlags = (merged + 16 * room).bindMemory(to: UInt8.self, capacity: 2 * room)
        var aDocs = UnsafePointer(docs), aWeights = UnsafePointer(weights), aFlags = UnsafePointer(flags)
        /// The end of run `r` (the next one's start, or the end of the postings).
        func end(_ r: Int) -> Int { r + 1 < n ? starts[r + 1] : filled }
        var aCount = end(0) - starts[0]
        var side = 0
        for r in 1..<n {
            let start = starts[r]
            let bCount = end(r) - start
            guard bCount > 0 else { continue }
            let bDocs = docs + start, bWeights = weights + start, bFlags = flags + start
            let oDocs = mergedDocs + side * room, oWeights = mergedWeights + side * room, oFlags = mergedFlags + side * room
            // A run many times longer than the other (a description's beside a title's) is copied in stretches
            // between the shorter one's documents, found by galloping, instead of compared posting by posting.
            if bCount >= Self.skew * aCount || aCount >= Self.skew * bCount {
                let b: Run = (UnsafePointer(bDocs), UnsafePointer(bWeights), UnsafePointer(bFlags), bCount)
                let a: Run = (aDocs, aWeights, aFlags, aCount)
                let o = Self.mergeSkewed(short: bCount >= aCount ? a : b, long: bCount >= aCount ? b : a,
                                         into: (oDocs, oWeights, oFlags))
                (aDocs, aWeights, aFlags, aCount) = (UnsafePointer(oDocs), UnsafePointer(oWeights), UnsafePointer(oFlags), o)
                side ^= 1
                continue
            }
            var i = 0, j = 0, o = 0
            while i < aCount, j < bCount {
                let a = aDocs[i], b = bDocs[j]
                if a < b {
                    oDocs[o] = a
                    oWeights[o] = aWeights[i]
                    oFlags[o] = aFlags[i]
                    i += 1
                } else if b < a {
                    oDocs[o] = b
                    oWeights[o] = bWeights[j]
                    oFlags[o] = bFlags[j]
                    j += 1
                } else {
                    oDocs[o] = a
                    oWeights[o] = aWeights[i] + bWeights[j]
                    oFlags[o] = aFlags[i] | bFlags[j]
                    i += 1
                    j += 1
                }
                o += 1
            }
            if i < aCount {
                (oDocs + o).update(from: aDocs + i, count: aCount - i)
                (oWeights + o).update(from: aWeights + i, count: aCount - i)
                (oFlags + o).update(from: aFlags + i, count: aCount - i)
                o += aCount - i
            }
            if j < bCount {
                (oDocs + o).update(from: bDocs + j, count: bCount - j)
                (oWeights + o).update(from: bWeights + j, count: bCount - j)
                (oFlags + o).update(from: bFlags + j, count: bCount - j)
                o += bCount - j
            }
            (aDocs, aWeights, aFlags, aCount) = (UnsafePointer(oDocs), UnsafePointer(oWeights), UnsafePointer(oFlags), o)
            side ^= 1
        }
        // Written where the caller keeps them (fresh arrays, as callers pass, without zeroing them first), the
        // scores computed in place.
        let (docs, weights, flags) = (aDocs, aWeights, aFlags)
        func score(into scores: UnsafeMutablePointer<Float>) {
            for k in 0..<aCount {
                let bits = flags[k]
                scores[k] = MaterializedGroupIterator.score(
                    weights[k], boost: boost, idf: idf, parameters: parameters,
                    startsPrimary: bits & Self.startsPrimary != 0, equalsPrimary: bits & Self.equalsPrimary != 0)
            }
        }
        if matchDocs.isEmpty && matchScores.isEmpty {
            matchDocs = [UInt32](unsafeUninitializedCapacity: aCount) { buffer, count in
                buffer.baseAddress!.initialize(from: docs, count: aCount)
                count = aCount
            }
            matchScores = [Float](unsafeUninitializedCapacity: aCount) { buffer, count in
                score(into: buffer.baseAddress!)
                count = aCount
            }
            return
        }
        matchDocs.append(contentsOf: UnsafeBufferPointer(start: docs, count: aCount))
        let scoreBase = matchScores.count
        matchScores.append(contentsOf: repeatElement(0, count: aCount))
        matchScores.withUnsafeMutableBufferPointer { score(into: $0.baseAddress! + scoreBase) }
    }

    /// How many times longer than the other a run must be for `mergeSkewed`.
    static let skew = 8

    typealias Run = (docs: UnsafePointer<UInt32>, weights: UnsafePointer<Float>, flags: UnsafePointer<UInt8>, count: Int)

    /// Merges a short run into a long one: the long run's stretches before each of the short run's documents are
    /// copied whole, a common document's weights added (one addition, whose order does not change the sum).
    /// Returns the merged count.
    @inline(__always)
    static func mergeSkewed(short: Run, long: Run,
                            into out: (docs: UnsafeMutablePointer<UInt32>, weights: UnsafeMutablePointer<Float>,
                                       flags: UnsafeMutablePointer<UInt8>)) -> Int {
        var l = 0, o = 0
        @inline(__always)
        func copyLong(upTo end: Int) {
            let n = end - l
            guard n > 0 else { return }
            (out.docs + o).update(from: long.docs + l, count: n)
            (out.weights + o).update(from: long.weights + l, count: n)
            (out.flags + o).update(from: long.flags + l, count: n)
            o += n
            l = end
        }
        let longDocs = UnsafeBufferPointer(start: long.docs, count: long.count)
        for s in 0..<short.count {
            let d = short.docs[s]
            copyLong(upTo: DocIterator.gallop(longDocs, from: l, atLeast: Int(d)))
            out.docs[o] = d
            if l < long.count, long.docs[l] == d {
                out.weights[o] = short.weights[s] + long.weights[l]
                out.flags[o] = short.flags[s] | long.flags[l]
                l += 1
            } else {
                out.weights[o] = short.weights[s]
                out.flags[o] = short.flags[s]
            }
            o += 1
        }
        copyLong(upTo: long.count)
        return o
    }
}
