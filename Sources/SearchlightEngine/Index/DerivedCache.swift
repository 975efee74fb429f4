import Dispatch
import Synchronization

/// Values derived from an immutable segment by the first search that needs one, kept for the segment's life: a
/// champion list per key, a precomputed list per wide prefix. Concurrent first uses of a key wait for one build
/// rather than each making its own (a build may hold a few megabytes of scratch on a large segment).
///
/// A key the build finds nothing for (`Outcome.absent`: fewer postings than a list needs; most keys searched) is
/// remembered among at most `absentLimit` such keys, forgotten all at once when that many accumulate: a search of
/// a rare word then skips the build's lookups and allocations, while type-ahead over endless distinct keys cannot
/// grow the cache without bound. A key whose value cannot be built at all (`absentForGood`: its data does not fit
/// the encoding, and would not next time) is kept like a value.
///
/// With a `budget`, the kept values are forgotten all at once when their bytes pass it (the newest stays): a
/// cache of one entry per distinct search, which type-ahead keeps making, stays bounded at the price of a few
/// rebuilds after each clearing.
final class DerivedCache<Key: Hashable & Sendable, Value: AnyObject & Sendable>: Sendable {
    /// What a build found.
    enum Outcome {
        case value(Value)
        case absent
        case absentForGood
    }

    /// A build in progress, which other first uses of its key wait for.
    private final class Building: @unchecked Sendable {
        // Sound: `value` is written once, before `done` is signalled, and read only after `wait()` returns.
        var value: Value?
        let done = DispatchSemaphore(value: 0)

        func finish(_ value: Value?) {
            self.value = value
            done.signal()
        }

        func wait() -> Value? {
            done.wait()
            done.signal()  // the next waiter returns at once
            return value
        }
    }

    private enum Entry {
        case built(Value?)
        case building(Building)
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var absent = Set<Key>()
        var absentBytes = 0
    }

    /// Keys remembered as absent, at most.
    static var absentLimit: Int { 1_024 }

    private let state = Mutex(State())
    /// Heap bytes of a kept entry: its value's, its key's and the table's share.
    private let cost: @Sendable (Key, Value?) -> Int
    /// Bytes of kept values past which they are all forgotten (nil: never).
    private let budget: Int?

    init(budget: Int? = nil, cost: @escaping @Sendable (Key, Value?) -> Int) {
        self.budget = budget
        self.cost = cost
    }

    /// The value of `key`: the kept one, the one another thread is building (waited for), or `build()`'s.
    func value(_ key: Key, build: () -> Outcome) -> Value? {
        let (known, mine) = state.withLock { state -> (Entry?, Building?) in
            if let entry = state.entries[key] { return (entry, nil) }
            if state.absent.contains(key) { return (.built(nil), nil) }
            let building = Building()
            state.entries[key] = .building(building)
            return (nil, building)
        }
        switch known {
        case .built(let value)?: return value
        case .building(let building)?: return building.wait()
        case nil: break
        }
        let outcome = build()
        let value: Value?
        switch outcome {
        case .value(let built): value = built
        case .absent, .absentForGood: value = nil
        }
        state.withLock { state in
            if case .absent = outcome {
                state.entries[key] = nil
                if state.absent.count >= Self.absentLimit {
                    state.absent.removeAll(keepingCapacity: true)
                    state.absentBytes = 0
                }
                if state.absent.insert(key).inserted { state.absentBytes += cost(key, nil) }
            } else {
                let bytes = cost(key, value)
                if let budget, state.bytes + bytes > budget {
                    // Builds in progress stay: their threads store into them when done.
                    state.entries = state.entries.filter { if case .building = $0.value { true } else { false } }
                    state.bytes = 0
                }
                state.entries[key] = .built(value)
                state.bytes += bytes
            }
        }
        mine?.finish(value)
        return value
    }

    /// The kept value of `key`, if one was built: nothing is built or waited for.
    func existing(_ key: Key) -> Value? {
        state.withLock { state in
            if case .built(let value)? = state.entries[key] { return value }
            return nil
        }
    }

    /// Heap bytes of the kept entries and the keys remembered as absent.
    var memoryBytes: Int { state.withLock { $0.bytes + $0.absentBytes } }

    /// Keys remembered as absent (at most `absentLimit`).
    var absentCount: Int { state.withLock { $0.absent.count } }

    /// Keys kept, with a value or remembered without one.
    var count: Int { state.withLock { state in state.entries.values.count { if case .built = $0 { true } else { false } } } }

    /// The keys kept with a value.
    var keysWithValues: [Key] {
        state.withLock { state in
            state.entries.compactMap { key, entry in
                if case .built(let value) = entry, value != nil { return key }
                return nil
            }
        }
    }
}
