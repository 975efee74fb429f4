import Foundation
import XCTest
@testable import Searchlight

/// The engagement formula, its decay, and the persisted form a store writes.
final class EngagementLedgerTests: XCTestCase {
    private let t0 = Date(timeIntervalSinceReferenceDate: 800_000_000)
    private let day: TimeInterval = 86_400

    func testFactorIsOneWithoutEngagementAndFollowsTheFormula() {
        let ledger = EngagementLedger()
        XCTAssertEqual(ledger.factor(for: "x", at: t0), 1)
        XCTAssertEqual(EngagementLedger.factor(selections: 0, impressions: 0, donations: 0), 1, accuracy: 1e-12)
        // S = 2, I = 4, C = 2: (1 + 0.5·ln(1 + 2 + 1)) · (0.75 + 0.5·3/6)
        let expected = (1 + 0.5 * log(4.0)) * (0.75 + 0.5 * 3 / 6)
        XCTAssertEqual(EngagementLedger.factor(selections: 2, impressions: 4, donations: 2), expected, accuracy: 1e-12)
        // Selections made with no list shown (focus events) can outnumber impressions: the rate is capped, so the
        // factor stays within its documented ceiling of 2.5, which ranking's exact pruning relies on.
        XCTAssertEqual(EngagementLedger.factor(selections: 100, impressions: 0, donations: 0), 2.5, accuracy: 1e-12)
        XCTAssertLessThanOrEqual(EngagementLedger.factor(selections: 10, impressions: 1, donations: 50), 2.5)
    }

    func testSelectionsRaiseAndIgnoredImpressionsLowerTheFactor() {
        let ledger = EngagementLedger()
        for _ in 0..<5 { ledger.recordSelection(of: "chosen", visible: ["ignored"], at: t0) }
        XCTAssertEqual(ledger.record(for: "chosen", at: t0), .init(selections: 5, impressions: 5, updated: t0.timeIntervalSinceReferenceDate))
        XCTAssertEqual(ledger.record(for: "ignored", at: t0)?.impressions, 5)
        XCTAssertGreaterThan(ledger.factor(for: "chosen", at: t0), 2)
        XCTAssertLessThan(ledger.factor(for: "ignored", at: t0), 1)
        XCTAssertGreaterThanOrEqual(ledger.factor(for: "ignored", at: t0), 0.75)

        ledger.recordDonation(of: "visited", at: t0)
        XCTAssertGreaterThan(ledger.factor(for: "visited", at: t0), 1, "becoming current counts too")
        XCTAssertLessThan(ledger.factor(for: "visited", at: t0), ledger.factor(for: "chosen", at: t0))
    }

    func testCountsHalveEveryFourteenDays() {
        let ledger = EngagementLedger()
        for _ in 0..<8 { ledger.recordSelection(of: "x", at: t0) }
        XCTAssertEqual(EngagementLedger.halfLife, 14 * day)
        XCTAssertEqual(ledger.record(for: "x", at: t0 + 14 * day)?.selections ?? 0, 4, accuracy: 1e-9)
        XCTAssertEqual(ledger.record(for: "x", at: t0 + 42 * day)?.selections ?? 0, 1, accuracy: 1e-9)
        // A new event adds to the decayed count.
        ledger.recordSelection(of: "x", at: t0 + 14 * day)
        XCTAssertEqual(ledger.record(for: "x", at: t0 + 14 * day)?.selections ?? 0, 5, accuracy: 1e-9)
        // A clock that moves backwards decays nothing.
        XCTAssertEqual(ledger.record(for: "x", at: t0)?.selections ?? 0, 5, accuracy: 1e-9)
        // Factors fall back to 1 as engagement ages.
        let fresh = ledger.factor(for: "x", at: t0 + 14 * day)
        let old = ledger.factor(for: "x", at: t0 + 200 * day)
        XCTAssertGreaterThan(fresh, old)
        XCTAssertEqual(old, 1, accuracy: 0.001)
        ledger.prune(at: t0 + 400 * day)
        XCTAssertTrue(ledger.records.isEmpty, "negligible records are pruned")
    }

