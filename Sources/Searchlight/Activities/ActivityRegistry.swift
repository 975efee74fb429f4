import Foundation
import SearchlightEngine
import Synchronization

/// A container's live activity objects: which one is current (one at a time, like the system's current user
/// activity) and, by record identifier, the objects that donated records (so continuing a result can tell the
/// donating object's delegate). References are weak: the app keeps its activities alive, as with Apple's.
package final class ActivityRegistry: Sendable {
    /// A live activity object (thread-safe, as `Sendable` says).
    package typealias Activity = AnyObject & Sendable

    private final class WeakBox: Sendable {
        weak let object: Activity?
        init(_ object: Activity) { self.object = object }
    }

    private struct State {
        weak var current: Activity?
        /// Keyed by the identifier's UTF-8 bytes, as the engine keys records: `String ==` calls canonically
        /// equivalent identifiers (two records) the same.
        var donors: [ExactIdentifier: WeakBox] = [:]
        /// The donor count at which dead donors are next dropped: twice the live ones left by the last drop, so
        /// dropping costs O(1) per registration (dropping them at every registration made n donations O(n²)).
        var pruneAt = 64
    }

    private let state = Mutex(State())

    package init() {}

    /// Makes `activity` the current one (the previous one, if any, is no longer current); returns whether it
    /// already was (read with the change, so two threads making it current see one of them do it).
    @discardableResult
    package func makeCurrent(_ activity: Activity) -> Bool {
        state.withLock { s in
            defer { s.current = activity }
            return s.current === activity
        }
    }

    /// `activity` stops being current (no effect if another one is current).
    package func resign(_ activity: Activity) {
        state.withLock { s in
            if s.current === activity { s.current = nil }
        }
    }

    /// The current activity object, if it is still alive.
    package var current: Activity? { state.withLock { $0.current } }

    /// Whether `activity` is the current one.
    package func isCurrent(_ activity: Activity) -> Bool { state.withLock { $0.current === activity } }

    /// Remembers that `activity` donated the record `identifier`.
    package func registerDonor(_ activity: Activity, for identifier: String) {
        state.withLock { s in
            if s.donors.count >= s.pruneAt {
                s.donors = s.donors.filter { $0.value.object != nil }
                s.pruneAt = max(64, 2 * s.donors.count)
            }
            s.donors[ExactIdentifier(identifier)] = WeakBox(activity)
        }
    }

    /// The live object that last donated record `identifier`, if any.
    package func donor(for identifier: String) -> Activity? { state.withLock { $0.donors[ExactIdentifier(identifier)]?.object } }

    /// How many donors are remembered, dead ones not yet dropped included.
    package var donorCount: Int { state.withLock { $0.donors.count } }
}
