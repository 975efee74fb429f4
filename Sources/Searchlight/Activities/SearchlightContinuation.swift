import Foundation

/// What the app receives when the user picks a search result or continues a search in the app (reference §3.12),
/// for apps and servers that show Searchlight results themselves. Selecting a result also records engagement,
/// which `CSUserQuery` ranking uses.
public enum SearchlightContinuation {
    /// The activity for selecting the result `item` (as returned by `CSSearchQuery` or `CSUserQuery`):
    /// - an item: type `CSSearchableItemActionType`, `userInfo[CSSearchableItemActivityIdentifier]` = its
    ///   `uniqueIdentifier` (and `userInfo[CSActionIdentifier]` = `actionIdentifier` for a custom action);
    /// - an activity: its own type, title, URLs, identifiers and `userInfo` — only the `requiredUserInfoKeys` when
    ///   it set them — and the delegate of the live activity that donated it is told `userActivityWasContinued`.
    ///
    /// The selection (and, as impressions, `visibleItems`) is recorded as engagement in `container`.
    /// Returns nil only for an activity result whose record has since been deleted or has expired.
    public static func activity(forSelecting item: CSSearchableItem, actionIdentifier: String? = nil,
                                visibleItems: [CSSearchableItem] = [],
                                in container: SearchlightContainer = .default) -> NSUserActivity? {
        activity(forSelecting: item.uniqueIdentifier, actionIdentifier: actionIdentifier,
                 visibleIdentifiers: visibleItems.map(\.uniqueIdentifier), in: container)
    }

    /// `activity(forSelecting:)` by result identifier.
    public static func activity(forSelecting identifier: String, actionIdentifier: String? = nil,
                                visibleIdentifiers: [String] = [],
                                in container: SearchlightContainer = .default) -> NSUserActivity? {
        let isActivity = ActivityIdentity.isActivity(identifier)
        var found: ActivityRecord?
        container.recordingEngagement { snapshot in
            // Results deleted since they were shown count for nothing (`ActivityResults.engagementIdentifier`).
            let key = ActivityResults.engagementIdentifier(ofResult: identifier, in: snapshot)
            let shown = visibleIdentifiers.compactMap {
                ActivityResults.engagementIdentifier(ofResult: $0, in: snapshot)
            }
            if isActivity {
                // An activity counts only while it can be continued.
                guard let record = snapshot.activity(withIdentifier: identifier), let key else { return }
                container.engagement.recordSelection(of: key, visible: shown, at: snapshot.now)
                found = record
            } else if let key {
                container.engagement.recordSelection(of: key, visible: shown, at: snapshot.now)
            } else if !shown.isEmpty {
                container.engagement.recordImpressions(of: shown, at: snapshot.now)
            }
        }
        guard isActivity else {
            let activity = NSUserActivity(activityType: CSSearchableItemActionType)
            var info: [AnyHashable: Any] = [CSSearchableItemActivityIdentifier: identifier]
            if let actionIdentifier { info[CSActionIdentifier] = actionIdentifier }
            activity.userInfo = info
            return activity
        }
        guard let record = found else { return nil }
        let activity = continuation(of: record.donation)
        #if !canImport(Darwin)
        if let donor = container.activities.donor(for: identifier) as? NSUserActivity {
            donor.delegate?.userActivityWasContinued(donor)
        }
        #endif
        return activity
    }

    /// Whether a query result is a donated activity rather than an item (its identifier is in the activity
    /// namespace, which items cannot use).
    public static func isActivityResult(_ item: CSSearchableItem) -> Bool {
        ActivityIdentity.isActivity(item.uniqueIdentifier)
    }

    /// The activity for "search in app": type `CSQueryContinuationActionType`, `userInfo[CSSearchQueryString]` =
    /// the user's query text. (On Apple platforms the app must set `CoreSpotlightContinuation` in Info.plist.)
    public static func activityForSearchInApp(query: String) -> NSUserActivity {
        let activity = NSUserActivity(activityType: CSQueryContinuationActionType)
        activity.userInfo = [CSSearchQueryString: query]
        return activity
    }

    /// A new activity restoring a stored donation, as the app receives it.
    package static func continuation(of donation: ActivityDonation) -> NSUserActivity {
        let activity = NSUserActivity(activityType: donation.activityType)
        activity.title = donation.title
        activity.userInfo = Dictionary(uniqueKeysWithValues: donation.restoredUserInfo.map { (AnyHashable($0.key), $0.value.anyValue) })
        activity.webpageURL = donation.webpageURL
        #if !canImport(Darwin) || os(iOS) || os(macOS) || os(visionOS)
        activity.keywords = donation.keywords
        activity.requiredUserInfoKeys = donation.requiredUserInfoKeys
        activity.referrerURL = donation.referrerURL
        activity.persistentIdentifier = donation.persistentIdentifier
        activity.targetContentIdentifier = donation.targetContentIdentifier
        activity.expirationDate = donation.expirationDate
        activity.isEligibleForHandoff = donation.isEligibleForHandoff
        #endif
        #if !canImport(Darwin)
        activity.contentAttributeSet = donation.attributeSet
        #endif
        return activity
    }
}
