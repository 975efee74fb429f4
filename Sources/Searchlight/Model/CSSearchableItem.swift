import Foundation
import Synchronization

/// Mirror of Core Spotlight's `CSSearchableItem`: an identifier, an optional domain, an expiration date and an
/// attribute set. `isUpdate` turns indexing into a merge (reference §3.1).
open class CSSearchableItem: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // `@unchecked Sendable` is sound: all mutable state is the `State` value inside a `Mutex`; the attribute
    // set it references is itself thread-safe.
    private struct State: Sendable {
        var uniqueIdentifier: String
        var domainIdentifier: String?
        var explicitExpirationDate: Date?
        var attributeSet: CSSearchableItemAttributeSet
        var isUpdate = false
        var updateListenerOptions: UpdateListenerOptions = .default
        var rank: Double = 0
    }

    private let state: Mutex<State>

    /// Options for system-generated attributes an app may listen for (reference §1.7).
    public struct UpdateListenerOptions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let `default` = UpdateListenerOptions([])
        public static let summarization = UpdateListenerOptions(rawValue: 1 << 1)
        public static let priority = UpdateListenerOptions(rawValue: 1 << 2)
    }

    /// The default lifetime of an indexed item: one calendar month after it was indexed.
    package static func defaultExpirationDate(from start: Date = Date()) -> Date {
        utcCalendar.date(byAdding: .month, value: 1, to: start) ?? start.addingTimeInterval(30 * 86_400)
    }

    /// The calendar the default lifetime is counted in, made once: indexing stores a default expiration for most
    /// items, and making a calendar and its time zone cost more than the date arithmetic.
    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    /// A `nil` identifier generates a UUID string, which the app must remember to update or delete the item.
    public init(uniqueIdentifier: String?, domainIdentifier: String?, attributeSet: CSSearchableItemAttributeSet) {
        state = Mutex(State(uniqueIdentifier: uniqueIdentifier ?? UUID().uuidString, domainIdentifier: domainIdentifier,
                            attributeSet: attributeSet))
        super.init()
    }

    /// Decodes the interchange JSON shape (see `ItemJSON`); Codable support for apps that persist items.
    public required convenience init(from decoder: any Decoder) throws {
        let decoded = try ItemJSON.item(from: JSONValue(from: decoder))
        self.init(uniqueIdentifier: decoded.uniqueIdentifier, domainIdentifier: decoded.domainIdentifier,
                  attributeSet: decoded.attributeSet)
        explicitExpirationDate = decoded.explicitExpirationDate
        isUpdate = decoded.isUpdate
        updateListenerOptions = decoded.updateListenerOptions
    }

    /// Unique (within the app) key used to update and delete the item.
    open var uniqueIdentifier: String {
        get { state.withLock { $0.uniqueIdentifier } }
        set { state.withLock { $0.uniqueIdentifier = newValue } }
    }

    /// Owner/group identifier, a dotted hierarchy such as `account.mailbox`; deleting a domain deletes its subdomains.
    open var domainIdentifier: String? {
        get { state.withLock { $0.domainIdentifier } }
        set { state.withLock { $0.domainIdentifier = newValue } }
    }

    /// When the item expires. Null-resettable: assigning `nil` restores the default, one month from now
    /// (the index fixes it to one month after indexing).
    open var expirationDate: Date! {
        get { state.withLock { $0.explicitExpirationDate } ?? Self.defaultExpirationDate() }
        set { state.withLock { $0.explicitExpirationDate = newValue } }
    }

    /// The expiration date the caller set, or nil if the default applies.
    package var explicitExpirationDate: Date? {
        get { state.withLock { $0.explicitExpirationDate } }
        set { state.withLock { $0.explicitExpirationDate = newValue } }
    }

    /// The expiration to store for an item indexed at `indexedAt`.
    package func effectiveExpirationDate(indexedAt: Date) -> Date {
        explicitExpirationDate ?? Self.defaultExpirationDate(from: indexedAt)
    }

    open var attributeSet: CSSearchableItemAttributeSet {
        get { state.withLock { $0.attributeSet } }
        set { state.withLock { $0.attributeSet = newValue } }
    }

    /// `false`: indexing replaces any stored item wholesale. `true`: merge into the stored item (attributes set
    /// to `nil` are removed); dropped if no item with this identifier exists.
    open var isUpdate: Bool {
        get { state.withLock { $0.isUpdate } }
        set { state.withLock { $0.isUpdate = newValue } }
    }

    open var updateListenerOptions: UpdateListenerOptions {
        get { state.withLock { $0.updateListenerOptions } }
        set { state.withLock { $0.updateListenerOptions = newValue } }
    }

    /// Relevance assigned by a ranked query (higher = better).
    package var rank: Double {
        get { state.withLock { $0.rank } }
        set { state.withLock { $0.rank = newValue } }
    }

    /// Orders items ranked by a `CSUserQuery`: `.orderedAscending` when this item ranks higher (comes first).
    open func compare(byRank other: CSSearchableItem) -> ComparisonResult {
        let mine = rank, theirs = other.rank
        if mine > theirs { return .orderedAscending }
        if mine < theirs { return .orderedDescending }
        return .orderedSame
    }

    /// The order ranked results are delivered in: higher rank first, ties by the results' identifiers (the `<`
    /// of `CSSearchQuery.Results.Item` and `CSUserQuery.Item`). Which of the results tied at a
    /// `maxResultCount` cut make the page is the index's order (the engine selects by score, then address).
    package static func ranksBefore(_ a: CSSearchableItem, id aID: String, _ b: CSSearchableItem, id bID: String) -> Bool {
        switch a.compare(byRank: b) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: return ResultOrder.identifier(aID, precedes: bID)
        }
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    /// Archived as CSSearchableItem when a private or nested subclass would trap Foundation's archiver.
    open override var classForKeyedArchiver: AnyClass? {
        keyedArchiverClass(of: self, else: CSSearchableItem.self)
    }

    /// Archives the identifiers, the expiration date the caller set (none: the default applies), `isUpdate`,
    /// the update listener options and the attribute set.
    open func encode(with coder: NSCoder) {
        let s = state.withLock { $0 }
        coder.encode(NSString(string: s.uniqueIdentifier), forKey: "uniqueIdentifier")
        coder.encode(s.domainIdentifier.map(NSString.init(string:)), forKey: "domainIdentifier")
        coder.encode(s.explicitExpirationDate.map { $0 as NSDate }, forKey: "expirationDate")
        coder.encode(s.isUpdate, forKey: "isUpdate")
        coder.encode(Int64(bitPattern: UInt64(s.updateListenerOptions.rawValue)), forKey: "updateListenerOptions")
        coder.encode(s.attributeSet, forKey: "attributeSet")
    }

    /// Decodes what `encode(with:)` wrote; nil (a failed decode, not a crash) when the identifier or attribute
    /// set is missing or of another type.
    public required init?(coder: NSCoder) {
        guard let identifier = coder.decodeObject(of: NSString.self, forKey: "uniqueIdentifier"),
              let attributeSet = coder.decodeObject(of: CSSearchableItemAttributeSet.self, forKey: "attributeSet")
        else { return nil }
        var s = State(uniqueIdentifier: String(identifier),
                      domainIdentifier: coder.decodeObject(of: NSString.self, forKey: "domainIdentifier").map(String.init),
                      attributeSet: attributeSet)
        s.explicitExpirationDate = coder.decodeObject(of: NSDate.self, forKey: "expirationDate").map { $0 as Date }
        s.isUpdate = coder.decodeBool(forKey: "isUpdate")
        s.updateListenerOptions = UpdateListenerOptions(
            rawValue: UInt(truncatingIfNeeded: coder.decodeInt64(forKey: "updateListenerOptions")))
        state = Mutex(s)
        super.init()
    }

    /// A deep copy, including a copy of the attribute set; a subclass's is of the subclass (through its
    /// `init?(coder:)`).
    open func copy(with zone: NSZone? = nil) -> Any {
        guard let copy = subclassCopy(of: self, base: CSSearchableItem.self) else { return deepCopy() }
        copy.rank = rank
        return copy
    }

    /// A deep copy, typed (the index layer stores copies so later caller mutations do not leak in).
    package func deepCopy() -> CSSearchableItem {
        let s = state.withLock { $0 }
        let copy = CSSearchableItem(uniqueIdentifier: s.uniqueIdentifier, domainIdentifier: s.domainIdentifier,
                                    attributeSet: s.attributeSet.deepCopy())
        copy.state.withLock {
            $0.explicitExpirationDate = s.explicitExpirationDate
            $0.isUpdate = s.isUpdate
            $0.updateListenerOptions = s.updateListenerOptions
            $0.rank = s.rank
        }
        return copy
    }

    /// Equal when everything archived is (identifiers, the expiration the caller set, `isUpdate`, listener
    /// options, an equal attribute set), as Apple's class overrides `isEqual:` and `hash`; a query's rank is not.
    /// Identifiers compare by their bytes, as NSString's `isEqual:` and the index compare them.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CSSearchableItem else { return false }
        if other === self { return true }
        let a = state.withLock { $0 }, b = other.state.withLock { $0 }
        return a.uniqueIdentifier.utf8.elementsEqual(b.uniqueIdentifier.utf8)
            && a.domainIdentifier?.utf8.count == b.domainIdentifier?.utf8.count
            && (a.domainIdentifier ?? "").utf8.elementsEqual((b.domainIdentifier ?? "").utf8)
            && a.explicitExpirationDate == b.explicitExpirationDate && a.isUpdate == b.isUpdate
            && a.updateListenerOptions == b.updateListenerOptions && a.attributeSet.isEqual(b.attributeSet)
    }

    /// The identifier's hash: equal items share it, and hashing never walks the attribute set.
    open override var hash: Int { uniqueIdentifier.hashValue }

    open override var description: String {
        "<CSSearchableItem \(uniqueIdentifier) domain=\(domainIdentifier ?? "nil")\(isUpdate ? " update" : "") \(attributeSet)>"
    }

    /// The result of applying `update` (an `isUpdate` item) to this stored item: attributes merged with cleared
    /// ones removed; domain and expiration taken from the update when it sets them. Neither input changes.
    package func applying(update: CSSearchableItem) -> CSSearchableItem {
        let merged = deepCopy()
        merged.attributeSet.merge(update: update.attributeSet)
        merged.attributeSet.removeClearedSlots()
        if let domain = update.domainIdentifier { merged.domainIdentifier = domain }
        if let expiration = update.explicitExpirationDate { merged.explicitExpirationDate = expiration }
        if update.updateListenerOptions != .default { merged.updateListenerOptions = update.updateListenerOptions }
        merged.isUpdate = false
        return merged
    }
}
