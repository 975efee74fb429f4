import Foundation
import SearchlightEngine
import Synchronization

/// Builds the Searchlight extras of a `CSUserQuery` result on demand: a highlighted snippet of the matched
/// text and the explanation of its score. Holds the snapshot the query ran on, so it stays consistent.
package final class UserQueryAnnotator: Sendable {
    let snapshot: ContainerSnapshot
    let plan: UserQueryPlan
    /// The engine query the results came from (with or without typo tolerance).
    let query: Query
    /// Whether near terms were searched (and so are highlighted).
    let typoTolerant: Bool
    let ranking: UserQueryRanking
    /// The document each result identifier is annotated from: the one whose score was delivered (a linked
    /// activity's for an item found through it, whose own document may not match), by the identifier's bytes.
    let addresses: [ExactIdentifier: DocAddress]
    /// The results renown raised (`RankedSearch.hits`): their factor includes it.
    let renowned: Set<DocAddress>
    /// The results past the first `rankedCount` (`maxRankedResultCount`), delivered unranked (rank 0): their
    /// explanation gives that 0 first, then the score they were selected by.
    let unranked: Set<ExactIdentifier>
    let rankedCount: Int
    /// Typo-tolerant expansions of each word (folded terms; near prefixes for the word being typed), as capped as
    /// the search's (`IndexSnapshot.maxExpansions`, `maxNearPrefixes`), computed on
    /// the first snippet request only:
    /// most queries never ask for one, and a fuzzy dictionary walk per word costs milliseconds.
    private let fuzzyCache = Mutex<[UserQueryPlan.Word: Set<String>]?>(nil)

    /// The attributes a snippet prefers, in order of preference on ties; any other field searched by default
    /// follows (`snippetFields`).
    static let snippetAttributes = ["title", "displayName", "contentDescription", "textContent", "keywords",
                                    "alternateNames", "subject", "transcribedTextContent"]
    /// Snippet length in UTF-8 bytes around the first highlight (more when that highlight alone is longer).
    static let snippetBytes = 160

    init(snapshot: ContainerSnapshot, plan: UserQueryPlan, query: Query, typoTolerant: Bool, ranking: UserQueryRanking,
         addresses: [ExactIdentifier: DocAddress], renowned: Set<DocAddress> = [], unranked: Set<ExactIdentifier> = [],
         rankedCount: Int = Int.max) {
        self.renowned = renowned
        self.unranked = unranked
        self.rankedCount = rankedCount
        self.snapshot = snapshot
        self.plan = plan
        self.query = query
        self.typoTolerant = typoTolerant
        self.ranking = ranking
        self.addresses = addresses
    }

    /// The typo-tolerant expansions of each word.
    var fuzzy: [UserQueryPlan.Word: Set<String>] {
        fuzzyCache.withLock { cache in
            if let cache { return cache }
            var fuzzy: [UserQueryPlan.Word: Set<String>] = [:]
            for word in plan.words where typoTolerant && !word.fuzzyIsExact && fuzzy[word] == nil {
                fuzzy[word] = word.isPrefix ? Set(snapshot.engine.fuzzyPrefixes(word.term, maxEdits: word.maxEdits))
                    : snapshot.engine.fuzzyExpansions(word.term, maxEdits: word.maxEdits)
            }
            cache = fuzzy
            return fuzzy
        }
    }

    /// The best snippet of an item: the attribute value whose tokens (and overlong words) answer the most words.
    func snippet(for identifier: String) -> CSUserQuery.Snippet? {
        guard let address = addresses[ExactIdentifier(identifier)] else { return nil }
        let analyzer = Analyzer()
        // A word's near terms score only where the word as typed does not match (`UserQueryPlan.clause`): only
        // there are they marked, so the snippet shows what found the item.
        let fuzzy = self.fuzzy.filter { word, _ in
            snapshot.engine.count(word.isPrefix ? .prefix(word.term) : .term(word.term), among: [address]) == 0
        }
        var best: (attribute: String, value: String, ranges: [Range<Int>], words: Int)?
        for (attribute, field) in snippetFields {
            for value in snapshot.engine.text(field, of: address) {
                var matches: [(range: Range<Int>, word: Int)] = []
                for token in analyzer.tokens(value, mode: .index) {
                    for (index, word) in plan.words.enumerated()
                    where plan.accepts(token.term, for: word, fuzzy: fuzzy[word] ?? []) {
                        matches.append((token.byteRange, index))
                    }
                }
                // A typed word longer than a term matches on the stored text (`UserQueryPlan.overlong`).
                if !plan.overlong.isEmpty, value.utf8.count > Analyzer.maxTermBytes {
                    for (range, held) in UserQueryPlan.overlongWords(in: value, analyzer: analyzer) {
                        for (index, word) in plan.overlong.enumerated() where plan.accepts(overlong: held, for: word) {
                            matches.append((range, plan.words.count + index))
                        }
                    }
                }
                let answered = Set(matches.map(\.word))
                let ranges = Self.highlights(Self.characterRanges(matches, in: value))
                if !ranges.isEmpty, answered.count > (best?.words ?? 0) {
                    best = (attribute, value, ranges, answered.count)
                }
            }
        }
        guard let best else { return nil }
        return Self.cut(best.value, attribute: best.attribute, highlights: best.ranges)
    }

    /// The fields a snippet may come from, with the attribute each is reported as: the preferred attributes, then
    /// every other field searched by default (an item matches through any of them: `authorNames`, `city`, custom
    /// keys searched by default, reported under their key name).
    private var snippetFields: [(attribute: String, field: FieldID)] {
        let schema = snapshot.engine.schema
        var fields: [(attribute: String, field: FieldID)] = Self.snippetAttributes.compactMap { name in
            schema.field(named: name).map { (name, $0) }
        }
        let preferred = Set(fields.map(\.field))
        for field in schema.defaultFields where !preferred.contains(field) {
            guard let name = schema.info(field)?.name else { continue }
            fields.append((ItemDocumentCodec.attributeName(ofTextField: name), field))
        }
        return fields
    }

    /// The byte ranges to mark, in order, from the tokens that answered a word. A token holding a shorter one
    /// that answers the same word (a CJK bigram holding the character typed, an identifier whose part was typed)
    /// is left out, so only what matched is marked; overlapping ranges merge (a CJK word matches as overlapping
    /// bigrams, all of it marked).
    static func highlights(_ matches: [(range: Range<Int>, word: Int)]) -> [Range<Int>] {
        // Each range once, with the words it answers: many words can match one token (a word typed many times, or
        // its typos), and comparing each match with every match overlapping it was quadratic in them.
        var words: [Range<Int>: Set<Int>] = [:]
        for match in matches { words[match.range, default: []].insert(match.word) }
        // By start, the longer first: what a range holds follows it, before the next range that starts past its end.
        let sorted = words.keys.sorted {
            $0.lowerBound != $1.lowerBound ? $0.lowerBound < $1.lowerBound : $0.upperBound > $1.upperBound
        }
        var ranges: [Range<Int>] = []
        for (index, range) in sorted.enumerated() {
            let answered = words[range] ?? []
            let holdsAnother = sorted[(index + 1)...].prefix { $0.lowerBound < range.upperBound }.contains {
                $0.upperBound <= range.upperBound && !answered.isDisjoint(with: words[$0] ?? [])
            }
            if holdsAnother { continue }
            if let last = ranges.last, last.overlaps(range) {
                ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                ranges.append(range)
            }
        }
        return ranges
    }

    /// A window of about `snippetBytes` bytes around the first highlight, on Character boundaries (an accent
    /// stays on its letter, none fuses with the `…`) and between words where one is near (`wordStart`,
    /// `wordEnd`), with `…` where text was cut. The window holds the first
    /// highlight whole (starting later, or longer when the highlight is), so a long matched word keeps its mark.
    static func cut(_ value: String, attribute: String, highlights: [Range<Int>]) -> CSUserQuery.Snippet {
        let bytes = Array(value.utf8)
        var start = 0, end = bytes.count
        if bytes.count > snippetBytes, let first = highlights.first {
            let lead = max(first.lowerBound - snippetBytes / 3, first.upperBound - snippetBytes)
            let from = max(0, min(first.lowerBound, lead))
            let window = characterBoundaries([(from, false), (max(from + snippetBytes, first.upperBound), true)], in: value)
            start = wordStart(window[0], limit: first.lowerBound, in: value)
            end = wordEnd(window[1], limit: first.upperBound, in: value)
        }
        let prefix = start > 0 ? "…" : ""
        let suffix = end < bytes.count ? "…" : ""
        let text = prefix + String(decoding: bytes[start..<end], as: UTF8.self) + suffix
        let shift = prefix.utf8.count - start
        let utf8 = text.utf8
        var ranges: [Range<String.Index>] = []
        for range in highlights where range.lowerBound >= start && range.upperBound <= end {
            let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound + shift)
            let upper = utf8.index(utf8.startIndex, offsetBy: range.upperBound + shift)
            ranges.append(lower..<upper)
        }
        return CSUserQuery.Snippet(attribute: attribute, text: text, highlights: ranges)
    }

    /// How far a snippet's cut may move to fall between words: a longer run without a break (a word spelled
    /// without spaces, a long identifier) is cut between Characters.
    static let wordSnapBytes = snippetBytes / 4

    /// Whether the Character boundary between `before` (its last scalar) and `after` (its first) is inside a word
    /// for the analyzer: CJK characters, emoji, separators and connectors each end one.
    private static func insideWord(_ before: Unicode.Scalar, _ after: Unicode.Scalar) -> Bool {
        Analyzer.continuesWord(before, after: nil) && Analyzer.continuesWord(after, after: before)
    }

    /// Where a snippet cut at the Character boundary `start` begins: past the rest of the word it falls in and the
    /// spaces after it, as Lucene's and tantivy's fragments begin on a word; at most `wordSnapBytes` on and not
    /// past `limit` (the first highlight), else at `start`.
    static func wordStart(_ start: Int, limit: Int, in value: String) -> Int {
        guard start > 0, start < limit else { return start }
        let bound = min(limit, start + wordSnapBytes)
        var index = value.utf8.index(value.startIndex, offsetBy: start)
        guard var previous = value[value.index(before: index)].unicodeScalars.last else { return start }
        var offset = start
        while offset < bound, index < value.endIndex {
            let character = value[index]
            guard let first = character.unicodeScalars.first, let last = character.unicodeScalars.last else { break }
            if !insideWord(previous, first) && !character.isWhitespace { return offset }
            previous = last
            offset += character.utf8.count
            index = value.index(after: index)
        }
        return offset == limit ? limit : start
    }

    /// Where a snippet cut at the Character boundary `end` ends: before the part of the word it falls in and the
    /// spaces before it; at most `wordSnapBytes` back and not before `limit` (the first highlight's end), else at
    /// `end`.
    static func wordEnd(_ end: Int, limit: Int, in value: String) -> Int {
        guard end < value.utf8.count, end > limit else { return end }
        let bound = max(limit, end - wordSnapBytes)
        var index = value.utf8.index(value.startIndex, offsetBy: end)
        guard var next = value[index].unicodeScalars.first else { return end }
        var offset = end
        while offset > bound {
            let before = value.index(before: index)
            let character = value[before]
            guard let first = character.unicodeScalars.first, let last = character.unicodeScalars.last else { break }
            if !insideWord(last, next) && !character.isWhitespace { return offset }
            next = first
            offset -= character.utf8.count
            index = before
        }
        return offset == limit ? limit : end
    }

    /// Each match's range (UTF-8 offsets into `value`) widened to whole Characters: a word the analyzer ends inside
    /// one (before a ZERO WIDTH NON-JOINER, which belongs to the Character before it) is marked with all of that
    /// Character.
    static func characterRanges(_ matches: [(range: Range<Int>, word: Int)], in value: String) -> [(range: Range<Int>, word: Int)] {
        let bounds = characterBoundaries(matches.flatMap { [($0.range.lowerBound, false), ($0.range.upperBound, true)] },
                                         in: value)
        return matches.indices.map { (bounds[2 * $0]..<bounds[2 * $0 + 1], matches[$0].word) }
    }

    /// The Character boundary of `value` at or before each UTF-8 offset (`up`: at or after it), in the order
    /// asked, found in one pass over the Characters: checking offsets one at a time re-segments the Character
    /// they fall in each time, quadratic in a long one (a letter with thousands of combining marks).
    static func characterBoundaries(_ offsets: [(offset: Int, up: Bool)], in value: String) -> [Int] {
        let order = offsets.indices.sorted { offsets[$0].offset < offsets[$1].offset }
        var boundaries = [Int](repeating: 0, count: offsets.count)
        var next = 0, start = 0
        for character in value {
            guard next < order.count else { break }
            let end = start + character.utf8.count
            while next < order.count, case let asked = offsets[order[next]], asked.offset < end {
                boundaries[order[next]] = asked.up && asked.offset > start ? end : start
                next += 1
            }
            start = end
        }
        // Offsets at or past the end.
        for index in order[next...] { boundaries[index] = start }
        return boundaries
    }

    /// The score breakdown: the engine's BM25F explanation times the ranking factor. A result past
    /// `maxRankedResultCount` is explained as rank 0 (what `compare(byRank:)` sees), the score it was selected by
    /// below.
    func explanation(for identifier: String) -> String? {
        let id = ExactIdentifier(identifier)
        guard let address = addresses[id], let base = snapshot.engine.explain(query, address) else { return nil }
        let renown = renowned.contains(address) ? ranking.renownFactor(address) : 1
        let factor = ranking.factor(address) * renown
        // Each signal that moved the factor, with its own factor: they multiply to it.
        var signals = ranking.signals(address).map { "\($0.name) \(Float($0.factor))" }
        if renown != 1 { signals.append("name mentions \(renown)") }
        let score = "\(base.value * factor) = relevance × signals (title coverage, rankingHint, lastUsedDate, engagement, name mentions)\n"
            + "  \(factor) = signals factor (\(signals.joined(separator: " × ")))\n"
            + base.description.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        guard unranked.contains(id) else { return score }
        return "0.0 = unranked: past the first \(rankedCount) results (maxRankedResultCount), selected by\n"
            + score.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
    }
}
