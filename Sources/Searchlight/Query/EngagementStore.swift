import Foundation
import Synchronization

/// Remembers which results people engaged with (`CSUserQuery.userEngaged`), per container and item identifier,
/// so ranking can favour them. In memory only, for the life of the process; a later issue persists it.
package final class EngagementStore: Sendable {
    package static let shared = EngagementStore()

    private struct Key: Hashable {
        let container: ObjectIdentifier
        let identifier: String
    }

    private let weights = Mutex<[Key: Double]>([:])

    package init() {}

    /// Adds `weight` (a selection counts 1, a focus 0.25) to an item's engagement.
    package func record(_ identifier: String, in container: SearchlightContainer, weight: Double) {
        let key = Key(container: ObjectIdentifier(container), identifier: identifier)
        weights.withLock { $0[key, default: 0] += weight }
    }

    /// Every recorded engagement of one container, by identifier.
    package func weights(in container: SearchlightContainer) -> [String: Double] {
        let id = ObjectIdentifier(container)
        return weights.withLock { all in
            var result: [String: Double] = [:]
            for (key, weight) in all where key.container == id { result[key.identifier] = weight }
            return result
        }
    }
}
