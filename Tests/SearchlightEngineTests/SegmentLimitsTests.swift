import Synchronization
import XCTest
@testable import SearchlightEngine

/// A segment's 32-bit offsets bound what it holds (`SegmentLimits`). Past them indexing and merging throw
/// `segmentTooLarge`, never trap in a narrowing conversion, and what was committed stays served. Tiny injected
/// limits stand in for 4 GB of data.
final class SegmentLimitsTests: XCTestCase {
    private func writer(limits: SegmentLimits, policy: MergePolicy = MergePolicy()) throws -> (IndexWriter, FieldID) {
        let writer = IndexWriter()
        writer.mergePolicy = policy
        writer.segmentLimits = limits
        return (writer, try writer.registerField("body", .text()))
    }

    private func document(_ id: String, _ body: FieldID, _ text: String) -> Document {
        Document(id: id, values: [(body, .text(text))])
    }

    private func ids(_ snapshot: IndexSnapshot, _ word: String) -> Set<String> {
        Set(snapshot.matches(.term(word)).compactMap { snapshot.id(of: $0) })
    }

    /// A batch whose stored texts, ids or postings pass the byte limit is refused with `segmentTooLarge` (by an
    /// upsert once the buffer is past it, or by the commit that seals it); the writer keeps serving its last
    /// snapshot, and after a rollback a batch that fits commits.
    func testABatchPastTheByteLimitThrowsAndKeepsTheLastSnapshot() throws {
        let (writer, body) = try writer(limits: SegmentLimits(maxBytes: 2_000, maxDocuments: 1_000))
        try writer.upsert(document("kept", body, "alpha beta"))
        let before = try writer.commit()
        var refused: EngineError?
        do {
            for n in 0..<1_000 { try writer.upsert(document("doc\(n)", body, "gamma delta epsilon number\(n)")) }
            _ = try writer.commit()
        } catch {
            refused = error
        }
        XCTAssertEqual(refused, .segmentTooLarge)
        XCTAssertEqual(writer.snapshot.generation, before.generation, "the last snapshot is still served")
        XCTAssertEqual(ids(writer.snapshot, "alpha"), ["kept"])
        writer.rollback()
        try writer.upsert(document("later", body, "alpha"))
        XCTAssertEqual(ids(try writer.commit(), "alpha"), ["kept", "later"])
    }

    /// The document limit refuses the document past it before anything changes: a refused update of a committed
    /// id leaves the committed version live.
    func testADocumentPastTheDocumentLimitIsRefusedBeforeItDeletesItsEarlierVersion() throws {
        let (writer, body) = try writer(limits: SegmentLimits(maxBytes: 1 << 20, maxDocuments: 3))
        try writer.upsert(document("a", body, "old"))
        _ = try writer.commit()
        for id in ["b", "c", "d"] { try writer.upsert(document(id, body, "new")) }
        XCTAssertThrowsError(try writer.upsert(document("a", body, "new"))) {
            XCTAssertEqual($0 as? EngineError, .segmentTooLarge)
        }
        let snapshot = try writer.commit()
        XCTAssertEqual(ids(snapshot, "old"), ["a"], "the refused update did not delete the committed version")
        XCTAssertEqual(ids(snapshot, "new"), ["b", "c", "d"])
    }

    /// Segments that fit one by one but not together are not merged: commits go on, every document stays
    /// searchable, and the index keeps more segments instead of failing.
    func testSegmentsTooLargeToMergeStayApartAndCommitsSucceed() throws {
        let policy = MergePolicy(maxSegments: 2, mergeFactor: 2)
        let (writer, body) = try writer(limits: SegmentLimits(maxBytes: 3_000, maxDocuments: 1_000), policy: policy)
        var expected: Set<String> = []
        for batch in 0..<6 {
            for n in 0..<20 {
                let id = "b\(batch)d\(n)"
                try writer.upsert(document(id, body, "common word\(batch) filler\(n) text to fill the stored record"))
                expected.insert(id)
            }
            let snapshot = try writer.commit()
            XCTAssertEqual(ids(snapshot, "common"), expected, "batch \(batch)")
        }
        XCTAssertGreaterThan(writer.snapshot.segments.count, 2, "merges past the limit were not made")
    }

