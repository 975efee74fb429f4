/// How many documents mention each document's name: for a document whose name field (a title) holds exactly one
/// term ("nginx", "evince"), the other live documents holding that term in any field of the default scope.
///
/// A name that many others mention is one people know: a package other packages build on, a contact many notes
/// name. It is a query-independent prior in the spirit of a web page's in-links, built from the index alone, for
/// rankings to fold in (`CSUserQuery` does). A snapshot builds it once, on the first search that asks
/// (`IndexSnapshot.nameMentions(of:)`).
public final class NameMentions: Sendable {
    /// Per segment (by ordinal), per document: its mentions (0 when its name field is not one term).
    private let counts: [[UInt32]]
    /// The live documents of the snapshot: the most a name can be mentioned by, plus one.
    public let documentCount: Int

    init(counts: [[UInt32]], documentCount: Int) {
        self.counts = counts
        self.documentCount = documentCount
    }

    /// The mentions of the document at `address` (0 outside the snapshot).
    public func count(of address: DocAddress) -> Int {
        let segment = Int(address.segment), doc = Int(address.doc)
        guard segment < counts.count, doc < counts[segment].count else { return 0 }
        return Int(counts[segment][doc])
    }

    /// Heap bytes.
    var memoryBytes: Int { counts.reduce(0) { $0 + $1.capacity * 4 } }

    /// Counts the mentions of the names in `field` over `scope` (field numbers) in `snapshot`.
    ///
    /// Names are taken in byte order, one segment's after another merged, so each scope dictionary is searched
    /// forward from the last name's place rather than from scratch. In a segment without deletions, when the
    /// name field is in the scope, the largest of a name's posting lists counts by its document frequency and only
    /// the others are walked (checked against it by seeking); otherwise every list is walked with a stamp per
    /// document.
    static func build(_ snapshot: IndexSnapshot, field: FieldID, scope: [Int]) -> NameMentions {
        let segments = snapshot.segments
        var counts = segments.map { [UInt32](repeating: 0, count: $0.documentCount) }
        let lists = segments.indices.compactMap { NamedDocuments(snapshot, ordinal: $0, field: field) }
        guard !lists.isEmpty else { return NameMentions(counts: counts, documentCount: snapshot.documentCount) }
        var counter = HolderCounter(snapshot, scope: scope, nameFieldInScope: scope.contains(Int(field.rawValue)))
        var heads = [Int](repeating: 0, count: lists.count)
        var members: [Int] = []
        while true {
            // The smallest name at the lists' heads, and every list holding it.
            members.removeAll(keepingCapacity: true)
            for l in lists.indices where heads[l] < lists[l].names.count {
                if let first = members.first {
                    let order = lists[l].compare(heads[l], with: lists[first], heads[first])
                    if order < 0 { members.removeAll(keepingCapacity: true) }
                    if order <= 0 { members.append(l) }
                } else {
                    members.append(l)
                }
            }
            guard let first = members.first else { break }
            let holders = lists[first].withName(heads[first]) { counter.holders(of: $0) }
            for l in members {
                let list = lists[l]
                for doc in list.documents(of: heads[l]) {
                    // The document itself holds its name (when its name field is in the scope): not a mention.
                    let selfHeld = counter.nameFieldInScope || counter.lastStamped(ordinal: list.ordinal, doc: Int(doc)) ? 1 : 0
                    counts[list.ordinal][Int(doc)] = UInt32(max(holders - selfHeld, 0))
                }
                heads[l] += 1
            }
        }
        return NameMentions(counts: counts, documentCount: snapshot.documentCount)
    }
}

/// One segment's named documents: the terms of its name field that are the whole name of a live document, in
/// dictionary order, with those documents.
private struct NamedDocuments {
    let ordinal: Int
    let terms: FieldTerms
    /// Term indices in `terms`, ascending.
    private(set) var names: [Int] = []
    /// `documents[ends[i - 1]..<ends[i]]` are name `i`'s documents.
    private var ends: [Int] = []
    private var docs: [UInt32] = []

    init?(_ snapshot: IndexSnapshot, ordinal: Int, field: FieldID) {
        let segment = snapshot.segments[ordinal], nameField = Int(field.rawValue)
        guard let terms = segment.terms(field), nameField < segment.norms.count else { return nil }
        self.ordinal = ordinal
        self.terms = terms
        // The live documents whose name field holds one term, found once per document rather than per posting.
        let norms = segment.norms[nameField], live = snapshot.live[ordinal], lengths = FieldNorm.lengths
        var single = [Bool](repeating: false, count: segment.documentCount)
        for doc in 0..<min(norms.count, single.count) where lengths[Int(norms[doc])] == 1 && live[doc] { single[doc] = true }
        let cursor = PostingCursor(segment: segment)
        // A name is a real term: not the stand-in for an overlong word.
        let overlong = Analyzer.overlongBytes.withUnsafeBufferPointer { terms.find($0) }
        for index in 0..<terms.count where terms.docFreq[index] > 0 && index != overlong {
            let start = docs.count
            cursor.position(terms: terms, index: index, field: nameField)
            cursor.forEachRemainingBlock { blockDocs, _, count in
                for k in 0..<count {
                    let doc = Int(blockDocs[k])
                    if single[doc] { docs.append(UInt32(doc)) }
                }
                return true
            }
            if docs.count > start {
                names.append(index)
                ends.append(docs.count)
            }
        }
        if names.isEmpty { return nil }
    }

