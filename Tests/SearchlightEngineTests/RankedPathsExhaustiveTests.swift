@testable import SearchlightEngine
import Foundation
import XCTest

/// Every ranked shortcut (champion lists and covers, cover and best-first phrases, block-max skipping, the
/// candidate conjunction's bounds) against an exhaustive ranking: the same query with a limit past every match
/// and no shortcut, cut to the page. Corpora with updates (an id indexed again), deletions, several segments and
/// merges; pages at and around the lists' sizes.
final class RankedPathsExhaustiveTests: XCTestCase {
    typealias Generator = DifferentialTests.Generator

    /// Options of a page of `limit`: plain, or a rescore's (`rescored`).
    typealias Make = (Int) -> SearchOptions

    /// Every shortcut taken as eagerly as it can be on a small corpus.
    static func eager(limit: Int, filter: Query? = nil, rescored: Make? = nil) -> SearchOptions {
        var options = SearchOptions(limit: limit, filter: filter)
        if let rescored { options = rescored(limit); options.filter = filter }
        options.covers = ChampionConjunctionTests.eager
        var phrases = PhraseTuning()
        phrases.minimumCoverCandidates = 0
        phrases.coverShareDivisor = .max
        phrases.minimumCandidates = 0
        phrases.shareDivisor = .max
        options.phrases = phrases
        return options
    }

    /// The exhaustive ranking cut to `limit`: every match kept (no heap ever fills), no shortcut.
    static func exhaustive(_ snapshot: IndexSnapshot, _ query: Query, limit: Int, filter: Query? = nil,
                           rescored: Make? = nil) -> [SearchHit] {
        var options = SearchOptions(limit: 1 << 20, filter: filter)
        if let rescored { options = rescored(1 << 20); options.filter = filter }
        options.championLists = false
        var phrases = PhraseTuning()
        phrases.minimumCoverCandidates = .max
        phrases.minimumCandidates = .max
        options.phrases = phrases
        return Array(snapshot.search(query, options: options).prefix(limit))
    }

    static func queries(_ g: inout Generator) -> [Query] {
        let common = ChampionListsTests.common
        var queries: [Query] = []
        for word in common {
            queries.append(.term(word))
            // A lone prefix's champion list sums its terms' frequencies before weighting them: its scores may
            // differ in the last place (`ChampionListsReviewTests` compares those to rounding).
            queries.append(.and([.prefix(String(word.prefix(1))), .prefix(String(word.prefix(2)))]))
        }
        for _ in 0..<12 {
            let first = g.pick(common), second = g.pick(common)
            queries.append(.and([.term(first), .term(second)]))
            queries.append(.and([.term(first), .prefix(String(second.prefix(1 + g.int(2))))]))
            queries.append(.and([.boost(.term(first), 1.3),
                                 .or([.boost(.term(second), 1.3), .prefix(String(second.prefix(2)))])]))
            queries.append(.phrase(first + " " + second))
        }
        return queries
    }

    func check(_ snapshot: IndexSnapshot, _ queries: [Query], limits: [Int], label: String,
               filter: Query? = nil, rescored: Make? = nil, file: StaticString = #filePath, line: UInt = #line) {
        var failures = 0
        for query in queries {
            let all = Self.exhaustive(snapshot, query, limit: limits.max()!, filter: filter, rescored: rescored)
            for limit in limits {
                let expected = Array(all.prefix(limit))
                let fast = snapshot.search(query, options: Self.eager(limit: limit, filter: filter, rescored: rescored))
                if fast != expected, failures < 8 {
                    failures += 1
                    let at = (0..<min(fast.count, expected.count)).first(where: { fast[$0] != expected[$0] }) ?? min(fast.count, expected.count)
                    XCTFail("\(label) \(query) limit \(limit): counts \(fast.count)/\(expected.count), first difference at \(at): "
                            + "\(fast.dropFirst(at).prefix(2)) vs \(expected.dropFirst(at).prefix(2))", file: file, line: line)
                }
            }
        }
    }

