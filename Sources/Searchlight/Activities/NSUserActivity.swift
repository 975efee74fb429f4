#if !canImport(Darwin)
import Foundation
import Synchronization

/// The type of `NSUserActivity.persistentIdentifier` (Foundation's name).
public typealias NSUserActivityPersistentIdentifier = String

/// The activity type Foundation uses for web-browsing Handoff.
public let NSUserActivityTypeBrowsingWeb: String = "NSUserActivityTypeBrowsingWeb"

/// Mirror of Foundation's `NSUserActivity`, search half (swift-corelibs-foundation has none), with Core
/// Spotlight's `contentAttributeSet`.
///
/// An activity that `isEligibleForSearch` is indexed when it becomes current (or is made eligible while current):
/// its `title`, `keywords` and `contentAttributeSet` become a record in the donation container (`container`, by default
/// `NSUserActivity.donationContainer`, itself `SearchlightContainer.default`) that `CSSearchQuery` and
/// `CSUserQuery` find alongside items; selecting that result (`SearchlightContinuation`) hands the app an activity
/// of the same type and userInfo. One activity is current per container at a time; an invalidated one never
/// becomes current again. Handoff, prediction and public indexing are recorded but have no effect here.
///
/// Thread-safe: all state sits in a `Mutex`; the delegate is called without any lock held.
open class NSUserActivity: NSObject, @unchecked Sendable {
    // `@unchecked Sendable` is sound: mutable state lives in `state` (a `Mutex`); `userInfo` (app values that
    // are not `Sendable`) and the delegate reference are read and written only under their locks;
    // `activityType` is immutable.
    private struct State: Sendable {
        var title: String?
        var keywords: Set<String> = []
        var requiredUserInfoKeys: Set<String>?
        var needsSave = false
        var webpageURL: URL?
        var referrerURL: URL?
        var expirationDate: Date?
        var isEligibleForSearch = false
        var isEligibleForHandoff = true
        var isEligibleForPublicIndexing = false
        var isEligibleForPrediction = false
        var persistentIdentifier: NSUserActivityPersistentIdentifier?
        var targetContentIdentifier: String?
        var contentAttributeSet: CSSearchableItemAttributeSet?
        var isInvalidated = false
        var isSaving = false
        /// The activity became current and that visit has not been counted yet (its record was not found).
        var visitPending = false
        var container: SearchlightContainer?
        var lastDonationError: CSIndexError?
    }

    private let state = Mutex(State())
    private let userInfoLock = NSLock()
    nonisolated(unsafe) private var storedUserInfo: [AnyHashable: Any]?
    private let delegateLock = NSLock()
    nonisolated(unsafe) private weak var storedDelegate: (any NSUserActivityDelegate)?

    /// The reverse-DNS type given at creation; it never changes.
    public let activityType: String

    /// A new activity of `activityType` with Apple's defaults: eligible for Handoff only, no title, no userInfo.
    public init(activityType: String) {
        self.activityType = activityType
        super.init()
    }

    // MARK: Content

    /// Shown in search results and searched.
    open var title: String? {
        get { state.withLock { $0.title } }
        set { state.withLock { $0.title = newValue } }
    }

    /// Extra search terms (empty by default).
    open var keywords: Set<String> {
        get { state.withLock { $0.keywords } }
        set { state.withLock { $0.keywords = newValue } }
    }

    /// Property-list values the app needs to restore the activity (String, numbers, Bool, Data, Date, URL, UUID,
    /// arrays and String-keyed dictionaries of those). Other values keep the activity out of the index with a
    /// clear error (`lastDonationError`, or `becomeCurrent(completionHandler:)`).
    open var userInfo: [AnyHashable: Any]? {
        get { userInfoLock.withLock { storedUserInfo } }
        set { userInfoLock.withLock { storedUserInfo = newValue } }
    }

    /// Merges entries into `userInfo` (creating it if needed); later entries win.
    open func addUserInfoEntries(from otherDictionary: [AnyHashable: Any]) {
        userInfoLock.withLock {
            var info = storedUserInfo ?? [:]
            info.merge(otherDictionary) { _, new in new }
            storedUserInfo = info
        }
    }

    /// The userInfo keys needed to restore the activity; when set, a continued activity gets only these.
    open var requiredUserInfoKeys: Set<String>? {
        get { state.withLock { $0.requiredUserInfoKeys } }
        set { state.withLock { $0.requiredUserInfoKeys = newValue } }
    }

