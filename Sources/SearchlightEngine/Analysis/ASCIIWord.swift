/// Eight ASCII bytes at once (SWAR: one 64-bit word, compared byte by byte without carries between them), for
/// the analyzer's ASCII fast path: most of a corpus is lowercase ASCII words, which the byte-at-a-time scan
/// classified at about ten instructions a byte.
enum ASCIIWord {
    private static let high: UInt64 = 0x8080_8080_8080_8080

    /// How many bytes of `word` (little-endian: its first byte lowest), counted from the first, are ASCII
    /// lowercase letters before any other byte: 0...8.
    @inline(__always)
    static func lowercaseRun(_ word: UInt64) -> Int {
        let low7 = word & 0x7F7F_7F7F_7F7F_7F7F
        // Each byte's high bit: set from 0x61 ("a") on, and from 0x7B (past "z") on; a non-ASCII byte's own
        // high bit rules it out.
        let lower = (low7 &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(low7 &+ 0x0505_0505_0505_0505) & ~word & high
        return (~lower & high).trailingZeroBitCount &>> 3
    }

    /// `word` with its ASCII uppercase letters lowercased; every other byte, non-ASCII ones included, unchanged.
    @inline(__always)
    static func lowercased(_ word: UInt64) -> UInt64 {
        let low7 = word & 0x7F7F_7F7F_7F7F_7F7F
        // From 0x41 ("A") on, and from 0x5B (past "Z") on.
        let upper = (low7 &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(low7 &+ 0x2525_2525_2525_2525) & ~word & high
        return word | upper &>> 2
    }
}
