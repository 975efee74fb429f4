@testable import SearchlightEngine
import Foundation
import Synchronization
import XCTest

/// Champion lists (`ChampionLists`) and the searches they answer: a lone term or prefix over the default fields
/// gets exactly the hits a full evaluation of its postings gives, whatever the segments, deletions, field
/// averages or scope; and the lists hold the documents that rank first.
final class ChampionListsTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator

    /// Common words (in most documents, often repeated) over a long tail, so that terms and short prefixes pass
    /// `minimumPostings`; titles are short and primary, so exact and prefix title boosts occur.
    static let common = ["ab", "abc", "abd", "ac", "b", "ba", "bab", "cab", "caa", "aba"]

    struct Corpus {
        let title: FieldID
        let body: FieldID
        let tags: FieldID
    }

    static func makeCorpus(_ writer: IndexWriter, documents: Int, seed: UInt64, commitEvery: Int? = nil,
                           deleteEvery: Int? = nil, longBodiesFrom: Int? = nil) throws -> Corpus {
        var g = Generator(state: seed)
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        let tags = try writer.registerField("tags", .text(weight: 2))
        func word() -> String {
            g.chance(0.6) ? g.pick(Self.common) : String((0..<(2 + g.int(4))).map { _ in g.pick(Array("abcd")) })
        }
        for i in 0..<documents {
            let long = longBodiesFrom.map { i >= $0 } ?? false
            let titleWords = (0..<(1 + g.int(3))).map { _ in word() }
            let bodyWords = (0..<((long ? 40 : 3) + g.int(long ? 60 : 12))).map { _ in word() }
            var values: [(FieldID, FieldValue)] = [(title, .text(titleWords.joined(separator: " "))),
                                                   (body, .text(bodyWords.joined(separator: " ")))]
            if g.chance(0.3) { values.append((tags, .text(word()))) }
            try writer.upsert(Document(id: "d\(i)", values: values))
            if let deleteEvery, i % deleteEvery == deleteEvery - 1 {
                writer.delete(ids: (0..<3).map { _ in "d\(g.int(i + 1))" })
            }
            if let commitEvery, i % commitEvery == commitEvery - 1 { _ = try writer.commit() }
        }
        return Corpus(title: title, body: body, tags: tags)
    }

    /// The queries checked: every common word as a term, its first letters as prefixes, and one- and two-letter
    /// prefixes over the alphabet.
    private static var queries: [Query] {
        var queries: [Query] = common.map { .term($0) } + [.phrase("abc")]
        for word in common { queries.append(.prefix(String(word.prefix(2)))) }
        for a in "abcd" {
            queries.append(.prefix(String(a)))
            for b in "abcd" { queries.append(.prefix(String([a, b]))) }
        }
        return queries
    }

    /// Whether the champion lists answered `query` in `snapshot` (certified), not the full evaluation.
    private func servedByLists(_ snapshot: IndexSnapshot, _ query: Query, limit: Int) -> Bool {
        var planner = QueryPlanner(snapshot: snapshot)
        let plan = planner.plan(query, scope: planner.resolve(.defaultFields))
        guard snapshot.segments.contains(where: { $0.championLists != nil }) else { return false }
        return snapshot.championSearch(query, plan: plan, planner: &planner, window: limit,
                                       options: SearchOptions(limit: limit))?.vouched ?? false
    }

    /// Hits of the lists against those of the full evaluation. Terms score bit for bit alike; a prefix's field
    /// adds its terms' frequencies before weighting them (the full evaluation weights each term), so its scores
    /// agree to rounding, and documents tied to rounding at the page's end may differ.
    static func assertSameHits(_ fast: [SearchHit], _ full: [SearchHit], exact: Bool, _ message: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(fast.count, full.count, message, file: file, line: line)
        guard fast.count == full.count else { return }
        if exact {
            XCTAssertEqual(fast, full, message, file: file, line: line)
            return
        }
        for (a, b) in zip(fast, full) {
            XCTAssertEqual(a.score, b.score, accuracy: 1e-5 * max(1, b.score), message, file: file, line: line)
        }
        let last = full.last?.score ?? 0
        let fullAddresses = Set(full.map(\.address))
        for hit in fast where !fullAddresses.contains(hit.address) {
            XCTAssertEqual(hit.score, last, accuracy: 1e-5 * max(1, last), "\(message): \(hit) is not a tie at the end",
                           file: file, line: line)
        }
    }

    /// Searches every query at several page sizes with and without the lists; returns how many the lists served.
    @discardableResult
    private func compareAll(_ snapshot: IndexSnapshot, _ label: String) -> Int {
        var served = 0
        Self.assertListsAgree(snapshot, Self.queries, limits: [1, 7, 20, ChampionLists.capacity], label) { query, limit in
            if servedByLists(snapshot, query, limit: limit) { served += 1 }
        }
        return served
    }

    /// Every query at each page size, with the lists allowed and without: the same hits (`assertSameHits`);
    /// `each` is told every query and page size compared.
    static func assertListsAgree(_ snapshot: IndexSnapshot, _ queries: [Query], limits: [Int], _ label: String,
                                 file: StaticString = #filePath, line: UInt = #line,
                                 each: (Query, Int) -> Void = { _, _ in }) {
        for query in queries {
            for limit in limits {
                var off = SearchOptions(limit: limit)
                off.championLists = false
                let full = snapshot.search(query, options: off)
                let fast = snapshot.search(query, options: SearchOptions(limit: limit))
                var exact = true
                if case .prefix = query { exact = false }
                assertSameHits(fast, full, exact: exact, "\(label) \(query) limit \(limit)", file: file, line: line)
                each(query, limit)
            }
        }
    }

    func testOneSegmentAnswersFromTheLists() throws {
        let writer = IndexWriter()
        _ = try Self.makeCorpus(writer, documents: 4_000, seed: 1)
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.count, 1)
        let segment = snapshot.segments[0]
        let all = try XCTUnwrap(segment.championLists).allLists(in: segment)
        XCTAssertGreaterThan(all.terms.count, 5)
        XCTAssertGreaterThan(all.prefixes.count, 5)
        let served = compareAll(snapshot, "one segment")
        // One segment: the snapshot's statistics are the lists' own, so every listed query is certified.
        XCTAssertGreaterThan(served, Self.queries.count * 2, "most searches must come from the lists")
    }

    func testSegmentsWithOtherAveragesStayExact() throws {
        let writer = IndexWriter()
        // The later documents' bodies are several times longer: the segments' averages differ from the snapshot's.
        _ = try Self.makeCorpus(writer, documents: 6_000, seed: 2, commitEvery: 2_000, longBodiesFrom: 4_000)
        let snapshot = try writer.commit()
        XCTAssertGreaterThan(snapshot.segments.count, 1)
        XCTAssertGreaterThan(snapshot.segments.compactMap(\.championLists).map { $0.stretch(averages: snapshot.fieldAverages) }.max() ?? 1, 1.05,
                             "some segment's averages must be below the snapshot's")
        compareAll(snapshot, "segments")
    }

    /// A segment's list ranks with its own averages; when the snapshot's averages grow (a segment of long
    /// documents joins), a long document the list left out can overtake every listed one. The bound must see
    /// it: here the full ranking puts that document first, and the search must too.
    func testGrownAveragesCanReorderAndAreCaught() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text(weight: 1))
        func add(_ id: String, _ text: String) throws { try writer.upsert(Document(id: id, values: [(body, .text(text))])) }
        // Segment A: 40 very short documents, one long document with "ab" 40 times, and 500 medium ones.
        for i in 0..<40 { try add("s\(i)", (["ab"] + Array(repeating: "zz", count: i % 4)).joined(separator: " ")) }
        try add("long", (Array(repeating: "ab", count: 40) + Array(repeating: "zz", count: 460)).joined(separator: " "))
        for i in 0..<500 { try add("m\(i)", (["ab"] + Array(repeating: "zz", count: 11)).joined(separator: " ")) }
        let first = try writer.commit()
        XCTAssertNotEqual(first.search(.term("ab"), limit: 1).first.flatMap { first.id(of: $0.address) }, "long")
        XCTAssertTrue(servedByLists(first, .term("ab"), limit: 20))
        // Segment B: long documents without the term; the body average grows about fourteenfold.
        for i in 0..<3_000 { try add("b\(i)", Array(repeating: "yy", count: 200).joined(separator: " ")) }
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.count, 2)
        var off = SearchOptions(limit: 20)
        off.championLists = false
        let full = snapshot.search(.term("ab"), options: off)
        XCTAssertEqual(full.first.flatMap { snapshot.id(of: $0.address) }, "long")
        XCTAssertEqual(snapshot.search(.term("ab"), limit: 20), full)
        XCTAssertFalse(servedByLists(snapshot, .term("ab"), limit: 20))
    }

    func testDeletionsStayExact() throws {
        let writer = IndexWriter()
        _ = try Self.makeCorpus(writer, documents: 4_000, seed: 3, commitEvery: 1_500, deleteEvery: 2)
        // Delete most of the best documents of a common word, so its lists hold too few live ones.
        let snapshot0 = try writer.commit()
        var off = SearchOptions(limit: 200)
        off.championLists = false
        let best = snapshot0.search(.term("ab"), options: off).prefix(150)
        writer.delete(ids: best.compactMap { snapshot0.id(of: $0.address) })
        let snapshot = try writer.commit()
        compareAll(snapshot, "deletions")
    }

    func testMergedSegmentsAnswerFromTheLists() throws {
        let writer = IndexWriter()
        _ = try Self.makeCorpus(writer, documents: 3_000, seed: 4, commitEvery: 500, deleteEvery: 7)
        _ = try writer.commit()
        writer.mergePolicy = MergePolicy(maxSegments: 1)
        try writer.upsert(Document(id: "last", values: [(FieldID(rawValue: 0), .text("ab"))]))
        let snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.count, 1)
        XCTAssertNotNil(snapshot.segments[0].championLists)
        XCTAssertGreaterThan(compareAll(snapshot, "merged"), 0)
    }

    /// A commit builds no list: each key's is built by the first ranked search that can use it, in each segment
    /// it searches, and kept; later searches reuse it, keys short of `minimumPostings` (or absent) are remembered
    /// only up to `DerivedCache.absentLimit` (type-ahead would otherwise fill the cache without bound), and a
    /// segment made by a merge on the writer's thread starts with no list. Searches agree with the full ranking
    /// throughout.
    func testEachKeysListIsBuiltByItsFirstSearch() throws {
        let writer = IndexWriter()
        _ = try Self.makeCorpus(writer, documents: 3_000, seed: 12, commitEvery: 1_000)
        var snapshot = writer.snapshot
        XCTAssertEqual(snapshot.segments.count, 3)
        for segment in snapshot.segments {
            let lists = try XCTUnwrap(segment.championLists, "a segment has lists to fill")
            XCTAssertEqual(lists.keysSeen, 0, "the commit built some")
        }
        let before = snapshot.segments.map(\.championMemoryBytes)
        XCTAssertTrue(servedByLists(snapshot, .term("ab"), limit: 20))
        for (segment, bytes) in zip(snapshot.segments, before) {
            XCTAssertEqual(segment.championLists?.keysSeen, 1)
            XCTAssertGreaterThan(segment.championMemoryBytes, bytes + 32 * 4, "the list of ab is not kept")
        }
        let kept = snapshot.segments.map { $0.championLists?.list("ab", prefix: false, in: $0) }
        XCTAssertTrue(servedByLists(snapshot, .term("ab"), limit: 7))
        for (segment, list) in zip(snapshot.segments, kept) {
            XCTAssertEqual(segment.championLists?.keysSeen, 1, "built again")
            XCTAssertTrue(segment.championLists?.list("ab", prefix: false, in: segment) === list, "not the kept list")
        }
        // Rare and absent keys: no list, nothing kept.
        XCTAssertFalse(servedByLists(snapshot, .term("dddd"), limit: 20))
        for i in 0..<2_000 {
            _ = snapshot.search(.term("zz\(i)q"), limit: 10)
            _ = snapshot.search(.prefix("q\(i)"), limit: 10)
        }
        for segment in snapshot.segments {
            XCTAssertEqual(segment.championLists?.keysSeen, 1, "listless keys kept as lists")
            XCTAssertNil(segment.championLists?.list("dddd", prefix: false, in: segment))
            XCTAssertLessThan(segment.championMemoryBytes, 2 * DerivedCache<[UInt8], ChampionLists.List>.absentLimit * 64 + 10_000,
                              "listless keys kept without bound")
        }
        compareAll(snapshot, "built while searching")
        writer.mergePolicy = MergePolicy(maxSegments: 1)
        try writer.upsert(Document(id: "last", values: [(FieldID(rawValue: 0), .text("ab"))]))
        snapshot = try writer.commit()
        XCTAssertEqual(snapshot.segments.count, 1)
        XCTAssertEqual(snapshot.segments[0].championLists?.keysSeen, 0, "the merge built some")
        XCTAssertGreaterThan(compareAll(snapshot, "merged"), 0)
    }

    /// Searches on many threads at once, each the first for its keys in some segment: every one gets the full
    /// ranking's hits, and each segment keeps one list per key.
    func testConcurrentFirstSearchesAgree() throws {
        let writer = IndexWriter()
        _ = try Self.makeCorpus(writer, documents: 3_000, seed: 15, commitEvery: 1_500)
        let snapshot = writer.snapshot
        let expected: [[SearchHit]] = Self.queries.map { query in
            var off = SearchOptions(limit: 20)
            off.championLists = false
            return snapshot.search(query, options: off)
        }
        let mismatches = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            // Each worker starts elsewhere in the list, odd ones walking it backwards.
            let count = Self.queries.count
            let order = (0..<count).map { (worker * count / 8 + ($0 * (worker % 2 == 0 ? 1 : count - 1))) % count }
            for (number, offset) in order.enumerated() {
                let query = (offset: offset, element: Self.queries[offset])
                let hits = snapshot.search(query.element, limit: 20)
                var exact = true
                if case .prefix = query.element { exact = false }
                let same = exact ? hits == expected[query.offset]
                    : hits.count == expected[query.offset].count
                        && zip(hits, expected[query.offset]).allSatisfy { abs($0.score - $1.score) <= 1e-5 * max(1, $1.score) }
                if !same { mismatches.withLock { $0.append("worker \(worker) \(query.element) (#\(number))") } }
            }
        }
        XCTAssertEqual(mismatches.withLock { $0 }, [])
        for segment in snapshot.segments {
            let lists = try XCTUnwrap(segment.championLists)
            XCTAssertLessThanOrEqual(lists.keysSeen, Self.queries.count)
            XCTAssertGreaterThan(lists.keysSeen, 10)
        }
    }

    /// A scope the lists were not ranked for (another weight, another default field) is never answered from them:
    /// a commit that changes the scope makes the segments' lists rank for the new one, and a snapshot taken before
    /// reads its postings from then on.
    func testAnotherScopeIsNotReadFromTheLists() throws {
        let writer = IndexWriter()
        let corpus = try Self.makeCorpus(writer, documents: 3_000, seed: 5)
        let before = try writer.commit()
        XCTAssertTrue(servedByLists(before, .term("ab"), limit: 20))
        try writer.setWeight(0.5, for: corpus.title)
        var snapshot = try writer.commit()
        XCTAssertFalse(servedByLists(before, .term("ab"), limit: 20), "the new weight's lists served the old one")
        compareAll(before, "weight changed, old snapshot")
        XCTAssertTrue(servedByLists(snapshot, .term("ab"), limit: 20))
        compareAll(snapshot, "weight changed")
        let weighted = snapshot
        _ = try writer.registerField("extra", .text(weight: 1))
        snapshot = try writer.commit()
        XCTAssertFalse(servedByLists(weighted, .term("ab"), limit: 20), "the new field's lists served the old scope")
        compareAll(weighted, "field added, old snapshot")
        compareAll(snapshot, "field added")
    }

    /// A key that every segment lists is scored without a plan: its idf comes from the lists' document
    /// frequencies (a term's added up field by field over the segments; a prefix's largest term in one segment).
    /// The hits, scores and verdict equal those of the planned search for every listed key, at every page size;
    /// a prefix over several segments, or a key some segment does not list, is planned.
    func testListedKeysAreScoredWithoutAPlan() throws {
        for (label, commitEvery) in [("one segment", nil), ("segments", 2_000)] as [(String, Int?)] {
            let writer = IndexWriter()
            _ = try Self.makeCorpus(writer, documents: 4_000, seed: 21, commitEvery: commitEvery, deleteEvery: 9)
            let snapshot = try writer.commit()
            XCTAssertEqual(snapshot.segments.count > 1, commitEvery != nil, label)
            var queries: [Query] = Self.queries + [.term("zzz"), .prefix("ab cd"), .term("ab cd")]
            for segment in snapshot.segments {
                guard let all = segment.championLists?.allLists(in: segment) else { continue }
                queries += all.terms.map { .term($0.0) } + all.prefixes.map { .prefix($0.0) }
            }
            var unplanned = 0, prefixesUnplanned = 0
            for query in queries {
                for limit in [1, 20, ChampionLists.capacity] {
                    let memo = PlanMemo(for: snapshot)
                    var planner = QueryPlanner(snapshot: snapshot, memo: memo)
                    let fast = snapshot.championSearch(query, plan: nil, planner: &planner, window: limit,
                                                       options: SearchOptions(limit: limit))
                    var planning = QueryPlanner(snapshot: snapshot)
                    let plan = planning.plan(query, scope: planning.resolve(.defaultFields))
                    let planned = snapshot.championSearch(query, plan: plan, planner: &planning, window: limit,
                                                          options: SearchOptions(limit: limit))
                    XCTAssertEqual(fast?.hits, planned?.hits, "\(label) \(query) limit \(limit)")
                    XCTAssertEqual(fast?.vouched, planned?.vouched, "\(label) \(query) limit \(limit)")
                    guard fast != nil, memo.count == 0 else { continue }
                    unplanned += 1
                    if case .prefix = query {
                        prefixesUnplanned += 1
                        XCTAssertEqual(snapshot.segments.count, 1, "\(label) \(query): a prefix over segments needs its plan")
                    } else if case .term(let text) = query {
                        XCTAssertTrue(snapshot.segments.allSatisfy { segment in
                            segment.championLists?.list(text, prefix: false, in: segment) != nil
                        }, "\(label) \(query): planned unless every segment lists it")
                    }
                }
            }
            XCTAssertGreaterThan(unplanned, 30, label)
            if commitEvery == nil { XCTAssertGreaterThan(prefixesUnplanned, 10, label) }
        }
    }

    /// A filter, a static boost field, a page larger than a list and a scoped query read the postings.
    func testOtherSearchesReadThePostings() throws {
        let writer = IndexWriter()
        let corpus = try Self.makeCorpus(writer, documents: 3_000, seed: 6)
        let snapshot = try writer.commit()
        XCTAssertTrue(servedByLists(snapshot, .term("ab"), limit: 20))
        XCTAssertFalse(servedByLists(snapshot, .term("ab"), limit: ChampionLists.capacity + 1))
        XCTAssertFalse(servedByLists(snapshot, .scoped(.field(corpus.title), .term("ab")), limit: 20))
        var planner = QueryPlanner(snapshot: snapshot)
        let plan = planner.plan(.term("ab"), scope: planner.resolve(.defaultFields))
        XCTAssertNil(snapshot.championSearch(.term("ab"), plan: plan, planner: &planner, window: 20,
                                             options: SearchOptions(limit: 20, filter: .term("b"))))
        // Scoped to the title, the hits are the title's alone.
        let scoped = snapshot.search(.scoped(.field(corpus.title), .term("ab")), limit: 20)
        for hit in scoped { XCTAssertNotNil(snapshot.explain(.scoped(.field(corpus.title), .term("ab")), hit.address)) }
    }

    /// A durable store reopened has lists to fill, and its searches give the hits they gave before. A store
    /// opened with `championLists` off, and a writer with `buildsChampionLists` off, have none.
    func testRestoredStoresAndWritersWithoutLists() throws {
        for withLists in [true, false] {
            let directory = makeStoreDirectory(self)
            var options = StoreOptions()
            options.protectionClass = "NSFileProtectionComplete"
            options.championLists = withLists
            var before: [[SearchHit]] = []
            do {
                let opened = try DurableStore.open(directory: directory, options: options)
                _ = try Self.makeCorpus(opened.writer, documents: 2_500, seed: 11, commitEvery: 1_250)
                let snapshot = try opened.writer.commit()
                XCTAssertEqual(snapshot.segments.contains { $0.championLists != nil }, withLists)
                before = Self.queries.map { snapshot.search($0, limit: 20) }
                try opened.store.checkpoint(snapshot, clientStates: [:])
                opened.store.close()
            }
            let reopened = try DurableStore.open(directory: directory, options: options)
            let snapshot = reopened.writer.snapshot
            XCTAssertEqual(snapshot.segments.contains { $0.championLists != nil }, withLists)
            // Served from the lists when they are on (a prefix's scores agree to rounding).
            for (query, hits) in zip(Self.queries, before) {
                var exact = true
                if case .prefix = query { exact = false }
                Self.assertSameHits(snapshot.search(query, limit: 20), hits, exact: exact, "reopened \(query)")
            }
            if withLists {
                XCTAssertFalse(snapshot.segments.contains { $0.championLists == nil })
                XCTAssertGreaterThan(compareAll(snapshot, "restored"), 0)
            } else {
                XCTAssertEqual(compareAll(snapshot, "restored without lists"), 0)
            }
            reopened.store.close()
        }
        let writer = IndexWriter()
        writer.buildsChampionLists = false
        _ = try Self.makeCorpus(writer, documents: 1_500, seed: 12)
        let snapshot = try writer.commit()
        XCTAssertNil(snapshot.segments[0].championLists)
        XCTAssertFalse(servedByLists(snapshot, .term("ab"), limit: 20))
    }

    /// A key with a frequency beyond a list's 16 bits in some document gets no list (its searches read the
    /// postings); the other keys still get theirs.
    func testFrequenciesBeyondSixteenBitsLeaveTheKeyOut() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text(weight: 1))
        for i in 0..<(ChampionLists.minimumPostings + 100) {
            // Lengths vary, so the best "cd" documents are not tied with the first one left out.
            let filler = Array(repeating: "zz", count: i % 40).joined(separator: " ")
            try writer.upsert(Document(id: "d\(i)", values: [(body, .text("ab cd ab\(i % 3) \(filler)"))]))
        }
        try writer.upsert(Document(id: "huge", values: [(body, .text(Array(repeating: "ab", count: 70_000).joined(separator: " ")))]))
        let snapshot = try writer.commit()
        let segment = snapshot.segments[0]
        let lists = try XCTUnwrap(segment.championLists)
        XCTAssertNil(lists.list("ab", prefix: false, in: segment))
        XCTAssertNotNil(lists.list("cd", prefix: false, in: segment))
        XCTAssertNil(lists.list("ab", prefix: true, in: segment))
        var off = SearchOptions(limit: 20)
        off.championLists = false
        XCTAssertEqual(snapshot.search(.term("ab"), limit: 20), snapshot.search(.term("ab"), options: off))
        XCTAssertEqual(snapshot.search(.term("ab"), limit: 1).first.flatMap { snapshot.id(of: $0.address) }, "huge")
        XCTAssertTrue(servedByLists(snapshot, .term("cd"), limit: 20))
    }

    /// Prefixes with the same terms (`libr`, `libra`, `librar`: every term with one starts with the next) get
    /// equal lists (each built and kept on its own); a prefix with fewer terms (`librari`) or that is itself a term (`library`) gets another, and
    /// every one of them answers as the full ranking does.
    func testPrefixesWithTheSameTermsGetTheSameList() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text(weight: 1))
        var g = Generator(state: 14)
        let words = ["library", "libraries", "librarian", "librarians"]
        for i in 0..<1_500 {
            let text = (0..<(1 + g.int(3))).map { _ in g.pick(words) } + Array(repeating: "zz", count: g.int(9))
            try writer.upsert(Document(id: "d\(i)", values: [(body, .text(text.joined(separator: " ")))]))
        }
        let snapshot = try writer.commit()
        let segment = snapshot.segments[0]
        let lists = try XCTUnwrap(segment.championLists)
        func entries(_ key: String) throws -> [UInt32] {
            let list = try XCTUnwrap(lists.list(key, prefix: true, in: segment), key)
            return list.docs.map { $0 } + list.masks + list.flags.map(UInt32.init) + list.tfs.map(UInt32.init) + [list.bound.bitPattern]
        }
        let shared = try entries("libr")
        XCTAssertEqual(try entries("libra"), shared)
        XCTAssertEqual(try entries("librar"), shared)
        XCTAssertEqual(try entries("li"), shared)
        XCTAssertNotEqual(try entries("librari"), shared)
        XCTAssertNotEqual(try entries("library"), shared)
        XCTAssertNotEqual(try entries("library"), try entries("librari"))
        for key in ["l", "li", "libr", "libra", "librar", "librari", "library", "librarian"] {
            var off = SearchOptions(limit: 20)
            off.championLists = false
            Self.assertSameHits(snapshot.search(.prefix(key), limit: 20), snapshot.search(.prefix(key), options: off),
                           exact: false, key)
        }
        for key in ["libr", "libra", "librar"] { XCTAssertTrue(servedByLists(snapshot, .prefix(key), limit: 20), key) }
    }

    /// Each list holds the documents a full ranking puts first, and its bound is the score of the next one.
    func testListsHoldTheBestDocuments() throws {
        let writer = IndexWriter()
        _ = try Self.makeCorpus(writer, documents: 3_000, seed: 7)
        let snapshot = try writer.commit()
        let segment = snapshot.segments[0]
        let all = try XCTUnwrap(segment.championLists).allLists(in: segment)
        let k = ChampionLists.capacity
        var checked = 0
        for (keyed, isPrefix) in [(all.terms, false), (all.prefixes, true)] {
            for (key, list) in keyed {
                let query: Query = isPrefix ? .prefix(key) : .term(key)
                var off = SearchOptions(limit: 2 * k + 1)
                off.championLists = false
                let full = snapshot.search(query, options: off)
                let listed = list.docs.map { Int($0) }
                let n = listed.count
                // At least the capacity (or every match), more only to keep a tie at the end whole.
                XCTAssertGreaterThanOrEqual(n, min(k, full.count), key)
                XCTAssertLessThanOrEqual(n, 2 * k, key)
                let planner = QueryPlanner(snapshot: snapshot)
                guard let idf = planner.plan(query, scope: planner.resolve(.defaultFields)).idfForTests else {
                    return XCTFail("no plan for \(key)")
                }
                let tolerance: Float = isPrefix ? 1e-5 : 0
                if n > k {
                    XCTAssertEqual(full[n - 1].score, full[k - 1].score, accuracy: tolerance * full[k - 1].score, "\(key): extended past a tie")
                }
                let bound = list.bound
                if full.count > n {
                    XCTAssertEqual(bound * idf, full[n].score, accuracy: 1e-4 * max(1, full[n].score), key)
                    if full[n].score >= full[n - 1].score * (1 + tolerance) {
                        // A tie longer than twice the capacity: the list stays at the capacity (no page ending in
                        // the tie can be vouched for).
                        XCTAssertEqual(n, k, key)
                        XCTAssertEqual(full[2 * k].score, full[k - 1].score, accuracy: tolerance * full[k - 1].score, key)
                    }
                } else {
                    XCTAssertEqual(bound, -.infinity, key)
                }
                // The listed documents are the first n, up to ties (to rounding) at the end.
                let cut = full.prefix(n).last?.score ?? 0
                for hit in full.prefix(n) where hit.score > cut * (1 + 1e-5) {
                    XCTAssertTrue(listed.contains(Int(hit.address.doc)), "\(key): \(hit) missing")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 10)
    }

    /// Lists ranked a few documents at a time (many windows) equal those ranked over the whole segment at once.
    func testWindowsDoNotChangeTheLists() throws {
        let writer = IndexWriter()
        _ = try Self.makeCorpus(writer, documents: 3_000, seed: 13, deleteEvery: 5)
        let snapshot = try writer.commit()
        let segment = snapshot.segments[0]
        let scope = try XCTUnwrap(ChampionLists.Scope(schema: snapshot.schema, parameters: snapshot.parameters))
        let whole = ChampionLists(segment: segment, scope: scope).allLists(in: segment)
        for window in [1, 7, 64, 1_000] {
            let windowed = ChampionLists(segment: segment, scope: scope, window: window).allLists(in: segment)
            for (a, b) in [(whole.terms, windowed.terms), (whole.prefixes, windowed.prefixes)] {
                XCTAssertEqual(a.map(\.0), b.map(\.0), "window \(window)")
                for ((key, x), (_, y)) in zip(a, b) {
                    XCTAssertEqual(x.docs, y.docs, "window \(window) \(key)")
                    XCTAssertEqual(x.masks, y.masks, "window \(window) \(key)")
                    XCTAssertEqual(x.flags, y.flags, "window \(window) \(key)")
                    XCTAssertEqual(x.tfs, y.tfs, "window \(window) \(key)")
                    XCTAssertEqual(x.norms, y.norms, "window \(window) \(key)")
                    XCTAssertEqual(x.docFreq, y.docFreq, "window \(window) \(key)")
                    XCTAssertEqual(x.bound, y.bound, "window \(window) \(key)")
                }
            }
        }
        XCTAssertGreaterThan(whole.terms.count + whole.prefixes.count, 20)
    }

    /// A ranking scratch whose stamps wrap around (after 2³² windows in a long-lived process) clears its records
    /// and ranks as a fresh one: lists built with it, a few documents a window, equal those of a fresh scratch.
    func testScratchStampsWrappingAroundRankAlike() throws {
        let writer = IndexWriter()
        _ = try Self.makeCorpus(writer, documents: 2_000, seed: 16)
        let snapshot = try writer.commit()
        let segment = snapshot.segments[0]
        let scope = try XCTUnwrap(ChampionLists.Scope(schema: snapshot.schema, parameters: snapshot.parameters))
        let stride = ChampionLists.recordStride(positions: scope.fields.count)
        func lists() -> (terms: [(String, ChampionLists.List)], prefixes: [(String, ChampionLists.List)]) {
            ChampionLists(segment: segment, scope: scope, window: 300).allLists(in: segment)
        }
        ChampionLists.scratchPool.replaceAll(with: [])
        let fresh = lists()
        // The same records, left holding stale data, with stamps about to wrap.
        let scratch = ChampionLists.Scratch(stride: stride, capacity: 300)
        for byte in 0..<(stride * 300) { scratch.records.storeBytes(of: UInt8(truncatingIfNeeded: byte &* 37), toByteOffset: byte, as: UInt8.self) }
        // Stale stamps equal to the first one after the wrap: uncleared, these records would pass for the window's.
        for record in 0..<300 { scratch.records.storeBytes(of: UInt32(1), toByteOffset: record * stride + 4, as: UInt32.self) }
        scratch.stamp = UInt32.max
        ChampionLists.scratchPool.replaceAll(with: [scratch])
        let wrapped = lists()
        XCTAssertLessThan(scratch.stamp, 10_000, "the stamps did not wrap")
        for (a, b) in [(fresh.terms, wrapped.terms), (fresh.prefixes, wrapped.prefixes)] {
            XCTAssertEqual(a.map(\.0), b.map(\.0))
            for ((key, x), (_, y)) in zip(a, b) {
                XCTAssertEqual(x.docs, y.docs, key)
                XCTAssertEqual(x.tfs, y.tfs, key)
                XCTAssertEqual(x.flags, y.flags, key)
                XCTAssertEqual(x.bound, y.bound, key)
            }
        }
        XCTAssertGreaterThan(fresh.terms.count + fresh.prefixes.count, 10)
    }

    /// The keys that get a list are exactly those whose postings in the default fields (a prefix: over every term
    /// that starts with it) reach `minimumPostings`, multibyte characters included; the list of a term holds its
    /// document frequency per field, and a prefix's the largest of its terms'.
    func testListedKeysAreThoseReachingTheMinimum() throws {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 2, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        var g = Generator(state: 8)
        let alphabet: [String] = ["a", "b", "λ", "日", "本", "é", "😀"]
        var words: [String] = []
        for i in 0..<2_400 {
            let word = (0..<(1 + g.int(4))).map { _ in g.pick(alphabet) }.joined()
            words.append(word)
            func text() -> String { (0..<(1 + g.int(5))).map { _ in g.pick(words) }.joined(separator: " ") }
            try writer.upsert(Document(id: "d\(i)", values: [(title, .text(text())), (body, .text(text()))]))
        }
        let snapshot = try writer.commit()
        let segment = snapshot.segments[0]
        let lists = try XCTUnwrap(segment.championLists)
        // Brute force: every term's and every prefix's postings and largest document frequency, per field.
        var termPostings: [String: [Int]] = [:], prefixPostings: [String: [Int]] = [:], prefixLargest: [String: [Int]] = [:]
        for (position, field) in lists.scope.fields.enumerated() {
            let dictionary = try XCTUnwrap(segment.terms(FieldID(rawValue: UInt16(field))))
            for index in 0..<dictionary.count {
                let term = String(decoding: dictionary.bytes[Int(dictionary.offsets[index])..<Int(dictionary.offsets[index + 1])], as: UTF8.self)
                let df = Int(dictionary.docFreq[index])
                termPostings[term, default: [0, 0]][position] += df
                for length in 1...term.count {
                    let prefix = String(term.prefix(length))
                    prefixPostings[prefix, default: [0, 0]][position] += df
                    prefixLargest[prefix, default: [0, 0]][position] = max(prefixLargest[prefix, default: [0, 0]][position], df)
                }
            }
        }
        var listed = 0
        for (key, postings) in termPostings {
            let list = lists.list(key, prefix: false, in: segment)
            XCTAssertEqual(list != nil, postings.reduce(0, +) >= ChampionLists.minimumPostings, key)
            if let list { XCTAssertEqual(list.docFreq.map(Int.init), postings, key); listed += 1 }
        }
        for (key, postings) in prefixPostings {
            let list = lists.list(key, prefix: true, in: segment)
            XCTAssertEqual(list != nil, postings.reduce(0, +) >= ChampionLists.minimumPostings, key)
            if let list { XCTAssertEqual(list.docFreq.map(Int.init), prefixLargest[key], key); listed += 1 }
        }
        XCTAssertGreaterThan(listed, 10)
        XCTAssertLessThan(listed, termPostings.count + prefixPostings.count, "every key listed: the minimum is not tested")
        XCTAssertEqual(lists.keysSeen, listed, "keys below the minimum kept")
    }

    /// `stretch` bounds how much any length factor grows between the lists' averages and a snapshot's.
    func testStretchBoundsEveryLengthFactor() throws {
        let writer = IndexWriter()
        _ = try Self.makeCorpus(writer, documents: 3_000, seed: 9)
        let snapshot = try writer.commit()
        let lists = try XCTUnwrap(snapshot.segments[0].championLists)
        var g = Generator(state: 10)
        let b = lists.scope.parameters.b
        for _ in 0..<200 {
            var averages = snapshot.fieldAverages
            for field in lists.scope.fields { averages[field] = max(1, Float(g.int(4000)) / 10) }
            let stretch = lists.stretch(averages: averages)
            XCTAssertGreaterThanOrEqual(stretch, 1)
            for (position, field) in lists.scope.fields.enumerated() where lists.longest[position] > 0 {
                for length in FieldNorm.lengths where length <= lists.longest[position] {
                    let built = 1 / (1 - b + b * length / lists.averages[position])
                    let now = 1 / (1 - b + b * length / averages[field])
                    XCTAssertLessThanOrEqual(now / built, stretch * (1 + 1e-5), "length \(length)")
                }
            }
        }
    }
}

extension QueryPlan {
    /// The idf of a term or prefix plan (tests).
    var idfForTests: Float? {
        switch self {
        case .group(_, let idf, _), .prefix(_, _, let idf, _): return idf
        default: return nil
        }
    }
}

extension ChampionLists {
    /// `list(_:prefix:in:)` of a key given as text (tests).
    func list(_ key: String, prefix: Bool, in segment: Segment) -> List? {
        list(Array(key.utf8), prefix: prefix, in: segment)
    }

    /// Every term of `segment`'s default fields and every prefix of one (whole characters) that gets a list, with
    /// its list, in key order (tests: building them all, the keys a search may find listed).
    func allLists(in segment: Segment) -> (terms: [(String, List)], prefixes: [(String, List)]) {
        var terms = Set<String>(), prefixes = Set<String>()
        for field in scope.fields {
            guard let dictionary = segment.terms(FieldID(rawValue: UInt16(field))) else { continue }
            for index in 0..<dictionary.count {
                let term = String(decoding: dictionary.bytes[Int(dictionary.offsets[index])..<Int(dictionary.offsets[index + 1])], as: UTF8.self)
                terms.insert(term)
                for length in 1...max(term.count, 1) { prefixes.insert(String(term.prefix(length))) }
            }
        }
        func listed(_ keys: Set<String>, prefix: Bool) -> [(String, List)] {
            keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
                .compactMap { key in list(key, prefix: prefix, in: segment).map { (key, $0) } }
        }
        return (listed(terms, prefix: false), listed(prefixes, prefix: true))
    }
}
