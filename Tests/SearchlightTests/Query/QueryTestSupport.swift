import Foundation
import SearchlightEngine
import SearchlightQueryLanguage
import Synchronization
import XCTest
@testable import Searchlight

/// A UTC Gregorian calendar, so `$time.*` resolves the same everywhere.
let utcCalendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    return calendar
}()

/// A container holding `items` (indexed and committed), on `clock`.
func makeContainer(_ items: [CSSearchableItem], clock: TestClock = TestClock(),
                   file: StaticString = #filePath, line: UInt = #line) -> SearchlightContainer {
    let container = SearchlightContainer(clock: clock.function)
    let index = CSSearchableIndex(name: "query-tests", container: container)
    for chunk in stride(from: 0, to: items.count, by: 500) {
        let slice = Array(items[chunk..<min(chunk + 500, items.count)])
        let error = index.completion { index.indexSearchableItems(slice, completionHandler: $0) }
        XCTAssertNil(error, "indexing failed: \(String(describing: error))", file: file, line: line)
    }
    // Settled: a background merge published between a test's snapshot and a query's would move documents to
    // other addresses, and tied scores are ordered by address (EngagementRankingTests failed so, now and then).
    container.waitForBackgroundMerges()
    return container
}

/// Identifiers matching a query string through the indexed evaluator, sorted.
func evaluate(_ query: String, in container: SearchlightContainer) throws -> [String] {
    let snapshot = container.snapshot()
    var evaluator = QueryEvaluator(snapshot: snapshot, calendar: utcCalendar)
    let expression = try QueryEvaluator.parse(query)
    return evaluator.matches(expression).compactMap { snapshot.engine.id(of: $0) }.sorted()
}

/// A custom key (force-unwrap-free: tests use valid names).
func customKey(_ name: String) -> CSCustomAttributeKey {
    guard let key = CSCustomAttributeKey(keyName: name) else {
        XCTFail("bad key \(name)")
        return CSCustomAttributeKey(keyName: "invalid_key_fallback")!
    }
    return key
}

/// Runs a query to completion with handlers and returns the batches, the error and the final count.
func runQuery(_ query: CSSearchQuery, timeout: TimeInterval = 20) -> (batches: [[CSSearchableItem]], error: (any Error)?, completions: Int) {
    let box = Mutex<(batches: [[CSSearchableItem]], error: (any Error)?, completions: Int)>(([], nil, 0))
    let done = DispatchSemaphore(value: 0)
    query.foundItemsHandler = { items in box.withLock { $0.batches.append(items) } }
    query.completionHandler = { error in
        box.withLock {
            $0.error = error
            $0.completions += 1
        }
        done.signal()
    }
    query.start()
    _ = done.wait(timeout: .now() + timeout)
    // Give a wrongly repeated completion a chance to show up.
    Thread.sleep(forTimeInterval: 0.02)
    return box.withLock { $0 }
}
