import Foundation

/// Combines the app's own items with public web items: an item the app indexed itself wins over a web page with
/// the same identifier (the app's copy is fresher and opens in the app).
public enum WebResultMerger {
    /// `appResults` plus the `publicResults` whose identifiers the app container does not hold (nor `appResults`);
    /// ordered by rank (`compare(byRank:)`, stable), so with unranked results the app's come first.
    public static func merge(appResults: [CSSearchableItem], publicResults: [CSSearchableItem],
                             appContainer: SearchlightContainer = .default) -> [CSSearchableItem] {
        let snapshot = appContainer.snapshot()
        var seen = Set(appResults.map(\.uniqueIdentifier))
        var merged = appResults
        for item in publicResults where !seen.contains(item.uniqueIdentifier) {
            guard snapshot.item(withIdentifier: item.uniqueIdentifier, fetch: []) == nil else { continue }
            seen.insert(item.uniqueIdentifier)
            merged.append(item)
        }
        return merged.enumerated().sorted { a, b in
            let order = a.element.compare(byRank: b.element)
            return order == .orderedSame ? a.offset < b.offset : order == .orderedAscending
        }.map(\.element)
    }

    /// The item to show for `identifier`: the app's own when it has one, else the public web item.
    public static func resolve(identifier: String, appContainer: SearchlightContainer = .default,
                               publicContainer: SearchlightContainer = .publicWeb) -> WebResolvedItem? {
        if let item = appContainer.snapshot().item(withIdentifier: identifier) { return .app(item) }
        if let item = publicContainer.snapshot().item(withIdentifier: identifier) { return .web(item) }
        return nil
    }
}

/// Where a resolved item came from.
public enum WebResolvedItem: Sendable {
    case app(CSSearchableItem)
    case web(CSSearchableItem)

    public var item: CSSearchableItem {
        switch self {
        case .app(let item), .web(let item): return item
        }
    }

    public var isFromApp: Bool {
        if case .app = self { return true }
        return false
    }
}
