import Foundation
import SearchlightEngine

/// What readers see of a container: one immutable engine snapshot plus the time it is read at. Items whose
/// expiration date has passed are invisible here even before they are purged.
package struct ContainerSnapshot: Sendable {
    package let engine: IndexSnapshot
    package let now: Date

    /// A filter that hides expired items (every query adds it).
    package var liveFilter: Query {
        guard let field = engine.schema.field(named: ItemDocumentCodec.expirationField) else { return .all }
        return .range(field, lower: .exclusive(now.timeIntervalSinceReferenceDate), upper: nil)
    }

    /// The stored item with this identifier, if present and not expired.
    package func item(withIdentifier id: String, fetch: Set<String>? = nil) -> CSSearchableItem? {
        guard let address = engine.lookup(id: id), isVisible(address) else { return nil }
        return ItemDocumentCodec.item(at: address, in: engine, fetch: fetch)
    }

    /// Whether a live document has not expired.
    package func isVisible(_ address: DocAddress) -> Bool {
        guard engine.isLive(address) else { return false }
        guard let field = engine.schema.field(named: ItemDocumentCodec.expirationField) else { return true }
        let expiration = engine.numbers(field, of: address).first ?? .infinity
        return expiration > now.timeIntervalSinceReferenceDate
    }

    /// Addresses of every visible item.
    package func visibleAddresses() -> [DocAddress] { engine.matches(liveFilter) }

    /// The number of visible items.
    package var count: Int { engine.count(liveFilter) }
}
