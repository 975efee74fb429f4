/// A query resolved against one snapshot: text analyzed, field scopes resolved, prefix/fuzzy expanded to
/// dictionary terms and statistics (idf) computed snapshot-wide, so every segment scores alike.
indirect enum QueryPlan: Sendable {
    struct GroupEntry: Sendable {
        let field: Int
        let term: [UInt8]
        let isExact: Bool
        /// The term's index in the field's dictionary of each segment (by ordinal; -1: absent), when the
        /// planner already looked it up; nil: each segment's iterator looks it up again.
        var locations: TermLocations? = nil
    }

    /// Where a prefix's terms are in one segment's dictionary of a field.
    enum PrefixPlace: Sendable {
        /// No term starts with the prefix.
        case absent
        /// The longer terms in the precomputed list `list` (`PrefixPostings`, its list 0), and the prefix itself at
        /// `exact` when it is a term (-1: not).
        case list(PrefixPostings, exact: Int32)
        /// Every term with the prefix: these dictionary indices, the prefix itself at `exact` (-1: not a term).
        case terms(Range<Int>, exact: Int32)
    }

    /// A prefix in one field: its place in each segment (by ordinal). A fuzzy prefix has one per near prefix and field.
    struct PrefixField: Sendable {
        let field: Int
        let places: [PrefixPlace]
    }

    case group(entries: [GroupEntry], idf: Float, label: String)
    /// Every term starting with a prefix, scored as one group (as `.group` would score the expanded terms); `key`
    /// is the prefix, nil for the several near prefixes of a fuzzy prefix or when an and-not left some of its
    /// terms out (`QueryPlanner.withoutCovered`).
    case prefix(fields: [PrefixField], key: [UInt8]?, idf: Float, label: String)
    /// A phrase in the fields where each of its terms occurs, with where each term lies in each segment's
    /// dictionary of the field (found while planning, for the idf).
    struct PhraseField: Sendable {
        let field: Int
        let locations: [TermLocations]
    }

    /// Its label (for explanations) is made from `terms` when asked (`PlanLabel.phrase`).
    case phrase(fields: [PhraseField], terms: [[UInt8]], offsets: [UInt32], idf: Float)
    case and([QueryPlan])
    case or([QueryPlan])
    case not(QueryPlan, QueryPlan)
    case range(FieldID, NumericBound?, NumericBound?)
    case all
    case none
    case documents(DocumentSet)
    case boost(QueryPlan, Float)
}

/// Builds plans and per-segment iterators for one snapshot.
struct QueryPlanner {
    let snapshot: IndexSnapshot
    let analyzer = Analyzer()
    /// Leaf plans shared with other searches of the same snapshot (nil: none).
    let memo: PlanMemo?
    /// A text already analyzed for this search (a champion-list search analyzes its lone term first), so planning
    /// it does not analyze it again.
    var analyzed: (text: String, tokens: [Token])? = nil

    init(snapshot: IndexSnapshot, memo: PlanMemo? = nil) {
        self.snapshot = snapshot
        self.memo = memo.flatMap { $0.serves(snapshot) ? $0 : nil }
    }

    var totalDocuments: Int { snapshot.totalDocuments }

    func resolve(_ scope: FieldScope) -> [Int] {
        let ids: [FieldID]
        switch scope {
        case .defaultFields: return snapshot.schema.defaultFieldNumbers
        case .field(let f): ids = [f]
        case .fields(let fs): ids = fs
        }
        var seen = Set<Int>()
        return ids.filter { snapshot.schema.kind($0) == .text }.map { Int($0.rawValue) }.filter { seen.insert($0).inserted }
    }

    /// The term's index in `field`'s dictionary of each segment (-1: absent), nil when no segment has it; `df`
    /// becomes at least the term's document frequency over the segments.
    func locate(field: Int, term: [UInt8], df: inout Int) -> TermLocations? {
        var total = 0
        var locations: TermLocations? = nil
        let segments = snapshot.segments
        term.withUnsafeBufferPointer { key in
            for ordinal in segments.indices {
                guard let terms = segments[ordinal].terms(FieldID(rawValue: UInt16(field))), let index = terms.find(key) else { continue }
                total += Int(terms.docFreq[index])
                if locations == nil { locations = TermLocations(absentIn: segments.count) }
                locations![ordinal] = Int32(index)
            }
        }
        df = max(df, total)
        return locations
    }

    func idf(_ df: Int) -> Float {
        snapshot.parameters.idf(documentFrequency: max(df, 1), documentCount: totalDocuments)
    }

    // MARK: Query → plan

    func plan(_ query: Query, scope: [Int]) -> QueryPlan {
        switch query {
        case .term(let text), .phrase(let text):
            return memoized(0, [text], nil, scope) { textPlan(text, scope: scope) }
        case .prefix(let text):
            return memoized(1, [text], nil, scope) { prefixPlan(text, scope: scope) }
        case .fuzzy(let text, let maxEdits):
            return memoized(2, [text], maxEdits, scope) { fuzzyPlan(text, maxEdits: maxEdits, scope: scope) }
        case .fuzzyPrefix(let text, let maxEdits):
            return memoized(4, [text], maxEdits, scope) { fuzzyPrefixPlan(text, maxEdits: maxEdits, scope: scope) }
        case .terms(let terms):
            return memoized(3, terms, nil, scope) { termsPlan(terms, scope: scope) }
        case .and(let clauses):
            if clauses.isEmpty { return .none }
            return .and(clauses.map { plan($0, scope: scope) })
        case .or(let clauses):
            if clauses.isEmpty { return .none }
            return .or(clauses.map { plan($0, scope: scope) })
        case .not(let include, let exclude):
            let excluded = plan(exclude, scope: scope)
            return .not(withoutCovered(plan(include, scope: scope), by: excluded), excluded)
        case .scoped(let newScope, let inner):
            return plan(inner, scope: resolve(newScope))
        case .range(let field, let lower, let upper):
            return .range(field, lower, upper)
        case .all: return .all
        case .none: return .none
        case .boost(let inner, let factor): return .boost(plan(inner, scope: scope), factor)
        case .documents(let set): return .documents(set)
        }
    }

    /// An and-not's included leaf without what its exclusion holds whole, in the fields the exclusion covers: the
    /// excluded term itself, or the completions of the excluded prefix. They could only add postings to walk and
    /// drop. The leaf keeps its idf, so what it scores is unchanged. A typo-tolerant word's near terms exclude the
    /// word as typed (`.not(.fuzzy(w), excluding: .term(w))`, and `.fuzzyPrefix(w)` excluding `.prefix(w)` for the
    /// word being typed): most near terms of a prefix being typed are its completions, and its nearest near prefix
    /// (the prefix less its last letter) reads them all.
    func withoutCovered(_ include: QueryPlan, by exclude: QueryPlan) -> QueryPlan {
        switch include {
        case .group(let entries, let idf, let label):
            let kept: [QueryPlan.GroupEntry]
            switch exclude {
            case .prefix(let fields, let key?, _, _):
                let covered = Set(fields.map(\.field))
                kept = entries.filter { !(covered.contains($0.field) && $0.term.starts(with: key)) }
            case .group(let excluded, _, _):
                kept = entries.filter { entry in !excluded.contains { $0.field == entry.field && $0.term == entry.term } }
            default:
                return include
            }
            if kept.count == entries.count { return include }
            return kept.isEmpty ? .none : .group(entries: kept, idf: idf, label: label)
        case .prefix(let fields, _, let idf, let label):
            guard case .prefix(let excluded, let key?, _, _) = exclude,
                  let kept = prefixFields(fields, without: key, read: excluded) else { return include }
            // The fields left no longer read one prefix's terms.
            return kept.isEmpty ? .none : .prefix(fields: kept, key: nil, idf: idf, label: label)
        default:
            return include
        }
    }

