import Foundation
import SearchlightEngine

/// Query-independent signals layered over BM25F for `CSUserQuery`.
///
/// final = bm25f × (1 + 0.5·coverage) × (1 + 0.5·hint) × (1 + 0.25·recency) × (1 + 0.25·engagement), where
/// - coverage = how much of the title the typed text is, when the folded title starts with the folded text
///   (typed length / title length, so "thunderb" prefers "thunderbird" to "thunderbird-l10n-af"; 1 for an
///   exact title), else 0;
/// - hint = `rankingHint` clamped to 0…100, divided by 100 (0 when absent);
/// - recency = exp(−age / 30 days) for the age of `lastUsedDate` at the query's `now` (1 when in the future,
///   0 when absent);
/// - engagement = min(1, log2(1 + weight) / 4), weight from `EngagementStore` (selection 1, focus 0.25).
/// Each signal can lift a result by a bounded factor, so relevance still dominates: together at most ×3.5.
package struct UserQueryRanking: Sendable {
    let snapshot: ContainerSnapshot
    let rankingHint: FieldID?
    let lastUsedDate: FieldID?
    let engagement: [String: Double]
    let title: FieldID?
    /// The typed text, folded, single-spaced; empty disables the coverage signal.
    let typed: String

    package init(snapshot: ContainerSnapshot, engagement: [String: Double], typedText: String = "") {
        self.snapshot = snapshot
        title = snapshot.engine.schema.field(named: "title")
        typed = Self.normalize(typedText)
        rankingHint = snapshot.engine.schema.field(named: "rankingHint")
        lastUsedDate = snapshot.engine.schema.field(named: "lastUsedDate")
        self.engagement = engagement
    }

    /// The multiplier for one document.
    package func factor(_ address: DocAddress) -> Float {
        var factor: Double = 1
        if let title, !typed.isEmpty {
            var coverage = 0.0
            for value in snapshot.engine.text(title, of: address) {
                let folded = Self.normalize(value)
                guard folded.hasPrefix(typed), !folded.isEmpty else { continue }
                coverage = max(coverage, Double(typed.unicodeScalars.count) / Double(folded.unicodeScalars.count))
            }
            factor *= 1 + 0.5 * coverage
        }
        if let rankingHint, let hint = snapshot.engine.numbers(rankingHint, of: address).first, hint.isFinite {
            factor *= 1 + 0.5 * min(max(hint, 0), 100) / 100
        }
        if let lastUsedDate, let used = snapshot.engine.numbers(lastUsedDate, of: address).max(), used.isFinite {
            let age = max(0, snapshot.now.timeIntervalSinceReferenceDate - used)
            factor *= 1 + 0.25 * exp(-age / (30 * 86_400))
        }
        if !engagement.isEmpty, let id = snapshot.engine.id(of: address), let weight = engagement[id], weight > 0 {
            factor *= 1 + 0.25 * min(1, log2(1 + weight) / 4)
        }
        return Float(factor)
    }

    /// Folded (case and diacritics) text with whitespace runs collapsed to one space, trimmed.
    static func normalize(_ text: String) -> String {
        Folding.fold(text).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The engine's rescoring hook.
    package var rescore: @Sendable (DocAddress, Float) -> Float {
        let ranking = self
        return { address, score in score * ranking.factor(address) }
    }
}
