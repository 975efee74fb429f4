/// Where one term's encoded postings end, read by walking their varints: a sealed segment stores only where each
/// term's postings start. Merges need this to copy a term's postings and positions whole, re-encoding only the
/// first document delta.
struct EncodedPostings {
    /// The first posting's code (document delta shifted left once, low bit set when its frequency is 1).
    let firstCode: UInt32
    /// Where the bytes after the first code start, and where the term's postings end.
    let rest: Int, end: Int
    /// The term's last document (relative to its segment) and its number of positions.
    let lastDoc: UInt32, positionCount: Int

    /// Walks the `docFreq` postings starting at `start` in `docs` (at least one).
    init(_ docs: UnsafeBufferPointer<UInt8>, start: Int, docFreq: Int) {
        var offset = start
        firstCode = VarInt.read(docs, &offset)
        rest = offset
        var doc = firstCode >> 1
        var positions = firstCode & 1 != 0 ? 1 : Int(VarInt.read(docs, &offset))
        for _ in 1..<max(docFreq, 1) {
            let code = VarInt.read(docs, &offset)
            doc &+= code >> 1
            positions += code & 1 != 0 ? 1 : Int(VarInt.read(docs, &offset))
        }
        end = offset
        lastDoc = doc
        positionCount = positions
    }
}
