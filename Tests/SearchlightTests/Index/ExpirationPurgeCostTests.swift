import Foundation
import XCTest
@testable import Searchlight

/// An index whose items expire steadily purges on nearly every write: each purge must read about what expired
/// (and a binary search per segment), not every document of the index.
final class ExpirationPurgeCostTests: XCTestCase {
    /// 10,000 items expiring a second apart, then writes three seconds apart, each purging three of them.
    func testAPurgeReadsWhatExpiredNotTheWholeIndex() async throws {
        let clock = TestClock()
        let index = makeIndex(clock: clock)
        let start = clock.now
        let count = 10_000
        for batch in 0..<10 {
            try await index.indexSearchableItems((0..<count / 10).map { i in
                let n = batch * count / 10 + i
                let item = makeItem("item\(n)", title: "item")
                item.expirationDate = start.addingTimeInterval(1_000 + Double(n))
                return item
            })
        }
        XCTAssertEqual(index.container.snapshot().expirationFloor, start.timeIntervalSinceReferenceDate + 1_000)
        // Items 0, 1 and 2 have expired; each later write finds three more.
        clock.advance(by: 1_002.5)
        for write in 0..<40 {
            let before = index.container.expirationWork
            let segmentsBefore = index.container.snapshot().engine.stats.segments
            let item = makeItem("write\(write)", title: "write")
            item.expirationDate = start.addingTimeInterval(1_000_000)
            try await index.indexSearchableItems([item])
            let after = index.container.expirationWork
            let engine = index.container.snapshot().engine
            let expired = 3 * (write + 1)
            XCTAssertEqual(after.purges, before.purges + 1, "write \(write) purged")
            XCTAssertEqual(engine.documentCount, count - expired + write + 1, "write \(write) purged what expired")
            // The floor is exact: the next item's expiration.
            XCTAssertEqual(index.container.snapshot().expirationFloor,
                           start.timeIntervalSinceReferenceDate + 1_000 + Double(expired), "write \(write)")
            // The three expired entries, plus two binary searches (and the next live entry) per segment. (A merge
            // published meanwhile only lowers the count: the purge read at most the larger.)
            let segments = max(segmentsBefore, engine.stats.segments)
            let bound = 3 + segments * (2 * (Int(log2(Double(count))) + 1) + 2)
            XCTAssertLessThanOrEqual(after.entriesExamined - before.entriesExamined, bound,
                                     "write \(write) over \(segments) segments")
            clock.advance(by: 3)
        }
    }
}
