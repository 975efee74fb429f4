import Foundation
import Synchronization
import XCTest
@testable import Searchlight

/// A clock tests can move.
final class TestClock: Sendable {
    private let time: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSinceReferenceDate: 800_000_000)) { time = Mutex(start) }
    var now: Date { time.withLock { $0 } }
    func advance(by seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
    var function: @Sendable () -> Date { { [self] in self.now } }
}

/// An item with a title (and optional domain and keywords).
func makeItem(_ id: String, title: String, domain: String? = nil, keywords: [String]? = nil,
              description: String? = nil) -> CSSearchableItem {
    let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
    set.title = title
    set.keywords = keywords
    set.contentDescription = description
    return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: domain, attributeSet: set)
}

/// A fresh index on a fresh container.
func makeIndex(name: String = "test", clock: TestClock = TestClock()) -> CSSearchableIndex {
    CSSearchableIndex(name: name, container: SearchlightContainer(clock: clock.function))
}

extension CSSearchableIndex {
    /// Identifiers of every visible item, sorted.
    var allIdentifiers: [String] {
        let snapshot = container.snapshot()
        return snapshot.visibleAddresses().compactMap { snapshot.engine.id(of: $0) }.sorted()
    }

    /// Waits for a completion-handler call and returns its error.
    func completion(_ start: (@escaping @Sendable ((any Error)?) -> Void) -> Void) -> (any Error)? {
        let box = Mutex<(any Error)??>(nil)
        let done = DispatchSemaphore(value: 0)
        start { error in
            box.withLock { $0 = .some(error) }
            done.signal()
        }
        done.wait()
        return box.withLock { $0 } ?? nil
    }
}

/// The `CSIndexError` code of an error, or nil.
func indexErrorCode(_ error: (any Error)?) -> CSIndexError.Code? { (error as? CSIndexError)?.code }