    func testForgottenRecordsArePrunedAsTheLedgerIsUsed() {
        let ledger = EngagementLedger()
        for i in 0..<100 { ledger.recordImpressions(of: ["old\(i)"], at: t0) }
        let later = t0 + 365 * day
        for i in 0..<1100 { ledger.recordSelection(of: "new\(i % 10)", at: later) }
        XCTAssertEqual(ledger.records.count, 10, "a year-old impression is forgotten and dropped")
    }

    /// The ceiling read with the records at a query time bounds every record's factor at that time, through seeded
    /// random selections (with and without a visible list), ignored impressions, donations, pruning, periodic
    /// forgetting and restoring, with queries at times around the events' in random order (a clock moving both ways,
    /// each later query possibly working the decayed ceiling out again); it is 1 for an empty ledger and never above
    /// 2.5. Reading it costs nothing per record, except once a day of query time.
    func testCeilingBoundsEveryFactorAtItsTime() throws {
        var random = SeededGenerator(seed: 0xCE11)
        func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        var ledger = EngagementLedger()
        XCTAssertEqual(ledger.rankingState(at: t0).ceiling, 1)
        var now = t0
        var tightest = 0.0
        for step in 0..<3_000 {
            now += Double(pick(4 * 3_600))
            let id = "r\(pick(40))"
            switch pick(10) {
            case 0...2: ledger.recordSelection(of: id, visible: (0..<pick(6)).map { _ in "r\(pick(40))" }, at: now)
            case 3: ledger.recordSelection(of: id, weight: 0.25, at: now)
            case 4...7: ledger.recordImpressions(of: (0..<(1 + pick(20))).map { _ in "r\(pick(40))" }, at: now)
            case 8: ledger.recordDonation(of: id, at: now)
            default:
                if pick(4) == 0 { now += Double(pick(60)) * day }
                ledger.prune(at: now)
            }
            if step % 500 == 499 {
                // What a store restores: a new ledger bounds the restored records itself.
                let restored = EngagementLedger()
                try restored.restore(from: ledger.encoded())
                ledger = restored
            }
            // Later, and earlier too: a clock moving backwards decays nothing, so stored counts must be bounded.
            var offsets = [-20, -0.5, 0, 0.3, 1, 1.5, 7, 30, 90]
            for k in stride(from: offsets.count - 1, to: 0, by: -1) { offsets.swapAt(k, pick(k + 1)) }
            for later in offsets.map({ now + $0 * day }) {
                // Then just before and after the time the ceiling may have been worked out for.
                for query in [later, later - 1, later - 3_600, later + 5] {
                    let (records, ceiling) = ledger.rankingState(at: query)
                    XCTAssertLessThanOrEqual(ceiling, 2.5)
                    for (id, record) in records {
                        let factor = EngagementLedger.factor(record, at: query)
                        XCTAssertLessThanOrEqual(factor, ceiling, "\(id) at step \(step), \(query.timeIntervalSince(now) / day) days from now")
                        if query == now { tightest = max(tightest, factor / ceiling) }
                    }
                }
            }
        }
        XCTAssertGreaterThan(tightest, 0.9, "the ceiling is close to the largest factor at some point")
        ledger.removeAll()
        XCTAssertEqual(ledger.rankingState(at: now).ceiling, 1)
    }

