import Foundation
import Searchlight
import SearchlightEngine

/// Reads every visible item of a container, in index order.
enum ExportSource {
    static func allItems(in container: SearchlightContainer) -> [CSSearchableItem] {
        let snapshot = container.snapshot()
        return snapshot.visibleAddresses().compactMap { ItemDocumentCodec.item(at: $0, in: snapshot.engine) }
    }
}