    /// A prefix plan's fields without the terms of the prefix `key`, which `excluded` reads; nil when they read none
    /// of them. A range of terms loses the key's range: a near prefix ("pack" for "packa") keeps the terms before it
    /// and, as a field entry of its own right after, those after it, so the terms keep their order. A precomputed
    /// list is left out when the key's range holds every term it stands for, and read otherwise: its postings are
    /// merged, so those of the covered terms cannot be told apart.
    private func prefixFields(_ fields: [QueryPlan.PrefixField], without key: [UInt8],
                              read excluded: [QueryPlan.PrefixField]) -> [QueryPlan.PrefixField]? {
        // The key's terms in each field and segment: the range the exclusion reads, looked up where it reads a list.
        var covered: [Int: [Range<Int>]] = [:]
        for prefix in excluded {
            let field = FieldID(rawValue: UInt16(prefix.field))
            covered[prefix.field] = prefix.places.enumerated().map { ordinal, place in
                switch place {
                case .absent: return 0..<0
                case .terms(let range, _): return range
                case .list:
                    guard let terms = snapshot.segments[ordinal].terms(field) else { return 0..<0 }
                    return key.withUnsafeBufferPointer { terms.prefixRange($0) }
                }
            }
        }
        var kept: [QueryPlan.PrefixField] = []
        kept.reserveCapacity(fields.count + 1)
        var changed = false
        for prefix in fields {
            guard let ranges = covered[prefix.field] else {
                kept.append(prefix)
                continue
            }
            var before = prefix.places
            var after = [QueryPlan.PrefixPlace](repeating: .absent, count: prefix.places.count)
            for (ordinal, place) in prefix.places.enumerated() where ordinal < ranges.count && !ranges[ordinal].isEmpty {
                guard let terms = snapshot.segments[ordinal].terms(FieldID(rawValue: UInt16(prefix.field))),
                      let (lower, upper) = Self.place(place, without: ranges[ordinal], of: key, terms: terms) else { continue }
                before[ordinal] = lower
                after[ordinal] = upper
                changed = true
            }
            for places in [before, after] where places.contains(where: { if case .absent = $0 { false } else { true } }) {
                kept.append(QueryPlan.PrefixField(field: prefix.field, places: places))
            }
        }
        return changed ? kept : nil
    }

    /// `place` (in one segment's dictionary `terms`) without the terms at `excluded`, those of the prefix `key`: what
    /// is left before and after them (`.absent` for none), or nil when it reads none of them. Prefix ranges are
    /// nested or apart, so a range is cut in two at most.
    static func place(_ place: QueryPlan.PrefixPlace, without excluded: Range<Int>, of key: [UInt8],
                      terms: FieldTerms) -> (QueryPlan.PrefixPlace, QueryPlan.PrefixPlace)? {
        switch place {
        case .absent:
            return nil
        case .terms(let range, let exact):
            guard range.overlaps(excluded) else { return nil }
            let lower = range.lowerBound..<max(range.lowerBound, min(range.upperBound, excluded.lowerBound))
            let upper = min(range.upperBound, max(range.lowerBound, excluded.upperBound))..<range.upperBound
            func part(_ part: Range<Int>) -> QueryPlan.PrefixPlace {
                part.isEmpty ? .absent : .terms(part, exact: part.contains(Int(exact)) ? exact : -1)
            }
            return (part(lower), part(upper))
        case .list(let list, let exact):
            // Only a list of a prefix of the key, or of a longer prefix, can hold the key's terms.
            let listed = list.key(0)
            guard key.starts(with: listed) || listed.starts(with: key) else { return nil }
            // The list's terms: those under its prefix, but for the prefix itself (read on its own at `exact`).
            var range = listed.withUnsafeBufferPointer { terms.prefixRange($0) }
            if exact >= 0 { range = (range.lowerBound + 1)..<range.upperBound }
            guard range.lowerBound >= excluded.lowerBound, range.upperBound <= excluded.upperBound else { return nil }
            guard exact >= 0, !excluded.contains(Int(exact)) else { return (.absent, .absent) }
            return (.terms(Int(exact)..<Int(exact) + 1, exact: exact), .absent)
        }
    }

    /// A leaf's plan, from the memo when there is one.
    private func memoized(_ kind: UInt8, _ text: [String], _ maxEdits: Int?, _ scope: [Int],
                          _ make: () -> QueryPlan) -> QueryPlan {
        guard let memo else { return make() }
        return memo.plan(PlanMemo.Key(kind: kind, text: text, maxEdits: maxEdits, scope: scope), make)
    }

    /// At least as many documents as `plan` matches in this snapshot (deleted ones included): postings counted
    /// from the document frequencies the plan located, without decoding any.
    func maximumMatches(_ plan: QueryPlan) -> Int {
        switch plan {
        case .group(let entries, _, _):
            var total = 0
            for entry in entries {
                guard let locations = entry.locations else { return totalDocuments }
                for (ordinal, location) in locations.enumerated() where location >= 0 {
                    guard let terms = snapshot.segments[ordinal].terms(FieldID(rawValue: UInt16(entry.field))) else { continue }
                    total += Int(terms.docFreq[Int(location)])
                }
            }
            return min(total, totalDocuments)
        case .prefix(let fields, _, _, _):
            var total = 0
            for prefix in fields {
                let field = FieldID(rawValue: UInt16(prefix.field))
                for (ordinal, place) in prefix.places.enumerated() {
                    let segment = snapshot.segments[ordinal]
                    guard let terms = segment.terms(field) else { continue }
                    switch place {
                    case .absent: break
                    case .list(let list, let exact):
                        total += Int(list.postingCount[0])
                        if exact >= 0 { total += Int(terms.docFreq[Int(exact)]) }
                    case .terms(let range, _):
                        for index in range { total += Int(terms.docFreq[index]) }
                    }
                }
            }
            return min(total, totalDocuments)
        case .and(let clauses): return clauses.map(maximumMatches).min() ?? 0
        case .or(let clauses): return min(clauses.reduce(0) { $0 + maximumMatches($1) }, totalDocuments)
        case .not(let include, _): return maximumMatches(include)
        case .boost(let inner, _): return maximumMatches(inner)
        case .documents(let set): return min(set.count, totalDocuments)
        case .none: return 0
        case .phrase, .range, .all: return totalDocuments
        }
    }

    /// One term in each field of `scope`. Each field's dictionaries are searched once here (the per-segment
    /// iterators reuse the places found), and a field whose segments all lack the term is left out: nothing of it
    /// would be read, and a query's plan and iterators are built and torn down for every search.
    private func termPlan(_ term: [UInt8], scope: [Int], label: String) -> QueryPlan {
        var df = 0
        var located: [QueryPlan.GroupEntry] = []
        located.reserveCapacity(scope.count)
        for field in scope {
            guard let locations = locate(field: field, term: term, df: &df) else { continue }
            located.append(.init(field: field, term: term, isExact: true, locations: locations))
        }
        if df == 0 { return .none }
        return .group(entries: located, idf: idf(df), label: label)
    }

