import Foundation
import SearchlightEngine

/// An activity as stored in a container: its donation, record identifier and absolute expiration.
package struct ActivityRecord: Sendable {
    package let identifier: String
    package let donation: ActivityDonation
    package let expirationDate: Date
}

/// Maps activity donations onto engine documents and back.
///
/// An activity document is an item document (`ItemDocumentCodec`) of its searchable content — the attribute set
/// with the activity's `title` (which wins over the set's) and the union of both keyword lists — marked with
/// `_kind` = `ActivityIdentity.kind`, plus one stored-only field `_activity` holding what continuation needs
/// (type, userInfo, required keys, URLs, identifiers, eligibility, links). So `title`, `keywords` and every
/// attribute of the set are searchable by both query APIs exactly like an item's.
package enum ActivityDocumentCodec {
    /// The stored-only field with the activity's own properties.
    package static let activityField = "_activity"

    private static let version: UInt8 = 1

    /// The searchable content of a donation, as an item under the record identifier.
    package static func searchableItem(for donation: ActivityDonation) -> CSSearchableItem {
        let set = donation.attributeSet?.deepCopy() ?? CSSearchableItemAttributeSet()
        if let title = donation.title { set.title = title }
        let keywords = Set(set.keywords ?? []).union(donation.keywords)
        if !keywords.isEmpty { set.keywords = keywords.sorted() }
        return CSSearchableItem(uniqueIdentifier: donation.recordIdentifier, domainIdentifier: set.domainIdentifier,
                                attributeSet: set)
    }

    /// The engine document of a donation stored at `expiration`.
    package static func document(for donation: ActivityDonation, expiration: Date,
                                 writer: IndexWriter) throws(EngineError) -> Document {
        var document = try ItemDocumentCodec.document(for: searchableItem(for: donation), expiration: expiration,
                                                      kind: ActivityIdentity.kind, writer: writer)
        document.values.append((try writer.registerField(activityField, .stored), .bytes(encode(donation))))
        return document
    }

    /// The activity stored at `address`, or nil if it is not an activity or its record is unreadable.
    package static func record(at address: DocAddress, in snapshot: IndexSnapshot) -> ActivityRecord? {
        guard let id = snapshot.id(of: address), ActivityIdentity.isActivity(id),
              let field = snapshot.schema.field(named: activityField),
              case .bytes(let bytes)? = snapshot.values(field, of: address).first,
              var donation = decode(bytes) else { return nil }
        donation.attributeSet = ItemDocumentCodec.item(at: address, in: snapshot)?.attributeSet
        let expiration = snapshot.schema.field(named: ItemDocumentCodec.expirationField)
            .flatMap { snapshot.firstNumber($0, of: address) } ?? .infinity
        return ActivityRecord(identifier: id, donation: donation,
                              expirationDate: Date(timeIntervalSinceReferenceDate: expiration))
    }

    /// Only the links of the activity at `address` (cheaper than a whole record: no attribute set decoding).
    package static func links(at address: DocAddress, in snapshot: IndexSnapshot) -> (strong: String?, weak: String?)? {
        guard let field = snapshot.schema.field(named: activityField),
              case .bytes(let bytes)? = snapshot.values(field, of: address).first,
              let donation = decode(bytes) else { return nil }
        return (donation.strongLink, donation.weakLink)
    }

    // MARK: Blob

    package static func encode(_ donation: ActivityDonation) -> [UInt8] {
        var w = StoredValueWriter()
        w.byte(version)
        w.string(donation.activityType)
        w.optionalString(donation.title)
        w.varint(UInt64(donation.keywords.count))
        for keyword in donation.keywords.sorted() { w.string(keyword) }
        w.userInfoDictionary(donation.userInfo)
        if let required = donation.requiredUserInfoKeys {
            w.byte(1)
            w.varint(UInt64(required.count))
            for key in required.sorted() { w.string(key) }
        } else {
            w.byte(0)
        }
        w.optionalString(donation.webpageURL?.absoluteString)
        w.optionalString(donation.referrerURL?.absoluteString)
        w.optionalString(donation.persistentIdentifier)
        w.optionalString(donation.targetContentIdentifier)
        if let expiration = donation.expirationDate {
            w.byte(1)
            w.double(expiration.timeIntervalSinceReferenceDate)
        } else {
            w.byte(0)
        }
        w.byte((donation.isEligibleForHandoff ? 1 : 0) | (donation.isEligibleForPublicIndexing ? 2 : 0)
               | (donation.isEligibleForPrediction ? 4 : 0))
        w.optionalString(donation.strongLink)
        w.optionalString(donation.weakLink)
        return w.bytes
    }

    /// Decodes a blob; nil if malformed. The attribute set is not part of the blob.
    package static func decode(_ bytes: [UInt8]) -> ActivityDonation? {
        var r = StoredValueReader(bytes)
        guard r.byte() == version, let type = r.string(), let title = r.optionalString(),
              let keywordCount = r.varint() else { return nil }
        var keywords = Set<String>()
        for _ in 0..<keywordCount {
            guard let keyword = r.string() else { return nil }
            keywords.insert(keyword)
        }
        guard let userInfo = r.userInfoDictionary(), let hasRequired = r.byte() else { return nil }
        var required: Set<String>?
        if hasRequired == 1 {
            guard let count = r.varint() else { return nil }
            var keys = Set<String>()
            for _ in 0..<count {
                guard let key = r.string() else { return nil }
                keys.insert(key)
            }
            required = keys
        }
        guard let webpage = r.optionalString(), let referrer = r.optionalString(),
              let persistent = r.optionalString(), let target = r.optionalString(),
              let hasExpiration = r.byte() else { return nil }
        var expiration: Date?
        if hasExpiration == 1 {
            guard let t = r.double() else { return nil }
            expiration = Date(timeIntervalSinceReferenceDate: t)
        }
        guard let flags = r.byte(), let strong = r.optionalString(), let weak = r.optionalString() else { return nil }
        var donation = ActivityDonation(
            activityType: type, title: title, keywords: keywords, userInfo: userInfo, requiredUserInfoKeys: required,
            webpageURL: webpage.flatMap { URL(string: $0) }, referrerURL: referrer.flatMap { URL(string: $0) },
            persistentIdentifier: persistent, targetContentIdentifier: target, expirationDate: expiration,
            isEligibleForHandoff: flags & 1 != 0, isEligibleForPublicIndexing: flags & 2 != 0,
            isEligibleForPrediction: flags & 4 != 0)
        donation.strongLink = strong
        donation.weakLink = weak
        return donation
    }
}
