#if canImport(Darwin) && (os(iOS) || os(macOS) || os(visionOS))
import Foundation

/// Apple platforms: Foundation's `NSUserActivity` cannot be changed, so Searchlight cannot see it become
/// current or hold a `contentAttributeSet` for it (Core Spotlight adds that property; Searchlight replaces Core
/// Spotlight). Call these helpers where you call `becomeCurrent()` to get the behaviour the Linux
/// `NSUserActivity` has built in: the activity is made current (Foundation) and, if eligible for search, indexed
/// in `container` with `contentAttributeSet`, counting the visit as engagement.
///
/// Not compiled or tested on Linux, where `NSUserActivity` itself does this.
public enum SearchlightActivityDonation {
    /// Makes `activity` current and, if `isEligibleForSearch`, indexes it with `contentAttributeSet`.
    public static func becomeCurrent(_ activity: NSUserActivity,
                                     contentAttributeSet: CSSearchableItemAttributeSet? = nil,
                                     in container: SearchlightContainer = .default,
                                     completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        activity.becomeCurrent()
        guard activity.isEligibleForSearch else {
            container.afterPendingWrites { container.callHandler { completionHandler?(nil) } }
            return
        }
        let info: [String: UserInfoValue]
        do {
            info = try UserInfoValue.dictionary(activity.userInfo ?? [:])
        } catch {
            let failure = CSIndexError.invalidItem("activity of type '\(activity.activityType)': \(error.message); "
                                                   + "the activity was not indexed")
            container.afterPendingWrites { container.callHandler { completionHandler?(failure) } }
            return
        }
        let donation = ActivityDonation(
            activityType: activity.activityType, title: activity.title, keywords: activity.keywords,
            attributeSet: contentAttributeSet?.deepCopy(), userInfo: info,
            requiredUserInfoKeys: activity.requiredUserInfoKeys, webpageURL: activity.webpageURL,
            referrerURL: activity.referrerURL, persistentIdentifier: activity.persistentIdentifier,
            targetContentIdentifier: activity.targetContentIdentifier, expirationDate: activity.expirationDate,
            isEligibleForHandoff: activity.isEligibleForHandoff,
            isEligibleForPublicIndexing: activity.isEligibleForPublicIndexing)
        ActivityDonor.save(donation, donor: nil, in: container, visit: true) { error in
            container.callHandler { completionHandler?(error) }
        }
    }

    /// Deletes the activities donated to `container` with these persistent identifiers.
    public static func deleteSavedUserActivities(withPersistentIdentifiers identifiers: [String],
                                                 in container: SearchlightContainer = .default,
                                                 completionHandler: @escaping @Sendable () -> Void) {
        ActivityDonor.delete(persistentIdentifiers: identifiers, in: container, completion: completionHandler)
    }

    /// Deletes every activity donated to `container` (items stay).
    public static func deleteAllSavedUserActivities(in container: SearchlightContainer = .default,
                                                    completionHandler: @escaping @Sendable () -> Void) {
        ActivityDonor.deleteAll(in: container, completion: completionHandler)
    }
}
#endif
