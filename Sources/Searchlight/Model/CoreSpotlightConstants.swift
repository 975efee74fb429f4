// Module-level constants of Core Spotlight (reference §1.1), with Apple's observed values.

/// `NSUserActivity.activityType` delivered when the user opens an indexed item.
public let CSSearchableItemActionType: String = "com.apple.corespotlightitem"
/// `userInfo` key holding the opened item's `uniqueIdentifier`.
public let CSSearchableItemActivityIdentifier: String = "kCSSearchableItemActivityIdentifier"
/// `userInfo` key holding the custom action (from `actionIdentifiers`) the user chose.
public let CSActionIdentifier: String = "kCSActionIdentifier"
/// Activity type when the user continues a Spotlight search inside the app.
public let CSQueryContinuationActionType: String = "com.apple.corespotlightcontinuation"
/// `userInfo` key holding the query text of a continued search.
public let CSSearchQueryString: String = "kCSSearchQueryString"

/// Well-known `mailboxIdentifiers` values.
public let CSMailboxInbox: String = "mailboxInbox"
public let CSMailboxDrafts: String = "mailboxDrafts"
public let CSMailboxSent: String = "mailboxSent"
public let CSMailboxJunk: String = "mailboxJunk"
public let CSMailboxTrash: String = "mailboxTrash"
public let CSMailboxArchive: String = "mailboxArchive"

/// Error domains (reference §1.2).
public let CSIndexErrorDomain: String = "CSIndexErrorDomain"
public let CSSearchQueryErrorDomain: String = "CSSearchQueryErrorDomain"

/// The framework version this mirror follows (the iOS 27 header's `CoreSpotlightAPIVersion` is 40).
public let CoreSpotlightVersionNumber: Double = 40
public let CoreSpotlightVersionString: String = "Searchlight CoreSpotlight mirror, API version 40"
