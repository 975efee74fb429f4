import Foundation

/// Marks the runs of `CSSuggestion.localizedAttributedSuggestion` that the user already typed (Apple's
/// `.suggestionHighlight`). The value is, as Apple documents, the text that was suggested (the whole
/// `suggestionText`); on a `CSUserQuery.Snippet`'s highlights, the text the highlight marks.
public enum CSSuggestionHighlightAttribute: AttributedStringKey {
    public typealias Value = String
    public static let name = "CSSuggestionHighlight"
}

/// Apple's `CSSuggestionHighlightAttributeName`: the attribute's name in an `NSAttributedString`.
public let CSSuggestionHighlightAttributeName: String = CSSuggestionHighlightAttribute.name

extension NSAttributedString.Key {
    /// Apple's `.suggestionHighlight` (`CSSuggestionHighlightAttributeName`).
    public static let suggestionHighlight = NSAttributedString.Key(CSSuggestionHighlightAttributeName)
}

extension AttributeScopes {
    /// The attributes Searchlight sets, so code can write `run.suggestionHighlight` as with Apple's.
    public struct SearchlightAttributes: AttributeScope {
        public let suggestionHighlight: CSSuggestionHighlightAttribute
    }

    public var searchlight: SearchlightAttributes.Type { SearchlightAttributes.self }
}

extension AttributeDynamicLookup {
    public subscript<T: AttributedStringKey>(
        dynamicMember keyPath: KeyPath<AttributeScopes.SearchlightAttributes, T>
    ) -> T { self[T.self] }
}

/// Mirror of `CSSuggestion`: a completion of what the user typed, drawn from the index's terms.
open class CSSuggestion: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // `@unchecked Sendable` is sound: every stored property is an immutable `let` of a Sendable type.

    public enum SuggestionKind: Int, Sendable {
        case none = 0
        case custom = 1
        case `default` = 2
    }

    /// Searchlight extension: the whole suggested query text.
    public let suggestionText: String
    /// Searchlight extension: the part of `suggestionText` the user typed (highlighted).
    public let typedRange: Range<String.Index>
    open var suggestionKind: SuggestionKind { kind }
    /// Position in the ranked list (0 = best).
    package let rank: Int
    /// Searchlight extension: how many visible items the suggestion would find.
    public let resultCount: Int
    private let kind: SuggestionKind

    /// `typedBytes`: the UTF-8 length of the part typed, measured on `text` itself (characters counted apart
    /// may join in it), rounded down to a character boundary.
    package init(text: String, typedBytes: Int, rank: Int, resultCount: Int, kind: SuggestionKind = .default) {
        suggestionText = text
        var end = text.utf8.index(text.startIndex, offsetBy: min(max(typedBytes, 0), text.utf8.count))
        while String.Index(end, within: text) == nil { end = text.utf8.index(before: end) }
        typedRange = text.startIndex..<end
        self.rank = rank
        self.resultCount = resultCount
        self.kind = kind
        super.init()
    }

    /// The suggestion with the typed part marked by `CSSuggestionHighlightAttribute` (its value the suggested text).
    public var localizedAttributedSuggestion: AttributedString {
        var attributed = AttributedString(suggestionText)
        let typed = suggestionText[typedRange].count
        guard typed > 0 else { return attributed }
        let end = attributed.characters.index(attributed.startIndex, offsetBy: typed)
        attributed[attributed.startIndex..<end][CSSuggestionHighlightAttribute.self] = suggestionText
        return attributed
    }

    /// Ranked order: `.orderedAscending` when this suggestion ranks higher; `.orderedSame` for equal ranks, as
    /// Apple's compares ranks only (`CSUserQuery.Suggestion`'s `<` breaks such ties by text and kind).
    open func compare(byRank other: CSSuggestion) -> ComparisonResult {
        rank == other.rank ? .orderedSame : rank < other.rank ? .orderedAscending : .orderedDescending
    }

    /// Alphabetical order of the suggested text.
    open func compare(_ other: CSSuggestion) -> ComparisonResult {
        suggestionText == other.suggestionText ? .orderedSame
            : suggestionText < other.suggestionText ? .orderedAscending : .orderedDescending
    }

    open func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    /// Archives the suggested text, the typed part (as its UTF-8 length), rank, result count and kind.
    open func encode(with coder: NSCoder) {
        coder.encode(NSString(string: suggestionText), forKey: "suggestionText")
        coder.encode(Int64(suggestionText.utf8.distance(from: suggestionText.startIndex, to: typedRange.upperBound)),
                     forKey: "typedBytes")
        coder.encode(Int64(rank), forKey: "rank")
        coder.encode(Int64(resultCount), forKey: "resultCount")
        coder.encode(Int64(kind.rawValue), forKey: "suggestionKind")
    }

    /// Decodes what `encode(with:)` wrote; nil (a failed decode, not a crash) when the text is missing or the
    /// kind unknown. An out-of-range typed length is clamped to the text, as the package initialiser does.
    public required convenience init?(coder: NSCoder) {
        guard let text = coder.decodeObject(of: NSString.self, forKey: "suggestionText").map(String.init),
              let kind = SuggestionKind(rawValue: Int(truncatingIfNeeded: coder.decodeInt64(forKey: "suggestionKind")))
        else { return nil }
        self.init(text: text, typedBytes: Int(truncatingIfNeeded: coder.decodeInt64(forKey: "typedBytes")),
                  rank: Int(truncatingIfNeeded: coder.decodeInt64(forKey: "rank")),
                  resultCount: Int(truncatingIfNeeded: coder.decodeInt64(forKey: "resultCount")), kind: kind)
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CSSuggestion else { return false }
        return other.suggestionText == suggestionText && other.rank == rank && other.suggestionKind == suggestionKind
    }

    open override var hash: Int { suggestionText.hashValue ^ rank }

    open override var description: String { "<CSSuggestion \"\(suggestionText)\" typed=\(suggestionText[typedRange])>" }
}
