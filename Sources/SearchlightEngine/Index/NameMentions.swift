/// How many documents mention each document's name: for a document whose name field (a title) holds exactly one
/// term ("nginx", "evince"), the other live documents holding that term in any field of the default scope.
///
/// A name that many others mention is one people know: a package other packages build on, a contact many notes
/// name. It is a query-independent prior in the spirit of a web page's in-links, built from the index alone, for
/// rankings to fold in (`CSUserQuery` does). A snapshot builds it once, on the first search that asks
/// (`IndexSnapshot.nameMentions(of:)`), from its segments' `SegmentNames`, which outlive it: after a commit only
/// the new segment's names are counted from its postings.
public final class NameMentions: Sendable {
    /// Per segment (by ordinal): its names and which document bears which.
    private let parts: [SegmentNames]
    /// Per segment: its live documents (a deleted one has no mentions).
    private let live: [Bitset]
    /// Per segment: where its names start in `holdersOfName`.
    private let bases: [Int]
    /// Per segment's name (`bases[segment] + name`): the live documents holding it in a scope field. A
    /// document's count is read from it, so a snapshot does no work per document.
    private let holdersOfName: [Int]
    /// The live documents of the snapshot: the most a name can be mentioned by, plus one.
    public let documentCount: Int

    private init(parts: [SegmentNames], live: [Bitset], bases: [Int], holdersOfName: [Int], documentCount: Int) {
        (self.parts, self.live, self.bases, self.holdersOfName) = (parts, live, bases, holdersOfName)
        self.documentCount = documentCount
    }

    /// The mentions of the document at `address` (0 outside the snapshot or deleted): the holders of its name
    /// less itself.
    public func count(of address: DocAddress) -> Int {
        let segment = Int(address.segment), doc = Int(address.doc)
        guard segment < parts.count, let name = parts[segment].name(of: doc), live[segment][doc] else { return 0 }
        return mentions(slot: bases[segment] + name, segment: segment, doc: doc)
    }

    /// The mentions of live document `doc` of `segment`, whose name is `slot` of `holdersOfName`: its name's
    /// holders less itself.
    @inline(__always)
    private func mentions(slot: Int, segment: Int, doc: Int) -> Int {
        max(holdersOfName[slot] - (parts[segment].holdsOwnName(doc) ? 1 : 0), 0)
    }

    /// `count(of:)` of each address, in order. A document's name and its name's holders lie anywhere in arrays of
    /// the segment's size, so each lookup waits on a cache miss or two; here every name is read before any holder
    /// count, so the misses of different documents overlap instead of following one another.
    public func counts(of addresses: [DocAddress]) -> [Int] {
        let n = addresses.count
        // Pass 1: each document's name as a slot of `holdersOfName` (-1: no name, or outside the snapshot; a
        // deleted document is passed over in pass 2, whose live bits are small enough to stay cached).
        var slots = [Int](repeating: -1, count: n)
        for i in 0..<n {
            let segment = Int(addresses[i].segment), doc = Int(addresses[i].doc)
            guard segment < parts.count, let name = parts[segment].name(of: doc) else { continue }
            slots[i] = bases[segment] + name
        }
        // Pass 2: the holders, less the document's own holding.
        var counts = [Int](repeating: 0, count: n)
        for i in 0..<n where slots[i] >= 0 {
            let segment = Int(addresses[i].segment), doc = Int(addresses[i].doc)
            guard live[segment][doc] else { continue }
            counts[i] = mentions(slot: slots[i], segment: segment, doc: doc)
        }
        return counts
    }

    /// Heap bytes (the segments' names are counted by their segments).
    var memoryBytes: Int { (bases.capacity + holdersOfName.capacity) * 8 }

