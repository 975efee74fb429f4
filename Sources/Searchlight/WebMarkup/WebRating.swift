/// A schema.org `AggregateRating`, with its value normalized to Spotlight's 0–5 scale.
public struct WebRating: Sendable, Hashable {
    public var value: Double
    /// `ratingCount`, else `reviewCount`.
    public var count: Int?
    /// `bestRating` (schema.org default 5).
    public var best: Double
    /// `worstRating` when the page states it.
    public var worst: Double?

    /// `value` on a 0–5 scale: `(value − worst) / (best − worst) × 5` when the page states a worst rating,
    /// otherwise `value / best × 5`; clamped to 0…5.
    public var normalized: Double {
        let scaled: Double
        if let worst, best > worst {
            scaled = (value - worst) / (best - worst) * 5
        } else {
            scaled = best > 0 ? value / best * 5 : value
        }
        return min(5, max(0, scaled))
    }

    /// For example `4.4 out of 5 (89 ratings)`.
    public var summary: String {
        let shown = (normalized * 10).rounded() / 10
        let number = shown == shown.rounded() ? String(Int(shown)) : String(shown)
        guard let count else { return "\(number) out of 5" }
        return "\(number) out of 5 (\(count) \(count == 1 ? "rating" : "ratings"))"
    }

    /// Reads `node.aggregateRating`; nil without a finite `ratingValue`.
    init?(of node: SchemaNode) {
        guard let rating = node.node("aggregateRating"), let value = rating.number("ratingValue") else { return nil }
        self.value = value
        count = (rating.number("ratingCount") ?? rating.number("reviewCount")).flatMap { $0 >= 0 && $0 < 1e15 ? Int($0) : nil }
        best = rating.number("bestRating") ?? 5
        worst = rating.number("worstRating")
    }
}