    /// A result shown often and never chosen, but visited: its volume term stays capped while the counts decay, and
    /// its rate rises towards 1/2, so its factor rises for days. The ceiling worked out at one time must cover the
    /// factor's later values (the bound of the decayed counts, not their factor then).
    func testCeilingCoversFactorsThatRiseAsTheyDecay() {
        let ledger = EngagementLedger()
        ledger.recordImpressions(of: ["x"], at: t0)
        for _ in 0..<39 { ledger.recordImpressions(of: ["x"], at: t0) }
        for _ in 0..<20 { ledger.recordDonation(of: "x", at: t0) }
        let record = ledger.records["x"]!
        XCTAssertGreaterThan(EngagementLedger.factor(record, at: t0 + 8 * day), EngagementLedger.factor(record, at: t0) + 0.01)
        for quarter in 0..<48 {
            let query = t0 + Double(quarter) / 4 * day
            XCTAssertGreaterThanOrEqual(ledger.rankingState(at: query).ceiling, EngagementLedger.factor(record, at: query),
                                        "\(Double(quarter) / 4) days")
        }
    }

    /// Old engagement stops holding the ceiling up: a result chosen ten times falls back towards 1 as its counts
    /// decay, and within a day of query time so does the ceiling, long before the record is forgotten (60–93 days).
    /// A query at an earlier time still gets a bound of the stored counts.
    func testCeilingFallsAsEngagementDecays() {
        let ledger = EngagementLedger()
        for _ in 0..<10 { ledger.recordSelection(of: "a", visible: ["a", "b"], at: t0) }
        ledger.recordImpressions(of: ["c"], at: t0)
        let record = ledger.records["a"]!
        let start = ledger.rankingState(at: t0).ceiling
        XCTAssertGreaterThan(start, 2)
        for days in [20.0, 30, 45, 55] {
            let when = t0 + days * day
            let factor = EngagementLedger.factor(record, at: when)
            for query in [when, when + 0.4 * day] {
                let ceiling = ledger.rankingState(at: query).ceiling
                XCTAssertGreaterThanOrEqual(ceiling, EngagementLedger.factor(record, at: query))
                // Worked out at most a day earlier: within that day's decay of the factor.
                XCTAssertLessThanOrEqual(ceiling, EngagementLedger.factor(record, at: query - EngagementLedger.ceilingInterval) * (1 + 1e-6),
                                         "\(days) days")
            }
            XCTAssertLessThan(factor, start * 0.9, "\(days) days: the factor has fallen")
        }
        XCTAssertGreaterThanOrEqual(ledger.rankingState(at: t0).ceiling, EngagementLedger.factor(record, at: t0),
                                    "a clock moved back gets the stored counts' bound")
        XCTAssertGreaterThanOrEqual(ledger.rankingState(at: t0 - 3 * day).ceiling, start)
        // Restored records are bounded afresh, not by the ceiling worked out for the records before.
        let later = t0 + 55.5 * day
        XCTAssertLessThan(ledger.rankingState(at: later).ceiling, 2)
        let other = EngagementLedger()
        for _ in 0..<10 { other.recordSelection(of: "z", at: later) }
        XCTAssertNoThrow(try ledger.restore(from: other.encoded()))
        XCTAssertGreaterThanOrEqual(ledger.rankingState(at: later + 0.1 * day).ceiling,
                                    EngagementLedger.factor(ledger.records["z"]!, at: later + 0.1 * day))
    }

    /// Records whose rate fraction, computed a moment later, rounds an ulp above its value at the record's own
    /// time (found by the review: with the volume term at its cap of 2 the factor came out 4e-16 above the bound,
    /// and at Float precision a ranking factor of 2.0000002 met a ceiling of 2.0).
    func testLiftBoundHoldsThroughRounding() {
        let cases: [(s: Double, i: Double, updated: Double, now: Double)] = [
            (131.14511937487777, 262.2902385223928, 810_861_834.0673454, 810_861_837.7483933),
            (53.30949933602442, 106.61897277526764, 810_120_596.6671921, 810_120_596.6685388),
        ]
        for (s, i, updated, now) in cases {
            let record = EngagementLedger.Record(selections: s, impressions: i, updated: updated)
            let factor = EngagementLedger.factor(record, at: Date(timeIntervalSinceReferenceDate: now))
            XCTAssertLessThanOrEqual(factor, EngagementLedger.liftBound(record), "\(s) \(i)")
            XCTAssertLessThanOrEqual(Float(factor), Float(EngagementLedger.liftBound(record)), "\(s) \(i)")
        }
    }

