import Foundation
import SearchlightEngine
import Synchronization
import XCTest
@testable import Searchlight

/// One element of `values` (not empty), drawn as `randomElement(using:)` draws it.
private func pick<T>(_ values: [T], _ rng: inout SeededGenerator) -> T {
    values[Int.random(in: values.indices, using: &rng)]
}

/// Seeded churn against a naive model: random interleavings of indexing, replacing, `isUpdate` merges, deletes
/// by identifier and by domain, delete-all, client-state batches (a wrong expected state too), background merges,
/// clock advances past expiration dates and store reopens (with and without a checkpoint). After every step, every
/// query, fetch, item count, sort and user query must agree with the model; sorted and unsorted cursors page
/// under churn and merges without skipping or repeating an item; a ranked `maxResultCount` page is the head of
/// the full ranking.
///
/// Each test runs a few seeds by default, to keep the debug-build suite quick. Set `CHURN_SEEDS` to run more
/// seeds in every test, e.g. `CHURN_SEEDS=20 swift test --filter ChurnDifferentialTests` (minutes).
final class ChurnDifferentialTests: XCTestCase {
    /// `defaultCount` seeds from `first` on, or `CHURN_SEEDS` of them when that is set.
    static func seeds(_ defaultCount: Int, from first: UInt64) -> ClosedRange<UInt64> {
        let count = ProcessInfo.processInfo.environment["CHURN_SEEDS"].flatMap { Int($0) } ?? defaultCount
        return first...(first + UInt64(max(count, 1)) - 1)
    }

    /// The model of one item: the attributes the harness writes and checks.
    struct MItem: Equatable, Sendable {
        var domain: String?
        var title: String
        var keywords: [String]?
        var rating: Int?
        var day: Int?
        var expiry: Double? = nil
    }
    /// The test clock's time, for the model's expiration (tests run one at a time).
    nonisolated(unsafe) static var now: Double = 0

    static let idPool = 150
    static let vocab = ["apple", "zebra", "mango", "quartz", "violin", "kettle", "hybrid", "sunset"]
    static let domains: [String?] = ["a", "a.b", "a.b.c", "ab", "b", nil]
    static let base = Date(timeIntervalSinceReferenceDate: 790_000_000)

    /// An in-memory container whose idle merges follow each write at once (merges land between steps), and an
    /// index on it.
    static func churning(_ name: String, clock: TestClock = TestClock()) -> (SearchlightContainer, CSSearchableIndex) {
        let container = SearchlightContainer(clock: clock.function)
        container.setIdleMergeDelay(.milliseconds(1))
        return (container, CSSearchableIndex(name: name, container: container))
    }

    static func item(_ id: String, _ m: MItem) -> CSSearchableItem {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.title = m.title
        if let k = m.keywords { set.keywords = k }
        if let r = m.rating { set.rating = NSNumber(value: r) }
        if let d = m.day { set.contentCreationDate = base.addingTimeInterval(Double(d) * 86400) }
        let it = CSSearchableItem(uniqueIdentifier: id, domainIdentifier: m.domain, attributeSet: set)
        if let e = m.expiry { it.expirationDate = Date(timeIntervalSinceReferenceDate: e) }
        return it
    }

    static func randomItem(_ rng: inout SeededGenerator) -> MItem {
        let words = (0..<Int.random(in: 1...3, using: &rng)).map { _ in pick(vocab, &rng) }
        let kw: [String]? = Bool.random(using: &rng) ? nil
            : (0..<Int.random(in: 1...3, using: &rng)).map { _ in "k\(Int.random(in: 0..<6, using: &rng))" }
        return MItem(domain: pick(domains, &rng), title: words.joined(separator: " "), keywords: kw,
                     rating: Int.random(in: 0..<5, using: &rng) == 0 ? nil : Int.random(in: 0..<6, using: &rng),
                     day: Bool.random(using: &rng) ? Int.random(in: 0..<10, using: &rng) : nil,
                     expiry: Int.random(in: 0..<4, using: &rng) == 0 ? now + Double(Int.random(in: 1...30, using: &rng)) * 3600 : nil)
    }

    enum Op {
        case index([(String, MItem)])
        case update(String, title: String?, rating: Int??, domain: String?)
        case deleteIDs([String])
        case deleteDomains([String])
        case deleteAll
    }

    static func applyModel(_ op: Op, _ model: inout [String: MItem]) {
        model = model.filter { ($0.value.expiry ?? .infinity) > now }
        switch op {
        case .index(let items): for (id, m) in items { model[id] = m }
        case .update(let id, let title, let rating, let domain):
            guard var m = model[id] else { return }
            if let title { m.title = title }
            if let rating { m.rating = rating }
            if let domain { m.domain = domain }
            model[id] = m
        case .deleteIDs(let ids): for id in ids { model[id] = nil }
        case .deleteDomains(let ds):
            model = model.filter { _, m in
                guard let d = m.domain else { return true }
                return !ds.contains { d == $0 || d.hasPrefix($0 + ".") }
            }
        case .deleteAll: model = [:]
        }
    }

