@testable import SearchlightEngine
import Dispatch
import Synchronization
import XCTest

/// `DerivedCache`: one build per key however many first uses race for it, values kept, keys with nothing to build
/// remembered up to a limit, keys that can never be built kept as such, and the bytes counted.
final class DerivedCacheTests: XCTestCase {
    final class Box: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    func testConcurrentFirstUsesWaitForOneBuild() {
        let cache = DerivedCache<Int, Box> { _, box in box == nil ? 1 : 100 }
        let builds = Atomic<Int>(0)
        let seen = Mutex<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let box = cache.value(7) {
                builds.add(1, ordering: .relaxed)
                usleep(50_000)  // long enough for every other thread to find the build in progress
                return .value(Box(7))
            }
            seen.withLock { $0.append(ObjectIdentifier(box!)) }
        }
        XCTAssertEqual(builds.load(ordering: .relaxed), 1)
        XCTAssertEqual(Set(seen.withLock { $0 }).count, 1, "threads got different values")
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.memoryBytes, 100)
        XCTAssertEqual(cache.keysWithValues, [7])
    }

    func testAbsentKeysAreRememberedUpToALimitAndUnbuildableOnesKept() {
        let cache = DerivedCache<Int, Box> { _, box in box == nil ? 1 : 100 }
        var builds = 0
        for _ in 0..<3 {
            XCTAssertNil(cache.value(1) { builds += 1; return .absent })
        }
        XCTAssertEqual(builds, 1, "an absent key was built again")
        XCTAssertEqual(cache.absentCount, 1)
        for _ in 0..<3 {
            XCTAssertNil(cache.value(2) { builds += 1; return .absentForGood })
        }
        XCTAssertEqual(builds, 2, "a key that cannot be built was built again")
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.memoryBytes, 2)
        XCTAssertEqual(cache.keysWithValues, [])
        // Endless distinct absent keys: never more than the limit remembered.
        let limit = DerivedCache<Int, Box>.absentLimit
        for key in 100..<(100 + 3 * limit + 7) { _ = cache.value(key) { .absent } }
        XCTAssertLessThanOrEqual(cache.absentCount, limit)
        XCTAssertGreaterThan(cache.absentCount, 0)
        XCTAssertEqual(cache.memoryBytes, 1 + cache.absentCount)
        // Once forgotten, an absent key is built again, and may now have a value.
        XCTAssertEqual(cache.value(1) { builds += 1; return .value(Box(1)) }?.value, 1)
        XCTAssertEqual(builds, 3)
        XCTAssertEqual(cache.keysWithValues, [1])
    }
}
