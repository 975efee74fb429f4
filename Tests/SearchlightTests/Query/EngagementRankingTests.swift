import Foundation
import XCTest
@testable import Searchlight
import SearchlightEngine

/// `CSUserQuery` ranking with engagement: pages are exactly what rescoring every match gives, with the ceiling the
/// ledger keeps (`EngagementLedger.rankingState(at:)`) pruning, through seeded random engagement (selections with
/// visible lists, focus events, impressions, donations, continuations), a clock moving both ways, pruning and
/// restoring. Written from the review of the O(1) ceiling (its probe found no mismatch; it runs here as the spec).
final class EngagementRankingTests: XCTestCase {
    /// Every factor stays under the ceiling used, and every page equals the exhaustive ranking's.
    func testRankedSearchWithEngagementEqualsRescoringEveryMatch() throws {
        let url = fixturesDirectory.appendingPathComponent("debian-en-ranking.jsonl")
        let items = try ItemFileReader.readItems(from: url).items
        let clock = TestClock()
        let container = makeContainer(items, clock: clock)
        let ids = items.map(\.uniqueIdentifier)
        var random = SeededGenerator(seed: 0x8888)
        func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        let texts = ["web server", "pdf viewer", "thunderb", "lib", "mail client", "tool", "free", "python3 mod", "g"]
        // A small pool so records accumulate.
        let pool = (0..<60).map { _ in ids[pick(ids.count)] }
        var compared = 0, mismatches = 0, overCeiling = 0
        for step in 0..<400 {
            switch pick(12) {
            case 0...3:
                let visible = (0..<pick(8)).map { _ in pool[pick(pool.count)] }
                container.engagement.recordSelection(of: pool[pick(pool.count)], visible: visible, at: clock.now)
            case 4: container.engagement.recordSelection(of: pool[pick(pool.count)], weight: 0.25, at: clock.now)
            case 5: container.engagement.recordImpressions(of: (0..<(1 + pick(10))).map { _ in pool[pick(pool.count)] }, at: clock.now)
            case 6: container.engagement.recordDonation(of: pool[pick(pool.count)], at: clock.now)
            case 7: _ = SearchlightContinuation.activity(forSelecting: pool[pick(pool.count)],
                                                          visibleIdentifiers: (0..<pick(5)).map { _ in pool[pick(pool.count)] },
                                                          in: container)
            case 8: container.engagement.prune(at: clock.now)
            case 9:
                let bytes = container.engagement.encoded()
                try container.engagement.restore(from: bytes)
            case 10: clock.advance(by: -Double(pick(20 * 86_400)))  // clock moves backwards
            default: clock.advance(by: Double(pick(10 * 86_400)) + Double(pick(1000)) / 997)
            }
            guard step % 4 == 3 else { continue }
            let snapshot = container.snapshot()
            let state = container.engagement.rankingState(at: snapshot.now)
            let text = texts[pick(texts.count)]
            let ranking = UserQueryRanking(snapshot: snapshot, engagement: state.records, engagementCeiling: state.ceiling,
                                           typedText: text)
            let exactRanking = UserQueryRanking(snapshot: snapshot, engagement: state.records, typedText: text)
            let plan = UserQueryPlan(text: text, lastWordIsPrefix: true)
            for limit in [1, 3, 10] {
                for typo in [false, true] {
                    let query = plan.query(typoTolerant: typo)
                    let every = snapshot.engine.search(query, limit: 100_000)
                    for hit in every {
                        let f = ranking.factor(hit.address)
                        let isCovering = ranking.covering.map { UserQueryRanking.contains($0, hit.address) } ?? true
                        if f > (isCovering ? ranking.coveringCeiling : ranking.ceiling) { overCeiling += 1 }
                    }
                    var rescored = every.map { SearchHit(address: $0.address, score: exactRanking.rescore($0.address, $0.score)) }
                    rescored.sort { $0.score != $1.score ? $0.score > $1.score : $0.address < $1.address }
                    let expected = Array(rescored.filter { snapshot.isUnexpired($0.address) }.prefix(limit))
                    let got = RankedSearch(snapshot: snapshot, restriction: nil, ranking: ranking).visibleHits(query, limit: limit)
                    compared += 1
                    XCTAssertEqual(got, expected, "\(text) top \(limit) at step \(step)")
                    if got != expected { mismatches += 1 }
                }
            }
            // And through CSUserQuery itself (exact pass only when it fills the limit).
            let run = runUserQuery(text, in: container) { $0.enableRankedResults = true; $0.maxResultCount = 5 }
            XCTAssertNil(run.error)
            let ranked = run.items.sorted { $0.compare(byRank: $1) == .orderedAscending }.map(\.uniqueIdentifier)
            let exactQuery = plan.query(typoTolerant: false)
            let exactAll = snapshot.engine.search(exactQuery, limit: 100_000).filter { snapshot.isUnexpired($0.address) }
            let q = exactAll.count >= 5 || !plan.hasTypoBudget ? exactQuery : plan.query(typoTolerant: true)
            var all = snapshot.engine.search(q, limit: 100_000).filter { snapshot.isUnexpired($0.address) }
                .map { SearchHit(address: $0.address, score: exactRanking.rescore($0.address, $0.score)) }
            all.sort { $0.score != $1.score ? $0.score > $1.score : $0.address < $1.address }
            // Renown re-ranks the first `renownWindow`.
            var head = all.prefix(UserQueryRanking.renownWindow).map {
                SearchHit(address: $0.address, score: $0.score * exactRanking.renownFactor($0.address))
            }
            head.sort { $0.score != $1.score ? $0.score > $1.score : $0.address < $1.address }
            let want = ActivityResults.collapse(Array(head.prefix(5)), in: snapshot).compactMap { snapshot.engine.id(of: $0.address) }
            XCTAssertEqual(ranked, want, "CSUserQuery \(text) at step \(step)")
            if ranked != want { mismatches += 1 }
        }
        XCTAssertGreaterThan(compared, 500)
        XCTAssertEqual(mismatches, 0)
        XCTAssertEqual(overCeiling, 0)
    }
}
