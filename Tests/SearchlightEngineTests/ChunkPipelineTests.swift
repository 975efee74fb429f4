import Foundation
import Synchronization
import XCTest
@testable import SearchlightEngine

/// `pipelinedChunks` hands every chunk to the caller exactly once, in order, whatever thread made it, and
/// leaves nothing behind when the caller stops with an error.
final class ChunkPipelineTests: XCTestCase {
    /// Counts live instances, so a chunk made but never consumed (nor destroyed) shows.
    final class Tracked: Sendable {
        static let live = Atomic<Int>(0)
        static let made = Atomic<Int>(0)
        let value: Int
        init(_ value: Int) {
            self.value = value
            Self.live.wrappingAdd(1, ordering: .relaxed)
            Self.made.wrappingAdd(1, ordering: .relaxed)
        }
        deinit { Self.live.wrappingSubtract(1, ordering: .relaxed) }
    }

    func testEveryChunkArrivesOnceAndInOrder() {
        for threads in [1, 2, 4] {
            for count in [0, 1, 2, 7, 500] {
                let made = Atomic<Int>(0)  // (an Atomic, not a Mutex: the thread sanitizer cannot see futexes)
                var seen: [Int] = []
                pipelinedChunks(count, threads: threads, make: { index -> Int in
                    made.wrappingAdd(1, ordering: .relaxed)
                    if index % 5 == 0 { usleep(100) }  // uneven chunks: later ones overtake earlier ones
                    return index * 3
                }, consume: { index, value in
                    XCTAssertEqual(value, index * 3)
                    seen.append(index)
                })
                XCTAssertEqual(seen, Array(0..<count), "threads \(threads), count \(count)")
                XCTAssertEqual(made.load(ordering: .relaxed), count, "each chunk made once")
            }
        }
    }

    struct Stop: Error {}

    func testAnErrorStopsThePipelineAndDestroysWhatWasNotConsumed() {
        for threads in [1, 2, 4] {
            var consumed = 0
            XCTAssertThrowsError(try pipelinedChunks(300, threads: threads, make: { Tracked($0) }, consume: {
                (index: Int, chunk: consuming Tracked) throws(Stop) in
                XCTAssertEqual(chunk.value, index)
                consumed += 1
                // A slow consumer: helpers make chunks ahead of it.
                let deadline = Date().addingTimeInterval(10)
                while threads > 1, index == 0, Tracked.made.load(ordering: .relaxed) < 100, Date() < deadline { usleep(100) }
                if index == 20 { throw Stop() }
            }))
            XCTAssertEqual(consumed, 21)
            XCTAssertEqual(Tracked.made.load(ordering: .relaxed) >= 100, threads > 1)
            Tracked.made.store(0, ordering: .relaxed)
            XCTAssertEqual(Tracked.live.load(ordering: .relaxed), 0, "threads \(threads): every chunk made was destroyed")
        }
    }
}
