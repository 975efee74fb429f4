import Synchronization

/// One segment's share of `NameMentions` for a name field and a scope: its named documents (those whose name field
/// holds one term), and for each name how many of the segment's documents hold it in a scope field, deleted ones
/// included.
///
/// A segment never changes, so this is built once (`Segment.names(field:scope:)`) and shared by every snapshot
/// that holds the segment: a commit counts its new segment's names instead of the whole index's again. What a
/// snapshot's deletions take away (`deadHolders(live:in:)`) comes from the deleted documents' stored texts, each
/// analyzed once, since deletions only grow while a segment lives.
final class SegmentNames: Sendable {
    let field: Int
    let scope: [Int]
    /// Term indices in the name field's dictionary that are some document's whole name, ascending (byte order).
    let names: [Int]
    /// The names' bytes, one after another: name `i` is `nameBytes[(i == 0 ? 0 : nameEnds[i - 1])..<nameEnds[i]]`.
    let nameBytes: [UInt8]
    let nameEnds: [UInt32]
    /// Per document: the index of its name in `names`, or -1 (its name field is not one term).
    private let nameOfDocument: [Int32]
    /// Per name: the segment's documents holding it in a scope field, deleted ones included.
    let holders: [UInt32]
    /// Per document: whether it holds its own name in a scope field. Empty when the name field is in the scope,
    /// where every named document does.
    private let selfHolds: [Bool]
    /// The deleted documents analyzed so far, and how many of them hold each term in a scope field.
    private let dead = Mutex<DeadTerms>(DeadTerms())
    /// Other segments' names looked up in this segment (`holders(ofNames:of:in:)`), by their `SegmentNames`.
    private let foreign = Mutex<[ForeignNames]>([])
    /// How many other segments' names were looked up in this one (tests check they are looked up once).
    let lookedUp = Atomic<Int>(0)

    /// Terms are their bytes, as the index compares them: `String` equality would merge canonically equivalent
    /// terms the analyzer keeps apart (a precomposed Hangul syllable and its conjoining letters).
    private struct DeadTerms {
        var analyzed: Bitset?
        var holders: [[UInt8]: UInt32] = [:]
    }

    /// Another segment's names' holders in this one (`unknown` until looked up). Weak: the entry goes with the
    /// other segment's names.
    private struct ForeignNames {
        weak var names: SegmentNames?
        var holders: [UInt32]
        static let unknown = UInt32.max
    }

    init(segment: Segment, field: FieldID, scope: [Int]) {
        let nameField = Int(field.rawValue)
        self.field = nameField
        self.scope = scope
        let inScope = scope.contains(nameField)
        guard let terms = segment.terms(field), nameField < segment.norms.count else {
            (names, nameOfDocument, holders, selfHolds, nameBytes, nameEnds) = ([], [], [], [], [], [])
            return
        }
        // The documents whose name field holds one term, found once per document rather than per posting.
        let norms = segment.norms[nameField], lengths = FieldNorm.lengths
        var single = [Bool](repeating: false, count: segment.documentCount)
        for doc in 0..<min(norms.count, single.count) where lengths[Int(norms[doc])] == 1 { single[doc] = true }
        let cursor = PostingCursor(segment: segment)
        // A name is a real term: not the stand-in for an overlong word.
        let overlong = Analyzer.overlongBytes.withUnsafeBufferPointer { terms.find($0) }
        var names: [Int] = [], ends: [Int] = [], docs: [UInt32] = []
        var nameOfDocument = [Int32](repeating: -1, count: segment.documentCount)
        for index in 0..<terms.count where terms.docFreq[index] > 0 && index != overlong {
            let start = docs.count, name = Int32(names.count)
            cursor.position(terms: terms, index: index, field: nameField)
            cursor.forEachRemainingBlock { blockDocs, _, count in
                for k in 0..<count where single[Int(blockDocs[k])] {
                    docs.append(blockDocs[k])
                    nameOfDocument[Int(blockDocs[k])] = name
                }
                return true
            }
            if docs.count > start {
                names.append(index)
                ends.append(docs.count)
            }
        }
        var counter = SegmentHolderCounter(segment, scope: scope)
        var holders: [UInt32] = []
        var selfHolds = inScope ? [] : [Bool](repeating: false, count: segment.documentCount)
        holders.reserveCapacity(names.count)
        for (n, index) in names.enumerated() {
            holders.append(UInt32(terms.withTerm(index) { counter.holders(of: $0, stamping: !inScope) }))
            guard !inScope else { continue }
            for doc in docs[(n == 0 ? 0 : ends[n - 1])..<ends[n]] { selfHolds[Int(doc)] = counter.lastStamped(Int(doc)) }
        }
        (self.names, self.nameOfDocument, self.holders, self.selfHolds) = (names, nameOfDocument, holders, selfHolds)
        var nameBytes: [UInt8] = [], nameEnds: [UInt32] = []
        nameEnds.reserveCapacity(names.count)
        for index in names {
            terms.withTerm(index) { nameBytes += $0 }
            nameEnds.append(UInt32(nameBytes.count))
        }
        (self.nameBytes, self.nameEnds) = (nameBytes, nameEnds)
    }