    /// A group of exact terms (from a dictionary walk: often hundreds of neighbours). Sorted bytewise, they are
    /// looked up segment by segment with one moving search per field dictionary instead of a search each.
    private func termsPlan(_ terms: [String], scope: [Int]) -> QueryPlan {
        let keys = Set(terms).map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        guard !keys.isEmpty else { return .none }
        var df = 0
        var located: [QueryPlan.GroupEntry] = []
        located.reserveCapacity(keys.count * scope.count)
        for field in scope {
            var totals = [Int](repeating: 0, count: keys.count)
            var locations = [TermLocations](repeating: TermLocations(absentIn: snapshot.segments.count), count: keys.count)
            for (ordinal, segment) in snapshot.segments.enumerated() {
                guard let dictionary = segment.terms(FieldID(rawValue: UInt16(field))) else { continue }
                var cursor = 0
                for (number, key) in keys.enumerated() {
                    key.withUnsafeBufferPointer { key in
                        cursor = dictionary.lowerBound(key, from: cursor)
                        if cursor < dictionary.count, dictionary.compare(cursor, key) == 0 {
                            totals[number] += Int(dictionary.docFreq[cursor])
                            locations[number][ordinal] = Int32(cursor)
                        }
                    }
                }
            }
            for (number, key) in keys.enumerated() {
                df = max(df, totals[number])
                located.append(.init(field: field, term: key, isExact: true, locations: locations[number]))
            }
        }
        if df == 0 { return .none }
        return .group(entries: located, idf: idf(df), label: "terms \(terms.prefix(5))")
    }

    private func textPlan(_ text: String, scope: [Int]) -> QueryPlan {
        if let word = Self.plainWord(text) { return termPlan(word, scope: scope, label: text) }
        let terms: [[UInt8]], offsets: [UInt32]
        if let words = Self.plainWords(text) {
            terms = words
            offsets = (0..<UInt32(words.count)).map { $0 }
        } else {
            let tokens = analyzed.flatMap { $0.text == text ? $0.tokens : nil } ?? analyzer.tokens(text, mode: .query)
            guard let first = tokens.first else { return .none }
            if tokens.count == 1 {
                return termPlan(Array(first.term.utf8), scope: scope, label: first.term)
            }
            terms = tokens.map { Array($0.term.utf8) }
            offsets = tokens.map { UInt32($0.position - first.position) }
        }
        var idfSum: Float = 0
        // Per scope field, each term's locations; a field lacking a term cannot hold the phrase.
        var located = [[TermLocations]?](repeating: nil, count: scope.count)
        for k in scope.indices {
            var places: [TermLocations] = []
            places.reserveCapacity(terms.count)
            located[k] = places
        }
        for term in terms {
            var df = 0
            for (k, field) in scope.enumerated() {
                let locations = locate(field: field, term: term, df: &df)
                if let locations { located[k]?.append(locations) } else { located[k] = nil }
            }
            if df == 0 { return .none }
            idfSum += idf(df)
        }
        var fields: [QueryPlan.PhraseField] = []
        fields.reserveCapacity(scope.count)
        for k in scope.indices {
            if let locations = located[k] { fields.append(QueryPlan.PhraseField(field: scope[k], locations: locations)) }
        }
        return .phrase(fields: fields, terms: terms, offsets: offsets, idf: idfSum)
    }

