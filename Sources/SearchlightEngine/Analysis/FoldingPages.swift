/// The folding entries of the scalars from `FoldingTable.tableLimit` to U+10FFFF, as a two-level table: each block of
/// 256 scalars has a page, and each scalar of a page a slot, 0 when it folds to itself or 1 + the index of its three
/// entries (case, diacritics, both; `FoldingTable.pack`). Few blocks up there hold a scalar that folds (letterlike
/// symbols, Glagolitic, Coptic, Latin Extended-C/D/E, Cyrillic Extended-B, full-width forms, Deseret, Adlam...), and
/// every other block shares page 0, all zeros: under 40 KB where flat maps would take 26 MB, and a lookup is three
/// loads, without the Unicode property calls it replaces. A class, so a lookup retains one reference, not three arrays
/// (half the instructions of a struct's).
final class FoldingPages: Sendable {
    /// The first block the pages cover (`FoldingTable.tableLimit` / 256).
    let firstBlock: UInt32
    /// The page of each block from `firstBlock` to U+10FFFF's.
    let pageOfBlock: [UInt8]
    /// 256 slots per page; page 0 is the shared page of blocks where every scalar folds to itself.
    let slots: [UInt16]
    /// Three packed entries (case, diacritics, both) per scalar that does not fold to itself.
    let entries: [UInt64]

    /// Builds the pages from the generated `exceptions` (scalar, then its case, diacritic and both entries, in scalar
    /// order), taking the scalars from `limit` up.
    init(exceptions: [UInt64], from limit: UInt32) {
        firstBlock = limit >> 8
        var pageOfBlock = [UInt8](repeating: 0, count: Int((0x10FFFF >> 8) - firstBlock + 1))
        // The exact sizes first (the list is in scalar order), so the arrays take no more than they hold.
        var count = 0, pages = 1, lastBlock = UInt64.max
        for k in stride(from: 0, to: exceptions.count - 3, by: 4) {
            let value = exceptions[k]
            guard value >= UInt64(limit), value <= 0x10FFFF else { continue }
            count += 1
            if value >> 8 != lastBlock { pages += 1 }
            lastBlock = value >> 8
        }
        var slots = [UInt16](repeating: 0, count: 256)
        slots.reserveCapacity(pages * 256)
        var entries: [UInt64] = []
        entries.reserveCapacity(count * 3)
        var k = 0
        while k + 3 < exceptions.count {
            let value = UInt32(exceptions[k])
            if value >= limit, value <= 0x10FFFF {
                let block = Int((value >> 8) - firstBlock)
                if pageOfBlock[block] == 0 {
                    precondition(slots.count / 256 <= Int(UInt8.max), "more than 255 folding pages")
                    pageOfBlock[block] = UInt8(slots.count / 256)
                    slots.append(contentsOf: repeatElement(0, count: 256))
                }
                precondition(entries.count / 3 < Int(UInt16.max), "more than 65,534 folding entries")
                slots[Int(pageOfBlock[block]) << 8 | Int(value & 0xFF)] = UInt16(entries.count / 3 + 1)
                entries.append(exceptions[k + 1])
                entries.append(exceptions[k + 2])
                entries.append(exceptions[k + 3])
            }
            k += 4
        }
        self.pageOfBlock = pageOfBlock
        self.slots = slots
        self.entries = entries
    }

    /// The packed entry of `value` (at least `FoldingTable.tableLimit`) in `column` (0 case, 1 diacritics, 2 both);
    /// a scalar that folds to itself, or a value past U+10FFFF, gives itself.
    @inline(__always)
    func entry(_ value: UInt32, column: Int) -> UInt64 {
        let block = Int(truncatingIfNeeded: (value >> 8) &- firstBlock)
        if block < pageOfBlock.count {
            let slot = Int(slots[Int(pageOfBlock[block]) << 8 | Int(value & 0xFF)])
            if slot != 0 { return entries[(slot - 1) * 3 + column] }
        }
        return UInt64(1) << 62 | UInt64(value)
    }

    /// The bytes the pages take (the heap they were built into).
    var byteCount: Int { pageOfBlock.count + slots.count * 2 + entries.count * 8 }
}
