import Foundation
import SearchlightEngine

/// Query-independent signals layered over BM25F for `CSUserQuery`.
///
/// final = bm25f × (1 + 0.5·coverage) × (1 + 0.5·hint) × (1 + 0.25·recency) × engagement, then × (1 + renown) for
/// the first `renownWindow` results by that, where
/// - coverage = how much of the title the typed text is, when the normalized title starts with the normalized
///   text, byte for byte (`Folding.foldCollapsingWhitespace`), and, once the last word is finished (a trailing
///   space, a chosen suggestion), at a word's end: "car " is no prefix of "Carpet"
///   (typed length / title length, so "thunderb" prefers "thunderbird" to "thunderbird-l10n-af"; 1 for an
///   exact title), else 0;
/// - hint = `rankingHint` clamped to 0…100, divided by 100 (0 when absent);
/// - recency = exp(−age / 30 days) for the age of `lastUsedDate` at the query's `now` (1 when in the future,
///   0 when absent);
/// engagement is the factor of `EngagementLedger` (selections over impressions and activity visits, halving
/// every 14 days; 1 without engagement, 0.75…2.5);
/// - renown = how many other items mention the item's title, when the title is one word (`NameMentions`): m of
///   N visible documents give ln(1 + m) · ln(N / (1 + m)) / (ln N / 2)², 0…1. It peaks at m + 1 = √N: a name
///   few items mention is unknown, and one nearly every item holds is a common word ("the"), not a reference.
///   Without it, "web server" over Debian's 63,666 packages ranks nginx 61st and apache2 191st, behind packages
///   that merely say "web server" in their titles.
/// Each signal can lift a result by a bounded factor, so relevance still dominates; `ceiling` is the product's
/// bound for this query, which lets the engine rank while it collects (`SearchOptions.rescoreCeiling`).
package struct UserQueryRanking: Sendable {
    let snapshot: ContainerSnapshot
    let rankingHint: FieldID?
    let lastUsedDate: FieldID?
    /// The container's engagement records (`EngagementLedger`), by result identifier.
    let engagement: [EngagementLedger.Key: EngagementLedger.Record]
    let title: FieldID?
    /// The typed text, folded, single-spaced; empty disables the coverage signal.
    let typed: String
    /// Whether the typed text's last word is still being typed: a prefix of a title's word, not only a word.
    let typing: Bool
    /// How many items mention each item's title (nil: no title field).
    let mentions: NameMentions?

    /// `coveringLimit`: at most this many titles are named as the ones that may cover the typed text; past it
    /// every title may (tests lower it).
    /// `engagementCeiling`: at least every record's factor at the snapshot's time (`EngagementLedger.rankingState`);
    /// nil works it out from the records.
    /// `typing`: whether the last word of `typedText` is still being typed (`UserQueryPlan.typing`).
    /// `readsHeads`: whether coverage may be decided from the title's `LeadingKeys` heads (tests turn it off to
    /// compare with reading every title).
    package init(snapshot: ContainerSnapshot, engagement: [EngagementLedger.Key: EngagementLedger.Record],
                 engagementCeiling: Double? = nil, typedText: String = "", typing: Bool = true, coveringLimit: Int = 1024,
                 readsHeads: Bool = true) {
        self.snapshot = snapshot
        title = snapshot.engine.schema.field(named: "title")
        typed = Self.normalize(typedText)
        typedScalars = Double(typed.unicodeScalars.count)
        self.typing = typing
        rankingHint = snapshot.engine.schema.field(named: "rankingHint")
        lastUsedDate = snapshot.engine.schema.field(named: "lastUsedDate")
        self.engagement = engagement
        mentions = title.flatMap { snapshot.engine.nameMentions(of: $0) }
        // The titles that may start with the typed text, when few (the others' coverage is 0): only these can
        // earn the coverage factor, so the others keep a tight ceiling.
        if let title, !typed.isEmpty {
            covering = snapshot.engine.documents(title, mayStartWith: typed, limit: coveringLimit)
        } else {
            covering = []
        }
        // A typed NUL byte would match a shorter title's zero padding: such a text reads the titles.
        if let title, readsHeads, !typed.isEmpty, !typed.utf8.contains(0) {
            heads = snapshot.engine.leadingKeys(title)
            let bytes = min(typed.utf8.count, 8)
            typedKey = LeadingKeys.key(typed.utf8.prefix(8))
            typedMask = UInt64.max << UInt64(8 * (8 - bytes))
        } else {
            (heads, typedKey, typedMask) = (nil, 0, 0)
        }
        // Each factor's ceiling, multiplied in `factor`'s order (so the float product stays at or below it),
        // with and without the coverage factor.
        let now = snapshot.now
        let engagementCeiling = engagementCeiling
            ?? engagement.values.reduce(1) { max($0, EngagementLedger.factor($1, at: now)) }
        let hasHint = rankingHint != nil, hasLastUsed = lastUsedDate != nil
        func product(coverage: Double) -> Float {
            var product = coverage
            if hasHint { product *= 1.5 }
            if hasLastUsed { product *= 1.25 }
            return Float(product * engagementCeiling)
        }
        let most = product(coverage: title != nil && !typed.isEmpty ? 1.5 : 1)
        coveringCeiling = most
        ceiling = covering == nil ? most : product(coverage: 1)
    }

    /// The documents (ascending) whose title may start with the typed text (a superset); nil: too many to
    /// name, any title may.
    package let covering: [DocAddress]?
    /// No document's `factor` exceeds this, except those in `covering` (when named).
    package let ceiling: Float
    /// No document's `factor` exceeds this.
    package let coveringCeiling: Float
    /// Each segment's `LeadingKeys` of the title, or nil: a candidate whose head rules the typed text out, or
    /// decides its coverage, has no stored title read. A wide prefix ("l") has too many covering titles to name,
    /// and reading every candidate's title cost most of its search.
    private let heads: [LeadingKeys]?
    /// The typed text's first eight bytes as a head's key has them, and the mask of those it has.
    private let typedKey: UInt64, typedMask: UInt64
    /// The typed text's length in scalars (coverage's numerator).
    private let typedScalars: Double

    /// The multiplier for one document: the signals' factors multiplied in order (1 for an absent signal).
    package func factor(_ address: DocAddress) -> Float {
        Float(coverageFactor(address) * hintFactor(address) * recencyFactor(address) * engagementFactor(address))
    }

    /// The signals of `factor` that moved it, each named with its factor, in `factor`'s order: what an
    /// explanation shows (off the search's path).
    package func signals(_ address: DocAddress) -> [(name: String, factor: Double)] {
        [("title coverage", coverageFactor(address)), ("rankingHint", hintFactor(address)),
         ("lastUsedDate", recencyFactor(address)), ("engagement", engagementFactor(address))].filter { $0.1 != 1 }
    }

    /// 1 + 0.5·coverage, or 1.
    @inline(__always)
    private func coverageFactor(_ address: DocAddress) -> Double {
        // Most hits' titles start with another letter: their heads, or a pre-check of their stored bytes, rule
        // them out without building a string per title.
        guard let title, !typed.isEmpty, covering.map({ Self.contains($0, address) }) ?? true else { return 1 }
        return 1 + 0.5 * coverage(title, address)
    }

    /// 1 + 0.5·hint, or 1.
    @inline(__always)
    private func hintFactor(_ address: DocAddress) -> Double {
        guard let rankingHint, let hint = snapshot.engine.numbers(rankingHint, of: address).first, hint.isFinite else {
            return 1
        }
        return 1 + 0.5 * min(max(hint, 0), 100) / 100
    }

    /// 1 + 0.25·recency, or 1.
    @inline(__always)
    private func recencyFactor(_ address: DocAddress) -> Double {
        guard let lastUsedDate, let used = snapshot.engine.numbers(lastUsedDate, of: address).max(), used.isFinite else {
            return 1
        }
        let age = max(0, snapshot.now.timeIntervalSinceReferenceDate - used)
        return 1 + 0.25 * exp(-age / (30 * 86_400))
    }

    /// `EngagementLedger.factor` of the document's record, or 1.
    @inline(__always)
    private func engagementFactor(_ address: DocAddress) -> Double {
        guard !engagement.isEmpty, let id = ActivityResults.engagementIdentifier(of: address, in: snapshot),
              let record = engagement[EngagementLedger.Key(id)] else { return 1 }
        return EngagementLedger.factor(record, at: snapshot.now)
    }

    /// How much of the document's title the typed text covers (see the type's comment), 0 when none starts with it.
    private func coverage(_ title: FieldID, _ address: DocAddress) -> Double {
        if let heads, Int(address.segment) < heads.count {
            switch heads[Int(address.segment)].head(of: Int(address.doc)) {
            case .none:
                return 0
            case let .one(key, scalars):
                // The key is the title's first eight normalized bytes, zero-padded: a typed text of at most eight
                // bytes that it starts with is a prefix of the title; one that differs is none.
                guard key & typedMask == typedKey else { return 0 }
                if typing, typed.utf8.count <= 8 { return typedScalars / Double(scalars) }
            case .several:
                break
            }
        }
        var coverage = 0.0
        let typedStart = typed.utf8.first
        let mayCover = snapshot.engine.containsText(title, of: address) { Self.mayStart($0, with: typedStart) }
        for value in mayCover ? snapshot.engine.text(title, of: address) : [] where Self.mayStart(value, with: typed) {
            let folded = Self.normalize(value)
            // Bytes, as `LeadingKeys` compares them (a byte prefix is a scalar prefix: coverage stays ≤ 1).
            guard folded.utf8.starts(with: typed.utf8), !folded.isEmpty,
                  typing || Self.endsAtWord(folded, typed) else { continue }
            coverage = max(coverage, typedScalars / Double(folded.unicodeScalars.count))
        }
        return coverage
    }

    /// The renown factor of one document, 1…2 (1 without a title field): applied to the first `renownWindow`
    /// results only (`RankedSearch`), so the engine's pruning keeps the other signals' tight ceilings.
    package func renownFactor(_ address: DocAddress) -> Float { renownFactors([address])[0] }

    /// `renownFactor` of each address, in order, their mentions read together (`NameMentions.counts(of:)`).
    /// `NameMentions` counts the live items; once one may have expired (hidden, but live until the container's
    /// next write purges it), a mentioned document's count loses the expired items holding its name. Only then,
    /// and only for the few mentioned documents: the engine's window selection (`RankedSearch`), which asks for
    /// these per candidate, runs while none has expired.
    package func renownFactors(_ addresses: [DocAddress]) -> [Float] {
        guard let mentions else { return addresses.map { _ in 1 } }
        var counts = mentions.counts(of: addresses)
        if !snapshot.noneExpired {
            for index in counts.indices where counts[index] > 0 {
                counts[index] = max(counts[index] - expiredMentions(of: addresses[index]), 0)
            }
        }
        return counts.map { Self.renownFactor(mentions: $0, of: mentions.documentCount) }
    }

    /// How many expired items other than the document at `address` hold its name, the one term of its title, in
    /// a field searched by default (the scope `NameMentions` counts).
    private func expiredMentions(of address: DocAddress) -> Int {
        guard let title, let value = snapshot.engine.text(title, of: address).first,
              let name = Analyzer().tokens(value, mode: .index).first?.term else { return 0 }
        return snapshot.engine.matches(.terms([name])).reduce(0) { count, holder in
            count + (holder != address && !snapshot.isUnexpired(holder) ? 1 : 0)
        }
    }

    private static func renownFactor(mentions: Int, of documents: Int) -> Float {
        Float(1 + renown(Double(mentions), of: documents))
    }

    /// How well known a name `mentions` of `documents` items mention is, 0…1 (see the type's comment).
    static func renown(_ mentions: Double, of documents: Int) -> Double {
        let n = Double(documents)
        guard n > 1, mentions > 0 else { return 0 }
        let held = min(mentions + 1, n)
        let half = log(n) / 2
        return min(max(log(held) * log(n / held) / (half * half), 0), 1)
    }

    /// How many of the best results by the other signals renown re-ranks: a rescore window, as Lucene's
    /// `QueryRescorer` and Elasticsearch's `rescore` have. A renowned result further down stays where it is.
    /// Applied to every match instead, renown's ceiling of 2 left the engine so little to prune that the median
    /// as-you-type text ran 54% more instructions and p99 rose fourfold; a second search over the mentioned
    /// documents alone cost more still (BENCHMARKS.md §AU). 256 reaches apache2 for "web server" over Debian's
    /// 63,666 packages (191st by the other signals).
    package static let renownWindow = 256

    /// The most `renownFactor` gives (`renown` is at most 1).
    package static let renownCeiling: Float = 2

    /// Whether the ascending `addresses` hold `address`.
    static func contains(_ addresses: [DocAddress], _ address: DocAddress) -> Bool {
        var low = 0, high = addresses.count
        while low < high {
            let mid = (low + high) >> 1
            if addresses[mid] < address { low = mid + 1 } else { high = mid }
        }
        return low < addresses.count && addresses[low] == address
    }

    /// Whether `typed`, a byte prefix of `title`, ends where a word of `title` does: the title ends there, or the
    /// typed text's last character or the title's next one is no word character (`Analyzer.continuesWord`).
    static func endsAtWord(_ title: String, _ typed: String) -> Bool {
        let scalars = title.unicodeScalars
        // A byte prefix of valid UTF-8 ends at a scalar boundary.
        let end = title.utf8.index(title.utf8.startIndex, offsetBy: typed.utf8.count)
        guard end < scalars.endIndex, let last = typed.unicodeScalars.last else { return true }
        let beforeLast = typed.unicodeScalars.dropLast().last
        return !Analyzer.continuesWord(last, after: beforeLast) || !Analyzer.continuesWord(scalars[end], after: last)
    }

    /// Whether `value`, normalized, can start with `typed` (already normalized): false when the first
    /// non-whitespace byte of each is an ASCII letter or digit and they differ after lowercasing, the only change
    /// folding makes to those bytes. Most hits' titles fail here, before they are folded.
    static func mayStart(_ value: String, with typed: String) -> Bool {
        mayStart(value.utf8, with: typed.utf8.first)
    }

    /// `mayStart` over a value's UTF-8 bytes, given the first byte of the normalized typed text.
    static func mayStart(_ value: some Sequence<UInt8>, with typedStart: UInt8?) -> Bool {
        guard let expected = typedStart, Self.isASCIIWordByte(expected) else { return true }
        for byte in value {
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) { continue }
            guard Self.isASCIIWordByte(byte) else { return true }
            return Folding.lowercasedASCII(byte) == expected
        }
        return true
    }

    private static func isASCIIWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// Folded (case and diacritics) text with whitespace runs collapsed to one space, trimmed.
    static func normalize(_ text: String) -> String { Folding.foldCollapsingWhitespace(text) }

    /// The engine's rescoring hook (every signal but renown).
    package var rescore: @Sendable (DocAddress, Float) -> Float {
        let ranking = self
        return { address, score in score * ranking.factor(address) }
    }
}