    /// Counts the mentions of the names in `field` over `scope` (field numbers) in `snapshot`.
    ///
    /// Each segment's names and their holders (deleted documents included) are built once per segment
    /// (`SegmentNames`) and merged here in byte order. A segment that does not name a name may still hold it: a
    /// large one looks such names up in its dictionaries, a small one (a commit's) looks its own terms up among
    /// the names, whichever reads less. The snapshot's deletions are then taken off, from the deleted documents'
    /// analyzed texts.
    /// `lookup` forces one way of finding the names a segment holds without naming them (tests compare both).
    static func build(_ snapshot: IndexSnapshot, field: FieldID, scope: [Int],
                      lookup: ForeignLookup = .cheaper) -> NameMentions {
        let segments = snapshot.segments
        let parts = segments.map { $0.names(field: field, scope: scope) }
        var merged = MergedNames(parts)
        guard !merged.totals.isEmpty else {
            return NameMentions(parts: parts, live: snapshot.live, bases: merged.bases, holdersOfName: [],
                                documentCount: snapshot.documentCount)
        }
        for ordinal in segments.indices { merged.addForeignHolders(segments[ordinal], ordinal: ordinal, scope: scope, lookup: lookup) }
        // Deleted documents hold names no more.
        for ordinal in segments.indices {
            for (term, held) in parts[ordinal].deadHolders(live: snapshot.live[ordinal], in: segments[ordinal]) {
                if let slot = term.withUnsafeBufferPointer({ merged.slot(of: $0) }) { merged.totals[slot] -= Int(held) }
            }
        }
        // Each segment's names' holders, in the segment's name order: what `count(of:)` reads.
        var holdersOfName: [Int] = []
        holdersOfName.reserveCapacity(merged.nameCount)
        for list in parts.indices {
            for name in parts[list].names.indices { holdersOfName.append(merged.totals[merged.slot(ofName: name, in: list)]) }
        }
        return NameMentions(parts: parts, live: snapshot.live, bases: merged.bases, holdersOfName: holdersOfName,
                            documentCount: snapshot.documentCount)
    }

    /// How `build` finds the names a segment holds without naming them.
    enum ForeignLookup {
        /// Whichever reads less.
        case cheaper
        /// Each such name looked up in the segment's scope dictionaries.
        case byName
        /// Each term of those dictionaries looked up among the names.
        case byTerm
    }

    /// Lexicographic byte order: negative, zero or positive.
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0 {
            let c = memcmp(a.baseAddress!, b.baseAddress!, common)
            if c != 0 { return Int(c) }
        }
        return a.count - b.count
    }
}

/// The names of a snapshot's segments in byte order (slots), each with its holders over the segments and the
/// segments naming it.
private struct MergedNames {
    let parts: [SegmentNames]
    /// Per slot: the documents holding the name, over the segments counted so far.
    var totals: [Int] = []
    /// Every segment's names' bytes, one segment's after another: name `g` (segment `l`'s name `n` is
    /// `g = bases[l] + n`) is `bytes[ends[g]..<ends[g + 1]]`.
    private let bytes: [UInt8]
    private let ends: [UInt32]
    /// Per segment: the index `g` of its first name.
    let bases: [Int]
    /// Every segment's names, counted apart.
    var nameCount: Int { ends.count - 1 }
    /// Per slot: a segment naming it and the name's index there (for its bytes, and to look it up elsewhere).
    private var firsts: [(list: Int, name: Int)] = []
    /// Per name `g`: its slot (a segment's names' slots ascend).
    private var slotOfName: [Int] = []

    /// Merges the segments' name lists, counting each name's holders in the segments naming it.
    init(_ parts: [SegmentNames]) {
        self.parts = parts
        var bytes: [UInt8] = [], ends: [UInt32] = [0], bases: [Int] = []
        bytes.reserveCapacity(parts.reduce(0) { $0 + $1.nameBytes.count })
        ends.reserveCapacity(1 + parts.reduce(0) { $0 + $1.names.count })
        for part in parts {
            bases.append(ends.count - 1)
            let shift = UInt32(bytes.count)
            bytes += part.nameBytes
            for end in part.nameEnds { ends.append(shift + end) }
        }
        (self.bytes, self.ends, self.bases) = (bytes, ends, bases)
        let nameCount = ends.count - 1
        var totals: [Int] = [], firsts: [(list: Int, name: Int)] = []
        totals.reserveCapacity(nameCount)
        firsts.reserveCapacity(nameCount)
        var slotOfName = [Int](repeating: 0, count: nameCount)
        let lists = parts.indices.filter { !parts[$0].names.isEmpty }
        bytes.withUnsafeBufferPointer { bytes in
            ends.withUnsafeBufferPointer { ends in
                let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
                var heads = [Int](repeating: 0, count: parts.count)
                var smallest: [Int] = []
                while true {
                    smallest.removeAll(keepingCapacity: true)
                    var least = -1
                    for l in lists where heads[l] < parts[l].names.count {
                        let g = bases[l] + heads[l]
                        let order = least < 0 ? -1 : Self.compare(base, ends, g, least)
                        if order < 0 {
                            smallest.removeAll(keepingCapacity: true)
                            least = g
                        }
                        if order <= 0 { smallest.append(l) }
                    }
                    guard least >= 0 else { break }
                    let slot = totals.count
                    var total = 0
                    firsts.append((smallest[0], heads[smallest[0]]))
                    for l in smallest {
                        total += Int(parts[l].holders[heads[l]])
                        slotOfName[bases[l] + heads[l]] = slot
                        heads[l] += 1
                    }
                    totals.append(total)
                    guard smallest.count == 1 else { continue }
                    // A run: the names of that list below every other list's head are the next slots, each one
                    // compared once (a commit's snapshot merges one large segment's names with a few).
                    let l = smallest[0], names = parts[l].names.count
                    var bound = -1
                    for m in lists where m != l && heads[m] < parts[m].names.count {
                        let g = bases[m] + heads[m]
                        if bound < 0 || Self.compare(base, ends, g, bound) < 0 { bound = g }
                    }
                    while heads[l] < names {
                        let g = bases[l] + heads[l]
                        if bound >= 0, Self.compare(base, ends, g, bound) >= 0 { break }
                        firsts.append((l, heads[l]))
                        slotOfName[g] = totals.count
                        totals.append(Int(parts[l].holders[heads[l]]))
                        heads[l] += 1
                    }
                }
            }
        }
        (self.totals, self.firsts, self.slotOfName) = (totals, firsts, slotOfName)
    }