    /// Set to true to be asked (`userActivityWillSave`) to update the activity before it is saved. Setting it
    /// on the current activity saves it again at once (re-indexing it if eligible).
    open var needsSave: Bool {
        get { state.withLock { $0.needsSave } }
        set {
            let resave = state.withLock { s -> Bool in
                s.needsSave = newValue
                return newValue && !s.isSaving && !s.isInvalidated
            }
            if resave, container.activities.isCurrent(self) { save(visit: false, completion: nil) }
        }
    }

    /// A web page showing the same content: http or https only (any other URL is ignored and the property
    /// becomes nil, where Foundation raises an exception).
    open var webpageURL: URL? {
        get { state.withLock { $0.webpageURL } }
        set {
            let scheme = newValue?.scheme?.lowercased()
            let accepted = scheme == "http" || scheme == "https" ? newValue : nil
            state.withLock { $0.webpageURL = accepted }
        }
    }

    /// The URL the user came from.
    open var referrerURL: URL? {
        get { state.withLock { $0.referrerURL } }
        set { state.withLock { $0.referrerURL = newValue } }
    }

    /// After this date the activity is no longer found. nil: one month after it was last saved
    /// (`ActivityDonation.defaultExpirationDate`; Apple lets the system choose).
    open var expirationDate: Date? {
        get { state.withLock { $0.expirationDate } }
        set { state.withLock { $0.expirationDate = newValue } }
    }

    /// Whether becoming current indexes the activity (default false). Made eligible while it is current, the
    /// activity is indexed at once: Apple indexes an activity that is eligible and current.
    open var isEligibleForSearch: Bool {
        get { state.withLock { $0.isEligibleForSearch } }
        set {
            let index = state.withLock { s -> Bool in
                defer { s.isEligibleForSearch = newValue }
                return newValue && !s.isEligibleForSearch && !s.isSaving && !s.isInvalidated
            }
            if index, container.activities.isCurrent(self) { save(visit: false, completion: nil) }
        }
    }

    /// Whether the activity may be handed off to another device (default true; recorded only).
    open var isEligibleForHandoff: Bool {
        get { state.withLock { $0.isEligibleForHandoff } }
        set { state.withLock { $0.isEligibleForHandoff = newValue } }
    }

    /// Whether Apple's cloud index may learn the activity (default false; recorded only).
    open var isEligibleForPublicIndexing: Bool {
        get { state.withLock { $0.isEligibleForPublicIndexing } }
        set { state.withLock { $0.isEligibleForPublicIndexing = newValue } }
    }

    /// Whether Siri may suggest the activity (default false; recorded only).
    open var isEligibleForPrediction: Bool {
        get { state.withLock { $0.isEligibleForPrediction } }
        set { state.withLock { $0.isEligibleForPrediction = newValue } }
    }

    /// The key for deleting the donated activity later (`deleteSavedUserActivities(withPersistentIdentifiers:)`);
    /// also its record identity, so re-donating with the same identifier replaces the record.
    open var persistentIdentifier: NSUserActivityPersistentIdentifier? {
        get { state.withLock { $0.persistentIdentifier } }
        set { state.withLock { $0.persistentIdentifier = newValue } }
    }

    /// Identifies the content, for routing a continued activity to a scene.
    open var targetContentIdentifier: String? {
        get { state.withLock { $0.targetContentIdentifier } }
        set { state.withLock { $0.targetContentIdentifier = newValue } }
    }

    /// Core Spotlight's rich metadata: description, thumbnail, `relatedUniqueIdentifier` (tie the activity to an
    /// item: stored only if the item exists, one result with it, deleted with it), `weakRelatedUniqueIdentifier`
    /// (one result with the item, independent lifetime), `domainIdentifier` (deleted with the domain).
    /// Copied when set, as Apple's `@NSCopying` property is: later changes to the app's set do not reach the activity.
    open var contentAttributeSet: CSSearchableItemAttributeSet? {
        get { state.withLock { $0.contentAttributeSet } }
        set {
            let copy = newValue?.deepCopy()
            state.withLock { $0.contentAttributeSet = copy }
        }
    }

    /// Told before a save (if `needsSave`) and when the activity is continued from a search result.
    open weak var delegate: (any NSUserActivityDelegate)? {
        get { delegateLock.withLock { storedDelegate } }
        set { delegateLock.withLock { storedDelegate = newValue } }
    }

    // MARK: Current activity

