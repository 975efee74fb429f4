import Foundation
import Synchronization

/// How often people opened each public web result, so ranking can lift pages people actually use.
///
/// Each open adds 1 to a score that halves every `halfLife` (default 30 days), so old popularity fades; the
/// proposed ranking factor is `boost = min(maximumBoost, 1 + weight × ln(1 + score))` (weight 0.15, maximum 1.5),
/// multiplied into a result's text score: a page opened 10 times recently gets ×1.36, one opened 100 times ×1.69
/// capped to ×1.5, so engagement reorders close matches but never lifts a poor match over a good one.
public final class WebEngagement: Sendable {
    /// The counter of the public web index.
    public static let publicWeb = WebEngagement()

    public struct Record: Sendable, Hashable {
        /// Opens ever recorded.
        public var opens: Int
        /// The decayed score as of `lastOpened`.
        public var score: Double
        public var lastOpened: Date
    }

    public let halfLife: TimeInterval
    public let weight: Double
    public let maximumBoost: Double
    private let records = Mutex<[String: Record]>([:])

    public init(halfLife: TimeInterval = 30 * 86_400, weight: Double = 0.15, maximumBoost: Double = 1.5) {
        self.halfLife = halfLife > 0 ? halfLife : 30 * 86_400
        self.weight = weight.isFinite ? max(0, weight) : 0.15
        self.maximumBoost = maximumBoost.isFinite ? max(1, maximumBoost) : 1.5
    }

    /// Records that someone opened the result `identifier` at `date`.
    public func recordOpen(identifier: String, at date: Date = Date()) {
        records.withLock { all in
            if var record = all[identifier] {
                record.score = decayed(record, to: date) + 1
                record.opens += 1
                record.lastOpened = max(record.lastOpened, date)
                all[identifier] = record
            } else {
                all[identifier] = Record(opens: 1, score: 1, lastOpened: date)
            }
        }
    }

    /// Opens ever recorded for `identifier`.
    public func openCount(for identifier: String) -> Int { records.withLock { $0[identifier]?.opens ?? 0 } }

    public func record(for identifier: String) -> Record? { records.withLock { $0[identifier] } }

    /// The decayed score of `identifier` at `date`.
    public func score(for identifier: String, at date: Date = Date()) -> Double {
        guard let record = record(for: identifier) else { return 0 }
        return decayed(record, to: date)
    }

    /// The ranking factor (≥ 1) for `identifier` at `date`; see the type's documentation.
    public func boost(for identifier: String, at date: Date = Date()) -> Double {
        min(maximumBoost, 1 + weight * log(1 + score(for: identifier, at: date)))
    }

    /// Forgets `identifier` (when its page is deleted).
    public func forget(identifier: String) { _ = records.withLock { $0.removeValue(forKey: identifier) } }

    private func decayed(_ record: Record, to date: Date) -> Double {
        let elapsed = max(0, date.timeIntervalSince(record.lastOpened))
        return record.score * pow(0.5, elapsed / halfLife)
    }
}