    /// With limits too tight for the sources, a merge throws `segmentTooLarge` at every limit below what it
    /// needs (both merge paths: whole segments by streams, segments with deletions document by document), and at
    /// limits that fit it builds the same segment.
    func testMergesThrowAtEveryTooSmallLimitAndNeverTrap() throws {
        let (writer, body) = try writer(limits: .standard, policy: MergePolicy(maxSegments: 100, mergeFactor: 100))
        for batch in 0..<3 {
            for n in 0..<150 {
                try writer.upsert(document("b\(batch)d\(n)", body, "shared word\(n % 7) batch\(batch) value\(n)"))
            }
            _ = try writer.commit()
        }
        let segments = writer.snapshot.segments
        XCTAssertEqual(segments.count, 3)
        var withDeletions = writer.snapshot.live
        withDeletions[1][5] = false
        let needed = try SegmentBuilder.mergeWhole(segments)
        let largest = max(needed.docBytes.count, needed.positionBytes.count, needed.idBytes.count,
                          needed.stored.bytes.count + 6 * needed.documentCount)
        for maxBytes in stride(from: 0, through: largest + 64, by: 37) {
            let limits = SegmentLimits(maxBytes: maxBytes, maxDocuments: 1_000)
            do {
                let merged = try SegmentBuilder.mergeWhole(segments, limits: limits)
                XCTAssertGreaterThanOrEqual(maxBytes, merged.docBytes.count)
                XCTAssertGreaterThanOrEqual(maxBytes, merged.positionBytes.count)
                XCTAssertEqual(merged.documentCount, 450)
            } catch {
                XCTAssertEqual(error, .segmentTooLarge)
            }
            var builder = SegmentBuilder()
            builder.limits = limits
            do {
                for (segment, live) in zip(segments, withDeletions) { try builder.append(segment: segment, live: live) }
                let merged = try builder.seal()
                XCTAssertGreaterThanOrEqual(maxBytes, merged.docBytes.count)
                XCTAssertEqual(merged.documentCount, 449)
            } catch {
                XCTAssertEqual(error, .segmentTooLarge)
            }
        }
        XCTAssertThrowsError(try SegmentBuilder.mergeWhole(segments, limits: SegmentLimits(maxBytes: 1 << 30,
                                                                                           maxDocuments: 449)))
        XCTAssertNoThrow(try SegmentBuilder.mergeWhole(segments, limits: SegmentLimits(maxBytes: largest + 64,
                                                                                        maxDocuments: 450)))
    }

    /// Sealing a buffer checks its streams term by term: at every limit below what the segment needs it throws.
    func testSealingThrowsAtEveryTooSmallLimit() throws {
        var reference = SegmentBuilder()
        var schema = Schema()
        let body = try schema.register("body", options: .text())
        let documents = (0..<300).map { n in
            document("d\(n)", body, "term\(n % 13) common words \(String(repeating: "x", count: n % 5 + 1)) n\(n)")
        }
        for document in documents { _ = reference.add(document, schema: schema, analyzer: Analyzer()) }
        let sealed = try reference.seal()
        let largest = max(sealed.docBytes.count, sealed.positionBytes.count)
        for maxBytes in stride(from: 0, through: largest + 8, by: 11) {
            var builder = SegmentBuilder()
            for document in documents { _ = builder.add(document, schema: schema, analyzer: Analyzer()) }
            builder.limits = SegmentLimits(maxBytes: maxBytes, maxDocuments: 1_000)
            do {
                let segment = try builder.seal()
                XCTAssertGreaterThanOrEqual(maxBytes, segment.docBytes.count)
                XCTAssertGreaterThanOrEqual(maxBytes, segment.positionBytes.count)
            } catch {
                XCTAssertEqual(error, .segmentTooLarge)
            }
        }
    }