    /// Makes this the current activity of its container (the previous one resigns) and, if it is eligible for
    /// search, indexes it and counts the visit as engagement (once while it stays current). No effect once
    /// invalidated.
    open func becomeCurrent() { becomeCurrent(completionHandler: nil) }

    /// `becomeCurrent()` that reports when the activity is searchable, or why it is not (Searchlight extension).
    /// The error is also kept in `lastDonationError`.
    public func becomeCurrent(completionHandler: (@Sendable ((any Error)?) -> Void)?) {
        let container = self.container
        let refuse = { [activityType] in
            let error = CSIndexError.unknown("the activity of type '\(activityType)' was invalidated; it cannot become current")
            self.finish(error, in: container) { completionHandler?($0) }
        }
        if state.withLock({ $0.isInvalidated }) { return refuse() }
        // Made current again while it already is (a refresh, a burst of calls), it is saved but is no new visit:
        // one stint as the current activity counts once, when its record is first found.
        if !container.activities.makeCurrent(self) { state.withLock { $0.visitPending = true } }
        // An `invalidate()` on another thread since the check above may have resigned before this made the activity
        // current: look again, so an invalidated activity never stays current.
        if state.withLock({ $0.isInvalidated }) {
            container.activities.resign(self)
            return refuse()
        }
        save(visit: true) { completionHandler?($0) }
    }

    /// The activity stops being current; it can become current again.
    open func resignCurrent() { container.activities.resign(self) }

    /// Ends the activity for good: it stops being current and can never become current again. Its indexed
    /// record stays until it expires or is deleted.
    open func invalidate() {
        state.withLock { $0.isInvalidated = true }
        container.activities.resign(self)
    }

    /// The current activity of `donationContainer`, if any (Foundation has this on macOS).
    open class var current: NSUserActivity? { donationContainer.activities.current as? NSUserActivity }

    // MARK: Deleting donations

    /// Deletes the activities donated with these persistent identifiers from `donationContainer`.
    open class func deleteSavedUserActivities(withPersistentIdentifiers persistentIdentifiers: [NSUserActivityPersistentIdentifier],
                                              completionHandler handler: @escaping @Sendable () -> Void) {
        ActivityDonor.delete(persistentIdentifiers: persistentIdentifiers, in: donationContainer, completion: handler)
    }

    open class func deleteSavedUserActivities(withPersistentIdentifiers persistentIdentifiers: [NSUserActivityPersistentIdentifier]) async {
        await withCheckedContinuation { continuation in
            deleteSavedUserActivities(withPersistentIdentifiers: persistentIdentifiers) { continuation.resume() }
        }
    }

    /// Deletes every activity donated to `donationContainer` (items stay).
    open class func deleteAllSavedUserActivities(completionHandler handler: @escaping @Sendable () -> Void) {
        ActivityDonor.deleteAll(in: donationContainer, completion: handler)
    }

    open class func deleteAllSavedUserActivities() async {
        await withCheckedContinuation { continuation in
            deleteAllSavedUserActivities { continuation.resume() }
        }
    }

    // MARK: Searchlight extensions

    /// Deletes the activities donated to `container` with these persistent identifiers.
    public class func deleteSavedUserActivities(withPersistentIdentifiers persistentIdentifiers: [NSUserActivityPersistentIdentifier],
                                                in container: SearchlightContainer) async {
        await withCheckedContinuation { continuation in
            ActivityDonor.delete(persistentIdentifiers: persistentIdentifiers, in: container) { continuation.resume() }
        }
    }

    /// Deletes every activity donated to `container` (items stay).
    public class func deleteAllSavedUserActivities(in container: SearchlightContainer) async {
        await withCheckedContinuation { continuation in
            ActivityDonor.deleteAll(in: container) { continuation.resume() }
        }
    }

    /// `becomeCurrent()`, waiting until the activity is searchable; throws why it was not indexed.
    public func becomeCurrentAndWait() async throws {
        let error: (any Error)? = await withCheckedContinuation { continuation in
            becomeCurrent { continuation.resume(returning: $0) }
        }
        if let error { throw error }
    }

    private static let defaultDonationContainer = Mutex(SearchlightContainer.default)

    /// The container activities donate to unless their `container` is set (default `SearchlightContainer.default`).
    public static var donationContainer: SearchlightContainer {
        get { defaultDonationContainer.withLock { $0 } }
        set { defaultDonationContainer.withLock { $0 = newValue } }
    }

