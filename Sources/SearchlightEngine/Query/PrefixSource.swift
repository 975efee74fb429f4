/// A wide prefix in one field of one segment, read from its precomputed list (`PrefixPostings`): the documents
/// holding any longer term that starts with it, each with the terms' summed frequency. In a term group it
/// stands for all those expansions at once; block bounds let top-k pruning skip its blocks.
final class PrefixSource: TermSource {
    private let list: PrefixPostings
    private let firstBlock: Int
    private let blockCount: Int
    private let postings: Int
    /// As in `PostingSource`: scales from a block's stored impact (or max frequency) to a weighted bound.
    private let impactScale: Float
    private let tfScale: Float
    private var block = -1
    private var countInBlock = 0
    private var indexInBlock = 0
    /// The current block decoded: documents, summed frequencies and start flags (one allocation).
    private let docs: UnsafeMutablePointer<UInt32>
    private let tfs: UnsafeMutablePointer<UInt32>
    private let startFlags: UnsafeMutablePointer<Bool>

    init(list: PrefixPostings, index: Int, field: Int, fieldFactor: [Float], norms: [UInt8], primary: Bool,
         impactScale: Float, tfScale: Float) {
        self.list = list
        firstBlock = Int(list.firstBlock[index])
        postings = Int(list.postingCount[index])
        blockCount = (postings + PrefixPostings.blockSize - 1) / PrefixPostings.blockSize
        self.impactScale = impactScale
        self.tfScale = tfScale
        let capacity = max(min(postings, PrefixPostings.blockSize), 1)
        docs = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * capacity)
        tfs = docs + capacity
        startFlags = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
        super.init(field: field, fieldFactor: fieldFactor, norms: norms, primary: primary, span: 1, isExact: false)
    }

    deinit {
        docs.deallocate()
        startFlags.deallocate()
    }

    override var cost: Int { postings }

    private func load(_ newBlock: Int) {
        block = newBlock
        countInBlock = newBlock == blockCount - 1 ? postings - newBlock * PrefixPostings.blockSize : PrefixPostings.blockSize
        let b = firstBlock + newBlock
        var previous: UInt32 = newBlock == 0 ? 0 : list.blockLastDoc[b - 1]
        var offset = Int(list.blockOffset[b])
        let count = countInBlock, d = docs, t = tfs, s = startFlags
        list.bytes.withUnsafeBufferPointer { bytes in
            for i in 0..<count {
                guard offset < bytes.count else {
                    d[i] = previous
                    t[i] = 0
                    s[i] = false
                    continue
                }
                let (delta, tf, starts) = PrefixPostings.decode(bytes, &offset)
                previous &+= delta
                d[i] = previous
                t[i] = tf
                s[i] = starts
            }
        }
        indexInBlock = 0
    }

    override func next() -> Int {
        if doc == Int.max { return doc }
        if block >= 0, indexInBlock + 1 < countInBlock {
            indexInBlock += 1
        } else if block + 1 < blockCount {
            load(block + 1)
        } else {
            doc = Int.max
            return doc
        }
        doc = Int(docs[indexInBlock])
        return doc
    }

    override func advance(_ target: Int) -> Int {
        if doc >= target { return doc }
        if block < 0 || Int(list.blockLastDoc[firstBlock + block]) < target {
            let low = BlockSkip.firstBlock(atLeast: target, lastDocs: list.blockLastDoc, base: firstBlock,
                                           from: max(block, 0), count: blockCount)
            if low >= blockCount {
                doc = Int.max
                return doc
            }
            if low != block { load(low) }
        }
        var i = indexInBlock
        while i < countInBlock, Int(docs[i]) < target { i += 1 }
        if i >= countInBlock {
            doc = Int.max
            return doc
        }
        indexInBlock = i
        doc = Int(docs[i])
        return doc
    }

    override var frequency: UInt32 { tfs[indexInBlock] }
    override func startsField() -> Bool { startFlags[indexInBlock] }

    /// Never the query text itself; and no boost at all in a block where none of its terms starts the field.
    override func boostCeiling(prefix: Float, exact: Float) -> Float {
        guard primary, doc >= 0, doc != Int.max else { return maximumBoost(prefix: prefix, exact: exact) }
        return list.blockStarts[firstBlock + block] ? prefix : 1
    }

    override func blockWindow() -> (weight: Float, lastDoc: Int)? {
        guard doc >= 0, doc != Int.max else { return nil }
        let b = firstBlock + block
        let bound = Self.weightBound(impact: list.blockMaxImpact[b], tf: list.blockMaxTf[b], impactScale: impactScale,
                                         tfScale: tfScale)
        return (bound, Int(list.blockLastDoc[b]))
    }
}