    /// The bound of one record: exact for a record never shown, and above the factor at every decay.
    func testLiftBoundOfOneRecord() {
        let chosen = EngagementLedger.Record(selections: 3, updated: 0)
        XCTAssertEqual(EngagementLedger.liftBound(chosen), EngagementLedger.factor(chosen, at: Date(timeIntervalSinceReferenceDate: 0)),
                       accuracy: 1e-8)
        // Shown often, chosen rarely: the rate rises towards 1/2 as the counts decay.
        let ignored = EngagementLedger.Record(selections: 0, impressions: 40, donations: 0.2, updated: 0)
        for days in stride(from: 0.0, through: 120, by: 0.5) {
            XCTAssertLessThanOrEqual(EngagementLedger.factor(ignored, at: Date(timeIntervalSinceReferenceDate: days * day)),
                                     EngagementLedger.liftBound(ignored))
        }
    }

    func testPersistedFormRoundTripsAndRejectsDamage() throws {
        let ledger = EngagementLedger()
        ledger.recordSelection(of: "a", visible: ["b"], at: t0)
        ledger.recordDonation(of: "c", at: t0 + day)
        let before = ledger.changeCount
        let bytes = ledger.encoded()
        let restored = EngagementLedger()
        try restored.restore(from: bytes)
        XCTAssertEqual(restored.records, ledger.records)
        XCTAssertEqual(restored.encoded(), bytes)
        XCTAssertEqual(ledger.changeCount, before, "encoding changes nothing")

        for damaged in [Array(bytes.dropLast()), [9] + bytes.dropFirst(), bytes + [0], []] {
            XCTAssertThrowsError(try restored.restore(from: damaged)) { error in
                XCTAssertEqual(indexErrorCode(error), .unknownError)
            }
            XCTAssertEqual(restored.records, ledger.records, "a failed restore keeps the current ledger")
        }
        // A negative count is damage too.
        var w = StoredValueWriter()
        w.byte(1); w.varint(1); w.string("neg"); w.double(-1); w.double(0); w.double(0); w.double(0)
        XCTAssertThrowsError(try restored.restore(from: w.bytes))
        let empty = EngagementLedger()
        XCTAssertNoThrow(try empty.restore(from: empty.encoded()))
        XCTAssertTrue(empty.records.isEmpty)
    }

    func testEachContainerHasItsOwnLedger() async throws {
        let clock = TestClock()
        let one = SearchlightContainer(clock: clock.function), two = SearchlightContainer(clock: clock.function)
        try await CSSearchableIndex(name: "one", container: one).indexSearchableItems([makeItem("a", title: "alpha")])
        _ = SearchlightContinuation.activity(forSelecting: "a", in: one)
        XCTAssertNotNil(one.engagement.record(for: "a", at: clock.now))
        XCTAssertNil(two.engagement.record(for: "a", at: clock.now))
    }

