import Foundation

/// What an activity gives the index when it is saved (it became current, or asked to be saved again): a
/// `Sendable` copy of its search-related state, taken at that moment so later changes by the app do not leak in.
///
/// Both the Linux `NSUserActivity` and, on Apple platforms, `SearchlightActivityDonation` build one.
package struct ActivityDonation: Sendable {
    package var activityType: String
    package var title: String?
    package var keywords: Set<String>
    /// A private copy of `contentAttributeSet`.
    package var attributeSet: CSSearchableItemAttributeSet?
    package var userInfo: [String: UserInfoValue]
    package var requiredUserInfoKeys: Set<String>?
    package var webpageURL: URL?
    package var referrerURL: URL?
    package var persistentIdentifier: String?
    package var targetContentIdentifier: String?
    /// The activity's own expiration; nil: `defaultExpirationDate(from:)` when stored.
    package var expirationDate: Date?
    package var isEligibleForHandoff: Bool
    package var isEligibleForPublicIndexing: Bool
    package var isEligibleForPrediction: Bool

    package init(activityType: String, title: String? = nil, keywords: Set<String> = [],
                 attributeSet: CSSearchableItemAttributeSet? = nil, userInfo: [String: UserInfoValue] = [:],
                 requiredUserInfoKeys: Set<String>? = nil, webpageURL: URL? = nil, referrerURL: URL? = nil,
                 persistentIdentifier: String? = nil, targetContentIdentifier: String? = nil,
                 expirationDate: Date? = nil, isEligibleForHandoff: Bool = true,
                 isEligibleForPublicIndexing: Bool = false, isEligibleForPrediction: Bool = false) {
        self.activityType = activityType
        self.title = title
        self.keywords = keywords
        self.attributeSet = attributeSet
        self.userInfo = userInfo
        self.requiredUserInfoKeys = requiredUserInfoKeys
        self.webpageURL = webpageURL
        self.referrerURL = referrerURL
        self.persistentIdentifier = persistentIdentifier
        self.targetContentIdentifier = targetContentIdentifier
        self.expirationDate = expirationDate
        self.isEligibleForHandoff = isEligibleForHandoff
        self.isEligibleForPublicIndexing = isEligibleForPublicIndexing
        self.isEligibleForPrediction = isEligibleForPrediction
        strongLink = attributeSet?.relatedUniqueIdentifier.flatMap { $0.isEmpty ? nil : $0 }
        weakLink = attributeSet?.weakRelatedUniqueIdentifier.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Activities without an expiration date stay searchable for one calendar month after they were last saved,
    /// the same default as items (Apple says only that "the system chooses").
    package static func defaultExpirationDate(from now: Date) -> Date {
        CSSearchableItem.defaultExpirationDate(from: now)
    }

    /// The identifier of the activity's record in the container.
    package var recordIdentifier: String {
        ActivityIdentity.recordIdentifier(activityType: activityType, title: title, userInfo: userInfo,
                                          persistentIdentifier: persistentIdentifier)
    }

    /// The item this activity is tied to (`relatedUniqueIdentifier`): stored only while it exists, deleted with it.
    package var strongLink: String?
    /// The item this activity merges with in results without tied lifetimes (`weakRelatedUniqueIdentifier`).
    package var weakLink: String?

    /// The problems that keep this donation out of the index (empty activity type, invalid attribute set or
    /// domain, empty persistent identifier, an expiration the index cannot keep), each naming the activity.
    package func validationProblems() -> [CSIndexError] {
        let label = "activity of type '\(activityType)'"
        var problems: [CSIndexError] = []
        if activityType.isEmpty { problems.append(.invalidItem("an activity has an empty activityType")) }
        if persistentIdentifier?.isEmpty == true {
            problems.append(.invalidItem("\(label): persistentIdentifier is empty (use nil for none)"))
        }
        // As for items: a NaN expiration compares false with every time (the record would be neither expired nor
        // purged reliably), and one beyond the keepable range is no time the index can keep.
        if let expiration = expirationDate, !AttributeValue.isKeepable(expiration) {
            problems.append(AttributeValue.unkeepableExpiration(expiration, label: label))
        }
        if let set = attributeSet { problems += set.validationProblems(itemLabel: label) }
        return problems
    }

    /// The userInfo a continuation delivers: only `requiredUserInfoKeys` when they are set (Apple may keep only
    /// those when it saves an activity), else all of it.
    package var restoredUserInfo: [String: UserInfoValue] {
        guard let required = requiredUserInfoKeys else { return userInfo }
        return userInfo.filter { required.contains($0.key) }
    }
}
