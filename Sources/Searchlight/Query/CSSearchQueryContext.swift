import Foundation
import SearchlightEngine
import Synchronization

/// Mirror of `CSSearchQueryContext`: what a query fetches and which extra predicates its results must satisfy,
/// plus Searchlight extensions Apple lacks: sorting, paging (`limit`, `offset`) and a resumable `cursor`.
open class CSSearchQueryContext: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // `@unchecked Sendable` is sound: all mutable state is the `State` value inside a `Mutex`.
    package struct State: Sendable {
        var fetchAttributes: [String] = []
        var filterQueries: [String] = []
        var keyboardLanguage: String?
        var sourceOptions: SourceOptions = .default
        var sortAttributes: [SortAttribute] = []
        var limit = 0
        var offset = 0
        var cursor: CSSearchQueryCursor?
    }

    private let state = Mutex(State())

    /// Where results may come from (macOS: whether Mail's items are included). Accepted and recorded; a
    /// Searchlight container holds the app's own items only.
    public struct SourceOptions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let `default` = SourceOptions([])
        public static let allowMail = SourceOptions(rawValue: 1 << 0)
    }

    /// Searchlight extension: one sort key. Numbers and dates sort by their numeric column (smallest value
    /// first ascending, largest first descending), text by its case- and diacritic-folded value; items
    /// lacking the attribute come last; ties fall back to the unique identifier. `domainIdentifier` sorts by
    /// the item's domain.
    public struct SortAttribute: Sendable, Hashable {
        /// A property name, `kMDItem…` alias or custom key name. Any other name (one `CSCustomAttributeKey`
        /// refuses, e.g. `""` or `"title "`) fails the query with `invalidQuery`; a valid custom key that no
        /// item holds sorts every item as lacking it.
        public var attribute: String
        public var ascending: Bool
        public init(_ attribute: String, ascending: Bool = true) {
            self.attribute = attribute
            self.ascending = ascending
        }
    }

    public override init() { super.init() }

    package var values: State { state.withLock { $0 } }

    /// Attribute names to populate on returned items; every other attribute comes back empty.
    open var fetchAttributes: [String] {
        get { state.withLock { $0.fetchAttributes } }
        set { state.withLock { $0.fetchAttributes = newValue } }
    }

    /// Query-language strings that every result must also satisfy.
    open var filterQueries: [String] {
        get { state.withLock { $0.filterQueries } }
        set { state.withLock { $0.filterQueries = newValue } }
    }

    /// The language of the user's keyboard (a hint; the analyzer is language-independent).
    open var keyboardLanguage: String? {
        get { state.withLock { $0.keyboardLanguage } }
        set { state.withLock { $0.keyboardLanguage = newValue } }
    }

    open var sourceOptions: SourceOptions {
        get { state.withLock { $0.sourceOptions } }
        set { state.withLock { $0.sourceOptions = newValue } }
    }

    /// Searchlight extension: sort keys, most significant first. Empty (the default): index order for
    /// `CSSearchQuery`, relevance for a ranked `CSUserQuery`.
    open var sortAttributes: [SortAttribute] {
        get { state.withLock { $0.sortAttributes } }
        set { state.withLock { $0.sortAttributes = newValue } }
    }

    /// Searchlight extension: at most this many results (0, the default: all).
    open var limit: Int {
        get { state.withLock { $0.limit } }
        set { state.withLock { $0.limit = max(newValue, 0) } }
    }

    /// Searchlight extension: skip this many results first (after the cursor, if any). Pages of separate ranked
    /// queries are slices of one ranking while the index is unchanged; a background merge that reclaims deleted
    /// items changes relevance statistics (and so ranks) between them. A `CSSearchQuery` cursor pins its state.
    open var offset: Int {
        get { state.withLock { $0.offset } }
        set { state.withLock { $0.offset = max(newValue, 0) } }
    }

    /// Searchlight extension: continue after the last result of an earlier query (its `cursor`). Not archived.
    open var cursor: CSSearchQueryCursor? {
        get { state.withLock { $0.cursor } }
        set { state.withLock { $0.cursor = newValue } }
    }

    /// A copy of the receiver's class (a subclass's through its `init?(coder:)`), every setting and the cursor
    /// (which the archive leaves out) set from this one.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = subclassCopy(of: self, base: CSSearchQueryContext.self) ?? CSSearchQueryContext()
        copyBaseState(into: copy)
        return copy
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    /// Archived as CSSearchQueryContext when a private or nested subclass would trap Foundation's archiver.
    open override var classForKeyedArchiver: AnyClass? { keyedArchiverClass(of: self, else: CSSearchQueryContext.self) }

    /// Archives every setting but the cursor: it holds an index snapshot, so an unarchived context starts from
    /// the first page. Sort keys are two parallel arrays, names and directions.
    open func encode(with coder: NSCoder) {
        let s = values
        coder.encode(s.fetchAttributes.map(NSString.init(string:)) as NSArray, forKey: "fetchAttributes")
        coder.encode(s.filterQueries.map(NSString.init(string:)) as NSArray, forKey: "filterQueries")
        coder.encode(s.keyboardLanguage.map(NSString.init(string:)), forKey: "keyboardLanguage")
        coder.encode(Int64(bitPattern: UInt64(s.sourceOptions.rawValue)), forKey: "sourceOptions")
        coder.encode(s.sortAttributes.map { NSString(string: $0.attribute) } as NSArray, forKey: "sortAttributes")
        coder.encode(s.sortAttributes.map { NSNumber(value: $0.ascending) } as NSArray, forKey: "sortAscending")
        coder.encode(Int64(s.limit), forKey: "limit")
        coder.encode(Int64(s.offset), forKey: "offset")
    }

    /// Decodes what `encode(with:)` wrote; nil (a failed decode, not a crash) when an array holds another type or
    /// the sort names and directions differ in count. Negative `limit` / `offset` are clamped to 0 as the setters do.
    public required init?(coder: NSCoder) {
        guard let fetchAttributes = Self.decodeArray(String.self, coder, "fetchAttributes"),
              let filterQueries = Self.decodeArray(String.self, coder, "filterQueries"),
              let sortNames = Self.decodeArray(String.self, coder, "sortAttributes"),
              let sortAscending = Self.decodeArray(Bool.self, coder, "sortAscending"),
              sortNames.count == sortAscending.count else { return nil }
        var s = State()
        s.fetchAttributes = fetchAttributes
        s.filterQueries = filterQueries
        s.keyboardLanguage = coder.decodeObject(of: NSString.self, forKey: "keyboardLanguage").map(String.init)
        s.sourceOptions = SourceOptions(rawValue: UInt(truncatingIfNeeded: coder.decodeInt64(forKey: "sourceOptions")))
        s.sortAttributes = zip(sortNames, sortAscending).map { SortAttribute($0, ascending: $1) }
        s.limit = Self.decodeCount(coder, "limit") ?? 0
        s.offset = Self.decodeCount(coder, "offset") ?? 0
        super.init()
        state.withLock { $0 = s }
    }

    /// An archived array whose elements are all `T` (a missing key: empty); nil for any other value.
    package static func decodeArray<T>(_: T.Type, _ coder: NSCoder, _ key: String) -> [T]? {
        guard coder.containsValue(forKey: key) else { return [] }
        let classes: [AnyClass] = [NSArray.self, NSString.self, NSNumber.self]
        return coder.decodeObject(of: classes, forKey: key) as? [T]
    }

    /// An archived count clamped to 0 as the setters clamp (nil when the key is missing: the default applies).
    package static func decodeCount(_ coder: NSCoder, _ key: String) -> Int? {
        coder.containsValue(forKey: key) ? max(Int(truncatingIfNeeded: coder.decodeInt64(forKey: key)), 0) : nil
    }

    /// Copies this context's `CSSearchQueryContext` settings into another (for subclasses' `copy`).
    package func copyBaseState(into other: CSSearchQueryContext) {
        let values = self.values
        other.state.withLock { $0 = values }
    }
}

