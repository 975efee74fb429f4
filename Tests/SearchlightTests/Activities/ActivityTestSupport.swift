// The Linux NSUserActivity (Foundation has its own on Apple platforms; see SearchlightActivityDonation).
#if !canImport(Darwin)
import Foundation
import SearchlightEngine
import XCTest
@testable import Searchlight

/// A fresh container on a test clock, with an index over it.
struct ActivityFixture {
    let clock = TestClock()
    let container: SearchlightContainer
    let index: CSSearchableIndex

    init() {
        container = SearchlightContainer(clock: clock.function)
        index = CSSearchableIndex(name: "activities", container: container)
    }

    /// An activity donating to this fixture's container.
    func activity(_ type: String = "com.example.view", title: String? = nil, eligible: Bool = true) -> NSUserActivity {
        let activity = NSUserActivity(activityType: type)
        activity.title = title
        activity.isEligibleForSearch = eligible
        activity.container = container
        return activity
    }

    /// An activity linked to the item `item` by `relatedUniqueIdentifier` (or, `weak`, by
    /// `weakRelatedUniqueIdentifier`), donating to this fixture's container.
    func linkedActivity(title: String, to item: String, weak: Bool = false, domain: String? = nil) -> NSUserActivity {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        if weak { set.weakRelatedUniqueIdentifier = item } else { set.relatedUniqueIdentifier = item }
        set.domainIdentifier = domain
        let activity = activity(title: title)
        activity.contentAttributeSet = set
        return activity
    }

    /// Result identifiers for free text, as queries deliver them: matched through the engine, expired ones
    /// hidden, activities collapsed into their items; best first.
    func search(_ text: String) -> [String] {
        let snapshot = container.snapshot()
        let hits = snapshot.engine.search(.term(text), limit: 100, filter: snapshot.liveFilter)
        return ActivityResults.collapse(hits, in: snapshot).compactMap { snapshot.engine.id(of: $0.address) }
    }

    /// Every visible activity record.
    var activities: [ActivityRecord] { container.snapshot().activities() }

    /// Waits until every write submitted so far is applied.
    func settle() async {
        await withCheckedContinuation { continuation in container.afterPendingWrites { continuation.resume() } }
    }
}

/// A delegate recording its calls.
final class RecordingActivityDelegate: NSObject, NSUserActivityDelegate, @unchecked Sendable {
    // `@unchecked Sendable` is sound for the tests: `events` is only touched under `lock`.
    private let lock = NSLock()
    private var storedEvents: [String] = []
    /// Run inside `userActivityWillSave` (e.g. to update the activity).
    var onWillSave: ((NSUserActivity) -> Void)?

    var events: [String] { lock.withLock { storedEvents } }

    func userActivityWillSave(_ userActivity: NSUserActivity) {
        lock.withLock { storedEvents.append("willSave") }
        onWillSave?(userActivity)
    }

    func userActivityWasContinued(_ userActivity: NSUserActivity) {
        lock.withLock { storedEvents.append("wasContinued") }
    }
}
#endif
