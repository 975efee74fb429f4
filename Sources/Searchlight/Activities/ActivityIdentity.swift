import Foundation

/// How activity records are named inside a container, apart from items.
///
/// Activities live in the same engine as items (so one query finds both), but under identifiers no item can
/// have: every activity record identifier starts with `namespace`, which begins with U+0000, and item validation
/// rejects identifiers starting with U+0000. So the same string given to `CSSearchableIndex` and to an activity
/// can never overwrite the other's content, and `deleteSearchableItems(withIdentifiers:)` never removes an
/// activity by accident.
package enum ActivityIdentity {
    /// The prefix of every activity record identifier.
    package static let namespace = "\u{0}NSUserActivity\u{0}"

    /// The engine `_kind` value of activity documents (items have none, i.e. 0).
    package static let kind: Double = 1

    /// Whether an engine identifier is reserved for Searchlight's internal records (activities).
    package static func isReserved(_ identifier: String) -> Bool { identifier.hasPrefix("\u{0}") }

    /// Whether an engine identifier names an activity record.
    package static func isActivity(_ identifier: String) -> Bool { identifier.hasPrefix(namespace) }

    /// The record identifier of a donation: from its `persistentIdentifier` when set (so
    /// `deleteSavedUserActivities(withPersistentIdentifiers:)` can find it), otherwise from its type, title and
    /// userInfo, so re-donating the same content replaces the earlier record instead of adding a duplicate.
    package static func recordIdentifier(activityType: String, title: String?, userInfo: [String: UserInfoValue],
                                         persistentIdentifier: String?) -> String {
        if let persistentIdentifier { return namespace + "p:" + persistentIdentifier }
        let content = (title ?? "") + "\u{1F}" + UserInfoValue.canonicalText(userInfo)
        return namespace + "t:" + activityType + ":" + digest(content)
    }

    /// The record identifier used for a persistent identifier.
    package static func recordIdentifier(persistentIdentifier: String) -> String { namespace + "p:" + persistentIdentifier }

    /// A 128-bit hex digest (two FNV-1a 64 passes with different offset bases): stable across runs and
    /// platforms, unlike `Hasher`. Collisions would merge two donations; at 128 bits they are not a concern.
    package static func digest(_ text: String) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x6c62_272e_07bb_0142
        for byte in text.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = b ^ (b >> 29)
        }
        return hex(a) + hex(b)
    }

    private static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
