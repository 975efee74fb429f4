import Synchronization

/// The near terms a vocabulary's fuzzy walk found, by query word and edit budget, kept for the vocabulary's life;
/// and, for a word being typed, its near prefixes (`FuzzyWalk.nearPrefixes`, as (first term, end, length) triples).
///
/// What a person types repeats its words at every keystroke ("wiresh", "wiresha", "wireshar"), and each
/// typo-tolerant search walks the vocabulary near every word again: the walk was the largest part of planning a
/// median as-you-type text. A vocabulary never changes, so the terms a walk found stay right; a search of a word
/// walked before reads them here. At most `capacity` words are kept, forgotten all at once when that many
/// accumulate (type-ahead over endless distinct words cannot grow it without bound).
final class NearTermsCache: Sendable {
    struct Key: Hashable, Sendable {
        let word: [UInt8]
        let maxEdits: Int
        /// The walk's prefix mode: near prefixes, not near terms.
        var prefix = false
    }

    /// Words kept, at most.
    static let capacity = 1_024

    private let entries = Mutex<[Key: [Int]]>([:])

    init() {}

    /// The near terms (or, `prefix`, near prefixes) of `word` within `maxEdits`: the ones found before, or
    /// `walk()`'s, kept.
    func near(_ word: [UInt8], maxEdits: Int, prefix: Bool = false, walk: () -> [Int]) -> [Int] {
        let key = Key(word: word, maxEdits: maxEdits, prefix: prefix)
        if let found = entries.withLock({ $0[key] }) { return found }
        let found = walk()
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = found
        }
        return found
    }

    /// Words kept.
    var count: Int { entries.withLock { $0.count } }

    /// Heap bytes of the kept words and terms (about: the table's own share is estimated).
    var memoryBytes: Int {
        entries.withLock { entries in entries.reduce(0) { $0 + 64 + $1.key.word.count + $1.value.count * 8 } }
    }
}
