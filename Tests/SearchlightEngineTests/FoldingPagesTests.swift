import XCTest
@testable import SearchlightEngine

/// `FoldingPages`: entries found in their pages, every other scalar (and a value past U+10FFFF) folding to itself,
/// blocks without exceptions sharing page 0, so the pages built from the generated list stay small.
final class FoldingPagesTests: XCTestCase {
    func testEntriesAreFoundAndEveryOtherScalarFoldsToItself() {
        let a = FoldingTable.pack([0x61]), b = FoldingTable.pack([0x62]), none = FoldingTable.pack([])
        // Below the limit (ignored), two in one block, one at a block's last slot, one in the last block.
        let exceptions: [UInt64] = [0x1FFF, a, a, a, 0x2126, a, b, none, 0x2127, b, b, b, 0x24FF, a, a, a,
                                    0x10FF00, b, a, b]
        let pages = FoldingPages(exceptions: exceptions, from: 0x2000)
        XCTAssertEqual(pages.slots.count, 4 * 256, "page 0 and one page per block with exceptions")
        XCTAssertEqual(pages.entry(0x2126, column: 0), a)
        XCTAssertEqual(pages.entry(0x2126, column: 1), b)
        XCTAssertEqual(pages.entry(0x2126, column: 2), none)
        XCTAssertEqual(pages.entry(0x2127, column: 1), b)
        XCTAssertEqual(pages.entry(0x24FF, column: 2), a)
        XCTAssertEqual(pages.entry(0x10FF00, column: 1), a)
        for value: UInt32 in [0x2000, 0x2125, 0x2128, 0x24FE, 0x2500, 0x10FF01, 0x10FFFF, 0x110000, 0x1FFFFF] {
            XCTAssertEqual(pages.entry(value, column: 2), FoldingTable.pack([value]), String(value, radix: 16))
        }
    }

    /// The shared table's pages: under 40 KB today (every scalar from U+2000 up that folds, in 27 blocks).
    func testSharedPagesStaySmall() {
        let pages = FoldingTable.shared.pages
        XCTAssertLessThan(pages.slots.count / 256, 40)
        XCTAssertLessThan(pages.byteCount, 48 * 1024)
    }
}