/// Searchlight extension: where a finished query stopped, so a new query with the same query string, filters
/// and sort can continue after its last result (set it as `CSSearchQueryContext.cursor`); a query with another
/// query string or other filter queries fails with `invalidQuery`.
///
/// With `sortAttributes` the cursor is a sort key and survives later index changes (items inserted before
/// the key are not revisited). Without sort keys results are in index order, which a later write can
/// reshuffle, so such a cursor only continues while the items are unchanged; after a write that changed items
/// the query fails with `invalidQuery`, asking for sort keys. Segment merges published between writes reorder
/// the index too: an unsorted cursor keeps the snapshot it was made on and continues there while its container
/// publishes only merges or writes that change no item (holding that snapshot's memory while the cursor lives).
public struct CSSearchQueryCursor: Sendable, Hashable {
    /// The query string, then the filter queries, of the query that made it: another query refuses it.
    package let query: [String]
    package let sortAttributes: [CSSearchQueryContext.SortAttribute]
    package let key: [SortValue]
    package let identifier: String
    package let generation: UInt64
    package let address: DocAddressKey
    /// The snapshot an unsorted cursor was made on (nil for sorted cursors); not part of its identity, which
    /// `generation` already fixes.
    package let snapshot: IndexSnapshot?

    package init(query: [String], sortAttributes: [CSSearchQueryContext.SortAttribute], key: [SortValue],
                 identifier: String, generation: UInt64, address: DocAddressKey, snapshot: IndexSnapshot?) {
        self.query = query
        self.sortAttributes = sortAttributes
        self.key = key
        self.identifier = identifier
        self.generation = generation
        self.address = address
        self.snapshot = snapshot
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.query == b.query && a.sortAttributes == b.sortAttributes && a.key == b.key && a.identifier == b.identifier
            && a.generation == b.generation && a.address == b.address
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(query)
        hasher.combine(sortAttributes)
        hasher.combine(key)
        hasher.combine(identifier)
        hasher.combine(generation)
        hasher.combine(address)
    }
}

/// A stored document address in a `Hashable` form without exposing the engine type.
package struct DocAddressKey: Sendable, Hashable, Comparable {
    package let segment: UInt32
    package let doc: UInt32
    package static func < (a: Self, b: Self) -> Bool { (a.segment, a.doc) < (b.segment, b.doc) }
}
