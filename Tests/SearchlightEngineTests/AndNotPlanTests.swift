@testable import SearchlightEngine
import XCTest

/// An and-not (`.not(include, excluding:)`) whose included group holds terms the exclusion covers whole: the planner
/// leaves those terms out (their documents are all excluded) and keeps the group's idf, so the answer and every score
/// are those of the query as written. A typo-tolerant word being typed is such a query: `CSUserQuery` scores a word's
/// near terms only where the word as typed does not match, and most near terms of a prefix are its completions.
final class AndNotPlanTests: XCTestCase {
    func snapshot() throws -> IndexSnapshot {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 2))
        let body = try writer.registerField("body", .text())
        let titles = ["contain the thing", "containers of it", "contact us", "content here", "contai typo", "conta x",
                      "contour map", "the contest", "contain contact", "nothing"]
        for (i, text) in titles.enumerated() {
            try writer.upsert(Document(id: "d\(i)", values: [(title, .text(text)),
                                                             (body, .text(i % 3 == 0 ? "contour and contain" : "plain"))]))
        }
        return try writer.commit()
    }

    func testCoveredTermsLeaveTheGroupAndItsIdfStays() throws {
        let snapshot = try snapshot()
        let planner = QueryPlanner(snapshot: snapshot)
        let scope = planner.resolve(.defaultFields)
        guard case .group(let all, let idf, _) = planner.plan(.fuzzy("contai", maxEdits: 1), scope: scope) else {
            return XCTFail("a fuzzy word plans as a group")
        }
        XCTAssertTrue(all.contains { $0.term.starts(with: Array("contai".utf8)) }, "the fixture has completions")
        let andNot = planner.plan(.not(.fuzzy("contai", maxEdits: 1), excluding: .prefix("contai")), scope: scope)
        guard case .not(.group(let kept, let keptIDF, _), _) = andNot else { return XCTFail("\(andNot)") }
        XCTAssertFalse(kept.contains { $0.term.starts(with: Array("contai".utf8)) })
        XCTAssertEqual(kept.count, all.filter { !$0.term.starts(with: Array("contai".utf8)) }.count)
        XCTAssertEqual(keptIDF, idf)
        // Excluding an exact term leaves that term's entries out, and its neighbours in.
        let exact = planner.plan(.not(.fuzzy("contain", maxEdits: 1), excluding: .term("contain")), scope: scope)
        guard case .not(.group(let near, _, _), _) = exact else { return XCTFail("\(exact)") }
        XCTAssertFalse(near.contains { $0.term == Array("contain".utf8) })
        XCTAssertTrue(near.contains { $0.term == Array("contai".utf8) })
        // Nothing left but covered terms: nothing to walk.
        let covered = planner.plan(.not(.fuzzy("contact", maxEdits: 1), excluding: .term("contact")), scope: scope)
        guard case .not(.none, _) = covered else { return XCTFail("\(covered)") }
    }

    func testTheAnswerAndEveryScoreAreTheQueryAsWritten() throws {
        let snapshot = try snapshot()
        for (word, exclusion) in [("contai", Query.prefix("contai")), ("contain", .term("contain")), ("contact", .term("contact")),
                                  ("contan", .prefix("contan")), ("cntour", .term("cntour"))] {
            let fuzzy = Query.fuzzy(word, maxEdits: 1)
            let excluded = Set(snapshot.matches(exclusion))
            let expected = snapshot.search(fuzzy, limit: 100).filter { !excluded.contains($0.address) }
            let found = snapshot.search(.not(fuzzy, excluding: exclusion), limit: 100)
            XCTAssertEqual(found.map(\.address), expected.map(\.address), word)
            XCTAssertEqual(found.map(\.score), expected.map(\.score), word)
            XCTAssertEqual(snapshot.search(.boost(.not(fuzzy, excluding: exclusion), 0.3), limit: 3).count,
                           min(3, expected.count), word)
        }
    }

    /// Two segments: in the first "pack" has few terms (read as terms); in the second "pack" and "libob" are wide
    /// (read from their lists), and every longer term of "libob" starts with "libobj".
    func prefixSnapshot() throws -> IndexSnapshot {
        let writer = IndexWriter()
        let title = try writer.registerField("title", .text(weight: 2))
        let body = try writer.registerField("body", .text())
        let first = ["pack of cards", "package manager", "packet loss", "packaged app", "packs and packages", "pcakage x",
                     "pacman", "racket pack", "libobj tools", "libob here"]
        for (i, text) in first.enumerated() {
            try writer.upsert(Document(id: "a\(i)", values: [(title, .text(text)), (body, .text(i % 2 == 0 ? "packet" : "plain"))]))
        }
        _ = try writer.commit()
        let letters = Array("abcdefgh")
        for i in 0..<64 {
            let suffix = "\(letters[i / 8])\(letters[i % 8])"
            let text = "packa\(suffix) libobj\(suffix) pack\(i % 3 == 0 ? "et" : "s")"
            try writer.upsert(Document(id: "b\(i)", values: [(title, .text(text)), (body, .text(i % 4 == 0 ? "libob" : "pacbage"))]))
        }
        return try writer.commit()
    }

    /// The typed prefix's terms among those of its near prefixes ("packa…" under "pack") are never read: a range of
    /// terms is cut around them, a list they hold whole is left out; a list they hold in part stays.
    func testNearPrefixesLeaveOutTheTypedPrefixsTerms() throws {
        let snapshot = try prefixSnapshot()
        XCTAssertEqual(snapshot.segments.count, 2)
        let planner = QueryPlanner(snapshot: snapshot)
        let scope = planner.resolve(.defaultFields)
        var lists: [String] = []
        for word in ["packa", "libobj"] {
            let key = Array(word.utf8)
            let andNot = planner.plan(.not(.fuzzyPrefix(word, maxEdits: 1), excluding: .prefix(word)), scope: scope)
            guard case .not(.prefix(let fields, _, _, _), _) = andNot else { return XCTFail("\(andNot)") }
            var read = 0
            for prefix in fields {
                for (ordinal, place) in prefix.places.enumerated() {
                    guard let terms = snapshot.segments[ordinal].terms(FieldID(rawValue: UInt16(prefix.field))) else { continue }
                    switch place {
                    case .absent: break
                    case .terms(let range, _):
                        for index in range {
                            read += 1
                            XCTAssertFalse(terms.withTerm(index) { $0.starts(with: key) }, word)
                        }
                    case .list(let list, _):
                        lists.append(String(decoding: list.key(0), as: UTF8.self))
                    }
                }
            }
            XCTAssertGreaterThan(read, 0, word)
        }
        // "pack"'s list holds "packet" and "packs" too; "libob"'s holds only "libobj…".
        XCTAssertEqual(lists, ["pack"])
    }

    func testNearPrefixesAnswerAndScoreAsWritten() throws {
        let snapshot = try prefixSnapshot()
        for word in ["packa", "libobj", "packag", "pcaka", "lbiobj", "packe"] {
            let fuzzy = Query.fuzzyPrefix(word, maxEdits: 1)
            let excluded = Set(snapshot.matches(.prefix(word)))
            let expected = snapshot.search(fuzzy, limit: 200).filter { !excluded.contains($0.address) }
            XCTAssertFalse(expected.isEmpty, word)
            let found = snapshot.search(.not(fuzzy, excluding: .prefix(word)), limit: 200)
            XCTAssertEqual(found.map(\.address), expected.map(\.address), word)
            XCTAssertEqual(found.map(\.score), expected.map(\.score), word)
            // Led by a rarer word, the near prefixes are asked about its candidates only.
            let led = Set(snapshot.matches(.term("cards"))).union(snapshot.matches(.term("racket")))
            let both = snapshot.search(.and([.not(fuzzy, excluding: .prefix(word)), .or([.term("cards"), .term("racket")])]), limit: 200)
            XCTAssertEqual(Set(both.map(\.address)), Set(expected.map(\.address)).intersection(led), word)
            XCTAssertEqual(snapshot.search(.boost(.not(fuzzy, excluding: .prefix(word)), 0.3), limit: 3).count,
                           min(3, expected.count), word)
        }
    }
    /// A word being typed inside a conjunction led by a rarer word: the typed prefix its near prefixes exclude is only
    /// asked about the lead's candidates, so it is walked (seeking to them) as the prefix's own clause is, not
    /// accumulated whole over the segment as if nothing led.
    func testTheExcludedPrefixIsWalkedWhereARarerWordLeads() throws {
        let snapshot = try prefixSnapshot()
        var planner = QueryPlanner(snapshot: snapshot)
        let scope = planner.resolve(.defaultFields)
        let word = Query.or([.boost(.term("packa"), 1.3),
                             .boost(.not(.fuzzyPrefix("packa", maxEdits: 1), excluding: .prefix("packa")), 0.3),
                             .prefix("packa")])
        let plan = planner.plan(.and([.term("libobjaa"), word]), scope: scope)
        let conjunction = try XCTUnwrap(planner.iterator(plan, segment: 1, scored: true) as? ConjunctionIterator)
        let disjunction = try XCTUnwrap(conjunction.children.lazy.compactMap { $0 as? DisjunctionIterator }.first)
        let exclusion = try XCTUnwrap(disjunction.children.lazy.compactMap { ($0 as? BoostIterator)?.child as? ExclusionIterator }.first)
        let typed = try XCTUnwrap(disjunction.children.last)
        XCTAssertTrue(typed is TermGroupIterator, "the typed prefix's clause seeks: \(type(of: typed))")
        XCTAssertTrue(exclusion.exclude is TermGroupIterator, "the exclusion seeks too: \(type(of: exclusion.exclude))")
        XCTAssertTrue(exclusion.include is TermGroupIterator, "the near prefixes seek: \(type(of: exclusion.include))")
    }

    /// Randomized: the typo pass's and-not (`.not(.fuzzyPrefix(w), excluding: .prefix(w))`, trimmed by
    /// `withoutCovered`) answers and scores as the fuzzy prefix less the typed prefix's matches, over several
    /// segments with wide prefixes (lists) and deletions, alone and led by a rarer term.
    func testTrimmedNearPrefixesAgreeWithTheUntrimmedQueryRandomized() throws {
        var seed: UInt64 = 12345
        func next(_ n: Int) -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int((seed >> 33) % UInt64(n)) }
        let letters = Array("packetz")
        var failures: [String] = []
        for round in 0..<6 {
            let writer = IndexWriter()
            let title = try writer.registerField("title", .text(weight: 4, primary: true))
            let body = try writer.registerField("body", .text())
            var vocabulary: [String] = []
            for _ in 0..<150 {
                vocabulary.append("pa" + String((0..<(2 + next(5))).map { _ in letters[next(letters.count)] }))
            }
            var id = 0
            for _ in 0..<(2 + round % 3) {
                for _ in 0..<(60 + next(80)) {
                    let t = (0..<(1 + next(3))).map { _ in vocabulary[next(vocabulary.count)] }.joined(separator: " ")
                    let b = (0..<(1 + next(4))).map { _ in vocabulary[next(vocabulary.count)] }.joined(separator: " ")
                    try writer.upsert(Document(id: "d\(id)", values: [(title, .text(t)), (body, .text(b + (next(5) == 0 ? " rare" : "")))]))
                    id += 1
                }
                if next(2) == 0 { writer.delete(ids: (0..<10).map { _ in "d\(next(max(id, 1)))" }) }
                _ = try writer.commit()
            }
            let s = try writer.commit()
            for _ in 0..<40 {
                var w = Array(vocabulary[next(vocabulary.count)])
                if w.count < 5 { w += Array("kk") }
                w = Array(w.prefix(5 + next(max(1, w.count - 4))))
                if next(2) == 0 { w[next(w.count)] = letters[next(letters.count)] }
                let word = String(w)
                let fuzzy = Query.fuzzyPrefix(word, maxEdits: nil)
                let excluded = Set(s.matches(.prefix(word)))
                let expected = s.search(fuzzy, limit: 2000).filter { !excluded.contains($0.address) }
                let found = s.search(.not(fuzzy, excluding: .prefix(word)), limit: 2000)
                if found.map(\.address) != expected.map(\.address) || found.map(\.score) != expected.map(\.score) {
                    let e = Dictionary(uniqueKeysWithValues: expected.map { ($0.address, $0.score) })
                    let diff = found.filter { e[$0.address] != $0.score }.prefix(3).map { "\(s.id(of: $0.address) ?? "?"): \($0.score) vs \(String(describing: e[$0.address]))" }
                    failures.append("round \(round) \(word) (\(s.segments.count) segments): \(found.count) vs \(expected.count) hits; \(diff)")
                }
                let rare = Set(s.matches(.term("rare")))
                let led = Set(s.search(.and([.term("rare"), .not(fuzzy, excluding: .prefix(word))]), limit: 2000).map(\.address))
                if led != Set(expected.map(\.address)).intersection(rare) { failures.append("round \(round) \(word): led by rare differs") }
            }
        }
        XCTAssertTrue(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(5))")
    }
}