    /// The container this activity donates to and is current in (default: `donationContainer` at the time of use).
    public var container: SearchlightContainer {
        get { state.withLock { $0.container } ?? Self.donationContainer }
        set { state.withLock { $0.container = newValue } }
    }

    /// Whether this is the current activity of its container.
    public var isCurrent: Bool { container.activities.isCurrent(self) }

    /// Whether `invalidate()` was called.
    public var isInvalidated: Bool { state.withLock { $0.isInvalidated } }

    /// Why the last save did not index the activity (nil after a successful one).
    public var lastDonationError: CSIndexError? { state.withLock { $0.lastDonationError } }

    /// What the index stores for this activity now, or the problem with its userInfo. Read through the `open`
    /// properties, as Apple's save reads them, so a subclass that overrides one (a computed `title`) is honoured.
    package func donation() throws(UserInfoValue.Problem) -> ActivityDonation {
        let info = try UserInfoValue.dictionary(userInfo ?? [:])
        return ActivityDonation(activityType: activityType, title: title, keywords: keywords,
                                attributeSet: contentAttributeSet?.deepCopy(), userInfo: info,
                                requiredUserInfoKeys: requiredUserInfoKeys, webpageURL: webpageURL,
                                referrerURL: referrerURL, persistentIdentifier: persistentIdentifier,
                                targetContentIdentifier: targetContentIdentifier, expirationDate: expirationDate,
                                isEligibleForHandoff: isEligibleForHandoff,
                                isEligibleForPublicIndexing: isEligibleForPublicIndexing,
                                isEligibleForPrediction: isEligibleForPrediction)
    }

    /// Saves the activity: asks the delegate first if `needsSave`, then indexes it if eligible for search. A save
    /// made while the delegate is being asked (`becomeCurrent()` from `userActivityWillSave`) does not ask again,
    /// which would recurse; the outer save clears `needsSave` once the delegate returns.
    private func save(visit: Bool, completion: (@Sendable (CSIndexError?) -> Void)?) {
        let container = self.container
        let (outermost, ask) = state.withLock { s -> (Bool, Bool) in
            guard !s.isSaving else { return (false, false) }
            s.isSaving = true
            return (true, s.needsSave)
        }
        if ask { delegate?.userActivityWillSave(self) }
        if outermost {
            state.withLock { s in
                s.needsSave = false
                s.isSaving = false
            }
        }
        guard isEligibleForSearch else { return finish(nil, in: container, completion) }
        let donation: ActivityDonation
        do {
            donation = try self.donation()
        } catch {
            let failure = CSIndexError.invalidItem("activity of type '\(activityType)': \(error.message); the activity was not indexed")
            return finish(failure, in: container, completion)
        }
        let claim: @Sendable () -> Bool = { [weak self] in
            self?.state.withLock { s in defer { s.visitPending = false }; return s.visitPending } ?? false
        }
        ActivityDonor.save(donation, donor: self, in: container, visit: visit, claimVisit: claim) { [weak self] error in
            self?.state.withLock { $0.lastDonationError = error }
            if let completion { container.callHandler { completion(error) } }
        }
    }

    /// Reports the outcome of a save after every earlier write, so `lastDonationError` follows call order.
    private func finish(_ error: CSIndexError?, in container: SearchlightContainer,
                        _ completion: (@Sendable (CSIndexError?) -> Void)?) {
        container.afterPendingWrites { [weak self] in
            self?.state.withLock { $0.lastDonationError = error }
            if let completion { container.callHandler { completion(error) } }
        }
    }

    open override var description: String {
        "<NSUserActivity \(activityType) title=\(title ?? "nil")\(isEligibleForSearch ? " search" : "")>"
    }
}

/// Mirror of Foundation's `NSUserActivityDelegate` (search-related callbacks; every method is optional). An
/// `NSObjectProtocol`, as Apple declares it, so app code can use a delegate as one (`isEqual`, `hash`).
public protocol NSUserActivityDelegate: NSObjectProtocol {
    /// The activity is about to be saved; update its state now (asked when `needsSave` is true).
    func userActivityWillSave(_ userActivity: NSUserActivity)
    /// The activity was continued (in Searchlight: a search result for it was selected).
    func userActivityWasContinued(_ userActivity: NSUserActivity)
}

extension NSUserActivityDelegate {
    public func userActivityWillSave(_ userActivity: NSUserActivity) {}
    public func userActivityWasContinued(_ userActivity: NSUserActivity) {}
}
#endif