    /// Laying out postings checks the streams term by term, before a term's offsets or skip offsets are narrowed:
    /// at every limit below what the postings need (the stored records, which sealing checks first, aside) it
    /// throws, and at the limit they need it lays them out as sealing did.
    func testLayingOutPostingsThrowsAtEveryTooSmallLimit() throws {
        var builder = SegmentBuilder()
        var schema = Schema()
        let body = try schema.register("body", options: .text())
        // A frequent term (several blocks, skip data) beside rare ones.
        for n in 0..<700 {
            let document = document("d\(n)", body, "often often rare\(n % 97) " + (n % 3 == 0 ? "third" : ""))
            _ = builder.add(document, schema: schema, analyzer: Analyzer())
        }
        let sealed = try builder.seal()
        func layOut(maxBytes: Int) throws(EngineError) -> SealedPostings {
            var out = SealedPostings(docByteCount: 0, positionByteCount: 0, fieldCount: sealed.fieldTerms.count,
                                     maxBytes: maxBytes)
            for field in sealed.fieldTerms.indices {
                var terms = SealedPostings.FieldBuilder()
                let failure = SealedPostings.RawTerms.with([sealed], field: field) { raw -> EngineError? in
                    guard let dictionary = raw[0] else { return nil }
                    do throws(EngineError) {
                        for index in 0..<dictionary.count {
                            try out.startTerm(dictionary.term(index), of: &terms)
                            out.appendStream(of: dictionary, index, docBase: 0)
                            try out.endTerm(&terms, docFreq: Int(dictionary.docFreq[index]),
                                            norms: sealed.norms[field], impactConstant: sealed.impactConstants[field])
                        }
                        return nil
                    } catch {
                        return error
                    }
                }
                if let failure { throw failure }
                if terms.count > 0 { try out.finish(terms, field: field) }
            }
            return out
        }
        let needed = max(sealed.docBytes.count, sealed.positionBytes.count)
        XCTAssertGreaterThan(sealed.skipLastDoc.count, 0, "a term of several blocks")
        for maxBytes in stride(from: 0, to: needed, by: 7) {
            XCTAssertThrowsError(try layOut(maxBytes: maxBytes), "limit \(maxBytes)") {
                XCTAssertEqual($0 as? EngineError, .segmentTooLarge)
            }
        }
        let out = try layOut(maxBytes: needed)
        XCTAssertEqual(out.docBytes, sealed.docBytes)
        XCTAssertEqual(out.positionBytes, sealed.positionBytes)
        XCTAssertEqual(out.skipDocOffset, sealed.skipDocOffset)
    }

    /// The policy never plans a merge past the limits, by bytes or by documents, whatever the sizes.
    func testTheMergePolicyNeverPlansAnOverBudgetMerge() {
        var random = SeededLCG(seed: 7)
        for round in 0..<500 {
            let count = random.below(30) + 1
            let sizes = (0..<count).map { _ in random.below(1_000) + 1 }
            let live = sizes.map { $0 - random.below($0) / 3 }
            let bytes = sizes.map { $0 * (random.below(20) + 1) }
            let limits = SegmentLimits(maxBytes: random.below(20_000), maxDocuments: random.below(3_000))
            let policy = MergePolicy(maxSegments: random.below(6) + 1, mergeFactor: random.below(5) + 2)
            for group in policy.merges(sizes: sizes, live: live, bytes: bytes, limits: limits) where group.count > 1 {
                XCTAssertTrue(MergePolicy.fits(group, live: live, bytes: bytes, limits: limits), "round \(round)")
                XCTAssertLessThanOrEqual(group.reduce(0) { $0 + bytes[$1] }, limits.maxBytes, "round \(round)")
                XCTAssertLessThanOrEqual(group.reduce(0) { $0 + live[$1] }, limits.maxDocuments, "round \(round)")
            }
            if let group = policy.idleMerge(sizes: sizes, live: live, budget: Int.max / 2, bytes: bytes, limits: limits) {
                XCTAssertLessThanOrEqual(group.reduce(0) { $0 + bytes[$1] }, limits.maxBytes, "round \(round)")
            }
        }
        // Within the limits the policy is unchanged.
        let policy = MergePolicy(maxSegments: 3, mergeFactor: 2)
        XCTAssertEqual(policy.merges(sizes: [10, 10, 10, 10], live: [10, 10, 10, 10]),
                       policy.merges(sizes: [10, 10, 10, 10], live: [10, 10, 10, 10], bytes: [1, 1, 1, 1],
                                     limits: .standard))
        XCTAssertEqual(policy.merges(sizes: [10, 10], live: [10, 10], bytes: [600, 600],
                                     limits: SegmentLimits(maxBytes: 1_000, maxDocuments: 100)), [])
    }

