import Foundation
import SearchlightEngine

/// One change to a container, as a call or a batch records it before it is applied.
package enum IndexOperation: Sendable {
    /// Index (replace) or, for `isUpdate` items, merge. The items are private copies.
    case index([CSSearchableItem])
    case deleteIdentifiers([String])
    case deleteDomains([String])
    case deleteAll
    /// A change to activity records (Sources/Searchlight/Activities); never part of an index batch.
    case activities(ActivityOperation)
}

/// What a commit does to the client state of one index name.
package enum ClientStateChange: Sendable {
    /// Store `state` for `name`.
    case set(name: String, state: Data)
    /// Store `state` for `name` only if the stored state equals `expected` (nil: none stored yet).
    case compareAndSet(name: String, expected: Data?, state: Data)
}

extension IndexOperation {
    /// `operations` with each run of consecutive domain deletes made one delete of all their domains: the same
    /// change (nothing comes between them), but a round scans its items once per delete, so a batch deleting
    /// its domains one call at a time was quadratic.
    static func coalescingDomainDeletes(_ operations: [IndexOperation]) -> [IndexOperation] {
        var result: [IndexOperation] = []
        result.reserveCapacity(operations.count)
        var domains: [String] = []
        var inRun = false
        for operation in operations {
            if case .deleteDomains(let more) = operation {
                domains += more
                inRun = true
                continue
            }
            if inRun { result.append(.deleteDomains(domains)) }
            domains = []
            inRun = false
            result.append(operation)
        }
        if inRun { result.append(.deleteDomains(domains)) }
        return result
    }
}

extension IndexOperation {
    /// The identifiers `operations` leave indexed, each once: what a delegate is asked to re-add when they were
    /// accepted but could not be applied. Not an identifier deleted after it was last indexed (by identifier,
    /// by its domain or a parent domain, or delete-all), which re-adding would bring back; an update (`isUpdate`)
    /// not giving its domain counts as outside every deleted domain (its stored one is not known here). Found
    /// walking back from the end, so each item costs one look at the deletes that follow it.
    static func identifiersLeftIndexed(by operations: [IndexOperation]) -> [String] {
        var seen: Set<ExactIdentifier> = []
        var deletedIDs: Set<ExactIdentifier> = []
        var deletedDomains = DomainPrefixes()
        var found: [String] = []
        operationLoop: for operation in operations.reversed() {
            switch operation {
            case .index(let items):
                for item in items.reversed() {
                    let id = ExactIdentifier(item.uniqueIdentifier)
                    guard seen.insert(id).inserted, !deletedIDs.contains(id) else { continue }
                    if let domain = item.domainIdentifier, deletedDomains.covers(domain) { continue }
                    found.append(item.uniqueIdentifier)
                }
            case .deleteIdentifiers(let ids): deletedIDs.formUnion(ids.map { ExactIdentifier($0) })
            case .deleteDomains(let domains): deletedDomains.insert(contentsOf: domains)
            case .deleteAll: break operationLoop
            case .activities: break
            }
        }
        return found.reversed()
    }
}