    /// Deleting an item ends its engagement: a new item later given the same identifier (a reused row id, a
    /// re-created document) starts with none. It kept the old one's, ranked above an equal match. Replacing the
    /// item, deleting and re-indexing it in one batch, or deleting everything (a rebuild) keeps it; deleting an
    /// activity by persistent identifier ends its own.
    func testADeletedItemsEngagementIsNotResurrectedByItsIdentifier() async throws {
        let clock = TestClock()
        let container = SearchlightContainer(clock: clock.function)
        let index = CSSearchableIndex(name: "e", container: container)
        try await index.indexSearchableItems([makeItem("a", title: "Report"), makeItem("b", title: "Report"),
                                              makeItem("c", title: "Report", domain: "old"),
                                              makeItem("d", title: "Report")])
        for id in ["a", "b", "c", "d"] { _ = SearchlightContinuation.activity(forSelecting: id, in: container) }
        try await index.indexSearchableItems([makeItem("a", title: "Report again")])
        index.beginBatch()
        index.deleteSearchableItems(withIdentifiers: ["d"], completionHandler: nil)
        index.indexSearchableItems([makeItem("d", title: "Report")], completionHandler: nil)
        try await index.endBatch(withClientState: Data([1]))
        XCTAssertEqual(container.engagement.record(for: "a", at: clock.now)?.selections, 1, "replaced: kept")
        XCTAssertEqual(container.engagement.record(for: "d", at: clock.now)?.selections, 1, "re-indexed: kept")
        try await index.deleteSearchableItems(withIdentifiers: ["b"])
        try await index.deleteSearchableItems(withDomainIdentifiers: ["old"])
        try await index.indexSearchableItems([makeItem("b", title: "Report"), makeItem("c", title: "Report")])
        XCTAssertNil(container.engagement.record(for: "b", at: clock.now), "deleted by identifier: forgotten")
        XCTAssertNil(container.engagement.record(for: "c", at: clock.now), "deleted with its domain: forgotten")
        #if !canImport(Darwin)
        let activity = NSUserActivity(activityType: "t.view")
        activity.title = "Report"
        activity.persistentIdentifier = "p1"
        activity.isEligibleForSearch = true
        activity.container = container
        try await activity.becomeCurrentAndWait()
        let record = ActivityIdentity.recordIdentifier(persistentIdentifier: "p1")
        XCTAssertNotNil(container.engagement.record(for: record, at: clock.now))
        await NSUserActivity.deleteSavedUserActivities(withPersistentIdentifiers: ["p1"], in: container)
        XCTAssertNil(container.engagement.record(for: record, at: clock.now), "a deleted activity's: forgotten")
        #endif
        try await index.deleteAllSearchableItems()
        XCTAssertNotNil(container.engagement.record(for: "a", at: clock.now), "delete-all (a rebuild): kept")
    }

    /// A result chosen (or shown) after its item was deleted, from a list shown before, counts for nothing: it was
    /// recorded under the identifier, so a new item later given it inherited the deleted one's engagement. The
    /// results still in the container count as before.
    func testAStaleResultOfADeletedItemPassesNoEngagementToALaterOne() async throws {
        let clock = TestClock()
        let container = SearchlightContainer(clock: clock.function)
        let index = CSSearchableIndex(name: "e", container: container)
        try await index.indexSearchableItems([makeItem("a", title: "Report"), makeItem("b", title: "Report")])
        let run = runUserQuery("report", in: container)
        let a = try XCTUnwrap(run.items.first { $0.uniqueIdentifier == "a" })
        try await index.deleteSearchableItems(withIdentifiers: ["a"])
        let shown = run.items.map { CSUserQuery.Item(item: $0) }
        run.query.userEngaged(CSUserQuery.Item(item: a), visibleItems: shown, interaction: .select)
        run.query.userEngaged(CSUserQuery.Item(item: a), visibleItems: [], interaction: .focus)
        XCTAssertNotNil(SearchlightContinuation.activity(forSelecting: a, visibleItems: run.items, in: container),
                        "the app still gets the item's continuation")
        try await index.indexSearchableItems([makeItem("a", title: "Report")])
        XCTAssertNil(container.engagement.record(for: "a", at: clock.now), "the deleted item's: not the new one's")
        XCTAssertEqual(container.engagement.record(for: "b", at: clock.now)?.impressions, 2, "still there: shown twice")
    }

