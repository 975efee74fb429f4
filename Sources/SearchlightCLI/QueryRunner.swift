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

    /// Lines of standard input, for `search -` and `query -`. Read with a throwing call: `readLine` reports a read
    /// error (a directory as standard input) as the end of input.
    static func standardInputLines(command: String) throws -> [String] {
        let data: Data
        do { data = try FileHandle.standardInput.readToEnd() ?? Data() } catch {
            throw CommandFailure(message: "searchlight \(command): cannot read standard input: \(Terminal.describe(error))")
        }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether a result is a donated activity not linked to an item (its record identifier is internal).
    static func isActivity(_ item: CSSearchableItem) -> Bool { ActivityIdentity.isActivity(item.uniqueIdentifier) }

    /// How a result is named in output: an item by its identifier; an activity, whose internal record identifier
    /// holds U+0000, as "activity" and its persistent identifier ("activity id P") or else its type.
    static func displayIdentifier(_ item: CSSearchableItem) -> String {
        guard isActivity(item) else { return item.uniqueIdentifier }
        let rest = item.uniqueIdentifier.dropFirst(ActivityIdentity.namespace.count)
        if rest.hasPrefix("p:") { return "activity id " + rest.dropFirst(2) }
        // "t:TYPE:DIGEST"
        let typeAndDigest = rest.dropFirst(2)
        return "activity " + (typeAndDigest.lastIndex(of: ":").map { typeAndDigest[..<$0] } ?? typeAndDigest)
    }

    /// The item as its interchange JSON, kept a `JSONValue`: a trip through `JSONSerialization` wrote a double
    /// such as 37.0 as 37, which `index` then reads as an integer.
    static func jsonValue(_ item: CSSearchableItem) -> JSONValue {
        (try? ItemJSON.jsonValue(for: item)) ?? .object([JSONMember("uniqueIdentifier", .string(item.uniqueIdentifier))])
    }
}
