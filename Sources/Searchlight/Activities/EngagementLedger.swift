import Foundation
import SearchlightEngine
import Synchronization

/// What users did with results, per result identifier, decaying over time; `CSUserQuery` ranking multiplies a
/// result's relevance by `factor(for:at:)`.
///
/// Three decayed counts are kept per identifier (an item's `uniqueIdentifier`, or for an activity its linked
/// item's identifier, else its record identifier):
/// - S, selections: the user chose the result (`CSUserQuery.userEngaged(… .select)`, or continuing it through
///   `SearchlightContinuation`);
/// - I, impressions: the result was visible when the user chose something (the chosen one included);
/// - C, donations: the activity became current (`NSUserActivity.becomeCurrent()`), i.e. the user was there.
///
/// Each event adds 1 to its count and counts halve every `halfLife` (14 days): a count stored as `v` at time `t0`
/// is `v · 2^(−(t − t0) / halfLife)` at `t`. The ranking factor is
///
///     factor = min(2, 1 + 0.5 · ln(1 + S + 0.5 · C)) · (0.75 + 0.5 · min(1, (S + 1) / (I + 2)))
///
/// — a volume term that grows slowly with how often the result was used (capped at 2, reached near 6.4 uses),
/// times a smoothed selection rate ("selections over impressions", 0.5 with no data, so the second term is 1
/// until there are impressions). With no engagement the factor is exactly 1; a result shown often and never
/// chosen drops towards 0.75; one chosen every time it was shown rises towards 2.5, its ceiling (the rate is capped
/// at 1, since selections made without a list shown, e.g. focus events, can outnumber impressions). As counts decay the factor
/// returns to 1; once every count of a record is below 0.05 (`forgetThreshold`) it is forgotten: its factor is
/// exactly 1 and `prune` drops it.
///
/// This is the state a durable store persists with the container (`encoded()` / `restore(from:)`); it changes
/// outside the index's write rounds, so `changeCount` tells a store whether it needs writing.
package final class EngagementLedger: Sendable {
    /// One identifier's decayed counts as of `updated`.
    package struct Record: Sendable, Equatable {
        package var selections: Double = 0
        package var impressions: Double = 0
        package var donations: Double = 0
        /// Seconds since the reference date at which the counts are stated.
        package var updated: Double

        package init(selections: Double = 0, impressions: Double = 0, donations: Double = 0, updated: Double) {
            self.selections = selections
            self.impressions = impressions
            self.donations = donations
            self.updated = updated
        }

        /// The counts decayed to `now` (a clock moving backwards decays nothing).
        package func decayed(to now: Double) -> Record {
            let age = max(0, now - updated)
            let scale = pow(0.5, age / EngagementLedger.halfLife)
            return Record(selections: selections * scale, impressions: impressions * scale,
                          donations: donations * scale, updated: max(now, updated))
        }

        /// Whether every count is below `forgetThreshold`: such engagement is forgotten (factor 1, pruned).
        package var isNegligible: Bool {
            selections < EngagementLedger.forgetThreshold && impressions < EngagementLedger.forgetThreshold
                && donations < EngagementLedger.forgetThreshold
        }
    }

    /// Counts halve every 14 days.
    package static let halfLife: TimeInterval = 14 * 86_400
    /// Counts below this are forgotten: one selection after about 60 days, five after about 93.
    package static let forgetThreshold = 0.05

    /// A result identifier as the ledger keys it: by its UTF-8 bytes, as the engine keys items. `String ==` calls
    /// canonically equivalent identifiers (two items, "café" precomposed and decomposed) the same, so engagement
    /// with one lifted the other.
    package typealias Key = ExactIdentifier

    private struct State {
        var records: [Key: Record] = [:]
        var changeCount: UInt64 = 0
        /// Walks of the records by `forget(where:)`.
        var forgetPasses = 0
        /// At least every record's `liftBound`: no factor exceeds it at any time (a clock moving backwards decays
        /// nothing, so stored counts are the most a record can have), until new events.
        var ceiling: Double = 1
        /// At least every record's `liftBound` once decayed to `decayedFrom`: no factor exceeds it from that time
        /// on. The stored counts' bound only falls when records are forgotten, so a record chosen often months ago
        /// would hold `ceiling` high long after its factor fell; this one is worked out again once a day of query
        /// time (`rankingState(at:)`).
        var decayedCeiling: Double = 1
        var decayedFrom: Double = -.infinity

        /// Drops the records forgotten by `t` and bounds the rest afresh.
        mutating func forget(at t: Double) {
            records = records.filter { !$0.value.decayed(to: t).isNegligible }
            bound()
        }

        /// Sets the ceiling to the largest of the records' bounds (and the decayed one with it, until the next
        /// query works it out).
        mutating func bound() {
            ceiling = records.values.reduce(1) { max($0, EngagementLedger.liftBound($1)) }
            decayedCeiling = ceiling
            decayedFrom = -.infinity
        }

        /// Raises both ceilings to cover a record just stated (its bound holds at any time).
        mutating func raise(to bound: Double) {
            ceiling = max(ceiling, bound)
            decayedCeiling = max(decayedCeiling, bound)
        }

        /// The records' bounds decayed to `t`: O(records), a `pow` and a `log` each.
        mutating func decay(to t: Double) {
            decayedCeiling = records.values.reduce(1) { max($0, EngagementLedger.liftBound($1.decayed(to: t))) }
            decayedFrom = t
        }
    }

    /// Query time between two workings-out of the decayed ceiling.
    package static let ceilingInterval: TimeInterval = 86_400

    private let state = Mutex(State())

    package init() {}

    /// The ranking factor for counts S, I, C (see the type's documentation).
    package static func factor(selections s: Double, impressions i: Double, donations c: Double) -> Double {
        volume(selections: s, donations: c) * (0.75 + 0.5 * min(1, (s + 1) / (i + 2)))
    }

    /// The factor's volume term, min(2, 1 + 0.5 · ln(1 + S + 0.5 · C)).
    private static func volume(selections s: Double, donations c: Double) -> Double {
        min(2, 1 + 0.5 * log(1 + s + 0.5 * c))
    }

    /// The most `record`'s factor can be at any time from when it was stated on, if no event adds to it: decay
    /// scales all three counts by one α in (0, 1]; the volume term only falls with α, and the rate term's
    /// fraction moves monotonically from its value at α = 1 towards 1/2, so its largest value is at one end. That
    /// holds in real arithmetic; the factor is computed in floating point at each α, where the fraction can round an
    /// ulp above its value at α = 1, so the bound has a margin. (No factor exceeds 2.5, rounded or not.)
    package static func liftBound(_ record: Record) -> Double {
        let s = record.selections, i = record.impressions
        let rate = min(1, max(0.5, (s + 1) / (i + 2)))
        return min(2.5, volume(selections: s, donations: record.donations) * (0.75 + 0.5 * rate) * (1 + 1e-9))
    }

    /// Every record (as stored) and a ceiling no record's factor exceeds at `now`, read together: `CSUserQuery`
    /// ranks with the records and prunes with the ceiling. O(1) however many results were shown, except once a day
    /// of query time, when the ceiling is worked out from the records decayed to `now` (it holds from then on; a
    /// query at an earlier time gets the bound of the stored counts).
    package func rankingState(at now: Date) -> (records: [Key: Record], ceiling: Double) {
        let t = now.timeIntervalSinceReferenceDate
        return state.withLock { s in
            if t >= s.decayedFrom + Self.ceilingInterval { s.decay(to: t) }
            return (s.records, t >= s.decayedFrom ? min(s.decayedCeiling, s.ceiling) : s.ceiling)
        }
    }

    /// The ranking factor of a stored record at `now`.
    package static func factor(_ record: Record, at now: Date) -> Double {
        let r = record.decayed(to: now.timeIntervalSinceReferenceDate)
        guard !r.isNegligible else { return 1 }
        return factor(selections: r.selections, impressions: r.impressions, donations: r.donations)
    }

    /// The ranking factor of `identifier` at `now` (1 without engagement).
    package func factor(for identifier: String, at now: Date) -> Double {
        guard let record = state.withLock({ $0.records[Key(identifier)] }) else { return 1 }
        return Self.factor(record, at: now)
    }

    /// The decayed counts of `identifier` at `now`, if any.
    package func record(for identifier: String, at now: Date) -> Record? {
        state.withLock { $0.records[Key(identifier)] }?.decayed(to: now.timeIntervalSinceReferenceDate)
    }

    /// The user chose `identifier` while `visible` were shown (the chosen one counts as shown too, when any are
    /// given). `weight` is 1 for a selection, less for weaker signals (a focus counts 0.25).
    package func recordSelection(of identifier: String, visible: [String] = [], weight: Double = 1, at now: Date) {
        update(at: now) { s, t in
            if !visible.isEmpty {
                for shown in Self.distinct(visible + [identifier]) { Self.bump(&s, shown, t) { $0.impressions += 1 } }
            }
            Self.bump(&s, identifier, t) { $0.selections += weight }
        }
    }

    /// `identifiers` were shown without being chosen.
    package func recordImpressions(of identifiers: [String], at now: Date) {
        update(at: now) { s, t in
            for shown in Self.distinct(identifiers) { Self.bump(&s, shown, t) { $0.impressions += 1 } }
        }
    }

    /// `identifiers` without repeats, compared by bytes as the records are keyed: a `Set<String>` merged canonically
    /// equivalent identifiers (two items), so one of them counted no impression.
    private static func distinct(_ identifiers: [String]) -> [String] {
        Set(identifiers.map { Key($0) }).map(\.id)
    }

    /// An activity whose result identifier is `identifier` became current.
    package func recordDonation(of identifier: String, at now: Date) {
        update(at: now) { s, t in Self.bump(&s, identifier, t) { $0.donations += 1 } }
    }

    /// Forgets everything (e.g. before restoring persisted state).
    package func removeAll() {
        state.withLock { s in
            s.records = [:]
            s.bound()
            s.changeCount &+= 1
        }
    }

    /// Drops the records of the identifiers `isGone` names (deleted items and activities), so an item given the
    /// identifier later does not inherit them. Returns `changeCount` after it, read under the same lock: while the
    /// count stays so, nothing was recorded since, and forgetting again would change nothing.
    @discardableResult
    package func forget(where isGone: (String) -> Bool) -> UInt64 {
        state.withLock { s in
            s.forgetPasses += 1
            let before = s.records.count
            s.records = s.records.filter { !isGone($0.key.id) }
            guard s.records.count != before else { return s.changeCount }
            s.bound()
            s.changeCount &+= 1
            return s.changeCount
        }
    }

    /// Drops records that have decayed to nothing by `now`.
    package func prune(at now: Date) {
        let t = now.timeIntervalSinceReferenceDate
        state.withLock { s in
            let before = s.records.count
            s.forget(at: t)
            if s.records.count != before { s.changeCount &+= 1 }
        }
    }

    /// How many times `forget(where:)` walked the records (each a predicate call per record): tests count them.
    package var forgetPasses: Int { state.withLock { $0.forgetPasses } }

    /// Increases with every change; a store writes the ledger when it differs from what it last wrote.
    package var changeCount: UInt64 { state.withLock { $0.changeCount } }

    /// Every record, as stored (not decayed).
    package var records: [Key: Record] { state.withLock { $0.records } }

    private func update(at now: Date, _ body: (inout State, Double) -> Void) {
        let t = now.timeIntervalSinceReferenceDate
        state.withLock { s in
            body(&s, t)
            s.changeCount &+= 1
            // Forgotten records are dropped now and then, so the ledger does not grow with every result ever shown.
            if s.changeCount % 1024 == 0 { s.forget(at: t) }
        }
    }

    private static func bump(_ s: inout State, _ id: String, _ t: Double, _ change: (inout Record) -> Void) {
        var record = s.records[Key(id)]?.decayed(to: t) ?? Record(updated: t)
        change(&record)
        s.records[Key(id)] = record
        s.raise(to: liftBound(record))
    }

    // MARK: Persistence

    /// The client-state name a durable store saves the ledger under at each checkpoint (U+0000 keeps it apart
    /// from index names; the container strips it from the client states it serves).
    package static let clientStateName = "\u{0}searchlight.engagement"

    /// 2 since suggestions' engagement is keyed apart from items' (`CSUserQuery.engagementKey`); a format-1 ledger
    /// is read too, its suggestion keys moved (`migratedKey`).
    private static let version: UInt8 = 2
    /// How format 1 keyed a suggestion's engagement, a prefix item identifiers could share.
    private static let formerSuggestionPrefix = "suggestion:"

    /// The ledger as bytes for a store (identifiers sorted, so equal ledgers give equal bytes).
    package func encoded() -> [UInt8] {
        let records = self.records
        var w = StoredValueWriter()
        w.byte(Self.version)
        w.varint(UInt64(records.count))
        for key in records.keys.sorted(by: { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }) {
            guard let r = records[key] else { continue }
            w.string(key.id)
            w.double(r.selections)
            w.double(r.impressions)
            w.double(r.donations)
            w.double(r.updated)
        }
        return w.bytes
    }

    /// The key a format-1 suggestion key ("suggestion:<folded text>") has now, nil for any other key. Such a
    /// record is taken as the suggestion's: an item so named was rare, and its engagement was the suggestion's too.
    private static func migratedKey(_ id: String) -> Key? {
        let prefix = formerSuggestionPrefix.utf8
        guard id.utf8.starts(with: prefix) else { return nil }
        return Key(CSUserQuery.engagementKey(String(decoding: id.utf8.dropFirst(prefix.count), as: UTF8.self)))
    }

    /// Replaces the ledger with one read from `bytes`; throws (changing nothing) if they are malformed.
    package func restore(from bytes: [UInt8]) throws(CSIndexError) {
        var r = StoredValueReader(bytes)
        let bad = CSIndexError.unknown("the stored engagement ledger is malformed; the current ledger was kept")
        guard let version = r.byte(), version == 1 || version == Self.version, let count = r.varint() else { throw bad }
        var records: [Key: Record] = [:]
        var formerSuggestions: [(Key, Record)] = []
        for _ in 0..<count {
            guard let id = r.string(), let s = r.double(), let i = r.double(), let c = r.double(), let t = r.double(),
                  [s, i, c].allSatisfy({ $0.isFinite && $0 >= 0 }), t.isFinite else { throw bad }
            let record = Record(selections: s, impressions: i, donations: c, updated: t)
            if version == 1, let key = Self.migratedKey(id) { formerSuggestions.append((key, record)) } else {
                records[Key(id)] = record
            }
        }
        guard r.isAtEnd else { throw bad }
        // A record already under the new key was written since (by a build that keyed suggestions apart): newer.
        for (key, record) in formerSuggestions where records[key] == nil { records[key] = record }
        state.withLock { s in
            s.records = records
            s.bound()
            s.changeCount &+= 1
        }
    }
}
