import Foundation
import Searchlight
import SearchlightEngine

/// Reads every visible item of a container (not donated activities), in index order.
enum ExportSource {
    static func allItems(in container: SearchlightContainer) -> [CSSearchableItem] {
        let snapshot = container.snapshot()
        return snapshot.visibleItemAddresses().compactMap { ItemDocumentCodec.item(at: $0, in: snapshot.engine) }
    }
}
