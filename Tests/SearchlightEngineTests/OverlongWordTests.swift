import XCTest
@testable import SearchlightEngine

/// The stand-in the index records for a word over `Analyzer.maxTermBytes` is no word: only pattern comparisons
/// (`CandidateTerms`) ask for it by name.
final class OverlongWordTests: XCTestCase {
    /// It is within an edit or two of any short term, so a fuzzy expansion must skip it (a review found
    /// `.fuzzy("ab", maxEdits: 2)` matching a document for its overlong word).
    func testFuzzyDoesNotMatchTheStandIn() throws {
        let writer = IndexWriter()
        let body = try writer.registerField("body", .text(weight: 1))
        let title = try writer.registerField("title", .text(weight: 2))
        try writer.upsert(contentsOf: [
            Document(id: "long", values: [(body, .text("hello " + String(repeating: "z", count: 200))),
                                          (title, .text(String(repeating: "y", count: 150)))]),
            Document(id: "ab", values: [(body, .text("ab hello"))]),
        ])
        let snapshot = try writer.commit()
        let ids = { (q: Query) in Set(snapshot.matches(q).compactMap { snapshot.id(of: $0) }) }
        XCTAssertEqual(ids(.fuzzy("ab", maxEdits: 2)), ["ab"])
        XCTAssertEqual(ids(.fuzzy("q", maxEdits: 1)), [])
        XCTAssertEqual(ids(.scoped(.field(body), .fuzzy("q", maxEdits: 1))), [])
        XCTAssertEqual(snapshot.search(.fuzzy("q", maxEdits: 1), limit: 10).count, 0)
        XCTAssertFalse(snapshot.fuzzyTerms("q", maxEdits: 1).contains { $0.term == Analyzer.overlongTerm })
        // Asked for by name, it is there.
        XCTAssertEqual(ids(.terms([Analyzer.overlongTerm])), ["long"])
    }
}