    /// Byte order of names `a` and `b`: negative, zero or positive.
    @inline(__always)
    private static func compare(_ base: UnsafePointer<UInt8>, _ ends: UnsafeBufferPointer<UInt32>, _ a: Int, _ b: Int) -> Int {
        func name(_ g: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: base + Int(ends[g]), count: Int(ends[g + 1] - ends[g]))
        }
        return NameMentions.compare(name(a), name(b))
    }

    /// The slot of segment `list`'s name `name`.
    func slot(ofName name: Int, in list: Int) -> Int { slotOfName[bases[list] + name] }

    func withName<R>(_ slot: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let g = bases[firsts[slot].list] + firsts[slot].name
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[Int(ends[g])..<Int(ends[g + 1])])) }
    }

    /// The slot of the name `key`, if it is one.
    func slot(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        var low = 0, high = totals.count
        while low < high {
            let mid = (low + high) >> 1
            if withName(mid, { NameMentions.compare($0, key) }) < 0 { low = mid + 1 } else { high = mid }
        }
        return low < totals.count && withName(low, { NameMentions.compare($0, key) }) == 0 ? low : nil
    }

    /// Adds the holders of the names `segment` (ordinal `ordinal`) holds without naming them. Either every such
    /// name is looked up in the segment's scope dictionaries (once while both segments live: the segment keeps
    /// what it found, `SegmentNames.holders(ofNames:of:in:)`), or every term of those dictionaries among the
    /// names: whichever takes fewer comparisons the first time.
    mutating func addForeignHolders(_ segment: Segment, ordinal: Int, scope: [Int], lookup: NameMentions.ForeignLookup) {
        let dictionaries = scope.compactMap { segment.terms(FieldID(rawValue: UInt16($0))) }
        guard !dictionaries.isEmpty else { return }
        let named = slotOfName[bases[ordinal]..<bases[ordinal] + parts[ordinal].names.count]
        let foreign = totals.count - named.count
        guard foreign > 0 else { return }
        let terms = dictionaries.reduce(0) { $0 + $1.count }
        let searchSteps = Int.bitWidth - totals.count.leadingZeroBitCount
        var slots: [Int] = []
        let byName = switch lookup {
        case .cheaper: foreign * dictionaries.count <= terms * searchSteps
        case .byName: true
        case .byTerm: false
        }
        if byName {
            // Each foreign name through one segment naming it, whose names the segment keeps the holders of.
            var wanted = [[Int]](repeating: [], count: parts.count), wantedSlots = wanted
            var next = named.startIndex
            for slot in totals.indices {
                if next < named.endIndex, named[next] == slot { next += 1; continue }
                let member = firsts[slot]
                wanted[member.list].append(member.name)
                wantedSlots[member.list].append(slot)
            }
            for list in parts.indices where !wanted[list].isEmpty {
                let held = parts[ordinal].holders(ofNames: wanted[list], of: parts[list], in: segment)
                for (slot, count) in zip(wantedSlots[list], held) { totals[slot] += Int(count) }
            }
            return
        } else {
            for dictionary in dictionaries {
                for index in 0..<dictionary.count where dictionary.docFreq[index] > 0 {
                    if let slot = dictionary.withTerm(index, { self.slot(of: $0) }) { slots.append(slot) }
                }
            }
            slots.sort()
            var kept: [Int] = []
            var next = named.startIndex
            for slot in slots where slot != kept.last {
                while next < named.endIndex, named[next] < slot { next += 1 }
                if next < named.endIndex, named[next] == slot { continue }
                kept.append(slot)
            }
            slots = kept
        }
        guard !slots.isEmpty else { return }
        var counter = SegmentHolderCounter(segment, scope: scope)
        for slot in slots { totals[slot] += withName(slot) { counter.holders(of: $0) } }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
