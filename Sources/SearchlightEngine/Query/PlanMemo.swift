import Synchronization

/// The plans of a snapshot's leaf queries (term, phrase, prefix, fuzzy, terms, by scope), kept across the
/// searches of one caller's request.
///
/// A user query searches twice when its words as typed do not fill the page: once exactly, then typo tolerant.
/// Both searches hold the same words and the same prefix, and planning them (a dictionary lookup or prefix
/// expansion per field per segment) is a large part of a search; with a memo the second search reuses them.
/// A memo belongs to one snapshot: searches of another snapshot (another generation) ignore it.
public final class PlanMemo: Sendable {
    struct Key: Hashable {
        let kind: UInt8
        let text: [String]
        let maxEdits: Int?
        let scope: [Int]
    }

    private let generation: UInt64
    /// Held, so their identities cannot be reused by other segments while the memo lives.
    private let segments: [Segment]
    private let plans = Mutex<[Key: QueryPlan]>([:])

    /// A memo for searches of `snapshot`.
    public init(for snapshot: IndexSnapshot) {
        generation = snapshot.generation
        segments = snapshot.segments
    }

    /// Whether the memo serves `snapshot` (same generation, same segments).
    func serves(_ snapshot: IndexSnapshot) -> Bool {
        snapshot.generation == generation && snapshot.segments.count == segments.count
            && zip(snapshot.segments, segments).allSatisfy { $0 === $1 }
    }

    func plan(_ key: Key, _ make: () -> QueryPlan) -> QueryPlan {
        if let known = plans.withLock({ $0[key] }) { return known }
        let made = make()
        plans.withLock { $0[key] = made }
        return made
    }

    /// Number of plans kept (for tests).
    var count: Int { plans.withLock { $0.count } }
}
