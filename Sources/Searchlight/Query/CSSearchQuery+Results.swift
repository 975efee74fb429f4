import Foundation

extension CSSearchQuery {
    /// The results as an `AsyncSequence` (Swift overlay, iOS 16). Iterating starts the query (use either this or
    /// the handler properties, not both); the iterator throws the query's error, e.g. `.invalidQuery`, and
    /// ending the iteration early cancels the query. Cancelling the iterating task cancels the query too, and the
    /// iterator throws its `.cancelled` error, so a list cut short never looks complete.
    public var results: Results { Results(query: self) }

    public struct Results: AsyncSequence, Sendable {
        public typealias Element = Item

        let query: CSSearchQuery

        /// One result: the item's identifier and the item (with the fetched attributes).
        public struct Item: Identifiable, Hashable, Comparable, Sendable {
            public let id: String
            public let item: CSSearchableItem

            public init(item: CSSearchableItem) {
                id = item.uniqueIdentifier
                self.item = item
            }

            /// Identifiers compare by their bytes: canonically equivalent ones (`"café"` precomposed and decomposed) are
            /// distinct items.
            public static func == (a: Item, b: Item) -> Bool {
                a.id.utf8.elementsEqual(b.id.utf8) && a.item.rank == b.item.rank
            }
            public func hash(into hasher: inout Hasher) {
                hasher.combine(id)
                hasher.combine(item.rank)
            }

            /// Rank order: `a < b` when `a` ranks higher (so `sorted()` puts the best first); ties by identifier.
            public static func < (a: Item, b: Item) -> Bool {
                CSSearchableItem.ranksBefore(a.item, id: a.id, b.item, id: b.id)
            }
        }

        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: QueryStreamIterator<Item>

            public mutating func next() async throws -> Item? { try await base.next() }
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: QueryStreamIterator(query: query) { [query] in query.itemStream() })
        }
    }

    /// Wires the handlers into a stream and starts the query.
    func itemStream() -> AsyncThrowingStream<Results.Item, any Error> {
        AsyncThrowingStream { continuation in
            guard claimStart() else { return continuation.finish(throwing: CSSearchQuery.alreadyStarted) }
            foundItemsHandler = { items in
                for item in items { continuation.yield(Results.Item(item: item)) }
            }
            completionHandler = { error in continuation.finish(throwing: error) }
            continuation.onTermination = { [self] termination in
                if case .cancelled = termination { cancel() }
            }
            launch()
        }
    }
}

/// What the iterators of `results`, `responses` and `suggestions` read: the query's stream, started by the first
/// `next()`. A task cancelled while iterating (or before) cancels the query and gets its `.cancelled` error, once,
/// as a query cancelled otherwise ends: the stream alone just ends, which made a list cut short look complete.
package struct QueryStreamIterator<Element> {
    private let query: CSSearchQuery
    private let start: () -> AsyncThrowingStream<Element, any Error>
    private var stream: AsyncThrowingStream<Element, any Error>.Iterator?
    private var ended = false

    package init(query: CSSearchQuery, start: @escaping () -> AsyncThrowingStream<Element, any Error>) {
        self.query = query
        self.start = start
    }

    package mutating func next() async throws -> Element? {
        guard !ended else { return nil }
        var iterator = stream ?? start().makeAsyncIterator()
        stream = iterator
        do {
            if let element = try await iterator.next(), !Task.isCancelled { return element }
        } catch {
            ended = true
            throw error
        }
        ended = true
        guard Task.isCancelled else { return nil }
        query.cancel()
        throw CSSearchQueryError.cancelledQuery()
    }
}
