import Dispatch
import Foundation
import Searchlight
import Synchronization

/// Runs a query object to completion and returns what it found (the tool is synchronous).
enum QueryRunner {
    struct Outcome {
        var items: [CSSearchableItem]
        var suggestions: [CSSuggestion]
        var error: (any Error)?
    }

    static func run(_ query: CSSearchQuery) -> Outcome {
        let collected = Mutex(Outcome(items: [], suggestions: [], error: nil))
        let done = DispatchSemaphore(value: 0)
        query.foundItemsHandler = { items in collected.withLock { $0.items += items } }
        if let userQuery = query as? CSUserQuery {
            userQuery.foundSuggestionsHandler = { suggestions in collected.withLock { $0.suggestions = suggestions } }
        }
        query.completionHandler = { error in
            collected.withLock { $0.error = error }
            done.signal()
        }
        query.start()
        done.wait()
        return collected.withLock { $0 }
    }

    /// Lines of standard input, for `search -` and `query -`.
    static func standardInputLines() -> [String] {
        var lines: [String] = []
        while let line = readLine(strippingNewline: true) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { lines.append(trimmed) }
        }
        return lines
    }

    /// The item's attributes as a JSON object (the interchange shape).
    static func jsonObject(_ item: CSSearchableItem) -> Any {
        guard let data = try? ItemJSON.encode(item), let object = try? JSONSerialization.jsonObject(with: data) else {
            return ["uniqueIdentifier": item.uniqueIdentifier]
        }
        return object
    }
}