    /// The bytes of `text` when the analyzer makes it exactly one query token equal to itself: 1 to
    /// `Analyzer.maxTermBytes` lowercase ASCII letters, as most searched words are. Such a word is planned
    /// without running the analyzer.
    static func plainWord(_ text: String) -> [UInt8]? {
        let word: [UInt8]?? = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.isEmpty, bytes.count <= Analyzer.maxTermBytes,
                  bytes.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return nil }
            return Array(bytes)
        }
        return word ?? nil
    }

    /// The words of `text` when it is two or more `plainWord`s separated by single spaces, as most searched phrases
    /// are: the analyzer makes exactly these query tokens of them, at consecutive positions. Such a phrase is
    /// planned without running the analyzer (which makes a `String` per token).
    static func plainWords(_ text: String) -> [[UInt8]]? {
        let words: [[UInt8]]?? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var words: [[UInt8]] = []
            words.reserveCapacity(bytes.reduce(1) { $0 + ($1 == 0x20 ? 1 : 0) })
            var start = 0
            for index in 0...bytes.count {
                guard index == bytes.count || bytes[index] == 0x20 else {
                    guard bytes[index] &- 0x61 < 26 else { return nil }
                    continue
                }
                let length = index - start
                guard length > 0, length <= Analyzer.maxTermBytes else { return nil }
                words.append(Array(UnsafeBufferPointer(rebasing: bytes[start..<index])))
                start = index + 1
            }
            return words.count > 1 ? words : nil
        }
        return words ?? nil
    }

    /// The folded prefix text with leading and trailing non-word characters removed.
    static func foldedPrefix(_ text: String) -> String {
        trimmedASCII(text) ?? foldedPrefixByScalars(text)
    }

    /// `foldedPrefix`, scalar by scalar (any text).
    static func foldedPrefixByScalars(_ text: String) -> String {
        let folded = Folding.foldScalars(text, options: .all)
        // Format characters are in no term.
        let scalars = Analyzer.droppingFormatCharacters(folded.unicodeScalars)
        func isWord(_ s: Unicode.Scalar) -> Bool {
            s.value < 0x80 ? CharacterClass.ascii[Int(s.value)].isWordCharacter : CharacterClass.classify(s.value) != .separator
        }
        var start = 0, end = scalars.count
        while start < end, !isWord(scalars[start]) { start += 1 }
        while end > start, !isWord(scalars[end - 1]) { end -= 1 }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<end])
        return String(view)
    }

    /// `foldedPrefix` of ASCII text, byte by byte (nil when the text is not ASCII).
    static func trimmedASCII(_ text: String) -> String? {
        let result: String?? = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var start = 0, end = bytes.count
            while start < end, !CharacterClass.ascii[Int(bytes[start])].isWordCharacter { start += 1 }
            while end > start, !CharacterClass.ascii[Int(bytes[end - 1])].isWordCharacter { end -= 1 }
            let word = UnsafeBufferPointer(rebasing: bytes[start..<end])
            return Folding.foldASCII(String(decoding: word, as: UTF8.self), options: .all)
        }
        return result ?? nil
    }

    /// The words of a prefix query's text before the last, and the last one folded (the prefix); nil when no
    /// word has a word character. Trailing words without a word character ("alpha -") leave nothing to
    /// complete: the word before is the prefix.
    static func prefixWords(_ text: String) -> (earlier: [Substring], prefix: String)? {
        if let words = asciiPrefixWords(text) { return words }
        return prefixWordsByCharacters(text)
    }

    /// `prefixWords`, character by character (any text).
    static func prefixWordsByCharacters(_ text: String) -> (earlier: [Substring], prefix: String)? {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        while let last = words.last, foldedPrefix(String(last)).isEmpty { words.removeLast() }
        guard let last = words.popLast() else { return nil }
        return (words, foldedPrefix(String(last)))
    }

    /// `prefixWords` of ASCII text without carriage returns (nil otherwise), split on bytes: each character is
    /// one byte there, so splitting bytes splits characters alike.
    static func asciiPrefixWords(_ text: String) -> (earlier: [Substring], prefix: String)?? {
        let found: [Range<Int>]? = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return nil }
            var words: [Range<Int>] = []
            var start = -1
            for (i, byte) in bytes.enumerated() {
                let separator = byte == 0x20 || byte == 0x09 || byte == 0x0A
                if separator {
                    if start >= 0 { words.append(start..<i) }
                    start = -1
                } else if start < 0 {
                    start = i
                }
            }
            if start >= 0 { words.append(start..<bytes.count) }
            // Trailing words without a word character leave nothing to complete.
            while let last = words.last,
                  !bytes[last].contains(where: { CharacterClass.ascii[Int($0)].isWordCharacter }) { words.removeLast() }
            return words
        } ?? nil
        guard var words = found else { return nil }
        guard let last = words.popLast() else { return .some(nil) }
        let utf8 = text.utf8
        func substring(_ range: Range<Int>) -> Substring {
            text[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)]
        }
        return (words.map(substring), foldedPrefix(String(substring(last))))
    }

    /// Every term starting with the last word (the earlier words as terms). In each segment a field's wide
    /// prefix reads its precomputed list (`PrefixPostings`) and a narrow one its few terms, so no prefix is
    /// expanded to hundreds of terms when one segment holds the field's terms. Its idf is that of its most
    /// frequent term (document frequency summed over segments), as for any term group. Text without a word
    /// character matches nothing.
    private func prefixPlan(_ text: String, scope: [Int]) -> QueryPlan {
        guard let (words, prefix) = Self.prefixWords(text) else { return .none }
        var clauses = words.map { textPlan(String($0), scope: scope) }
        let key = Array(prefix.utf8)
        var fields: [QueryPlan.PrefixField] = []
        var df = 0
        for field in scope {
            guard let (found, largest) = prefixField(key, field: field) else { continue }
            fields.append(found)
            df = max(df, largest)
        }
        if fields.isEmpty { return .none }
        let group = QueryPlan.prefix(fields: fields, key: key, idf: idf(df), label: "\(prefix)*")
        clauses.append(group)
        return clauses.count == 1 ? group : .and(clauses)
    }

    /// The terms starting with `key` in `field`: their place in each segment and the largest document frequency
    /// among them (summed over segments); nil when no segment has one.
    private func prefixField(_ key: [UInt8], field: Int) -> (field: QueryPlan.PrefixField, largest: Int)? {
        var places = [QueryPlan.PrefixPlace](repeating: .absent, count: snapshot.segments.count)
        var fieldDF = 0
        var held: [(terms: FieldTerms, range: Range<Int>)] = []
        key.withUnsafeBufferPointer { k in
            for (ordinal, segment) in snapshot.segments.enumerated() {
                guard let terms = segment.terms(FieldID(rawValue: UInt16(field))) else { continue }
                let range = terms.prefixRange(k)
                guard !range.isEmpty else { continue }
                held.append((terms, range))
                let (place, largest) = Self.prefixPlace(k, range: range, terms: terms, segment: segment, field: field,
                                                        primary: isPrimary(field))
                places[ordinal] = place
                fieldDF = largest
            }
        }
        guard !held.isEmpty else { return nil }
        // Several segments hold terms: a term's frequency is its sum over them.
        return (QueryPlan.PrefixField(field: field, places: places),
                held.count == 1 ? fieldDF : Self.largestDocFreq(held))
    }

    /// Where the terms starting with `key` (at `range`, not empty, of `terms`, one segment's dictionary of
    /// `field`) are read from: the prefix's precomputed list when it has one there, else its few terms; with the
    /// largest document frequency among them.
    static func prefixPlace(_ key: UnsafeBufferPointer<UInt8>, range: Range<Int>, terms: FieldTerms, segment: Segment,
                            field: Int, primary: Bool) -> (place: QueryPlan.PrefixPlace, largest: Int) {
        // The prefix itself, when a term, sorts first among the terms that start with it.
        let exact: Int32 = terms.compare(range.lowerBound, key) == 0 ? Int32(range.lowerBound) : -1
        var largest = exact >= 0 ? Int(terms.docFreq[Int(exact)]) : 0
        if range.count > PrefixPostings.minimumExpansions,
           let list = segment.prefixList(field: field, key: key, terms: terms, range: range, primary: primary) {
            return (.list(list, exact: exact), max(largest, Int(list.maxDocFreq[0])))
        }
        for index in range { largest = max(largest, Int(terms.docFreq[index])) }
        return (.terms(range, exact: exact), largest)
    }

    /// The terms (and list) a prefix reads in one segment's dictionary of `field`, as a group scores them.
    static func foundTerms(_ place: QueryPlan.PrefixPlace, field: Int, terms: FieldTerms, segment: Segment) -> [FoundTerm] {
        switch place {
        case .absent:
            return []
        case .list(let list, let exact):
            var found: [FoundTerm] = []
            if exact >= 0 { found.append(FoundTerm(field: field, terms: terms, index: Int(exact), isExact: true)) }
            found.append(FoundTerm(field: field, terms: terms, index: 0, isExact: false, prefixes: list))
            return found
        case .terms(let range, let exact):
            return range.map { FoundTerm(field: field, terms: terms, index: $0, isExact: $0 == Int(exact)) }
        }
    }

    /// The largest document frequency, summed over segments, of the terms in `ranges` (per segment: its
    /// dictionary of a field and a range of its terms in byte order). The largest single-segment frequency L is
    /// a lower bound, and the term that wins holds at least ⌈L / segments⌉ in some segment: only such terms are
    /// looked up in the other segments (a scan of frequencies, then a moving search per segment). A full merge
    /// of the ranges compared every term of every segment: tens of milliseconds for a one-letter prefix.
    static func largestDocFreq(_ ranges: [(terms: FieldTerms, range: Range<Int>)]) -> Int {
        var lower = 0
        for (terms, range) in ranges {
            terms.docFreq.withUnsafeBufferPointer { frequencies in
                for index in range { lower = max(lower, Int(frequencies[index])) }
            }
        }
        let threshold = UInt32(max(1, (lower + ranges.count - 1) / ranges.count))
        var largest = lower
        for (s, (terms, range)) in ranges.enumerated() {
            // Where each other segment's search resumes: candidates come in byte order.
            var from = ranges.map(\.range.lowerBound)
            for index in range where terms.docFreq[index] >= threshold {
                var total = Int(terms.docFreq[index])
                terms.withTerm(index) { key in
                    for (o, other) in ranges.enumerated() where o != s {
                        let at = other.terms.lowerBound(key, from: from[o])
                        from[o] = at
                        if at < other.range.upperBound, other.terms.compare(at, key) == 0 {
                            total += Int(other.terms.docFreq[at])
                        }
                    }
                }
                largest = max(largest, total)
            }
        }
        return largest
    }

    /// Ascending term indices of one segment's dictionary of a field.
    struct TermList {
        let ordinal: Int
        let terms: FieldTerms
        let indices: [Int]
    }

    /// Merges per-segment lists of one field into its distinct terms in byte order, each with its document
    /// frequency summed over the lists and its index in every segment (-1: not listed). A k-way merge of the
    /// sorted lists builds each distinct term once, instead of hashing a new copy per segment it occurs in.
    func mergeTerms(_ lists: [TermList], _ body: ([UInt8], Int, TermLocations) -> Void) {
        let segmentCount = snapshot.segments.count
        var heads = [Int](repeating: 0, count: lists.count)
        while true {
            var best = -1
            for s in lists.indices where heads[s] < lists[s].indices.count {
                if best < 0 || Self.compare(lists[s], lists[s].indices[heads[s]], lists[best].terms, lists[best].indices[heads[best]]) < 0 { best = s }
            }
            guard best >= 0 else { return }
            let smallest = lists[best], first = smallest.indices[heads[best]]
            let term = Array(smallest.terms.bytes[Int(smallest.terms.offsets[first])..<Int(smallest.terms.offsets[first + 1])])
            var df = 0
            var locations = TermLocations(absentIn: segmentCount)
            for s in lists.indices where heads[s] < lists[s].indices.count {
                guard s == best || Self.compare(lists[s], lists[s].indices[heads[s]], smallest.terms, first) == 0 else { continue }
                let index = lists[s].indices[heads[s]]
                df += Int(lists[s].terms.docFreq[index])
                locations[lists[s].ordinal] = Int32(index)
                heads[s] += 1
            }
            body(term, df, locations)
        }
    }

    /// Byte order of term `x` of a list's dictionary and term `y` of another dictionary.
    private static func compare(_ a: TermList, _ x: Int, _ b: FieldTerms, _ y: Int) -> Int {
        a.terms.withTerm(x) { left in -b.compare(y, left) }
    }

    /// Default typo budget: none below 5 characters, 1 from 5, 2 from 9; none for a number (decimal digits only),
    /// whose near neighbours are other numbers, as meaningful as it is (invoice 12345 is not 12346), where a word's
    /// are mostly no words. Meilisearch (`disableOnNumbers`) and Typesense (`enable_typos_for_numerical_tokens`)
    /// offer the same rule as an option.
    static func typoBudget(_ term: String) -> Int {
        let length = term.unicodeScalars.count
        guard length >= 5, !term.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .decimalNumber }) else {
            return 0
        }
        return typoBudget(length: length)
    }

    /// The typo budget of a word of `length` characters: none below 5, 1 from 5, 2 from 9.
    static func typoBudget(length: Int) -> Int { length >= 9 ? 2 : length >= 5 ? 1 : 0 }

    private func fuzzyPlan(_ text: String, maxEdits: Int?, scope: [Int]) -> QueryPlan {
        let term = Self.foldedPrefix(text)
        guard !term.isEmpty else { return .none }
        let edits = min(max(maxEdits ?? Self.typoBudget(term), 0), 2)
        let key = Array(term.utf8)
        var entries: [QueryPlan.GroupEntry] = []
        var frequencies: [Int] = []
        // The walk finds every near term of each segment, so the places recorded are complete and the
        // per-segment iterators need not look each term up again.
        let near = nearTerms(key, maxEdits: edits, scope: scope)
        for (position, field) in scope.enumerated() {
            mergeTerms(near[position]) { bytes, df, locations in
                // The stand-in for overlong words is within an edit or two of any short term, but no word.
                guard bytes != Analyzer.overlongBytes else { return }
                entries.append(.init(field: field, term: bytes, isExact: bytes == key, locations: locations))
                frequencies.append(df)
            }
        }
        guard !entries.isEmpty else { return .none }
        if entries.count > IndexSnapshot.maxExpansions {
            // Only near terms a live document holds compete for the cap, or the answer would depend on deletions.
            let held = entries.indices.filter { holdsLive(entries[$0]) }
            entries = held.map { entries[$0] }
            frequencies = held.map { frequencies[$0] }
        }
        if entries.count > IndexSnapshot.maxExpansions {
            let kept = Self.nearest(entries, frequencies: frequencies, to: key, keeping: IndexSnapshot.maxExpansions)
            entries = kept.map { entries[$0] }
            frequencies = kept.map { frequencies[$0] }
        }
        return .group(entries: entries, idf: idf(frequencies.max() ?? 0), label: "\(term)~\(edits)")
    }

    /// The indices (ascending) of the `count` expansions nearest `key`: fewest edits (the term itself first), then
    /// most documents, then field and byte order. Lucene's fuzzy query keeps its best-scoring expansions the same
    /// way; cutting in field order instead dropped whole later fields, the exact term among them.
    static func nearest(_ entries: [QueryPlan.GroupEntry], frequencies: [Int], to key: [UInt8], keeping count: Int) -> [Int] {
        let query = FuzzyWalk.units(of: key).units
        let distances = entries.map { FuzzyWalk.distance(FuzzyWalk.units(of: $0.term).units, query) }
        let order = entries.indices.sorted { a, b in
            (distances[a], -frequencies[a], a) < (distances[b], -frequencies[b], b)
        }
        return order.prefix(count).sorted()
    }

    /// Every term with a prefix within the typo budget of the folded text (`.fuzzyPrefix`): the terms under its near
    /// prefixes (`nearestPrefixes`), each read in each field and segment as a prefix is (a wide one from its
    /// precomputed list), scored as one group whose idf is that of its most frequent term.
    private func fuzzyPrefixPlan(_ text: String, maxEdits: Int?, scope: [Int]) -> QueryPlan {
        let term = Self.foldedPrefix(text)
        guard !term.isEmpty else { return .none }
        let edits = min(max(maxEdits ?? Self.typoBudget(term), 0), 2)
        var fields: [QueryPlan.PrefixField] = []
        var df = 0
        for prefix in nearestPrefixes(Array(term.utf8), maxEdits: edits, scope: scope) {
            for field in scope {
                guard let (found, largest) = prefixField(prefix, field: field) else { continue }
                fields.append(found)
                df = max(df, largest)
            }
        }
        if fields.isEmpty { return .none }
        return .prefix(fields: fields, key: nil, idf: idf(df), label: "\(term)*~\(edits)")
    }

    /// The near prefixes of `key` within `maxEdits` in `scope`'s terms (walked as `nearTerms` walks them), in byte
    /// order, but for the non-empty ones the stand-in for overlong words starts with (it is no word). Past
    /// `IndexSnapshot.maxNearPrefixes`, those no live document holds go (`holdsLiveTerm`: deleted documents' terms
    /// would crowd out a live one's, so the answer depended on what was deleted); if still past it, the one the
    /// typed text starts with (its completions are the text's exact ones) is kept, then those sharing the longest
    /// start with the text (first letters are seldom the mistyped ones), then the first in byte order. Each is at
    /// the edge of the budget (the walk stops at the first prefix within it), so edits do not tell them apart; and
    /// the ranking uses the bytes alone, not the terms under each, which a walk counts per list, so the same
    /// documents match whatever the segment layout.
    func nearestPrefixes(_ key: [UInt8], maxEdits: Int, scope: [Int]) -> [[UInt8]] {
        var found = Set<[UInt8]>()
        func add<List: SortedTerms>(_ list: List, _ near: [FuzzyWalk.NearPrefix]) {
            for prefix in near {
                let bytes = list.withTerm(prefix.terms.lowerBound) { Array($0.prefix(prefix.length)) }
                // The empty prefix (a budget covering the whole text) is every term's, not the stand-in's.
                guard bytes.isEmpty || !Analyzer.overlongBytes.starts(with: bytes) else { continue }
                found.insert(bytes)
            }
        }
        let shared = Self.walksVocabularies(scope)
        var covered = Set<Int>()
        if shared, let vocabulary = snapshot.vocabularies.vocabulary(for: snapshot.segments, scope: scope) {
            add(vocabulary, vocabulary.nearPrefixes(key, maxEdits: maxEdits))
            for (ordinal, segment) in snapshot.segments.enumerated()
            where vocabulary.positions[ObjectIdentifier(segment)] != nil { covered.insert(ordinal) }
        }
        for (ordinal, segment) in snapshot.segments.enumerated() where !covered.contains(ordinal) {
            if shared {
                let vocabulary = segment.vocabulary(for: scope)
                add(vocabulary, vocabulary.nearPrefixes(key, maxEdits: maxEdits))
                continue
            }
            for field in scope {
                guard let terms = segment.terms(FieldID(rawValue: UInt16(field))) else { continue }
                add(terms, terms.fuzzyPrefixes(key, maxEdits: maxEdits))
            }
        }
        // Byte order; a near prefix under another (each list's walk keeps the shorter) would read its terms twice.
        var prefixes: [[UInt8]] = []
        for prefix in found.sorted(by: { $0.lexicographicallyPrecedes($1) })
        where !(prefixes.last.map { prefix.starts(with: $0) } ?? false) {
            prefixes.append(prefix)
        }
        guard prefixes.count > IndexSnapshot.maxNearPrefixes else { return prefixes }
        // Only near prefixes a live document holds compete for the cap, or the answer would depend on deletions.
        prefixes.removeAll { !holdsLiveTerm(withPrefix: $0, scope: scope) }
        guard prefixes.count > IndexSnapshot.maxNearPrefixes else { return prefixes }
        // The one the typed text starts with holds its exact completions: always kept.
        func rank(_ i: Int) -> (Int, Int, Int) {
            let shared = zip(key, prefixes[i]).prefix { $0 == $1 }.count
            return (key.starts(with: prefixes[i]) ? 0 : 1, -shared, i)
        }
        let order = prefixes.indices.sorted { rank($0) < rank($1) }
        return order.prefix(IndexSnapshot.maxNearPrefixes).sorted().map { prefixes[$0] }
    }

    /// Whether a live document holds a term starting with `prefix` in a field of `scope`, in a segment of the
    /// snapshot: deleted documents' terms stay in the dictionaries until a merge drops them, and a cached
    /// `SnapshotVocabulary` may still cover segments the snapshot no longer holds. Stops at the first live posting.
    func holdsLiveTerm(withPrefix prefix: [UInt8], scope: [Int]) -> Bool {
        prefix.withUnsafeBufferPointer { key in
            for (ordinal, segment) in snapshot.segments.enumerated() {
                let alive = snapshot.live[ordinal]
                var cursor: PostingCursor?
                for field in scope {
                    guard let terms = segment.terms(FieldID(rawValue: UInt16(field))) else { continue }
                    for index in terms.prefixRange(key) {
                        let reader = cursor ?? PostingCursor(segment: segment)
                        cursor = reader
                        reader.position(terms: terms, index: index, field: field)
                        while reader.next() != PostingCursor.end {
                            if alive[reader.doc] { return true }
                        }
                    }
                }
            }
            return false
        }
    }

    /// Whether a live document holds `entry`'s term in its field, in a segment where the planner located it:
    /// deleted documents' terms stay in the dictionaries until a merge drops them. Stops at the first live posting.
    func holdsLive(_ entry: QueryPlan.GroupEntry) -> Bool {
        guard let locations = entry.locations else { return true }
        for (ordinal, segment) in snapshot.segments.enumerated() where locations[ordinal] >= 0 {
            guard let terms = segment.terms(FieldID(rawValue: UInt16(entry.field))) else { continue }
            let alive = snapshot.live[ordinal]
            let cursor = PostingCursor(segment: segment)
            cursor.position(terms: terms, index: Int(locations[ordinal]), field: entry.field)
            while cursor.next() != PostingCursor.end {
                if alive[cursor.doc] { return true }
            }
        }
        return false
    }

    /// Whether a fuzzy lookup over `scope` walks vocabularies (several fields, few enough for their bits) rather
    /// than the one field's own dictionary.
    static func walksVocabularies(_ scope: [Int]) -> Bool {
        scope.count > 1 && scope.count <= SegmentVocabulary.maximumScope
    }

    /// Per field of `scope` (same order), the per-segment lists of the terms within `maxEdits` of `key`. With
    /// several fields, each segment is walked once, over its vocabulary of the scope (`SegmentVocabulary`), and
    /// the near terms found are looked up in the fields that hold them; one field walks its own dictionary.
    func nearTerms(_ key: [UInt8], maxEdits: Int, scope: [Int]) -> [[TermList]] {
        var lists = [[TermList]](repeating: [], count: scope.count)
        let shared = Self.walksVocabularies(scope)
        // The segments the snapshot-wide vocabulary covers get one walk between them.
        var covered = Set<Int>()
        if shared, let vocabulary = snapshot.vocabularies.vocabulary(for: snapshot.segments, scope: scope) {
            covered = nearTerms(key, maxEdits: maxEdits, scope: scope, in: vocabulary, into: &lists)
        }
        for (ordinal, segment) in snapshot.segments.enumerated() where !covered.contains(ordinal) {
            guard shared else {
                for (position, field) in scope.enumerated() {
                    guard let terms = segment.terms(FieldID(rawValue: UInt16(field))) else { continue }
                    let near = terms.fuzzy(key, maxEdits: maxEdits)
                    if !near.isEmpty { lists[position].append(TermList(ordinal: ordinal, terms: terms, indices: near)) }
                }
                continue
            }
            let vocabulary = segment.vocabulary(for: scope)
            let near = vocabulary.nearTerms(key, maxEdits: maxEdits)
            guard !near.isEmpty else { continue }
            var indices = [[Int]](repeating: [], count: scope.count)
            for term in near {
                vocabulary.withTerm(term) { locate($0, fields: vocabulary.fields[term], in: segment, scope: scope, into: &indices) }
            }
            append(indices, ordinal: ordinal, scope: scope, to: &lists)
        }
        return lists
    }

    /// Appends to `indices[bit]`, for each bit of `fields` (the scope positions a vocabulary marks as holding
    /// `term` in `segment`), the term's index in that field's dictionary.
    private func locate(_ term: UnsafeBufferPointer<UInt8>, fields: UInt32, in segment: Segment, scope: [Int],
                        into indices: inout [[Int]]) {
        var mask = fields
        while mask != 0 {
            let bit = mask.trailingZeroBitCount
            mask &= mask - 1
            // The vocabulary is the union of these dictionaries: the term is there.
            if let index = segment.terms(FieldID(rawValue: UInt16(scope[bit])))?.find(term) {
                indices[bit].append(index)
            } else {
                assertionFailure("vocabulary term missing from its field's dictionary")
            }
        }
    }

    /// One segment's term indices per scope position, as the per-field lists `mergeTerms` takes.
    private func append(_ indices: [[Int]], ordinal: Int, scope: [Int], to lists: inout [[TermList]]) {
        for (bit, field) in scope.enumerated() where !indices[bit].isEmpty {
            // Vocabulary order is byte order, as in each dictionary: the indices are ascending.
            lists[bit].append(TermList(ordinal: ordinal, terms: snapshot.segments[ordinal].terms(FieldID(rawValue: UInt16(field)))!,
                                       indices: indices[bit]))
        }
    }

    /// The near terms of the segments `vocabulary` covers, appended to `lists` (per scope position, one list
    /// per segment); returns the ordinals of those segments.
    private func nearTerms(_ key: [UInt8], maxEdits: Int, scope: [Int], in vocabulary: SnapshotVocabulary,
                           into lists: inout [[TermList]]) -> Set<Int> {
        // Per covered segment (by its position in the vocabulary): its ordinal here, if still in the snapshot.
        var ordinals = [Int?](repeating: nil, count: vocabulary.segments.count)
        for (ordinal, segment) in snapshot.segments.enumerated() {
            if let position = vocabulary.positions[ObjectIdentifier(segment)] { ordinals[position] = ordinal }
        }
        var indices = [[[Int]]](repeating: [], count: ordinals.count)
        for term in vocabulary.nearTerms(key, maxEdits: maxEdits) {
            vocabulary.withTerm(term) { bytes in
                for entry in Int(vocabulary.entryStart[term])..<Int(vocabulary.entryStart[term + 1]) {
                    let position = Int(vocabulary.entrySegment[entry])
                    guard let ordinal = ordinals[position] else { continue }
                    if indices[position].isEmpty { indices[position] = [[Int]](repeating: [], count: scope.count) }
                    locate(bytes, fields: vocabulary.entryFields[entry], in: snapshot.segments[ordinal], scope: scope,
                           into: &indices[position])
                }
            }
        }
        var covered = Set<Int>()
        for (position, ordinal) in ordinals.enumerated() {
            guard let ordinal else { continue }
            covered.insert(ordinal)
            if !indices[position].isEmpty { append(indices[position], ordinal: ordinal, scope: scope, to: &lists) }
        }
        return covered
    }

    // MARK: Plan → iterator

    func factors(_ field: Int) -> [Float] {
        field < snapshot.fieldFactors.count ? snapshot.fieldFactors[field] : FieldNorm.lengths.map { _ in 1 }
    }

    /// Scales that turn a block's stored impact (or max tf when b = 0) into a weighted-frequency bound.
    func impactScales(_ field: Int, _ segment: Segment) -> (Float, Float) {
        let weight = snapshot.schema.info(FieldID(rawValue: UInt16(field)))?.options.weight ?? 1
        let b = snapshot.parameters.b
        guard b > 0, field < snapshot.fieldAverages.count, field < segment.impactConstants.count else { return (0, max(weight, 0)) }
        let average = snapshot.fieldAverages[field]
        let c = average * (1 - b) / b
        let c0 = segment.impactConstants[field]
        let ratio: Float = c >= c0 ? 1 : (c > 0 ? c0 / c : .infinity)
        return (max(weight, 0) * average / b * ratio, max(weight, 0))
    }

    func isPrimary(_ field: Int) -> Bool {
        snapshot.schema.info(FieldID(rawValue: UInt16(field)))?.options.primary ?? false
    }

    /// A wide group is walked lazily when its postings outnumber the driving clause's matches this many times.
    /// 4 when a wide prefix was hundreds of term cursors; with prefix lists and bit-packed blocks a seek costs
    /// less: the 41 median user texts run 3.1% fewer instructions at 1 (2: 2.0%; 16: 6.7% more; lazy unless the
    /// driver holds four times the postings: 7.6% more), all 200 1.5% fewer (BENCHMARKS.md §AS).
    static let lazyGroupRatio = 1
    /// A wide group is accumulated densely when it has a posting per this many documents of the segment (its
    /// matches are collected by a scan of a bit per document).
    static let denseDensity = 1024

    /// Whether a plan holds a group wide enough to be materialized (see `iterator`'s `driver`).
    private static func hasWideGroup(_ plan: QueryPlan) -> Bool {
        switch plan {
        case .group(let entries, _, _): return entries.count >= MaterializedGroupIterator.minimumSources
        case .prefix(let fields, _, _, _):
            // Wide when some segment reads a list for it, or many terms over all its fields (as a group counts).
            // A loop, not `map(\.places.count)`: a nested key path is projected through the runtime, which cost a
            // user query of a rare prefix 6% of its time (BENCHMARKS.md §AO).
            var segments = 0
            for prefix in fields { segments = max(segments, prefix.places.count) }
            return (0..<segments).contains { ordinal in
                var terms = 0
                for prefix in fields where ordinal < prefix.places.count {
                    switch prefix.places[ordinal] {
                    case .list: return true
                    case .terms(let range, _): terms += range.count
                    case .absent: break
                    }
                }
                return terms >= MaterializedGroupIterator.minimumSources
            }
        case .boost(let inner, _): return hasWideGroup(inner)
        case .or(let clauses): return clauses.contains(where: hasWideGroup)
        case .not(let include, _): return hasWideGroup(include)
        default: return false
        }
    }

    /// The iterator of `plan` over one segment. `driver` is the estimated match count of the cheapest clause
    /// of an enclosing conjunction (`Int.max`: none): this iterator will only be asked about that many
    /// candidates, so a wide expansion (a prefix) is then walked lazily, seeking its postings to the
    /// candidates, instead of decoding all its postings into a per-document accumulator. Either way the
    /// scores are the same.
    ///
    /// `root`: the plan is the whole ranked query (not a clause of a conjunction that a rarer clause could
    /// lead), so evaluating a small group up front is never wasted.
    ///
    /// `batched`: the iterator is a wide clause of a root `CandidateConjunctionIterator` whose driving clause lists
    /// at most `CandidateConjunctionIterator.wholeList` matches, so unless it leads after all it is asked only to
    /// score one batch of candidates: a wide group walked lazily then needs no object per term
    /// (`CandidateGroupIterator`).
    mutating func iterator(_ plan: QueryPlan, segment ordinal: Int, scored: Bool, driver: Int = .max,
                           root: Bool = false, batched: Bool = false) -> DocIterator {
        let segment = snapshot.segments[ordinal]
        switch plan {
        case .group(let entries, let idf, let label):
            // This segment's terms first (no objects yet): their count and postings decide the evaluation.
            var found: [FoundTerm] = []
            found.reserveCapacity(entries.count)
            for entry in entries {
                guard let terms = segment.terms(FieldID(rawValue: UInt16(entry.field))) else { continue }
                let index: Int
                if let locations = entry.locations {
                    guard ordinal < locations.count, locations[ordinal] >= 0 else { continue }
                    index = Int(locations[ordinal])
                } else {
                    guard let at = entry.term.withUnsafeBufferPointer({ terms.find($0) }) else { continue }
                    index = at
                }
                found.append(FoundTerm(field: entry.field, terms: terms, index: index, isExact: entry.isExact))
            }
            return termGroup(found, segment: segment, scored: scored, driver: driver, root: root, batched: batched,
                             idf: idf, label: label)
        case .prefix(let fields, _, let idf, let label):
            var found: [FoundTerm] = []
            for prefix in fields {
                guard ordinal < prefix.places.count,
                      let terms = segment.terms(FieldID(rawValue: UInt16(prefix.field))) else { continue }
                found += Self.foundTerms(prefix.places[ordinal], field: prefix.field, terms: terms, segment: segment)
            }
            return termGroup(found, segment: segment, scored: scored, driver: driver, root: root, batched: batched,
                             idf: idf, label: label)
        case .phrase(let fields, let terms, let offsets, let idf):
            var sources: [TermSource] = []
            sources.reserveCapacity(fields.count)
            fieldLoop: for entry in fields {
                let field = entry.field
                guard let dictionary = segment.terms(FieldID(rawValue: UInt16(field))) else { continue }
                var cursors: [PostingCursor] = []
                cursors.reserveCapacity(entry.locations.count)
                for locations in entry.locations {
                    guard ordinal < locations.count, locations[ordinal] >= 0 else { continue fieldLoop }
                    cursors.append(PostingCursor(segment: segment, terms: dictionary, index: Int(locations[ordinal]),
                                                 field: field))
                }
                let norms = field < segment.norms.count ? segment.norms[field] : []
                let (impactScale, tfScale) = impactScales(field, segment)
                sources.append(PhraseSource(cursors: cursors, offsets: offsets, field: field,
                                            fieldFactor: factors(field), norms: norms, primary: isPrimary(field),
                                            impactScale: impactScale, tfScale: tfScale, dictionary: dictionary,
                                            entries: { Int(entry.locations[$0][ordinal]) }))
            }
            if sources.isEmpty { return EmptyIterator() }
            return TermGroupIterator(sources: sources, idf: idf, boost: 1, parameters: snapshot.parameters,
                                     label: .phrase(terms))
        case .and(let clauses):
            // Clauses without wide expansions first: the cheapest of them drives the conjunction.
            var built = [DocIterator?](repeating: nil, count: clauses.count)
            var lead = driver
            for (index, clause) in clauses.enumerated() where !Self.hasWideGroup(clause) {
                let child = iterator(clause, segment: ordinal, scored: scored, driver: driver)
                if child is EmptyIterator { return child }
                built[index] = child
                lead = min(lead, child.cost)
            }
            // At the root of a ranked search a lead of up to `wholeList` matches is scored in one batch.
            let batched = root && scored && lead <= CandidateConjunctionIterator.wholeList
            for (index, clause) in clauses.enumerated() where built[index] == nil {
                let child = iterator(clause, segment: ordinal, scored: scored, driver: lead, batched: batched)
                if child is EmptyIterator { return child }
                built[index] = child
            }
            let children = built.compactMap { $0 }
            if children.count == 1 { return children[0] }
            // At the root of a ranked search: term at a time over the lead's candidates.
            if root && scored { return CandidateConjunctionIterator(children) }
            return ConjunctionIterator(children)
        case .or(let clauses):
            let children = clauses.map { iterator($0, segment: ordinal, scored: scored, driver: driver, batched: batched) }
                .filter { !($0 is EmptyIterator) }
            if children.isEmpty { return EmptyIterator() }
            return children.count == 1 ? children[0] : DisjunctionIterator(children)
        case .not(let include, let exclude):
            let inner = iterator(include, segment: ordinal, scored: scored, driver: driver, batched: batched)
            if inner is EmptyIterator { return inner }
            // The exclusion is asked only about the included matches: driven by them, a wide one (the typed prefix
            // a word's near prefixes exclude) seeks to them instead of accumulating the whole segment.
            let excluded = iterator(exclude, segment: ordinal, scored: false, driver: min(driver, inner.cost))
            if excluded is EmptyIterator { return inner }
            return ExclusionIterator(include: inner, exclude: excluded)
        case .range(let field, let lower, let upper):
            return ListIterator(docs: rangeDocs(segment, field: field, lower: lower, upper: upper), constant: 1,
                                label: "range \(field)")
        case .all:
            return AllIterator(count: segment.documentCount, constant: 1)
        case .none:
            return EmptyIterator()
        case .documents(let set):
            let docs = ordinal < set.perSegment.count ? set.perSegment[ordinal].filter { Int($0) < segment.documentCount } : []
            return ListIterator(docs: docs, constant: 1, label: "document set")
        case .boost(let inner, let factor):
            let child = iterator(inner, segment: ordinal, scored: scored, driver: driver, root: root, batched: batched)
            return child is EmptyIterator ? child : BoostIterator(child, factor: factor)
        }
    }

    /// A group's term in one segment: its field, dictionary, index there and whether it is the query text; or,
    /// with `prefixes`, list `index` of those standing for a wide prefix's longer terms.
    struct FoundTerm {
        let field: Int
        let terms: FieldTerms
        let index: Int
        let isExact: Bool
        var prefixes: PrefixPostings? = nil

        var postings: Int { prefixes.map { Int($0.postingCount[index]) } ?? Int(terms.docFreq[index]) }
    }

    /// The iterator of a term group in one segment, over the terms (and prefix lists) `found` there (see
    /// `iterator` for `driver`, `root` and `batched`).
    private func termGroup(_ found: [FoundTerm], segment: Segment, scored: Bool, driver: Int, root: Bool, batched: Bool,
                           idf: Float, label: String) -> DocIterator {
        if found.isEmpty { return EmptyIterator() }
        var postings = 0
        var hasList = false
        for term in found {
            postings += term.postings
            if term.prefixes != nil { hasList = true }
        }
        // A small group at the root of a ranked search is scored up front by a sparse merge; a wide one (many
        // terms, or a prefix list) by dense accumulation when it covers a good part of the segment, but not when
        // a much rarer conjunction clause drives (seeking to its candidates touches fewer postings). Either way
        // one repositioned cursor decodes the terms in turn. Otherwise the group walks a cursor per term.
        let sparse = root && scored && found.count <= MaterializedGroupIterator.sparseMaximumSources
            && postings <= MaterializedGroupIterator.sparseMaximumPostings
        let dense = !sparse && (found.count >= MaterializedGroupIterator.minimumSources || hasList)
            && postings * Self.denseDensity >= segment.documentCount && driver >= postings / Self.lazyGroupRatio
        if sparse || dense {
            let terms = found.map { term in
                MaterializedGroupIterator.Term(
                    terms: term.terms, index: term.index, field: term.field, fieldFactor: factors(term.field),
                    norms: term.field < segment.norms.count ? segment.norms[term.field] : [],
                    primary: isPrimary(term.field), isExact: term.isExact, prefixes: term.prefixes)
            }
            return sparse
                ? MaterializedGroupIterator(sparse: terms, segment: segment, idf: idf, boost: 1,
                                            parameters: snapshot.parameters, label: label)
                : MaterializedGroupIterator(dense: terms, segment: segment, idf: idf, boost: 1,
                                            parameters: snapshot.parameters, label: label)
        }
        // Scored only at one batch of candidates: plain terms and one cursor, unless a precomputed list stands in.
        // (A clause of fewer postings than the driver's may lead after all: its listing builds the sources then.)
        if batched, scored, !hasList, found.count > TermGroupIterator.maxScoreSources {
            return candidateGroup(found, segment: segment, idf: idf, label: label)
        }
        return walkedGroup(found, segment: segment, idf: idf, label: label)
    }

    /// A group walked document at a time: a source (and cursor) per term and field.
    private func walkedGroup(_ found: [FoundTerm], segment: Segment, idf: Float, label: String) -> TermGroupIterator {
        TermGroupIterator(sources: termSources(found, segment: segment), idf: idf, boost: 1,
                          parameters: snapshot.parameters, label: .text(label))
    }

    /// A wide group as `CandidateGroupIterator` terms, its fields' scoring data found once per field.
    private func candidateGroup(_ found: [FoundTerm], segment: Segment, idf: Float, label: String) -> DocIterator {
        var fields: [CandidateGroupIterator.Field] = []
        var terms: [CandidateGroupIterator.Term] = []
        terms.reserveCapacity(found.count)
        for term in found {
            let slot = fields.firstIndex { $0.field == term.field } ?? {
                fields.append(CandidateGroupIterator.Field(
                    field: term.field, fieldFactor: factors(term.field),
                    norms: term.field < segment.norms.count ? segment.norms[term.field] : [], primary: isPrimary(term.field)))
                return fields.count - 1
            }()
            terms.append(CandidateGroupIterator.Term(terms: term.terms, index: term.index, slot: slot, isExact: term.isExact))
        }
        let planner = self
        return CandidateGroupIterator(terms: terms, fields: fields, segment: segment, idf: idf, boost: 1,
                                      parameters: snapshot.parameters) {
            planner.walkedGroup(found, segment: segment, idf: idf, label: label)
        }
    }

    /// One source per term (and prefix list) of a group: a cursor on its postings each.
    private func termSources(_ found: [FoundTerm], segment: Segment) -> [TermSource] {
        var sources: [TermSource] = []
        sources.reserveCapacity(found.count)
        for term in found {
            let norms = term.field < segment.norms.count ? segment.norms[term.field] : []
            let (impactScale, tfScale) = impactScales(term.field, segment)
            if let prefixes = term.prefixes {
                sources.append(PrefixSource(list: prefixes, index: term.index, field: term.field, fieldFactor: factors(term.field),
                                            norms: norms, primary: isPrimary(term.field), impactScale: impactScale,
                                            tfScale: tfScale))
                continue
            }
            sources.append(PostingSource(cursor: PostingCursor(segment: segment, terms: term.terms, index: term.index, field: term.field),
                                         terms: term.terms, term: term.index, field: term.field, fieldFactor: factors(term.field), norms: norms,
                                         primary: isPrimary(term.field), isExact: term.isExact,
                                         impactScale: impactScale, tfScale: tfScale))
        }
        return sources
    }

    private func rangeDocs(_ segment: Segment, field: FieldID, lower: NumericBound?, upper: NumericBound?) -> [UInt32] {
        let f = Int(field.rawValue)
        guard f < segment.numericOffsets.count, !segment.numericOffsets[f].isEmpty else { return [] }
        let offsets = segment.numericOffsets[f], values = segment.numericValues[f]
        var docs: [UInt32] = []
        for doc in 0..<segment.documentCount {
            for k in Int(offsets[doc])..<Int(offsets[doc + 1]) where NumericBound.contains(values[k], lower: lower, upper: upper) {
                docs.append(UInt32(doc))
                break
            }
        }
        return docs
    }
}
