import Foundation

extension CSUserQuery {
    /// How a person engaged with a result or suggestion.
    public enum UserInteractionKind: Int, Sendable, Hashable {
        case select = 0
        case focus = 1
        public static let `default` = UserInteractionKind.select
    }

    /// Searchlight extension: a piece of an item's text with the matched words marked.
    public struct Snippet: Sendable, Hashable {
        /// The attribute the text comes from (`title`, `contentDescription`, `city`, …; a custom key's name).
        public let attribute: String
        /// The text, with `…` where it was cut.
        public let text: String
        /// The matched words within `text`, in order, on Character boundaries.
        public let highlights: [Range<String.Index>]

        /// The text with the highlights marked by `CSSuggestionHighlightAttribute` (its value the text marked).
        /// Built piece by piece, so every highlight is marked as it is (none is dropped for lack of a matching
        /// `AttributedString` index).
        public var attributedText: AttributedString {
            var attributed = AttributedString()
            var position = text.startIndex
            for range in highlights where range.upperBound > position {
                let lower = max(range.lowerBound, position)
                attributed += AttributedString(String(text[position..<lower]))
                let word = String(text[lower..<range.upperBound])
                var marked = AttributedString(word)
                marked[CSSuggestionHighlightAttribute.self] = word
                attributed += marked
                position = range.upperBound
            }
            attributed += AttributedString(String(text[position...]))
            return attributed
        }

        /// The highlighted substrings, in order.
        public var highlightedWords: [String] { highlights.map { String(text[$0]) } }
    }

    /// One result of a user query.
    public struct Item: Identifiable, Hashable, Comparable, Sendable {
        public let id: String
        public let item: CSSearchableItem
        let annotator: UserQueryAnnotator?

        public init(item: CSSearchableItem) {
            self.init(item: item, annotator: nil)
        }

        init(item: CSSearchableItem, annotator: UserQueryAnnotator?) {
            id = item.uniqueIdentifier
            self.item = item
            self.annotator = annotator
        }

        /// Searchlight extension: the matched text with highlights (nil if no stored text matched).
        public var snippet: Snippet? { annotator?.snippet(for: id) }
        /// Searchlight extension: how the score was computed.
        public var explanation: String? { annotator?.explanation(for: id) }

        /// Identifiers compare by their bytes: canonically equivalent ones (`"café"` precomposed and decomposed) are
        /// distinct items.
        public static func == (a: Item, b: Item) -> Bool {
            a.id.utf8.elementsEqual(b.id.utf8) && a.item.rank == b.item.rank
        }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(id)
            hasher.combine(item.rank)
        }

        /// `a < b` when `a` ranks higher, so `sorted()` puts the best first; ties by identifier.
        public static func < (a: Item, b: Item) -> Bool {
            CSSearchableItem.ranksBefore(a.item, id: a.id, b.item, id: b.id)
        }
    }

    /// One suggestion of a user query.
    public struct Suggestion: Identifiable, Hashable, Comparable, Sendable {
        /// The suggested text.
        public let id: String
        public let suggestion: CSSuggestion

        public init(suggestion: CSSuggestion) {
            id = suggestion.suggestionText
            self.suggestion = suggestion
        }

        public static func == (a: Suggestion, b: Suggestion) -> Bool { a.suggestion.isEqual(b.suggestion) }
        public func hash(into hasher: inout Hasher) { hasher.combine(suggestion.hash) }
        /// Rank order, best first; equal ranks (suggestions of different queries) by text, then kind, so `<` is a
        /// total order consistent with `==` (text, rank and kind).
        public static func < (a: Suggestion, b: Suggestion) -> Bool {
            let (x, y) = (a.suggestion, b.suggestion)
            if x.rank != y.rank { return x.rank < y.rank }
            if x.suggestionText != y.suggestionText { return x.suggestionText < y.suggestionText }
            return x.suggestionKind.rawValue < y.suggestionKind.rawValue
        }
    }

    /// Items and suggestions as they arrive (suggestions first). Iterating starts the query; like `results`, the
    /// iterator throws the query's error, and cancelling the iterating task cancels the query and throws `.cancelled`.
    public var responses: Responses { Responses(query: self) }

    /// Only the suggestions. Iterating starts the query (and ends as `responses` does).
    public var suggestions: Suggestions { Suggestions(query: self) }

    public struct Responses: AsyncSequence, Sendable {
        public enum Response: Identifiable, Hashable, Sendable {
            case item(Item)
            case suggestion(Suggestion)

            public var id: String {
                switch self {
                case .item(let item): "item:" + item.id
                case .suggestion(let suggestion): "suggestion:" + suggestion.id
                }
            }
        }

        public typealias Element = Response
        let query: CSUserQuery

        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: QueryStreamIterator<Response>
            public mutating func next() async throws -> Response? { try await base.next() }
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: QueryStreamIterator(query: query) { [query] in query.responseStream(items: true) })
        }
    }

    public struct Suggestions: AsyncSequence, Sendable {
        public typealias Element = Suggestion
        let query: CSUserQuery

        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: QueryStreamIterator<Responses.Response>
            public mutating func next() async throws -> Suggestion? {
                while let response = try await base.next() {
                    if case .suggestion(let suggestion) = response { return suggestion }
                }
                return nil
            }
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: QueryStreamIterator(query: query) { [query] in query.responseStream(items: false) })
        }
    }

    /// Wires the handlers into a stream and starts the query.
    func responseStream(items: Bool) -> AsyncThrowingStream<Responses.Response, any Error> {
        AsyncThrowingStream { continuation in
            guard claimStart() else { return continuation.finish(throwing: CSSearchQuery.alreadyStarted) }
            foundSuggestionsHandler = { list in
                for suggestion in list { continuation.yield(.suggestion(Suggestion(suggestion: suggestion))) }
            }
            if items {
                foundItemsHandler = { [self] found in
                    let annotator = self.annotator
                    for item in found { continuation.yield(.item(Item(item: item, annotator: annotator))) }
                }
            }
            completionHandler = { error in continuation.finish(throwing: error) }
            continuation.onTermination = { [self] termination in
                if case .cancelled = termination { cancel() }
            }
            launch()
        }
    }
}