    /// A segment whose rewrite (its deleted documents dropped) failed for its size was planned again by every
    /// commit: the deleted-fraction rewrite ignored `unmergeable`, so each commit rebuilt the same segment (up to
    /// 4 GB of work) only to throw it away. It is now left as it is, like a source of a failed multi-segment merge.
    func testASegmentWhoseRewriteFailedIsNotRewrittenByEveryCommit() throws {
        let (writer, body) = try writer(limits: .standard)
        let started = Mutex(0)
        writer.mergesInBackground = true
        writer.startMerge = { work in
            started.withLock { $0 += 1 }
            work()
        }
        for n in 0..<40 { try writer.upsert(document("d\(n)", body, "shared word\(n)")) }
        _ = try writer.commit()
        XCTAssertEqual(started.withLock { $0 }, 0)
        // Too small for the 10 documents the rewrite keeps: it fails.
        writer.segmentLimits = SegmentLimits(maxBytes: SegmentLimits.standard.maxBytes, maxDocuments: 5)
        writer.delete(ids: (0..<30).map { "d\($0)" })
        _ = try writer.commit()
        XCTAssertEqual(started.withLock { $0 }, 1, "the rewrite was planned")
        for _ in 0..<3 { _ = try writer.commit() }
        XCTAssertEqual(started.withLock { $0 }, 1, "the failed rewrite was not planned again")
        XCTAssertEqual(ids(writer.snapshot, "shared"), Set((30..<40).map { "d\($0)" }))
    }

    /// A segment that fits no merge (too large, or `unmergeable` after its merge failed) kept every other
    /// segment of its tier, and of the cap, from merging when it came first: the group was cut from the end
    /// until it fit, so a head that fit with nothing left no group at all. It is now passed over.
    func testASegmentThatFitsNoMergeDoesNotKeepTheOthersFromMerging() {
        let limits = SegmentLimits(maxBytes: 100, maxDocuments: 1_000)
        let policy = MergePolicy(maxSegments: 24, mergeFactor: 4)
        // One tier; the over-budget segment is its smallest.
        XCTAssertEqual(policy.merges(sizes: [1, 2, 2, 2, 2], live: [1, 2, 2, 2, 2], bytes: [101, 1, 1, 1, 1],
                                     limits: limits), [[1, 2, 3, 4]])
        // The cap, across tiers.
        let capped = MergePolicy(maxSegments: 2, mergeFactor: 4)
        XCTAssertEqual(capped.merges(sizes: [1, 5, 20], live: [1, 5, 20], bytes: [101, 1, 1], limits: limits),
                       [[1, 2]])
        // Idle merges too.
        XCTAssertEqual(policy.idleMerge(sizes: [1, 2, 3], live: [1, 2, 3], budget: 100, bytes: [101, 1, 1],
                                        limits: limits), [1, 2])
    }

