import Foundation
import SearchlightEngine

/// How activity records take part in query results next to items (reference §3.7).
///
/// Queries match activity documents like item documents. Before results are delivered, `collapse` applies the
/// linking rules: an activity linked to an item (`relatedUniqueIdentifier` or `weakRelatedUniqueIdentifier`)
/// that is visible becomes that item — one result, the item wins, at the better of the two positions and
/// scores; an activity tied (`relatedUniqueIdentifier`) to an item that is not visible (deleted, expired) is
/// dropped even before the container purges it; an activity weakly linked to an absent item stands alone.
package enum ActivityResults {
    /// Whether the snapshot may hold activity records (false: results need no collapsing).
    package static func mayHoldActivities(_ snapshot: ContainerSnapshot) -> Bool {
        snapshot.engine.schema.field(named: ActivityDocumentCodec.activityField) != nil
    }

    /// Collapses ranked engine hits (best first), keeping the order of survivors; a result carries the better
    /// score of its item and the activities standing for it.
    package static func collapse(_ hits: [SearchHit], in snapshot: ContainerSnapshot) -> [SearchHit] {
        collapseKeepingSources(hits, in: snapshot).hits
    }

    /// `collapse`, also giving the hit whose score a result carries where it is another document (an item found
    /// through its linked activity, or better through it): that document is what matched, so it is the one a
    /// snippet or an explanation of the result reads.
    package static func collapseKeepingSources(_ hits: [SearchHit], in snapshot: ContainerSnapshot)
        -> (hits: [SearchHit], sources: [DocAddress: DocAddress]) {
        guard mayHoldActivities(snapshot) else { return (hits, [:]) }
        var result: [SearchHit] = []
        var sources: [DocAddress: DocAddress] = [:]
        var position: [DocAddress: Int] = [:]
        for hit in hits {
            guard let address = representative(of: hit.address, in: snapshot) else { continue }
            if let index = position[address] {
                guard hit.score > result[index].score else { continue }
                result[index] = SearchHit(address: address, score: hit.score)
            } else {
                position[address] = result.count
                result.append(SearchHit(address: address, score: hit.score))
            }
            sources[address] = address == hit.address ? nil : hit.address
        }
        return (result, sources)
    }

    /// Collapses unranked matches given in address order; the result is in address order, without duplicates.
    package static func collapse(_ addresses: [DocAddress], in snapshot: ContainerSnapshot) -> [DocAddress] {
        guard mayHoldActivities(snapshot) else { return addresses }
        var result: [DocAddress] = []
        var replaced = false
        result.reserveCapacity(addresses.count)
        for address in addresses {
            guard let kept = representative(of: address, in: snapshot) else { continue }
            replaced = replaced || kept != address
            result.append(kept)
        }
        return replaced ? Set(result).sorted() : result
    }

    /// The document that stands for `address` in results: itself for an item or an unlinked activity, the linked
    /// item for a linked activity whose item is visible, nil for a hidden one. A tied activity whose item is not
    /// visible is hidden even when it is also weakly linked to a visible item: it dies with its tied item (the
    /// purge of an expired item deletes it), so it must not show meanwhile.
    package static func representative(of address: DocAddress, in snapshot: ContainerSnapshot) -> DocAddress? {
        guard let id = snapshot.engine.id(of: address), ActivityIdentity.isActivity(id) else { return address }
        guard let links = ActivityDocumentCodec.links(at: address, in: snapshot.engine) else { return address }
        if let strong = links.strong { return visibleItem(strong, in: snapshot) }
        return links.weak.flatMap { visibleItem($0, in: snapshot) } ?? address
    }

    /// The address of the visible item with this identifier (never an activity record's).
    private static func visibleItem(_ identifier: String, in snapshot: ContainerSnapshot) -> DocAddress? {
        ActivityIdentity.isReserved(identifier) ? nil : snapshot.visibleAddress(withIdentifier: identifier)
    }

    /// The identifier engagement is kept under for a result document: the item's identifier, or for an activity
    /// the identifier of the document it stands for in results (`representative`); nil for a hidden one.
    package static func engagementIdentifier(of address: DocAddress, in snapshot: ContainerSnapshot) -> String? {
        guard let id = snapshot.engine.id(of: address) else { return nil }
        guard ActivityIdentity.isActivity(id), let links = ActivityDocumentCodec.links(at: address, in: snapshot.engine)
        else { return id }
        return engagementIdentifier(record: id, strong: links.strong, weak: links.weak, in: snapshot)
    }

    /// The engagement identifier of an activity record with these links: its tied item's while that is visible
    /// (nil, hidden, once it is not), else its weakly linked item's while that is visible, else the record's own.
    /// An activity weakly linked to an absent item stands alone in results; its engagement was kept under the
    /// absent item's identifier, so an item indexed later with that identifier inherited it.
    package static func engagementIdentifier(record: String, strong: String?, weak: String?,
                                             in snapshot: ContainerSnapshot) -> String? {
        if let strong { return visibleItem(strong, in: snapshot) == nil ? nil : strong }
        if let weak, visibleItem(weak, in: snapshot) != nil { return weak }
        return record
    }

    /// The engagement identifier of a result identifier (what a query returned as `uniqueIdentifier`); nil once the
    /// result is no longer in the container. A stale result of a deleted item counts for nothing: counted under its
    /// identifier, it would pass the deleted item's engagement on to a new item given that identifier later.
    package static func engagementIdentifier(ofResult identifier: String, in snapshot: ContainerSnapshot) -> String? {
        guard let address = snapshot.engine.lookup(id: identifier) else { return nil }
        return engagementIdentifier(of: address, in: snapshot)
    }
}

extension ContainerSnapshot {
    /// The visible activity record with this identifier.
    package func activity(withIdentifier identifier: String) -> ActivityRecord? {
        guard ActivityIdentity.isActivity(identifier), let address = engine.lookup(id: identifier),
              isVisible(address) else { return nil }
        return ActivityDocumentCodec.record(at: address, in: engine)
    }

    /// Every visible activity record, by identifier.
    package func activities() -> [ActivityRecord] {
        ActivityWriter.activityAddresses(in: engine).filter(isVisible)
            .compactMap { ActivityDocumentCodec.record(at: $0, in: engine) }
            .sorted { $0.identifier < $1.identifier }
    }
}
