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
    /// The identifiers `operations` leave indexed, each once, in the order they were last written: what a delegate
    /// is asked to re-add when they were accepted but could not be applied. Not an identifier deleted after it was
    /// last indexed (by identifier, by its domain or a parent domain, or delete-all), which re-adding would bring
    /// back. The operations are replayed as a round applies them: an update (`isUpdate`) merges into the item as
    /// written earlier or as stored (`storedDomain`: nil when no item is stored under the identifier, else its
    /// domain), keeping that domain unless it gives one, and is dropped when there is no such item (one the
    /// batch deleted before, or never indexed). Domain deletes find what they reach through a `DomainIndex`.
    static func identifiersLeftIndexed(by operations: [IndexOperation],
                                       storedDomain: (String) -> String??) -> [String] {
        // What the operations so far leave under an identifier: written (its domain, and when), or deleted.
        enum Written { case item(domain: String?, order: Int), deleted }
        var written: [ExactIdentifier: Written] = [:]
        var filed = DomainIndex<ExactIdentifier>()
        var deletedDomains = DomainPrefixes()
        var everythingDeleted = false
        var order = 0
        for operation in operations {
            switch operation {
            case .index(let items):
                for item in items {
                    let id = ExactIdentifier(item.uniqueIdentifier)
                    var domain = item.domainIdentifier
                    if item.isUpdate {
                        let existing: String??
                        switch written[id] {
                        case .item(let earlier, _)?: existing = .some(earlier)
                        case .deleted?: existing = nil
                        case nil:
                            existing = everythingDeleted ? nil : storedDomain(item.uniqueIdentifier).flatMap { stored in
                                stored.map(deletedDomains.covers) == true ? nil : .some(stored)
                            }
                        }
                        guard let existing else { continue }  // an update of an absent item is dropped
                        if domain == nil { domain = existing }
                    }
                    written[id] = .item(domain: domain, order: order)
                    filed.insert(id, domain: domain)
                    order += 1
                }
            case .deleteIdentifiers(let ids):
                for id in ids { written[ExactIdentifier(id)] = .deleted }
            case .deleteDomains(let domains):
                deletedDomains.insert(contentsOf: domains)
                let deleting = DomainPrefixes(domains)
                for id in filed.remove(within: domains) {
                    guard case .item(let domain?, _)? = written[id], deleting.covers(domain) else { continue }
                    written[id] = .deleted
                }
            case .deleteAll:
                written = [:]
                filed.removeAll()
                everythingDeleted = true
            case .activities: break
            }
        }
        return written.compactMap { id, entry -> (String, Int)? in
            guard case .item(_, let order) = entry else { return nil }
            return (id.id, order)
        }.sorted { $0.1 < $1.1 }.map(\.0)
    }
}