    /// The index in `names` of document `doc`'s name, or nil (its name field is not one term, or `doc` is past the
    /// segment).
    @inline(__always)
    func name(of doc: Int) -> Int? {
        guard doc < nameOfDocument.count else { return nil }
        let name = nameOfDocument[doc]
        return name < 0 ? nil : Int(name)
    }

    /// Whether the named document `doc` holds its own name in a scope field.
    @inline(__always)
    func holdsOwnName(_ doc: Int) -> Bool { selfHolds.isEmpty || selfHolds[doc] }

    /// How many of the documents `live` marks deleted hold each term in a scope field: their stored texts of the
    /// scope's fields analyzed as the index analyzed them. Deleted documents analyzed for an earlier snapshot are
    /// not analyzed again; a snapshot older than the last one asked (fewer deletions) gets a count of its own.
    func deadHolders(live: Bitset, in segment: Segment) -> [[UInt8]: UInt32] {
        guard live.cardinality < segment.documentCount else { return [:] }
        return dead.withLock { state in
            let analyzed = state.analyzed ?? Bitset(count: segment.documentCount, allSet: false)
            // Deletions only grow: a snapshot that still holds a document analyzed as deleted is an older one.
            guard zip(analyzed.words, live.words).allSatisfy({ $0 & $1 == 0 }) else {
                var older: [[UInt8]: UInt32] = [:]
                Self.forEachDeleted(live, except: nil) { Self.count($0, of: segment, scope: scope, into: &older) }
                return older
            }
            var now = analyzed
            Self.forEachDeleted(live, except: analyzed) { doc in
                Self.count(doc, of: segment, scope: scope, into: &state.holders)
                now[doc] = true
            }
            state.analyzed = now
            return state.holders
        }
    }

    /// Calls `body` with each document `live` marks deleted and `except` does not hold, in order.
    private static func forEachDeleted(_ live: Bitset, except: Bitset?, _ body: (Int) -> Void) {
        for w in live.words.indices {
            var bits = ~live.words[w] & ~(except?.words[w] ?? 0)
            while bits != 0 {
                let doc = w << 6 | bits.trailingZeroBitCount
                guard doc < live.count else { return }
                body(doc)
                bits &= bits - 1
            }
        }
    }

    /// Adds one to each distinct term `doc` holds in a scope field.
    private static func count(_ doc: Int, of segment: Segment, scope: [Int], into holders: inout [[UInt8]: UInt32]) {
        let analyzer = Analyzer()
        var held = Set<[UInt8]>()
        for field in scope {
            for text in segment.storedTexts(doc, field: FieldID(rawValue: UInt16(field))) {
                for token in analyzer.tokens(text, mode: .index) { held.insert(Array(token.term.utf8)) }
            }
        }
        for term in held { holders[term, default: 0] += 1 }
    }

    /// Calls `body` with name `name`'s bytes.
    func withName<R>(_ name: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let start = name == 0 ? 0 : Int(nameEnds[name - 1])
        return nameBytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<Int(nameEnds[name])])) }
    }

    /// How many of this segment's documents (`segment`'s, deleted ones included) hold each of `other`'s names
    /// `wanted` (ascending indices) in a scope field. Neither segment changes, so each name is looked up here once
    /// while both live: with two large segments, a commit's snapshot no longer looks up thousands of names anew.
    func holders(ofNames wanted: [Int], of other: SegmentNames, in segment: Segment) -> [UInt32] {
        assert(other.scope == scope && zip(wanted, wanted.dropFirst()).allSatisfy { $0 < $1 })
        return foreign.withLock { entries in
            entries.removeAll { $0.names == nil }
            let at = entries.firstIndex { $0.names === other } ?? {
                entries.append(ForeignNames(names: other, holders: [UInt32](repeating: ForeignNames.unknown,
                                                                               count: other.names.count)))
                return entries.count - 1
            }()
            var counter: SegmentHolderCounter?
            var lookups = 0
            defer { lookedUp.add(lookups, ordering: .relaxed) }
            var result: [UInt32] = []
            result.reserveCapacity(wanted.count)
            for name in wanted {
                if entries[at].holders[name] == ForeignNames.unknown {
                    // Names in ascending byte order, as the counter needs.
                    if counter == nil { counter = SegmentHolderCounter(segment, scope: scope) }
                    entries[at].holders[name] = UInt32(other.withName(name) { counter!.holders(of: $0) })
                    lookups += 1
                }
                result.append(entries[at].holders[name])
            }
            return result
        }
    }

    /// Heap bytes.
    var memoryBytes: Int {
        names.capacity * 8 + (nameOfDocument.capacity + holders.capacity + nameEnds.capacity) * 4
            + selfHolds.capacity + nameBytes.capacity
            + dead.withLock { state in
                (state.analyzed?.memoryBytes ?? 0) + state.holders.reduce(0) { $0 + 48 + $1.key.count }
            }
            + foreign.withLock { $0.reduce(0) { $0 + 16 + $1.holders.capacity * 4 } }
    }
}

