import Foundation
import SearchlightEngine

/// A change to a container's activity records (`IndexOperation.activities`). Activity changes are submitted on
/// their own, never inside an index batch.
package enum ActivityOperation: Sendable {
    /// Store (or replace) the record of a validated donation.
    case donate(ActivityDonation)
    /// Delete the records donated with these persistent identifiers.
    case deletePersistentIdentifiers([String])
    /// Delete every activity record (items stay).
    case deleteAll
}

/// Applies activity operations and the activity side of item deletions to an engine writer, through the
/// container's `RecordingWriter` so a durable container journals them like item changes. Called by
/// `ContainerCore.apply` under the container's lock, inside its write round (so a failure rolls back all of it).
package enum ActivityWriter {
    /// Applies `operation`; returns the expiration of a stored record (nil if nothing was stored).
    /// `itemIsLive` answers whether an item (not an activity) exists and has not expired at this point of the round.
    static func apply(_ operation: ActivityOperation, recorder: inout RecordingWriter, base: IndexSnapshot, now: Date,
                      itemIsLive: (String) -> Bool) throws(EngineError) -> Date? {
        switch operation {
        case .donate(let donation):
            // Apple stores an activity tied to an item only if the item already exists.
            if let item = donation.strongLink, !itemIsLive(item) { return nil }
            let expiration = donation.expirationDate ?? ActivityDonation.defaultExpirationDate(from: now)
            try recorder.upsert(ActivityDocumentCodec.document(for: donation, expiration: expiration,
                                                               writer: recorder.writer))
            return expiration
        case .deletePersistentIdentifiers(let identifiers):
            recorder.delete(ids: identifiers.map(ActivityIdentity.recordIdentifier(persistentIdentifier:)))
            return nil
        case .deleteAll:
            recorder.delete(ids: activityAddresses(in: base).compactMap { base.id(of: $0) })
            return nil
        }
    }

    /// Addresses of every live activity document of a snapshot, read from the kind field's values in order
    /// (`IndexSnapshot.numericMatches`): about as many reads as there are activities, however many items there are.
    package static func activityAddresses(in snapshot: IndexSnapshot) -> [DocAddress] {
        guard let field = snapshot.schema.field(named: ItemDocumentCodec.kindField) else { return [] }
        var examined = 0
        return snapshot.numericMatches(field, lower: .inclusive(ActivityIdentity.kind),
                                       upper: .inclusive(ActivityIdentity.kind), examined: &examined)
    }

    /// Identifiers of the activities of `base` tied (`relatedUniqueIdentifier`) to an item that no longer
    /// survives, for deletion along with it; `examined` counts the activities read.
    package static func orphans(in base: IndexSnapshot, examined: inout Int,
                                itemSurvives: (String) -> Bool) -> [String] {
        let addresses = activityAddresses(in: base)
        examined += addresses.count
        return addresses.compactMap { address in
            guard let link = ActivityDocumentCodec.links(at: address, in: base)?.strong, !itemSurvives(link) else {
                return nil
            }
            return base.id(of: address)
        }
    }

    /// After a delete-all, re-adds the activities of `base` (delete-all removes items;
    /// `NSUserActivity.deleteAllSavedUserActivities` removes activities), skipping expired ones and those in
    /// domains the round already deleted. Tied ones come back too: the orphan pass after the round deletes those
    /// whose item did not survive it, and keeps those of an item the same batch indexed again. Returns their
    /// earliest expiration.
    static func restoreActivities(from base: IndexSnapshot, into recorder: inout RecordingWriter, now: Date,
                                  excludingDomains domains: DomainPrefixes) throws(EngineError) -> Double {
        let expirationField = base.schema.field(named: ItemDocumentCodec.expirationField)
        var earliest = Double.infinity
        for address in activityAddresses(in: base) {
            guard let document = base.document(at: address) else { continue }
            let expiration = expirationField.flatMap { base.firstNumber($0, of: address) } ?? .infinity
            guard expiration > now.timeIntervalSinceReferenceDate else { continue }
            if let domain = document.domain, domains.covers(domain) { continue }
            try recorder.upsert(document)
            earliest = min(earliest, expiration)
        }
        return earliest
    }
}
