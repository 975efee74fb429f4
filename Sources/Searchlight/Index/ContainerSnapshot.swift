import Foundation
import SearchlightEngine

/// What readers see of a container: one immutable engine snapshot plus the time it is read at. Items whose
/// expiration date has passed are invisible here even before they are purged.
package struct ContainerSnapshot: Sendable {
    package let engine: IndexSnapshot
    package let now: Date
    /// The numeric field holding each item's absolute expiration (nil before any item was indexed).
    let expirationField: FieldID?
    /// No document of `engine` expires before this (seconds since 2001; −∞: not known). Every document the
    /// container writes, item or activity, stores its expiration.
    let expirationFloor: Double

    package init(engine: IndexSnapshot, now: Date, expirationFloor: Double = -.infinity) {
        self.engine = engine
        self.now = now
        self.expirationFloor = expirationFloor
        expirationField = engine.schema.field(named: ItemDocumentCodec.expirationField)
    }

    /// Whether no document can have expired yet (the earliest expiration lies ahead): every live document is
    /// visible, and nothing needs its expiration looked up.
    package var noneExpired: Bool { expirationFloor > now.timeIntervalSinceReferenceDate }

    /// A filter that hides expired items (every query adds it).
    package var liveFilter: Query {
        guard let field = expirationField, !noneExpired else { return .all }
        return .range(field, lower: .exclusive(now.timeIntervalSinceReferenceDate), upper: nil)
    }

    /// The stored item with this identifier, if present and not expired.
    package func item(withIdentifier id: String, fetch: Set<String>? = nil) -> CSSearchableItem? {
        guard let address = visibleAddress(withIdentifier: id) else { return nil }
        return ItemDocumentCodec.item(at: address, in: engine, fetch: fetch)
    }

    /// The address of the live, unexpired document with this identifier.
    package func visibleAddress(withIdentifier id: String) -> DocAddress? {
        guard let address = engine.lookup(id: id), isVisible(address) else { return nil }
        return address
    }

    /// Whether a live document has not expired.
    package func isVisible(_ address: DocAddress) -> Bool {
        guard engine.isLive(address) else { return false }
        return isUnexpired(address)
    }

    /// Whether a document (known to be live) has not expired: the per-document form of `liveFilter`, for
    /// checking a few candidates without scanning the whole expiration column.
    package func isUnexpired(_ address: DocAddress) -> Bool {
        guard let field = expirationField, !noneExpired else { return true }
        // Every item stores an expiration, so a missing value (never written) fails like the range filter does.
        guard let expiration = engine.firstNumber(field, of: address) else { return false }
        return expiration > now.timeIntervalSinceReferenceDate
    }

    /// Addresses of every visible document: items and donated activities.
    package func visibleAddresses() -> [DocAddress] { engine.matches(liveFilter) }

    /// Visible items only: activity records (`_kind` ≥ 1) excluded.
    package var itemFilter: Query {
        guard let kind = engine.schema.field(named: ItemDocumentCodec.kindField) else { return liveFilter }
        return .not(liveFilter, excluding: .range(kind, lower: .inclusive(1), upper: nil))
    }

    /// Addresses of every visible item (not activities), in index order.
    package func visibleItemAddresses() -> [DocAddress] { engine.matches(itemFilter) }

    /// The number of visible items (not activities).
    package var count: Int { engine.count(itemFilter) }
}
