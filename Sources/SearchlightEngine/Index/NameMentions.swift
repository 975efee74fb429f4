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
    static func build(_ snapshot: IndexSnapshot, field: FieldID, scope: [Int]) -> NameMentions {
        let segments = snapshot.segments
        let nameField = Int(field.rawValue)
        // The named documents: (segment, doc, name) for each live document whose name field is one term.
        var names: [[UInt8]: [DocAddress]] = [:]
        for (ordinal, segment) in segments.enumerated() {
            guard let terms = segment.terms(field), nameField < segment.norms.count else { continue }
            let norms = segment.norms[nameField], live = snapshot.live[ordinal]
            let cursor = PostingCursor(segment: segment)
            // A name is a real term: not the stand-in for an overlong word.
            let overlong = Analyzer.overlongBytes.withUnsafeBufferPointer { terms.find($0) }
            for index in 0..<terms.count where terms.docFreq[index] > 0 && index != overlong {
                var named: [DocAddress] = []
                cursor.position(terms: terms, index: index, field: nameField)
                cursor.forEachRemainingBlock { docs, _, count in
                    for k in 0..<count {
                        let doc = Int(docs[k])
                        guard doc < norms.count, FieldNorm.lengths[Int(norms[doc])] == 1, live[doc] else { continue }
                        named.append(DocAddress(segment: UInt32(ordinal), doc: UInt32(doc)))
                    }
                    return true
                }
                if !named.isEmpty { names[terms.withTerm(index) { Array($0) }, default: []] += named }
            }
        }
        var counts = segments.map { [UInt32](repeating: 0, count: $0.documentCount) }
        guard !names.isEmpty else { return NameMentions(counts: counts, documentCount: snapshot.documentCount) }
        // Each name's documents, counted once however many fields hold it: a stamp per document.
        var stamps = segments.map { [UInt32](repeating: 0, count: $0.documentCount) }
        var stamp: UInt32 = 0
        let cursors = segments.map { PostingCursor(segment: $0) }
        for (name, named) in names {
            stamp += 1
            var holders = 0
            name.withUnsafeBufferPointer { key in
                for (ordinal, segment) in segments.enumerated() {
                    let live = snapshot.live[ordinal]
                    for scoped in scope {
                        guard let terms = segment.terms(FieldID(rawValue: UInt16(scoped))),
                              let index = terms.find(key) else { continue }
                        cursors[ordinal].position(terms: terms, index: index, field: scoped)
                        stamps[ordinal].withUnsafeMutableBufferPointer { stamps in
                            cursors[ordinal].forEachRemainingBlock { docs, _, count in
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
                }
            }
            for address in named {
                // The document itself holds its name (when its name field is in the scope): not a mention.
                let selfHeld = stamps[Int(address.segment)][Int(address.doc)] == stamp ? 1 : 0
                counts[Int(address.segment)][Int(address.doc)] = UInt32(max(holders - selfHeld, 0))
            }
        }
        return NameMentions(counts: counts, documentCount: snapshot.documentCount)
    }
}