    /// Builds `documents` items, re-indexing and deleting earlier ones as it goes, committing every `commitEvery`.
    static func build(_ writer: IndexWriter, documents: Int, seed: UInt64, commitEvery: Int) throws -> FieldID {
        var g = Generator(state: seed)
        let title = try writer.registerField("title", .text(weight: 3, primary: true))
        let body = try writer.registerField("body", .text(weight: 1))
        let tags = try writer.registerField("tags", .text(weight: 2))
        let common = ChampionListsTests.common
        func word() -> String {
            g.chance(0.6) ? g.pick(common) : String((0..<(2 + g.int(4))).map { _ in g.pick(Array("abcd")) })
        }
        for i in 0..<documents {
            // A third of the items re-index an earlier id.
            let id = i > 10 && g.chance(0.33) ? "d\(g.int(i))" : "d\(i)"
            var values: [(FieldID, FieldValue)] = [
                (title, .text((0..<(1 + g.int(3))).map { _ in word() }.joined(separator: " "))),
                (body, .text((0..<(3 + g.int(i > documents / 2 ? 40 : 12))).map { _ in word() }.joined(separator: " ")))]
            if g.chance(0.3) { values.append((tags, .text(word()))) }
            try writer.upsert(Document(id: id, values: values))
            if i % 5 == 4 { writer.delete(ids: ["d\(g.int(i + 1))"]) }
            // Exact copies under other ids: ties across segments.
            if g.chance(0.1) { try writer.upsert(Document(id: "c\(g.int(200))", values: values)) }
            if i % commitEvery == commitEvery - 1 { _ = try writer.commit() }
        }
        _ = try writer.commit()
        return tags
    }

    func testUpdatesDeletionsAndSegments() throws {
        let writer = IndexWriter()
        _ = try Self.build(writer, documents: 5_000, seed: 901, commitEvery: 1_300)
        let snapshot = writer.snapshot
        var g = Generator(state: 902)
        check(snapshot, Self.queries(&g), limits: [1, 20, 31, 32, 33, 255, 256, 257, 1_023, 1_024, 1_025],
              label: "segments")
    }

    func testAfterMerges() throws {
        let writer = IndexWriter()
        writer.mergesInBackground = true
        _ = try Self.build(writer, documents: 5_000, seed: 911, commitEvery: 700)
        var g = Generator(state: 912)
        let queries = Self.queries(&g)
        // First searches build the lists; then merges carry them over.
        check(writer.snapshot, queries, limits: [20, 32], label: "before merges")
        writer.waitForMerges()
        _ = writer.publishFinishedMerges()
        for i in 0..<300 { try writer.upsert(Document(id: "d\(i * 7)", values: [])) }
        let snapshot = try writer.commit()
        XCTAssertLessThan(snapshot.segments.count, 8, "merged")
        check(snapshot, queries, limits: [1, 20, 32, 33, 256, 2_048, 2_049], label: "after merges")
    }

    /// More seeds (`PROBE_RUNS`): segment sizes, background merges and a rescore with lifted documents vary.
    func testSeeds() throws {
        let runs = Int(ProcessInfo.processInfo.environment["PROBE_RUNS"] ?? "2") ?? 2
        for seed in 0..<UInt64(runs) {
            let writer = IndexWriter()
            writer.mergesInBackground = seed % 2 == 0
            _ = try Self.build(writer, documents: 2_000 + Int(seed % 5) * 800, seed: 1_000 + seed, commitEvery: 300 + Int(seed % 7) * 200)
            writer.waitForMerges()
            _ = writer.publishFinishedMerges()
            var g = Generator(state: seed)
            check(writer.snapshot, Self.queries(&g), limits: [1, 20, 32, 33, 256, 257, 1_024], label: "seed \(seed)",
                  rescored: seed % 2 == 1 ? RankedPathFixtures.rescored(writer.snapshot) : nil)
        }
    }

    /// A second stage over the first stage's best `window`: the best `limit` of those by rescored score.
    func testWindowRescore() throws {
        let writer = IndexWriter()
        _ = try Self.build(writer, documents: 3_000, seed: 931, commitEvery: 900)
        let snapshot = writer.snapshot
        var g = Generator(state: 932)
        let factor: @Sendable (DocAddress) -> Float = { Float(($0.doc &* 2_654_435_761) % 7) / 4 }
        for query in Self.queries(&g) {
            let all = Self.exhaustive(snapshot, query, limit: 1 << 20)
            for (limit, window, ceiling) in [(1, 32, Float(1.5)), (20, 32, nil), (20, 256, 1.5), (33, 32, 1.5),
                                             (256, 2_048, 1.5), (31, 32, 2)] {
                var options = Self.eager(limit: limit)
                options.windowRescore = WindowRescore(window: window, ceiling: ceiling, factor: factor)
                let first = all.prefix(max(limit, window))
                let expected = Array(first.map { SearchHit(address: $0.address, score: $0.score * factor($0.address)) }
                    .sorted(by: SearchHit.ranksBefore).prefix(limit))
                XCTAssertEqual(snapshot.search(query, options: options), expected, "\(query) \(limit) \(window)")
            }
        }
    }

    func testFilters() throws {
        let writer = IndexWriter()
        let tags = try Self.build(writer, documents: 4_000, seed: 921, commitEvery: 1_500)
        var g = Generator(state: 922)
        check(writer.snapshot, Self.queries(&g), limits: [1, 20, 32, 256], label: "filtered",
              filter: .scoped(.field(tags), .prefix("a")))
    }
}
