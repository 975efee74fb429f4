import SearchlightEngine

/// Which activities are tied (`relatedUniqueIdentifier`) to each item, so the pass that deletes the activities of
/// items a write removed reads those items' activities, not every activity (a write purges expired items nearly
/// every time once items expire steadily). Made from the index on first use, then kept up to date with each applied
/// write's donations and deletes: an activity that goes (deleted, expired, re-donated untied or tied elsewhere) is
/// forgotten, so the links do not grow with every activity ever donated to an item that stays. Each entry is still
/// checked against the index when read.
struct ActivityLinks {
    /// Record identifiers of the activities tied to each item, by item identifier.
    private var byItem: [ExactIdentifier: Set<ExactIdentifier>] = [:]
    /// The item each activity of `byItem` is tied to, by record identifier (to forget an activity that went).
    private var itemOf: [ExactIdentifier: ExactIdentifier] = [:]

    /// No links (no activity is tied to an item).
    init() {}

    /// The links of every activity of `snapshot`; `examined` counts the activities read.
    init(from snapshot: IndexSnapshot, examined: inout Int) {
        for address in ActivityWriter.activityAddresses(in: snapshot) {
            examined += 1
            guard let link = ActivityDocumentCodec.links(at: address, in: snapshot)?.strong,
                  let id = snapshot.id(of: address) else { continue }
            insert(activity: id, item: link)
        }
    }

    /// Records that activity record `activity` is tied to item `item` (and to no other).
    mutating func insert(activity: String, item: String) {
        removeActivity(activity)
        let activity = ExactIdentifier(activity), item = ExactIdentifier(item)
        byItem[item, default: []].insert(activity)
        itemOf[activity] = item
    }

    /// Forgets activity record `activity` (deleted, expired, or stored again tied to no item).
    mutating func removeActivity(_ activity: String) {
        let activity = ExactIdentifier(activity)
        guard let item = itemOf.removeValue(forKey: activity) else { return }
        byItem[item]?.remove(activity)
        if byItem[item]?.isEmpty == true { byItem[item] = nil }
    }

    /// Forgets the activities tied to `item` (it is gone, and they went with it).
    mutating func removeActivities(of item: String) {
        for activity in byItem.removeValue(forKey: ExactIdentifier(item)) ?? [] { itemOf[activity] = nil }
    }

    /// Identifiers of the activities of `base` tied to one of `items` that no longer survives (`itemSurvives`), in
    /// the order found; `examined` counts the activities read.
    func orphans(of items: Set<ExactIdentifier>, in base: IndexSnapshot, examined: inout Int,
                 itemSurvives: (String) -> Bool) -> [String] {
        var found: [String] = []
        for item in items {
            guard let activities = byItem[item], !itemSurvives(item.id) else { continue }
            for activity in activities {
                examined += 1
                guard let address = base.lookup(id: activity.id),
                      let link = ActivityDocumentCodec.links(at: address, in: base)?.strong,
                      ExactIdentifier(link) == item else { continue }
                found.append(activity.id)
            }
        }
        return found
    }
}