    /// Items whose identifiers are canonically equivalent ("café" precomposed and decomposed) are two items: choosing
    /// one lifted the other too (the ledger keyed them by `String ==`), and a restored ledger merged their records.
    func testCanonicallyEquivalentIdentifiersHaveEngagementOfTheirOwn() async throws {
        let clock = TestClock()
        let container = SearchlightContainer(clock: clock.function)
        let precomposed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let index = CSSearchableIndex(name: "e", container: container)
        try await index.indexSearchableItems([makeItem(precomposed, title: "Report"), makeItem(decomposed, title: "Report")])
        for _ in 0..<3 { _ = SearchlightContinuation.activity(forSelecting: decomposed, in: container) }
        XCTAssertNil(container.engagement.record(for: precomposed, at: clock.now))
        XCTAssertEqual(container.engagement.record(for: decomposed, at: clock.now)?.selections, 3)
        XCTAssertEqual(runUserQuery("report", in: container).items.map { Array($0.uniqueIdentifier.utf8) },
                       [Array(decomposed.utf8), Array(precomposed.utf8)])
        _ = SearchlightContinuation.activity(forSelecting: precomposed, in: container)
        let restored = EngagementLedger()
        try restored.restore(from: container.engagement.encoded())
        XCTAssertEqual(restored.records.count, 2)
        XCTAssertEqual(restored.record(for: precomposed, at: clock.now)?.selections, 1)
    }

    /// Shown results whose identifiers are canonically equivalent are two items, each shown once: the shown list was
    /// deduplicated by `String ==`, so only one of them (or not the chosen one) counted an impression.
    func testCanonicallyEquivalentShownIdentifiersEachCountAnImpression() {
        let precomposed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let ledger = EngagementLedger()
        ledger.recordImpressions(of: [precomposed, decomposed], at: t0)
        XCTAssertEqual(ledger.record(for: precomposed, at: t0)?.impressions, 1)
        XCTAssertEqual(ledger.record(for: decomposed, at: t0)?.impressions, 1)
        let chosen = EngagementLedger()
        chosen.recordSelection(of: decomposed, visible: [precomposed], at: t0)
        XCTAssertEqual(chosen.record(for: decomposed, at: t0)?.impressions, 1, "the chosen one counts as shown too")
        XCTAssertEqual(chosen.record(for: precomposed, at: t0)?.impressions, 1)
    }

    /// Ledgers written before suggestions got their own namespace (format 1) keyed a suggestion's engagement
    /// "suggestion:<folded text>": restored, such a record is the suggestion's again, not an orphan under an item
    /// identifier no item has. A ledger written since (format 2) keeps such a key as an item's, and a record
    /// already under the suggestion's new key is not overwritten.
    func testAnOldLedgersSuggestionEngagementIsKeptForTheSuggestion() throws {
        var w = StoredValueWriter()
        w.byte(1); w.varint(4)
        w.string("item"); w.double(1); w.double(2); w.double(0); w.double(10)
        w.string("suggestion:apricot"); w.double(3); w.double(4); w.double(0); w.double(20)
        w.string("suggestion:banana"); w.double(5); w.double(5); w.double(0); w.double(30)
        w.string("\u{0}suggestion\u{0}banana"); w.double(1); w.double(1); w.double(0); w.double(40)
        let ledger = EngagementLedger()
        try ledger.restore(from: w.bytes)
        XCTAssertEqual(ledger.records[.init(CSUserQuery.engagementKey("apricot"))],
                       .init(selections: 3, impressions: 4, updated: 20))
        XCTAssertNil(ledger.records[.init("suggestion:apricot")])
        XCTAssertEqual(ledger.records[.init(CSUserQuery.engagementKey("banana"))],
                       .init(selections: 1, impressions: 1, updated: 40), "the newer record is kept")
        XCTAssertEqual(ledger.records[.init("item")], .init(selections: 1, impressions: 2, updated: 10))

        // Written again, an item named like an old key keeps its engagement across a restore.
        let current = EngagementLedger()
        current.recordSelection(of: "suggestion:cherry", at: t0)
        let restored = EngagementLedger()
        try restored.restore(from: current.encoded())
        XCTAssertEqual(restored.records, current.records)
    }
}
