import Foundation
import Synchronization

/// Mirror of `CSUserQueryContext`: settings of a free-text `CSUserQuery`.
open class CSUserQueryContext: CSSearchQueryContext, @unchecked Sendable {
    // `@unchecked Sendable` is sound: the added state is a value inside a `Mutex`.
    package struct UserState: Sendable {
        var enableRankedResults = false
        var disableSemanticSearch = false
        var maxResultCount = 0
        var maxSuggestionCount = 0
        var maxRankedResultCount = 100
        var currentSuggestion: CSSuggestion?
    }

    private let userState = Mutex(UserState())

    public override init() { super.init() }

    /// A context that refines the search around a suggestion the user picked: the query runs on the
    /// suggestion's full text, every word complete, the completed last word as it is (no typo tolerance; the words
    /// before it keep theirs), so it finds the items the suggestion's `resultCount` counted.
    public convenience init(currentSuggestion: CSSuggestion?) {
        self.init()
        userState.withLock { $0.currentSuggestion = currentSuggestion }
    }

    /// The default context.
    open class var userQueryContext: CSUserQueryContext { CSUserQueryContext() }

    package var userValues: UserState { userState.withLock { $0 } }

    /// Deliver results best first (else in index order); ranks are set either way.
    open var enableRankedResults: Bool {
        get { userState.withLock { $0.enableRankedResults } }
        set { userState.withLock { $0.enableRankedResults = newValue } }
    }

    /// Accepted: Searchlight's search is always lexical.
    open var disableSemanticSearch: Bool {
        get { userState.withLock { $0.disableSemanticSearch } }
        set { userState.withLock { $0.disableSemanticSearch = newValue } }
    }

    /// At most this many results (0, the default: all matches): the best by rank, of results tied at the cut
    /// those first in index order.
    open var maxResultCount: Int {
        get { userState.withLock { $0.maxResultCount } }
        set { userState.withLock { $0.maxResultCount = max(newValue, 0) } }
    }

    /// At most this many suggestions (0, the default: up to 10) when a suggestions handler is set.
    open var maxSuggestionCount: Int {
        get { userState.withLock { $0.maxSuggestionCount } }
        set { userState.withLock { $0.maxSuggestionCount = max(newValue, 0) } }
    }

    /// Only this many top results are ranked (default 100); the rest follow with rank 0, by identifier as
    /// `CSUserQuery.Item`'s `<` orders ties.
    open var maxRankedResultCount: Int {
        get { userState.withLock { $0.maxRankedResultCount } }
        set { userState.withLock { $0.maxRankedResultCount = max(newValue, 0) } }
    }

    /// The suggestion this context refines around, if any.
    open var currentSuggestion: CSSuggestion? { userState.withLock { $0.currentSuggestion } }

    // MARK: NSSecureCoding

    /// Archived as CSUserQueryContext when a private or nested subclass would trap Foundation's archiver.
    open override var classForKeyedArchiver: AnyClass? { keyedArchiverClass(of: self, else: CSUserQueryContext.self) }

    /// Archives the inherited settings, this context's own and the suggestion it refines around.
    open override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        let s = userValues
        coder.encode(s.enableRankedResults, forKey: "enableRankedResults")
        coder.encode(s.disableSemanticSearch, forKey: "disableSemanticSearch")
        coder.encode(Int64(s.maxResultCount), forKey: "maxResultCount")
        coder.encode(Int64(s.maxSuggestionCount), forKey: "maxSuggestionCount")
        coder.encode(Int64(s.maxRankedResultCount), forKey: "maxRankedResultCount")
        if let suggestion = s.currentSuggestion { coder.encode(suggestion, forKey: "currentSuggestion") }
    }

    /// Decodes what `encode(with:)` wrote; nil (a failed decode, not a crash) when the inherited settings or a
    /// present suggestion do not decode. Negative counts are clamped to 0 as the setters do; a missing one keeps
    /// its default.
    public required init?(coder: NSCoder) {
        var s = UserState()
        if coder.containsValue(forKey: "currentSuggestion") {
            guard let suggestion = coder.decodeObject(of: CSSuggestion.self, forKey: "currentSuggestion") else {
                return nil
            }
            s.currentSuggestion = suggestion
        }
        s.enableRankedResults = coder.decodeBool(forKey: "enableRankedResults")
        s.disableSemanticSearch = coder.decodeBool(forKey: "disableSemanticSearch")
        s.maxResultCount = Self.decodeCount(coder, "maxResultCount") ?? s.maxResultCount
        s.maxSuggestionCount = Self.decodeCount(coder, "maxSuggestionCount") ?? s.maxSuggestionCount
        s.maxRankedResultCount = Self.decodeCount(coder, "maxRankedResultCount") ?? s.maxRankedResultCount
        super.init(coder: coder)
        userState.withLock { $0 = s }
    }

    /// A copy of the receiver's class (a subclass's through its `init?(coder:)`), every setting and the cursor
    /// set from this one.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = subclassCopy(of: self, base: CSUserQueryContext.self) ?? CSUserQueryContext()
        copyBaseState(into: copy)
        let values = userValues
        copy.userState.withLock { $0 = values }
        return copy
    }
}
