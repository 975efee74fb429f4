import Foundation

extension CSSearchQuery {
    /// The results as an `AsyncSequence` (Swift overlay, iOS 16). Iterating starts the query (use either this or
    /// the handler properties, not both); the iterator throws the query's error, e.g. `.invalidQuery`, and
    /// ending the iteration early cancels the query.
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

            public static func == (a: Item, b: Item) -> Bool { a.id == b.id && a.item.rank == b.item.rank }
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
            let query: CSSearchQuery
            var stream: AsyncThrowingStream<Item, any Error>.Iterator?

            public mutating func next() async throws -> Item? {
                if stream == nil { stream = query.itemStream().makeAsyncIterator() }
                return try await stream?.next()
            }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(query: query) }
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
