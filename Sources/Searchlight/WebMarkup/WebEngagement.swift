import Foundation

/// People opening public web results, so ranking can lift pages people actually use.
///
/// A thin view of the public container's engagement ledger (`EngagementLedger`, the same one `CSUserQuery`
/// ranking reads and the durable store persists): an open is a selection, decaying with the ledger's half-life
/// (14 days), and `boost(for:)` is the factor ranking multiplies into the page's relevance (1 with no engagement,
/// at most 2.5), so engagement reorders close matches without lifting a poor match over a good one.
public final class WebEngagement: Sendable {
    /// The engagement of the public web index.
    public static let publicWeb = WebEngagement(container: .publicWeb)

    /// The container whose ledger records the opens.
    public let container: SearchlightContainer

    public init(container: SearchlightContainer) {
        self.container = container
    }

    /// Records that someone opened the result `identifier` (while `visible` results were shown, if given).
    /// Counted whether or not the index holds the page now, unlike `CSUserQuery` engagement: a page's identifier is
    /// its canonical URL, so whenever a page with it is indexed (re-crawled after a delete, or first indexed after
    /// a server-side result was opened) it is the page people opened. A delete still forgets what came before it.
    public func recordOpen(identifier: String, visible: [String] = [], at date: Date? = nil) {
        container.engagement.recordSelection(of: identifier, visible: visible, at: date ?? container.clock())
    }

    /// The decayed number of opens of `identifier` at `date`.
    public func score(for identifier: String, at date: Date? = nil) -> Double {
        container.engagement.record(for: identifier, at: date ?? container.clock())?.selections ?? 0
    }

    /// The ranking factor (≥ 1 unless shown often and never opened) for `identifier` at `date`.
    public func boost(for identifier: String, at date: Date? = nil) -> Double {
        container.engagement.factor(for: identifier, at: date ?? container.clock())
    }
}