    /// A random operation. Updates and deletes by identifier mostly aim at items the model holds, so that most
    /// of them change something.
    static func randomOp(_ rng: inout SeededGenerator, _ model: [String: MItem]) -> Op {
        let id = { (rng: inout SeededGenerator) in "i\(Int.random(in: 0..<idPool, using: &rng))" }
        let held = model.keys.sorted()
        let target = { (rng: inout SeededGenerator) in
            held.isEmpty || Int.random(in: 0..<4, using: &rng) == 0 ? id(&rng) : pick(held, &rng)
        }
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<5:
            return .index((0..<Int.random(in: 65...200, using: &rng)).map { _ in (id(&rng), randomItem(&rng)) })
        case 5..<45:
            return .index((0..<Int.random(in: 1...6, using: &rng)).map { _ in (id(&rng), randomItem(&rng)) })
        case 45..<60:
            let title: String? = Bool.random(using: &rng) ? pick(vocab, &rng) : nil
            let rating: Int?? = Int.random(in: 0..<3, using: &rng) == 0 ? .some(nil)
                : (Bool.random(using: &rng) ? .some(Int.random(in: 0..<6, using: &rng)) : nil)
            let domain: String? = Bool.random(using: &rng) ? pick(domains, &rng) : nil
            return .update(target(&rng), title: title, rating: rating, domain: domain)
        case 60..<80:
            return .deleteIDs((0..<Int.random(in: 1...4, using: &rng)).map { _ in target(&rng) })
        case 80..<97:
            return .deleteDomains(pick([["a"], ["a.b"], ["ab"], ["b"], ["a.b.c", "b"]], &rng))
        default:
            return .deleteAll
        }
    }

    static func submit(_ op: Op, to index: CSSearchableIndex) -> (any Error)? {
        switch op {
        case .index(let items):
            return index.completion { index.indexSearchableItems(items.map { item($0.0, $0.1) }, completionHandler: $0) }
        case .update(let id, let title, let rating, let domain):
            return index.completion { index.indexSearchableItems([updateItem(id, title, rating, domain)], completionHandler: $0) }
        case .deleteIDs(let ids): return index.completion { index.deleteSearchableItems(withIdentifiers: ids, completionHandler: $0) }
        case .deleteDomains(let ds): return index.completion { index.deleteSearchableItems(withDomainIdentifiers: ds, completionHandler: $0) }
        case .deleteAll: return index.completion { index.deleteAllSearchableItems(completionHandler: $0) }
        }
    }

    static func updateItem(_ id: String, _ title: String?, _ rating: Int??, _ domain: String?) -> CSSearchableItem {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        if let title { set.title = title }
        if let rating { set.rating = rating.map { NSNumber(value: $0) } }
        let it = CSSearchableItem(uniqueIdentifier: id, domainIdentifier: domain, attributeSet: set)
        it.isUpdate = true
        return it
    }

    /// Records an operation inside a batch (`endBatch` commits it).
    static func record(_ op: Op, to index: CSSearchableIndex) {
        switch op {
        case .index(let items): index.indexSearchableItems(items.map { item($0.0, $0.1) })
        case .update(let id, let title, let rating, let domain): index.indexSearchableItems([updateItem(id, title, rating, domain)])
        case .deleteIDs(let ids): index.deleteSearchableItems(withIdentifiers: ids)
        case .deleteDomains(let ds): index.deleteSearchableItems(withDomainIdentifiers: ds)
        case .deleteAll: index.deleteAllSearchableItems()
        }
    }

    // MARK: Queries

    struct Q: Sendable {
        let string: String
        let matches: @Sendable (MItem) -> Bool
    }

    static func dayDate(_ d: Int) -> String {
        let f = ISO8601DateFormatter()
        return f.string(from: base.addingTimeInterval(Double(d) * 86400))
    }

    static let queries: [Q] = {
        var qs: [Q] = []
        for w in vocab {
            qs.append(Q(string: "title == \"\(w)\"cdw") { $0.title.split(separator: " ").contains { $0 == w } })
            let p = String(w.prefix(2))
            qs.append(Q(string: "title == \"\(p)*\"cdw") { $0.title.split(separator: " ").contains { $0.hasPrefix(p) } })
        }
        for k in 0..<6 {
            qs.append(Q(string: "keywords == \"k\(k)\"") { $0.keywords?.contains("k\(k)") == true })
        }
        for r in 0..<6 {
            qs.append(Q(string: "rating == \(r)") { $0.rating == r })
            qs.append(Q(string: "rating > \(r)") { ($0.rating ?? -100) > r })
            qs.append(Q(string: "rating != \(r)") { $0.rating != r })
        }
        qs.append(Q(string: "rating == *") { $0.rating != nil })
        qs.append(Q(string: "rating != *") { $0.rating == nil })
        qs.append(Q(string: "keywords == *") { $0.keywords != nil })
        qs.append(Q(string: "title == \"*\"") { _ in true })
        for d in [0, 3, 7] {
            qs.append(Q(string: "contentCreationDate >= $time.iso(\(dayDate(d)))") { ($0.day ?? -1) >= d })
        }
        qs.append(Q(string: "* == \"mango\"cdw") { $0.title.split(separator: " ").contains("mango") })
        qs.append(Q(string: "** == \"k1\"") { $0.keywords?.contains("k1") == true })
        qs.append(Q(string: "* == \"zeb*\"cd") { $0.title.hasPrefix("zeb") })
        qs.append(Q(string: "domainIdentifier == \"a.b\"") { $0.domain == "a.b" })
        qs.append(Q(string: "domainIdentifier == \"a*\"") { $0.domain?.hasPrefix("a") == true })
        qs.append(Q(string: "!(rating >= 2) && keywords == *") { !(($0.rating ?? -1) >= 2) && $0.keywords != nil })
        qs.append(Q(string: "keywords == \"k1\" || rating < 2") { $0.keywords?.contains("k1") == true || ($0.rating ?? 100) < 2 })
        qs.append(Q(string: "title == \"ap*\"cdw && rating >= 3") {
            $0.title.split(separator: " ").contains { $0.hasPrefix("ap") } && ($0.rating ?? -1) >= 3 })
        return qs
    }()

    static func run(_ string: String, _ container: SearchlightContainer,
                    _ configure: (CSSearchQueryContext) -> Void = { _ in }) -> (ids: [String], count: Int, error: (any Error)?, cursor: CSSearchQueryCursor?, items: [CSSearchableItem]) {
        let context = CSSearchQueryContext()
        configure(context)
        let q = CSSearchQuery(queryString: string, queryContext: context, container: container)
        let r = fastRun(q)
        let items = Array(r.batches.joined())
        return (items.map(\.uniqueIdentifier), q.foundItemCount, r.error, q.cursor, items)
    }

    /// Runs a query to completion (without `runQuery`'s wait for a repeated completion).
    static func fastRun(_ query: CSSearchQuery) -> (batches: [[CSSearchableItem]], error: (any Error)?) {
        let box = Mutex<(batches: [[CSSearchableItem]], error: (any Error)?)>(([], nil))
        let done = DispatchSemaphore(value: 0)
        query.foundItemsHandler = { items in box.withLock { $0.batches.append(items) } }
        query.completionHandler = { error in
            box.withLock { $0.error = error }
            done.signal()
        }
        query.start()
        _ = done.wait(timeout: .now() + 20)
        return box.withLock { $0 }
    }

    /// The model's identifiers by rating (missing last), then identifier.
    static func sortedModel(_ model: [String: MItem], ascending: Bool) -> [String] {
        model.sorted { a, b in
            switch (a.value.rating, b.value.rating) {
            case (nil, nil): return a.key < b.key
            case (nil, _): return false
            case (_, nil): return true
            case let (x?, y?):
                if x != y { return ascending ? x < y : x > y }
                return a.key < b.key
            }
        }.map(\.key)
    }

    func check(_ model: [String: MItem], _ container: SearchlightContainer, _ index: CSSearchableIndex,
               _ rng: inout SeededGenerator, step: String) {
        let model = model.filter { ($0.value.expiry ?? .infinity) > Self.now }
        for q in Self.queries {
            let expected = model.filter { q.matches($0.value) }.keys.sorted()
            let got = Self.run(q.string, container)
            XCTAssertNil(got.error, "\(step) \(q.string)")
            XCTAssertEqual(got.ids.sorted(), expected, "\(step) query \(q.string)")
            XCTAssertEqual(got.count, expected.count, "\(step) count \(q.string)")
            XCTAssertEqual(Set(got.ids).count, got.ids.count, "\(step) dup \(q.string)")
        }
        // fetch
        let all = (0..<Self.idPool).map { "i\($0)" }
        let fetched = index.fetchSearchableItems(withIdentifiers: all)
        XCTAssertEqual(fetched.map(\.uniqueIdentifier), all.filter { model[$0] != nil }, "\(step) fetch")
        for item in fetched {
            guard let m = model[item.uniqueIdentifier] else { continue }
            XCTAssertEqual(item.attributeSet.title, m.title, "\(step) fetch title \(item.uniqueIdentifier)")
            XCTAssertEqual(item.attributeSet.rating?.intValue, m.rating, "\(step) fetch rating \(item.uniqueIdentifier)")
            XCTAssertEqual(item.domainIdentifier, m.domain, "\(step) fetch domain \(item.uniqueIdentifier)")
            XCTAssertEqual(item.attributeSet.keywords, m.keywords, "\(step) fetch keywords \(item.uniqueIdentifier)")
        }
        XCTAssertEqual(index.itemCount(), model.count, "\(step) itemCount")
        // sorted full list
        for asc in [true, false] {
            let got = Self.run("true", container) { $0.sortAttributes = [.init("rating", ascending: asc)] }
            XCTAssertEqual(got.ids, Self.sortedModel(model, ascending: asc), "\(step) sort asc=\(asc)")
        }
        // user query as sets. Settled first: a merge published between the full query and a page's that reclaims
        // deleted items changes the collection statistics (documents, document frequencies count deleted ones until
        // then, as Lucene's do) and with them scores, so a page is a slice of the full ranking of one index state.
        // Under load the 1 ms idle merge landed between them now and then (seed 1 step 56).
        container.waitForBackgroundMerges()
        let uqs: [(String, (MItem) -> Bool)] = [
            ("mango", { $0.title.split(separator: " ").contains("mango") }),
            ("ma", { $0.title.split(separator: " ").contains { $0.hasPrefix("ma") } }),
            ("zebra ap", { m in let w = m.title.split(separator: " "); return w.contains("zebra") && w.contains { $0.hasPrefix("ap") } }),
            ("k1", { $0.keywords?.contains("k1") == true }),
            ("quartz violin", { m in let w = m.title.split(separator: " "); return w.contains("quartz") && w.contains("violin") }),
        ]
        for (text, pred) in uqs {
            let expected = model.filter { pred($0.value) }.keys.sorted()
            let q = CSUserQuery(userQueryString: text, userQueryContext: nil, container: container)
            let r = Self.fastRun(q)
            let all = r.batches.joined().map(\.uniqueIdentifier)
            XCTAssertEqual(all.sorted(), expected, "\(step) userquery \(text)")
            // pages of a ranked query are slices of the full ranking
            let ctx = CSUserQueryContext()
            let lim = Int.random(in: 1...5, using: &rng), off = Int.random(in: 0...6, using: &rng)
            ctx.limit = lim
            ctx.offset = off
            let pq = CSUserQuery(userQueryString: text, userQueryContext: ctx, container: container)
            let pr = Self.fastRun(pq).batches.joined().map(\.uniqueIdentifier)
            XCTAssertEqual(pr, Array(all.dropFirst(off).prefix(lim)), "\(step) userquery page \(text) off \(off) lim \(lim)")
            XCTAssertEqual(pq.foundItemCount, pr.count, "\(step) userquery count")
        }
    }

    func churn(seed: UInt64, steps: Int, directory: URL?) throws {
        var rng = SeededGenerator(seed: seed)
        let clock = TestClock()
        Self.now = clock.now.timeIntervalSinceReferenceDate
        var options = StoreOptions()
        options.checkpointJournalBytes = 3000
        var container = try directory.map { try SearchlightContainer(directory: $0, options: options, clock: clock.function) }
            ?? SearchlightContainer(clock: clock.function)
        container.setIdleMergeDelay(.milliseconds(1))
        var index = CSSearchableIndex(name: "churn", container: container)
        var model: [String: MItem] = [:]
        var clientState: Data? = nil
        for step in 0..<steps {
            let roll = Int.random(in: 0..<100, using: &rng)
            let label = "seed \(seed) step \(step)"
            if roll < 60 {
                let op = Self.randomOp(&rng, model)
                XCTAssertNil(Self.submit(op, to: index), "\(label) \(op)")
                Self.applyModel(op, &model)
                if case .deleteAll = op { clientState = nil }
            } else if roll < 80 {
                let ops = (0..<Int.random(in: 1...5, using: &rng)).map { _ in Self.randomOp(&rng, model) }
                index.beginBatch()
                for op in ops { Self.record(op, to: index) }
                let newState = Data("s\(step)".utf8)
                let expectedVariant = Bool.random(using: &rng)
                let wrong = expectedVariant && Int.random(in: 0..<4, using: &rng) == 0
                let error = index.completion { done in
                    if expectedVariant {
                        index.endIndexBatch(expectedClientState: wrong ? Data("bogus".utf8) : clientState,
                                            newClientState: newState, completionHandler: done)
                    } else {
                        index.endBatch(withClientState: newState, completionHandler: done)
                    }
                }
                if wrong {
                    XCTAssertEqual(indexErrorCode(error), .mismatchedClientState, label)
                } else {
                    XCTAssertNil(error, "\(label) batch")
                    for op in ops { Self.applyModel(op, &model) }
                    clientState = newState
                }
                let stored: Data? = {
                    let box = Mutex<Data?>(nil)
                    let sem = DispatchSemaphore(value: 0)
                    index.fetchLastClientState { d, _ in box.withLock { $0 = d }; sem.signal() }
                    sem.wait()
                    return box.withLock { $0 }
                }()
                XCTAssertEqual(stored, clientState, "\(label) client state")
            } else if roll < 90 {
                container.waitForBackgroundMerges()
            } else if roll < 93 {
                Thread.sleep(forTimeInterval: 0.01)
            } else if roll < 96 {
                clock.advance(by: Double(Int.random(in: 1...6, using: &rng)) * 3600)
                Self.now = clock.now.timeIntervalSinceReferenceDate
            } else if let directory {
                if Bool.random(using: &rng) { container.close() } else { container.closeWithoutCheckpoint() }
                container = try SearchlightContainer(directory: directory, options: options, clock: clock.function)
                container.setIdleMergeDelay(.milliseconds(1))
                index = CSSearchableIndex(name: "churn", container: container)
            }
            check(model, container, index, &rng, step: label)
            if testRun?.failureCount ?? 0 > 0 { return }
        }
        container.close()
    }

    /// Long seeded histories on an in-memory container.
    func testChurnInMemory() throws {
        for seed in Self.seeds(1, from: 1) {
            try churn(seed: seed, steps: 120, directory: nil)
            if testRun?.failureCount ?? 0 > 0 { return }
        }
    }

    /// The same on a store with a small checkpoint threshold, reopened now and then.
    func testChurnWithStore() throws {
        for seed in Self.seeds(1, from: 101) {
            try churn(seed: seed, steps: 120, directory: makeStoreURL(self))
            if testRun?.failureCount ?? 0 > 0 { return }
        }
    }

    // MARK: Paging under churn

    enum SV: Equatable { case num(Int), text(String), missing }

    static func sortKey(_ m: MItem, _ attr: String, _ asc: Bool) -> SV {
        switch attr {
        case "rating": return m.rating.map { .num($0) } ?? .missing
        case "title": return .text(m.title)
        case "keywords":
            guard let k = asc ? m.keywords?.min() : m.keywords?.max() else { return .missing }
            return .text(k)
        case "contentCreationDate": return m.day.map { .num($0) } ?? .missing
        default:
            XCTFail("the model has no sort key for \(attr)")
            return .missing
        }
    }

    static func cmp(_ a: SV, _ b: SV, _ asc: Bool) -> Int {
        switch (a, b) {
        case (.missing, .missing): return 0
        case (.missing, _): return 1
        case (_, .missing): return -1
        case let (.num(x), .num(y)): return x == y ? 0 : ((x < y) == asc ? -1 : 1)
        case let (.text(x), .text(y)): return x == y ? 0 : ((x < y) == asc ? -1 : 1)
        case (.text, _): return 1
        case (_, .text): return -1
        }
    }

    static func precedes(_ a: ([SV], String), _ b: ([SV], String), _ sorts: [(String, Bool)]) -> Bool {
        for (i, s) in sorts.enumerated() {
            let c = cmp(a.0[i], b.0[i], s.1)
            if c != 0 { return c < 0 }
        }
        return a.1 < b.1
    }

    /// Sorted cursors (with offsets) under writes and merges between pages: each page is the model's next one.
    func testPagingUnderChurn() throws {
        Self.now = TestClock().now.timeIntervalSinceReferenceDate
        for seed in Self.seeds(8, from: 1) {
            var rng = SeededGenerator(seed: seed &* 7919)
            let clock = TestClock()
            let (container, index) = Self.churning("paging", clock: clock)
            var model: [String: MItem] = [:]
            // Fill with many small commits so there are many segments.
            for _ in 0..<Int.random(in: 5...25, using: &rng) {
                let op = Op.index((0..<Int.random(in: 1...10, using: &rng)).map { _ in
                    ("i\(Int.random(in: 0..<Self.idPool, using: &rng))", Self.randomItem(&rng)) })
                XCTAssertNil(Self.submit(op, to: index))
                Self.applyModel(op, &model)
            }
            for round in 0..<8 {
                let choices: [[(String, Bool)]] = [[("rating", true)], [("rating", false)], [("title", true)],
                    [("title", false)], [("keywords", true)], [("keywords", false)],
                    [("rating", true), ("title", false)], [("contentCreationDate", false), ("rating", true)]]
                let sorts = pick(choices, &rng)
                let filters = [("true", { (_: MItem) in true }), ("rating >= 2", { (m: MItem) in (m.rating ?? -1) >= 2 }),
                              ("title == \"m*\"cdw", { (m: MItem) in m.title.split(separator: " ").contains { $0.hasPrefix("m") } })]
                let filter = pick(filters, &rng)
                let limit = Int.random(in: 1...9, using: &rng)
                var cursor: CSSearchQueryCursor? = nil
                var last: ([SV], String)? = nil
                var pages = 0
                while pages < 60 {
                    let label = "seed \(seed) round \(round) page \(pages) sorts \(sorts) filter \(filter.0) limit \(limit)"
                    let offset = Int.random(in: 0..<4, using: &rng) == 0 ? 1 : 0
                    let got = Self.run(filter.0, container) {
                        $0.sortAttributes = sorts.map { .init($0.0, ascending: $0.1) }
                        $0.limit = limit
                        $0.offset = offset
                        $0.cursor = cursor
                    }
                    XCTAssertNil(got.error, label)
                    var expected = model.filter { filter.1($0.value) }.map { (id, m) in
                        (sorts.map { Self.sortKey(m, $0.0, $0.1) }, id) }
                    expected.sort { Self.precedes($0, $1, sorts) }
                    if let last { expected.removeAll { !Self.precedes(last, $0, sorts) } }
                    expected.removeFirst(min(offset, expected.count))
                    let page = Array(expected.prefix(limit))
                    XCTAssertEqual(got.ids, page.map(\.1), label)
                    XCTAssertEqual(got.count, page.count, label)
                    if testRun?.failureCount ?? 0 > 0 { return }
                    guard let lastOfPage = page.last else { break }
                    last = lastOfPage
                    cursor = got.cursor
                    pages += 1
                    // Churn between pages.
                    switch Int.random(in: 0..<6, using: &rng) {
                    case 0, 1:
                        let op = Self.randomOp(&rng, model)
                        if case .deleteAll = op { continue }
                        XCTAssertNil(Self.submit(op, to: index), label)
                        Self.applyModel(op, &model)
                    case 2: container.waitForBackgroundMerges()
                    case 3: Thread.sleep(forTimeInterval: 0.005)
                    default: break
                    }
                }
            }
            container.waitForBackgroundMerges()
        }
    }

    /// Unsorted cursors: only merges between pages: neither skip nor repeat.
    func testUnsortedPagingAcrossMerges() throws {
        Self.now = TestClock().now.timeIntervalSinceReferenceDate
        for seed in Self.seeds(8, from: 1) {
            var rng = SeededGenerator(seed: seed &* 31)
            let (container, index) = Self.churning("paging")
            var model: [String: MItem] = [:]
            for _ in 0..<Int.random(in: 10...40, using: &rng) {
                let op: Op = Int.random(in: 0..<4, using: &rng) == 0
                    ? .deleteIDs((0..<3).map { _ in "i\(Int.random(in: 0..<Self.idPool, using: &rng))" })
                    : .index((0..<Int.random(in: 1...8, using: &rng)).map { _ in
                        ("i\(Int.random(in: 0..<Self.idPool, using: &rng))", Self.randomItem(&rng)) })
                XCTAssertNil(Self.submit(op, to: index))
                Self.applyModel(op, &model)
            }
            let limit = Int.random(in: 1...7, using: &rng)
            var cursor: CSSearchQueryCursor? = nil
            var seen: [String] = []
            for page in 0..<200 {
                let got = Self.run("true", container) {
                    $0.limit = limit
                    $0.cursor = cursor
                }
                XCTAssertNil(got.error, "seed \(seed) page \(page)")
                if got.ids.isEmpty { break }
                seen += got.ids
                cursor = got.cursor
                if Bool.random(using: &rng) { container.waitForBackgroundMerges() } else { Thread.sleep(forTimeInterval: 0.003) }
            }
            XCTAssertEqual(seen.count, Set(seen).count, "seed \(seed) repeats")
            XCTAssertEqual(seen.sorted(), model.keys.sorted(), "seed \(seed)")
            if testRun?.failureCount ?? 0 > 0 { return }
            container.waitForBackgroundMerges()
        }
    }

    // MARK: Concurrent readers

    /// Readers while a writer replaces everything in batches see one whole batch at a time.
    func testQueriesSeeWholeBatchesWhileWriting() throws {
        let (container, index) = Self.churning("conc")
        @Sendable func batch(_ v: Int) -> [CSSearchableItem] {
            (0..<40).map { i in
                let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
                set.title = "mango v\(v)"
                set.rating = NSNumber(value: v)
                set.keywords = ["g\(v % 2)"]
                return CSSearchableItem(uniqueIdentifier: "c\(i)", domainIdentifier: "d\(v % 2)", attributeSet: set)
            }
        }
        XCTAssertNil(index.completion { index.indexSearchableItems(batch(0), completionHandler: $0) })
        let stop = Atomic<Bool>(false)
        let writer = Thread {
            var v = 1
            while !stop.load(ordering: .relaxed) {
                switch v % 3 {
                case 0:
                    _ = index.completion { index.indexSearchableItems(batch(v), completionHandler: $0) }
                case 1:
                    index.beginBatch()
                    index.deleteSearchableItems(withDomainIdentifiers: ["d0", "d1"])
                    index.indexSearchableItems(batch(v))
                    _ = index.completion { index.endBatch(withClientState: Data([UInt8(v % 256)]), completionHandler: $0) }
                default:
                    index.beginBatch()
                    index.deleteAllSearchableItems()
                    index.indexSearchableItems(Array(batch(v)[0..<20]))
                    index.indexSearchableItems(Array(batch(v)[20..<40]))
                    _ = index.completion { index.endBatch(withClientState: Data([UInt8(v % 256)]), completionHandler: $0) }
                }
                v += 1
            }
        }
        writer.start()
        // A fixed number of reads (100 per seed count), whatever the machine's speed.
        let reads = 100 * Self.seeds(1, from: 1).count
        for runs in 0..<reads {
            let sortAsc = Bool.random()
            let got = Self.run("rating == * && title == \"mango\"cdw", container) {
                $0.sortAttributes = [.init("rating", ascending: sortAsc)]
                $0.fetchAttributes = ["rating", "title"]
            }
            XCTAssertNil(got.error)
            XCTAssertEqual(got.ids.count, 40, "run \(runs)")
            XCTAssertEqual(Set(got.items.map { $0.attributeSet.rating?.intValue }).count, 1, "run \(runs) mixed")
            let u = CSUserQuery(userQueryString: "mango", userQueryContext: nil, container: container)
            let r = Self.fastRun(u)
            XCTAssertEqual(r.batches.joined().count, 40, "user run \(runs)")
            let fetched = index.fetchSearchableItems(withIdentifiers: (0..<40).map { "c\($0)" })
            XCTAssertEqual(fetched.count, 40)
            XCTAssertEqual(Set(fetched.map { $0.attributeSet.rating?.intValue }).count, 1, "fetch mixed")
            XCTAssertEqual(index.itemCount(), 40)
            if testRun?.failureCount ?? 0 > 0 { break }
        }
        stop.store(true, ordering: .relaxed)
        while !writer.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        container.waitForBackgroundMerges()
    }

    // MARK: Multi-valued numbers and dates under churn

    /// Multi-valued custom numbers and dates: comparisons match any value; sorts page by the smallest value
    /// (ascending) or the largest (descending).
    func testMultiValuedNumbersUnderChurn() throws {
        let numsKey = customKey("nums")
        for seed in Self.seeds(2, from: 1) {
            var rng = SeededGenerator(seed: seed &* 104729)
            let clock = TestClock()
            let (container, index) = Self.churning("mv", clock: clock)
            var model: [String: (nums: [Int]?, days: [Int]?)] = [:]
            func make(_ id: String, _ nums: [Int]?, _ days: [Int]?) -> CSSearchableItem {
                let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
                set.title = "t \(id)"
                if let nums { set.setValue(nums.map { NSNumber(value: $0) } as NSArray, forCustomKey: numsKey) }
                if let days { set.importantDates = days.map { Self.base.addingTimeInterval(Double($0) * 86400) } }
                return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: nil, attributeSet: set)
            }
            for step in 0..<60 {
                let label = "seed \(seed) step \(step)"
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<6:
                    var items: [CSSearchableItem] = []
                    for _ in 0..<Int.random(in: 1...8, using: &rng) {
                        let id = "m\(Int.random(in: 0..<60, using: &rng))"
                        let nums: [Int]? = Int.random(in: 0..<4, using: &rng) == 0 ? nil
                            : (0..<Int.random(in: 1...3, using: &rng)).map { _ in Int.random(in: 0..<10, using: &rng) }
                        let days: [Int]? = Bool.random(using: &rng) ? nil
                            : (0..<Int.random(in: 1...3, using: &rng)).map { _ in Int.random(in: 0..<10, using: &rng) }
                        items.append(make(id, nums, days))
                        model[id] = (nums, days)
                    }
                    XCTAssertNil(index.completion { index.indexSearchableItems(items, completionHandler: $0) }, label)
                case 6, 7:
                    let ids = (0..<3).map { _ in "m\(Int.random(in: 0..<60, using: &rng))" }
                    XCTAssertNil(index.completion { index.deleteSearchableItems(withIdentifiers: ids, completionHandler: $0) }, label)
                    for id in ids { model[id] = nil }
                case 8: container.waitForBackgroundMerges()
                default: Thread.sleep(forTimeInterval: 0.005)
                }
                let checks: [(String, ((nums: [Int]?, days: [Int]?)) -> Bool)] = [
                    ("nums == 3", { $0.nums?.contains(3) == true }),
                    ("nums > 7", { $0.nums?.contains { $0 > 7 } == true }),
                    ("nums < 2", { $0.nums?.contains { $0 < 2 } == true }),
                    ("nums != 3", { $0.nums?.contains(3) != true }),
                    ("nums == *", { $0.nums != nil }),
                    ("importantDates >= $time.iso(\(Self.dayDate(7)))", { $0.days?.contains { $0 >= 7 } == true }),
                    ("importantDates < $time.iso(\(Self.dayDate(2)))", { $0.days?.contains { $0 < 2 } == true }),
                    ("InRange(nums, 4, 5)", { $0.nums?.contains { $0 >= 4 && $0 <= 5 } == true }),
                ]
                for (q, pred) in checks {
                    let got = Self.run(q, container)
                    XCTAssertNil(got.error, "\(label) \(q)")
                    XCTAssertEqual(got.ids.sorted(), model.filter { pred($0.value) }.keys.sorted(), "\(label) \(q)")
                }
                for asc in [true, false] {
                    for attr in ["nums", "importantDates"] {
                        let key = { (v: (nums: [Int]?, days: [Int]?)) -> Int? in
                            let a = attr == "nums" ? v.nums : v.days
                            guard let a, !a.isEmpty else { return nil }
                            return asc ? a.min() : a.max()
                        }
                        let expected = model.sorted { a, b in
                            switch (key(a.value), key(b.value)) {
                            case (nil, nil): return a.key < b.key
                            case (nil, _): return false
                            case (_, nil): return true
                            case let (x?, y?): return x != y ? (asc ? x < y : x > y) : a.key < b.key
                            }
                        }.map(\.key)
                        // paged with cursor, limit 4
                        var cursor: CSSearchQueryCursor? = nil
                        var all: [String] = []
                        for _ in 0..<100 {
                            let got = Self.run("true", container) {
                                $0.sortAttributes = [.init(attr, ascending: asc)]
                                $0.limit = 4
                                $0.cursor = cursor
                            }
                            XCTAssertNil(got.error)
                            if got.ids.isEmpty { break }
                            all += got.ids
                            cursor = got.cursor
                        }
                        XCTAssertEqual(all, expected, "\(label) sort \(attr) asc=\(asc)")
                    }
                }
                if testRun?.failureCount ?? 0 > 0 { return }
            }
            container.waitForBackgroundMerges()
        }
    }

    // MARK: Ranked pages under churn

    /// A `maxResultCount` page of a ranked query is the head of the full ranking while items come and go.
    func testRankedMaxResultCountIsHeadOfFullRankingUnderChurn() throws {
        for seed in Self.seeds(1, from: 1) {
            var rng = SeededGenerator(seed: seed &* 7777)
            let (container, index) = Self.churning("ranked")
            func randomItem(_ id: String) -> CSSearchableItem {
                let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
                let n = Int.random(in: 1...5, using: &rng)
                set.title = (0..<n).map { _ in Int.random(in: 0..<3, using: &rng) == 0
                    ? pick(Self.vocab, &rng) : "w\(Int.random(in: 0..<400, using: &rng))" }.joined(separator: " ")
                if Bool.random(using: &rng) {
                    set.contentDescription = (0..<Int.random(in: 1...30, using: &rng)).map { _ in Int.random(in: 0..<4, using: &rng) == 0
                        ? pick(Self.vocab, &rng) : "d\(Int.random(in: 0..<300, using: &rng))" }.joined(separator: " ")
                }
                if Bool.random(using: &rng) { set.keywords = [pick(Self.vocab, &rng)] }
                return CSSearchableItem(uniqueIdentifier: "r\(id)", domainIdentifier: nil, attributeSet: set)
            }
            for chunk in 0..<8 {
                let items = (0..<300).map { randomItem("\(chunk * 300 + $0)") }
                XCTAssertNil(index.completion { index.indexSearchableItems(items, completionHandler: $0) })
            }
            for step in 0..<12 {
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    let items = (0..<Int.random(in: 1...200, using: &rng)).map { _ in randomItem("\(Int.random(in: 0..<2400, using: &rng))") }
                    XCTAssertNil(index.completion { index.indexSearchableItems(items, completionHandler: $0) })
                case 1:
                    let ids = (0..<Int.random(in: 1...300, using: &rng)).map { _ in "r\(Int.random(in: 0..<2400, using: &rng))" }
                    XCTAssertNil(index.completion { index.deleteSearchableItems(withIdentifiers: ids, completionHandler: $0) })
                case 2: container.waitForBackgroundMerges()
                default: break
                }
                container.waitForBackgroundMerges()
                for text in ["mango", "ma", "mango ze", "quartz", "kettle sun", "hy"] {
                    let full = CSUserQueryContext()
                    full.enableRankedResults = true
                    full.maxRankedResultCount = 100_000
                    full.fetchAttributes = ["title"]
                    let fq = CSUserQuery(userQueryString: text, userQueryContext: full, container: container)
                    let all = Array(Self.fastRun(fq).batches.joined())
                    for k in [1, 3, 10, 20, 32, 50] {
                        let ctx = CSUserQueryContext()
                        ctx.enableRankedResults = true
                        ctx.maxResultCount = k
                        ctx.maxRankedResultCount = 100_000
                        let q = CSUserQuery(userQueryString: text, userQueryContext: ctx, container: container)
                        let got = Array(Self.fastRun(q).batches.joined())
                        let head = Array(all.prefix(k))
                        let label = "seed \(seed) step \(step) '\(text)' k=\(k)"
                        XCTAssertEqual(got.count, head.count, label)
                        XCTAssertEqual(got.map(\.rank), head.map(\.rank), label)
                        // ids equal except within the tie group at the cut
                        let cutRank = head.last?.rank
                        XCTAssertEqual(got.filter { $0.rank != cutRank }.map(\.uniqueIdentifier),
                                       head.filter { $0.rank != cutRank }.map(\.uniqueIdentifier), label)
                        if testRun?.failureCount ?? 0 > 0 { return }
                    }
                }
            }
        }
    }
}
