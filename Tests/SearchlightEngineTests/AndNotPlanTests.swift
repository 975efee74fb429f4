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
}