    func documents(of name: Int) -> ArraySlice<UInt32> { docs[(name == 0 ? 0 : ends[name - 1])..<ends[name]] }

    func withName<R>(_ name: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { terms.withTerm(names[name], body) }

    /// How name `name` sorts against `other`'s name `otherName`: negative, zero or positive.
    func compare(_ name: Int, with other: NamedDocuments, _ otherName: Int) -> Int {
        other.withName(otherName) { terms.compare(names[name], $0) }
    }
}

/// Counts, name after name in byte order, the live documents holding a name in any field of the scope.
private struct HolderCounter {
    let snapshot: IndexSnapshot
    /// Per segment, per scope field: its dictionary, and where the last name's search ended.
    private var dictionaries: [[(field: Int, terms: FieldTerms)]]
    private var places: [[Int]]
    /// Per segment: whether every document is live.
    private let whole: [Bool]
    let nameFieldInScope: Bool
    private let cursors: [PostingCursor]
    private let guides: [PostingCursor]
    private var stamps: [[UInt32]]
    private var stamp: UInt32 = 0
    private var found: [(field: Int, terms: FieldTerms, index: Int)] = []
    private var gathered: [UInt32] = []

    init(_ snapshot: IndexSnapshot, scope: [Int], nameFieldInScope: Bool) {
        self.snapshot = snapshot
        self.nameFieldInScope = nameFieldInScope
        let segments = snapshot.segments
        dictionaries = segments.map { segment in
            scope.compactMap { field in segment.terms(FieldID(rawValue: UInt16(field))).map { (field, $0) } }
        }
        places = dictionaries.map { [Int](repeating: 0, count: $0.count) }
        whole = segments.indices.map { snapshot.live[$0].cardinality == segments[$0].documentCount }
        cursors = segments.map { PostingCursor(segment: $0) }
        guides = segments.map { PostingCursor(segment: $0) }
        stamps = segments.map { [UInt32](repeating: 0, count: $0.documentCount) }
    }

    /// Whether the last `holders` call stamped `doc` of segment `ordinal` (it walked that segment's lists).
    func lastStamped(ordinal: Int, doc: Int) -> Bool { stamps[ordinal][doc] == stamp }

    /// The live documents holding `name` in a scope field. Names must come in ascending byte order.
    mutating func holders(of name: UnsafeBufferPointer<UInt8>) -> Int {
        stamp += 1
        var holders = 0
        for ordinal in dictionaries.indices {
            found.removeAll(keepingCapacity: true)
            for slot in dictionaries[ordinal].indices {
                let (field, terms) = dictionaries[ordinal][slot]
                let index = terms.lowerBound(name, from: places[ordinal][slot])
                places[ordinal][slot] = index
                if index < terms.count, terms.compare(index, name) == 0, terms.docFreq[index] > 0 {
                    found.append((field, terms, index))
                }
            }
            if found.isEmpty { continue }
            if whole[ordinal], nameFieldInScope {
                holders += unionCount(ordinal: ordinal)
            } else {
                holders += stampedCount(ordinal: ordinal)
            }
        }
        return holders
    }

    /// The documents of `found`'s lists in a segment without deletions: the largest list by its document
    /// frequency, plus the others' documents it lacks.
    private mutating func unionCount(ordinal: Int) -> Int {
        var largest = 0
        for k in found.indices where found[k].terms.docFreq[found[k].index] > found[largest].terms.docFreq[found[largest].index] {
            largest = k
        }
        let (field, terms, index) = found[largest]
        let count = Int(terms.docFreq[index])
        guard found.count > 1 else { return count }
        gathered.removeAll(keepingCapacity: true)
        let cursor = cursors[ordinal]
        for k in found.indices where k != largest {
            cursor.position(terms: found[k].terms, index: found[k].index, field: found[k].field)
            cursor.forEachRemainingBlock { docs, _, n in
                for i in 0..<n { gathered.append(docs[i]) }
                return true
            }
        }
        if found.count > 2 { gathered.sort() }
        let guide = guides[ordinal]
        guide.position(terms: terms, index: index, field: field)
        var extra = 0, previous = -1
        for doc in gathered where Int(doc) != previous {
            previous = Int(doc)
            if guide.advance(previous) != previous { extra += 1 }
        }
        return count + extra
    }

    /// The live documents of `found`'s lists, each counted once (stamped).
    private mutating func stampedCount(ordinal: Int) -> Int {
        let live = snapshot.live[ordinal], cursor = cursors[ordinal], stamp = self.stamp
        var holders = 0
        stamps[ordinal].withUnsafeMutableBufferPointer { stamps in
            for (field, terms, index) in found {
                cursor.position(terms: terms, index: index, field: field)
                cursor.forEachRemainingBlock { docs, _, count in
                    for k in 0..<count {
                        let doc = Int(docs[k])
                        guard stamps[doc] != stamp, live[doc] else { continue }
                        stamps[doc] = stamp
                        holders += 1
                    }
                    return true
                }
            }
        }
        return holders
    }
}
