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

    /// With a budget, the kept values are forgotten all at once when the next would pass it; the newest stays,
    /// and a forgotten key is built again on its next use.
    func testABudgetForgetsTheKeptValuesWhenPassed() {
        let cache = DerivedCache<Int, Box>(budget: 300) { _, box in box == nil ? 1 : 100 }
        var builds = 0
        func use(_ key: Int) { _ = cache.value(key) { builds += 1; return .value(Box(key)) } }
        for key in 0..<3 { use(key) }
        XCTAssertEqual(cache.memoryBytes, 300)
        XCTAssertEqual(Set(cache.keysWithValues), [0, 1, 2])
        use(3)
        XCTAssertEqual(cache.keysWithValues, [3], "the fourth value passes the budget: the others are forgotten")
        XCTAssertEqual(cache.memoryBytes, 100)
        use(3)
        XCTAssertEqual(builds, 4, "the newest value is kept")
        use(0)
        XCTAssertEqual(builds, 5, "a forgotten key is built again")
        XCTAssertEqual(Set(cache.keysWithValues), [0, 3])
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

    /// `existing` answers with a kept value only: nothing before the build or while it runs (without waiting for
    /// it), nothing for a key built as absent or absent for good.
    func testExistingReadsOnlyKeptValues() {
        let cache = DerivedCache<Int, Box> { _, box in box == nil ? 1 : 100 }
        XCTAssertNil(cache.existing(1))
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = cache.value(1) {
                started.signal()
                release.wait()
                return .value(Box(1))
            }
            done.signal()
        }
        started.wait()
        XCTAssertNil(cache.existing(1), "a build in progress is not waited for")
        release.signal()
        done.wait()
        _ = cache.value(2) { .absent }
        _ = cache.value(3) { .absentForGood }
        XCTAssertEqual(cache.existing(1)?.value, 1)
        XCTAssertNil(cache.existing(2))
        XCTAssertNil(cache.existing(3))
    }
}
