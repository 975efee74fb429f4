// The Linux NSUserActivity (Foundation has its own on Apple platforms; see SearchlightActivityDonation).
#if !canImport(Darwin)
import Foundation
import XCTest
@testable import Searchlight

/// Activities through the query APIs: found alongside items, collapsed with their items, and engagement ranking
/// in `CSUserQuery` (overtaking an equally relevant result, then falling back as engagement ages).
final class ActivityQueryTests: XCTestCase {
    private let day: TimeInterval = 86_400

    private func searchQuery(_ string: String, in container: SearchlightContainer) -> [CSSearchableItem] {
        let context = CSSearchQueryContext()
        context.fetchAttributes = ["title"]
        let run = runQuery(CSSearchQuery(queryString: string, queryContext: context, container: container))
        XCTAssertNil(run.error)
        return run.batches.flatMap { $0 }
    }

    private func userQuery(_ text: String, in container: SearchlightContainer) -> [String] {
        let run = runUserQuery(text, in: container)
        XCTAssertNil(run.error)
        return run.items.map(\.uniqueIdentifier)
    }

    func testActivitiesAreFoundByBothQueryKindsAlongsideItems() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("trip", title: "Paris trip notes")])
        let activity = fixture.activity("com.example.museum", title: "Paris museum visit")
        activity.userInfo = ["museum": "orsay"]
        try await activity.becomeCurrentAndWait()
        let recordID = try XCTUnwrap(fixture.activities.first?.identifier)

        let found = searchQuery(#"title == "*paris*"c"#, in: fixture.container)
        XCTAssertEqual(Set(found.map(\.uniqueIdentifier)), ["trip", recordID])
        XCTAssertEqual(Set(userQuery("paris", in: fixture.container)), ["trip", recordID])
        XCTAssertEqual(userQuery("museum", in: fixture.container), [recordID])

        // The delivered result continues into the activity.
        let result = try XCTUnwrap(found.first { $0.uniqueIdentifier == recordID })
        XCTAssertTrue(SearchlightContinuation.isActivityResult(result))
        XCTAssertEqual(found.filter { !SearchlightContinuation.isActivityResult($0) }.map(\.uniqueIdentifier), ["trip"])
        XCTAssertEqual(result.attributeSet.title, "Paris museum visit")
        let continued = try XCTUnwrap(SearchlightContinuation.activity(forSelecting: result, in: fixture.container))
        XCTAssertEqual(continued.activityType, "com.example.museum")
        XCTAssertEqual(continued.userInfo?["museum"] as? String, "orsay")
    }

    func testLinkedActivitiesAndItemsAreOneQueryResult() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("recipe-1", title: "Tomato soup"),
                                                      makeItem("song-1", title: "Soup song")])
        let tied = fixture.linkedActivity(title: "Tomato soup", to: "recipe-1")
        tied.keywords = ["dinner"]
        try await tied.becomeCurrentAndWait()
        let weak = fixture.linkedActivity(title: "Soup song lyrics", to: "song-1", weak: true)
        try await weak.becomeCurrentAndWait()
        XCTAssertEqual(fixture.activities.count, 2)

        XCTAssertEqual(userQuery("tomato", in: fixture.container), ["recipe-1"])
        XCTAssertEqual(Set(userQuery("soup", in: fixture.container)), ["recipe-1", "song-1"])
        XCTAssertEqual(userQuery("dinner", in: fixture.container), ["recipe-1"], "the item stands for its activity")
        XCTAssertEqual(userQuery("lyrics", in: fixture.container), ["song-1"])
        XCTAssertEqual(Set(searchQuery(#"title == "*soup*"c"#, in: fixture.container).map(\.uniqueIdentifier)),
                       ["recipe-1", "song-1"])
        let item = try XCTUnwrap(searchQuery(#"keywords == "dinner""#, in: fixture.container).first)
        XCTAssertEqual(item.uniqueIdentifier, "recipe-1")
        XCTAssertEqual(item.attributeSet.title, "Tomato soup", "the item wins")
    }

    /// An item found only through its linked activity has a snippet and an explanation of the score it was
    /// delivered with, from the activity's document (the item's own, which does not match, gave neither).
    func testAnItemFoundThroughItsActivityHasASnippetAndExplanation() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("recipe-1", title: "Tomato soup"),
                                                      makeItem("recipe-2", title: "Onion soup")])
        let activity = fixture.linkedActivity(title: "Grandma favourite", to: "recipe-1")
        try await activity.becomeCurrentAndWait()

        let run = runUserQuery("favourite", in: fixture.container)
        XCTAssertNil(run.error)
        XCTAssertEqual(run.items.map(\.uniqueIdentifier), ["recipe-1"])
        let hit = try XCTUnwrap(run.items.first)
        let snippet = try XCTUnwrap(run.query.snippet(for: hit))
        XCTAssertEqual(snippet.highlightedWords, ["favourite"])
        let explanation = try XCTUnwrap(run.query.explanation(for: hit))
        let first = try XCTUnwrap(explanation.split(separator: "\n").first)
        let total = try XCTUnwrap(Float(String(first.prefix { $0 != " " })), explanation)
        XCTAssertEqual(Double(total), hit.rank, accuracy: hit.rank * 1e-5, explanation)
    }

    func testFrequentlySelectedItemOvertakesAnEquallyRelevantOneThenFallsBack() async throws {
        let fixture = ActivityFixture()
        let items = [makeItem("x", title: "Quarterly report"), makeItem("y", title: "Quarterly report")]
        for item in items { item.expirationDate = .distantFuture }
        try await fixture.index.indexSearchableItems(items)
        let first = runUserQuery("quarterly", in: fixture.container)
        XCTAssertEqual(first.items.map(\.uniqueIdentifier), ["x", "y"], "equal relevance: index order")
        XCTAssertEqual(first.items[0].rank, first.items[1].rank, accuracy: 1e-6)

        // The user picks "y" from the list five times.
        for _ in 0..<5 {
            let run = runUserQuery("quarterly", in: fixture.container)
            let visible = run.items.map { CSUserQuery.Item(item: $0) }
            let chosen = try XCTUnwrap(visible.first { $0.id == "y" })
            run.query.userEngaged(chosen, visibleItems: visible, interaction: .select)
        }
        XCTAssertEqual(userQuery("quarterly", in: fixture.container), ["y", "x"], "engagement lifts y")

        fixture.clock.advance(by: 30 * day)
        XCTAssertEqual(userQuery("quarterly", in: fixture.container), ["y", "x"], "a month later y still leads")
        let aging = runUserQuery("quarterly", in: fixture.container).items
        let fresh = fixture.container.engagement.factor(for: "y", at: fixture.clock.now.addingTimeInterval(-30 * day))
        let month = fixture.container.engagement.factor(for: "y", at: fixture.clock.now)
        XCTAssertLessThan(month, fresh, "the lift shrinks as engagement ages")
        XCTAssertGreaterThan(aging[0].rank, aging[1].rank)

        fixture.clock.advance(by: 90 * day)
        let late = runUserQuery("quarterly", in: fixture.container).items
        XCTAssertEqual(late.count, 2)
        guard late.count == 2 else { return }
        XCTAssertEqual(late.map(\.uniqueIdentifier), ["x", "y"], "four months on the engagement is forgotten")
        XCTAssertEqual(late[0].rank, late[1].rank, accuracy: 1e-6)
    }

    func testSelectionsThroughContinuationAndActivityVisitsRankToo() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("a", title: "Garden plan"),
                                                      makeItem("b", title: "Garden plan")])
        XCTAssertEqual(userQuery("garden", in: fixture.container), ["a", "b"])
        _ = SearchlightContinuation.activity(forSelecting: "b", visibleIdentifiers: ["a", "b"], in: fixture.container)
        XCTAssertEqual(userQuery("garden", in: fixture.container), ["b", "a"])

        // An activity tied to "a" that the user keeps coming back to lifts "a" (visits count as engagement).
        let visit = fixture.linkedActivity(title: "Garden plan", to: "a")
        for _ in 0..<12 {
            try await visit.becomeCurrentAndWait()
            visit.resignCurrent()
        }
        XCTAssertEqual(userQuery("garden", in: fixture.container), ["a", "b"])
    }

    /// A visit is the activity becoming current: calling `becomeCurrent()` again while it already is (a view
    /// refreshing, a burst of calls) is the same visit. Each call counted one, so a refresh loop lifted the result.
    func testRepeatedBecomeCurrentOfTheCurrentActivityCountsOneVisit() async throws {
        let fixture = ActivityFixture()
        let activity = fixture.activity(title: "Reading list")
        for _ in 0..<5 { try await activity.becomeCurrentAndWait() }
        let key = try XCTUnwrap(fixture.activities.first?.identifier)
        XCTAssertEqual(fixture.container.engagement.record(for: key, at: fixture.clock.now)?.donations ?? 0, 1,
                       accuracy: 1e-9)
        activity.resignCurrent()
        try await activity.becomeCurrentAndWait()
        XCTAssertEqual(fixture.container.engagement.record(for: key, at: fixture.clock.now)?.donations ?? 0, 2,
                       accuracy: 1e-9, "becoming current again after resigning is a new visit")
    }

    func testAnActivityResultEarnsEngagementUnderItsRecord() async throws {
        let fixture = ActivityFixture()
        let one = fixture.activity("t.one", title: "Budget sheet")
        try await one.becomeCurrentAndWait()
        let two = fixture.activity("t.two", title: "Budget sheet")
        try await two.becomeCurrentAndWait()
        let order = userQuery("budget", in: fixture.container)
        XCTAssertEqual(order.count, 2)
        let run = runUserQuery("budget", in: fixture.container)
        let visible = run.items.map { CSUserQuery.Item(item: $0) }
        for _ in 0..<3 { run.query.userEngaged(visible[1], visibleItems: visible, interaction: .select) }
        XCTAssertEqual(userQuery("budget", in: fixture.container), order.reversed())
    }

    /// A suggestion's `resultCount` is what choosing it finds: an activity linked to an item is one result with
    /// that item, and one linked to a hidden item none. Both were counted as documents (3 for 2 results), which
    /// also ranked such completions above others that find more.
    func testASuggestionCountsAnActivityAsTheItemItStandsFor() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("soup", title: "Tomato soup"),
                                                      makeItem("gone", title: "Tomato salad")])
        try await fixture.linkedActivity(title: "Tomato soup recipe", to: "soup").becomeCurrentAndWait()
        try await fixture.linkedActivity(title: "Tomato salad recipe", to: "gone").becomeCurrentAndWait()
        try await fixture.activity(title: "Tomato tart").becomeCurrentAndWait()
        try await fixture.index.deleteSearchableItems(withIdentifiers: ["gone"])
        let (suggestion, found) = try chooseFirstSuggestion(of: "toma", expecting: "tomato", in: fixture.container)
        XCTAssertEqual(found.count, 2, "the soup and the unlinked activity")
        XCTAssertEqual(suggestion.resultCount, found.count)
        let filtered = runUserQuery("soup toma", in: fixture.container, suggestions: true)
        XCTAssertEqual(filtered.suggestions.first?.resultCount, 1, "the soup, found by its own and its activity's text")
    }

    /// The count walks only the completion's matches among activities: an item found only through its activity's
    /// text is one result, counted once with the item that matches itself.
    func testASuggestionCountsAnItemFoundOnlyThroughItsActivity() async throws {
        let fixture = ActivityFixture()
        try await fixture.index.indexSearchableItems([makeItem("soup", title: "Winter soup"),
                                                      makeItem("salad", title: "Tomato salad")])
        try await fixture.linkedActivity(title: "Tomato soup recipe", to: "soup").becomeCurrentAndWait()
        try await fixture.linkedActivity(title: "Tomato salad recipe", to: "salad").becomeCurrentAndWait()
        let (suggestion, found) = try chooseFirstSuggestion(of: "toma", expecting: "tomato", in: fixture.container)
        XCTAssertEqual(found.count, 2, "the soup through its activity, and the salad")
        XCTAssertEqual(suggestion.resultCount, 2)
        let filtered = runUserQuery("soup toma", in: fixture.container, suggestions: true)
        XCTAssertEqual(filtered.suggestions.first?.resultCount, 1, "the soup, through its activity")
    }

    /// The first suggestion for `text` (which must be `expected`) and what choosing it finds: the query run with
    /// that suggestion as the context's current one, as a search field does when a person picks it.
    private func chooseFirstSuggestion(of text: String, expecting expected: String, in container: SearchlightContainer,
                                       file: StaticString = #filePath, line: UInt = #line)
        throws -> (suggestion: CSSuggestion, found: [CSSearchableItem]) {
        let run = runUserQuery(text, in: container, suggestions: true)
        let suggestion = try XCTUnwrap(run.suggestions.first, file: file, line: line)
        XCTAssertEqual(suggestion.suggestionText, expected, file: file, line: line)
        let chosen = runQuery(CSUserQuery(userQueryString: suggestion.suggestionText,
                                          userQueryContext: CSUserQueryContext(currentSuggestion: suggestion),
                                          container: container))
        XCTAssertNil(chosen.error, file: file, line: line)
        return (suggestion, chosen.batches.flatMap { $0 })
    }
}
#endif