    /// A document with many distinct terms added to a buffer under the byte limit could carry the postings pool
    /// past its 32-bit addresses (a trap in `ByteSlicePool`): checked once per document, its postings are left out
    /// and the buffer refused, so the pool never passes `addressableBytes` (lowered here), whatever the sizes.
    func testOneDocumentCannotCarryThePostingsPoolPastItsAddresses() throws {
        let schema = try {
            let writer = IndexWriter()
            _ = try writer.registerField("body", .text())
            return writer.schema
        }()
        let body = try XCTUnwrap(schema.field(named: "body"))
        let analyzer = Analyzer()
        var refusals = 0
        for addressable in stride(from: 20_000, through: 400_000, by: 19_000) {
            var builder = SegmentBuilder()
            builder.limits = SegmentLimits(maxBytes: addressable / 2, maxDocuments: 10_000, addressableBytes: addressable)
            var refused = false
            for n in 0..<400 {
                let distinct = n % 7 == 6 ? 40 * n : 3 + n % 11
                let text = (0..<distinct).map { "t\(n)x\($0)" }.joined(separator: " ")
                do {
                    try builder.checkRoom(forID: "d\(n)")
                } catch {
                    refused = true
                    break
                }
                _ = builder.add(Document(id: "d\(n)", values: [(body, .text(text))]), schema: schema, analyzer: analyzer)
                XCTAssertLessThanOrEqual(builder.poolBytes, addressable, "limit \(addressable), document \(n)")
            }
            XCTAssertTrue(refused, "limit \(addressable)")
            if builder.postingsRefused {
                refusals += 1
                XCTAssertThrowsError(try builder.seal()) { XCTAssertEqual($0 as? EngineError, .segmentTooLarge) }
            }
        }
        XCTAssertGreaterThan(refusals, 0, "some documents were refused for the pool's addresses")
    }

    /// A planned merge fails only on bytes (the policy checks documents), here on a segment of three long texts
    /// stored compressed (the estimate counts them compressed, the merge decompresses them). The segment marked
    /// `unmergeable` was the group's one of most documents: the innocent segment of 100 tiny ones never merged
    /// again, while the culprit was planned into the next merge, which failed too. The segment of most bytes is
    /// marked now, so the tiny-document segment merges with the next one.
    func testAFailedMergeMarksItsLargestSegmentByBytesNotByDocuments() throws {
        let (writer, body) = try writer(limits: .standard, policy: MergePolicy(maxSegments: 1, mergeFactor: 2))
        writer.minimumColdBytes = 1
        let long = String(repeating: "a long text that compresses well ", count: 250)
        for n in 0..<3 { try writer.upsert(document("huge\(n)", body, "huge number\(n) " + long)) }
        let huge = try XCTUnwrap(try writer.commit().segments.first)
        let plain = (0..<3).reduce(0) { total, doc in total + huge.withStoredRecord(doc) { $0.count } }
        XCTAssertLessThan(huge.stored.coldBytes.count, plain / 4, "the long texts are stored compressed")
        // Room for the huge segment's records decompressed, not for them and the tiny segment's.
        writer.segmentLimits = SegmentLimits(maxBytes: plain + 6 * 3 + 64, maxDocuments: 1_000)
        for n in 0..<100 { try writer.upsert(document("tiny\(n)", body, "tiny word\(n)")) }
        _ = try writer.commit()
        XCTAssertEqual(writer.snapshot.segments.map(\.documentCount), [3, 100], "the merge failed")
        for n in 0..<100 { try writer.upsert(document("next\(n)", body, "tiny next\(n)")) }
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.map(\.documentCount).sorted(), [3, 200],
                       "the tiny-document segment merged with the next one")
        XCTAssertEqual(ids(snapshot, "tiny").count, 200)
        XCTAssertEqual(ids(snapshot, "huge"), ["huge0", "huge1", "huge2"])
    }
}