/// Counts, name after name in byte order, the documents of one segment holding a name in any field of the scope,
/// deleted ones included (a segment's dictionaries and document frequencies count them).
struct SegmentHolderCounter {
    /// Per scope field: its dictionary, and where the last name's search ended.
    private let dictionaries: [(field: Int, terms: FieldTerms)]
    private var places: [Int]
    private let cursor: PostingCursor
    private let guide: PostingCursor
    private var stamps: [UInt32]
    private var stamp: UInt32 = 0
    private var found: [(field: Int, terms: FieldTerms, index: Int)] = []
    private var gathered: [UInt32] = []

    init(_ segment: Segment, scope: [Int]) {
        dictionaries = scope.compactMap { field in segment.terms(FieldID(rawValue: UInt16(field))).map { (field, $0) } }
        places = [Int](repeating: 0, count: dictionaries.count)
        cursor = PostingCursor(segment: segment)
        guide = PostingCursor(segment: segment)
        stamps = [UInt32](repeating: 0, count: segment.documentCount)
    }

    /// Whether the last `holders(of:stamping: true)` call stamped `doc`: it holds that name in a scope field.
    func lastStamped(_ doc: Int) -> Bool { stamps[doc] == stamp }

    /// The documents holding `name` in a scope field. Names must come in ascending byte order. `stamping` walks
    /// every list and stamps each holder (for `lastStamped`); otherwise the largest list counts by its document
    /// frequency and only the others are walked.
    mutating func holders(of name: UnsafeBufferPointer<UInt8>, stamping: Bool = false) -> Int {
        stamp += 1
        found.removeAll(keepingCapacity: true)
        for slot in dictionaries.indices {
            let (field, terms) = dictionaries[slot]
            let index = terms.lowerBound(name, from: places[slot])
            places[slot] = index
            if index < terms.count, terms.compare(index, name) == 0, terms.docFreq[index] > 0 {
                found.append((field, terms, index))
            }
        }
        if found.isEmpty { return 0 }
        return stamping ? stampedCount() : unionCount()
    }

    /// The documents of `found`'s lists: the largest list by its document frequency, plus the others' documents
    /// it lacks.
    private mutating func unionCount() -> Int {
        var largest = 0
        for k in found.indices where found[k].terms.docFreq[found[k].index] > found[largest].terms.docFreq[found[largest].index] {
            largest = k
        }
        let (field, terms, index) = found[largest]
        let count = Int(terms.docFreq[index])
        guard found.count > 1 else { return count }
        gathered.removeAll(keepingCapacity: true)
        for k in found.indices where k != largest {
            cursor.position(terms: found[k].terms, index: found[k].index, field: found[k].field)
            cursor.forEachRemainingBlock { docs, _, n in
                for i in 0..<n { gathered.append(docs[i]) }
                return true
            }
        }
        if found.count > 2 { gathered.sort() }
        guide.position(terms: terms, index: index, field: field)
        var extra = 0, previous = -1
        for doc in gathered where Int(doc) != previous {
            previous = Int(doc)
            if guide.advance(previous) != previous { extra += 1 }
        }
        return count + extra
    }

    /// The documents of `found`'s lists, each counted once (stamped).
    private mutating func stampedCount() -> Int {
        let cursor = self.cursor, stamp = self.stamp
        var holders = 0
        stamps.withUnsafeMutableBufferPointer { stamps in
            for (field, terms, index) in found {
                cursor.position(terms: terms, index: index, field: field)
                cursor.forEachRemainingBlock { docs, _, count in
                    for k in 0..<count where stamps[Int(docs[k])] != stamp {
                        stamps[Int(docs[k])] = stamp
                        holders += 1
                    }
                    return true
                }
            }
        }
        return holders
    }
}
