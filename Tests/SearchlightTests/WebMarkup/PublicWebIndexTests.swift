import Foundation
import XCTest
@testable import Searchlight

/// Pages land in their own container; app items win over pages with the same identifier; engagement counts.
final class PublicWebIndexTests: XCTestCase {
    private func page(_ name: String, _ url: String) throws -> WebPage {
        WebPage(data: try webFixture(name), url: URL(string: url)!)
    }

    func testIndexPagesIntoAPublicContainer() async throws {
        let publicContainer = SearchlightContainer()
        let appContainer = SearchlightContainer()
        let index = CSSearchableIndex(name: "web", container: publicContainer)
        let report = try await WebMarkupIndexer().index(pages: [
            try page("product.html", "https://www.summit-outfitters.example/boots/trailblazer-2"),
            try page("recipe.html", "https://greenkitchen.example/recipes/pesto"),
            WebPage(data: Data(), url: URL(string: "https://empty.example.com/")!),
            WebPage(data: Data("<p>x".utf8), url: URL(string: "mailto:someone@example.com")!),
            try page("event.html", "https://concerts.example.org/2026/strings"),
        ], into: index)
        XCTAssertEqual(report.indexedIdentifiers, ["https://www.summit-outfitters.example/boots/trailblazer-2",
                                                   "https://greenkitchen.example/recipes/pesto",
                                                   "https://concerts.example.org/2026/strings"])
        XCTAssertEqual(report.failures.map(\.code), [.emptyPage, .invalidPageURL])
        XCTAssertEqual(report.failures.first?.page, "https://empty.example.com/")
        XCTAssertEqual(index.itemCount(), 3)
        XCTAssertEqual(index.identifiers(inDomain: "greenkitchen.example"), ["https://greenkitchen.example/recipes/pesto"])

        // The stored item keeps what the mapping set, custom keys included.
        let stored = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["https://greenkitchen.example/recipes/pesto"]).first)
        XCTAssertEqual(stored.attributeSet.title, "Grandma's Basil Pesto")
        XCTAssertEqual(stored.attributeSet.value(forCustomKey: WebMarkupAttributeKeys.recipeYield) as Any? as? String, "4 servings")
        XCTAssertEqual(stored.attributeSet.duration?.doubleValue, 4200)

        // Nothing leaked into another container.
        XCTAssertEqual(CSSearchableIndex(name: "app", container: appContainer).itemCount(), 0)
    }

    /// A page whose robots meta (or Applebot's, which Apple's crawler honours) says `noindex` was indexed into the
    /// public index: it is skipped with `noIndex`, as unreadable pages are, in any case and among other tokens.
    func testNoIndexPagesAreSkipped() throws {
        func page(_ meta: String, _ path: String) -> WebPage {
            WebPage(data: Data("<title>T</title>\(meta)<p>Hello</p>".utf8), url: URL(string: "https://www.example.com/\(path)")!)
        }
        let (items, failures) = WebMarkupIndexer().items(fromPages: [
            page(#"<meta name="robots" content="noindex">"#, "a"),
            page(#"<META NAME="Robots" CONTENT="NoIndex, Follow">"#, "b"),
            page(#"<meta name="applebot" content="nofollow,noindex">"#, "c"),
            page(#"<meta name="robots" content="none">"#, "d"),
            page(#"<meta name="robots" content="index, follow"><meta name="googlebot" content="noindex">"#, "e"),
            page(#"<meta name="description" content="noindex">"#, "f"),
        ])
        XCTAssertEqual(items.map(\.uniqueIdentifier), ["https://www.example.com/e", "https://www.example.com/f"])
        XCTAssertEqual(failures.map(\.code), [.noIndex, .noIndex, .noIndex, .noIndex])
        XCTAssertEqual(failures.map(\.page), ["a", "b", "c", "d"].map { "https://www.example.com/\($0)" })
        let applebot = failures.dropFirst(2).first?.description ?? ""
        XCTAssertTrue(applebot.contains("applebot"), applebot)
        let extraction = try extractHTML(#"<meta name="robots" content="noindex">"#)
        XCTAssertTrue(extraction.noIndex, "the extraction says so; `item(from:)` still maps it for a caller that asks")
    }

    func testReindexingAPageReplacesIt() async throws {
        let index = CSSearchableIndex(name: "web", container: SearchlightContainer())
        let url = URL(string: "https://www.example.com/a")!
        _ = try await WebMarkupIndexer().index(pages: [WebPage(data: Data("<title>old</title>".utf8), url: url)], into: index)
        let report = try await WebMarkupIndexer().index(pages: [
            WebPage(data: Data("<title>newer</title>".utf8), url: url),
            WebPage(data: Data("<title>newest</title>".utf8), url: url),
        ], into: index)
        XCTAssertEqual(report.indexedIdentifiers, ["https://www.example.com/a"])
        XCTAssertEqual(index.itemCount(), 1)
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: ["https://www.example.com/a"]).first?.attributeSet.title, "newest")
    }

    func testPublicIndexUsesItsOwnProcessWideContainer() {
        XCTAssertTrue(CSSearchableIndex.publicIndex() === CSSearchableIndex.publicIndex())
        XCTAssertTrue(CSSearchableIndex.publicIndex().container === SearchlightContainer.publicWeb)
        XCTAssertFalse(SearchlightContainer.publicWeb === SearchlightContainer.default)
        XCTAssertFalse(CSSearchableIndex.default().container === SearchlightContainer.publicWeb)
    }

    func testIndexingDefaultsToThePublicWebContainer() async throws {
        let url = "https://default-target.example.com/\(UUID().uuidString)"
        let report = try await WebMarkupIndexer().index(pages: [WebPage(data: Data("<title>public</title>".utf8),
                                                                        url: URL(string: url)!)])
        XCTAssertEqual(report.indexedIdentifiers, [url])
        XCTAssertEqual(WebResultMerger.resolve(identifier: url)?.item.attributeSet.title, "public")
        XCTAssertEqual(WebResultMerger.resolve(identifier: url)?.isFromApp, false)
        XCTAssertTrue(CSSearchableIndex.default().fetchSearchableItems(withIdentifiers: [url]).isEmpty,
                      "nothing lands in the app's container")
        try await CSSearchableIndex.publicIndex().deleteSearchableItems(withIdentifiers: [url])
        XCTAssertNil(WebResultMerger.resolve(identifier: url))
    }

    func testAppItemsWinOverPagesWithTheSameIdentifier() async throws {
        let appContainer = SearchlightContainer(), publicContainer = SearchlightContainer()
        let appIndex = CSSearchableIndex(name: "app", container: appContainer)
        let webIndex = CSSearchableIndex(name: "web", container: publicContainer)
        let shared = "https://greenkitchen.example/recipes/pesto"
        let appSet = CSSearchableItemAttributeSet(contentType: .text)
        appSet.title = "Pesto (from the app)"
        try await appIndex.indexSearchableItems([CSSearchableItem(uniqueIdentifier: shared, domainIdentifier: "recipes",
                                                                  attributeSet: appSet)])
        _ = try await WebMarkupIndexer().index(pages: [
            try page("recipe.html", shared),
            try page("event.html", "https://concerts.example.org/2026/strings"),
        ], into: webIndex)

        // resolve: the app's copy for a shared identifier, the web's otherwise, nil for unknown ones.
        let resolved = try XCTUnwrap(WebResultMerger.resolve(identifier: shared, appContainer: appContainer,
                                                             publicContainer: publicContainer))
        XCTAssertTrue(resolved.isFromApp)
        XCTAssertEqual(resolved.item.attributeSet.title, "Pesto (from the app)")
        let web = try XCTUnwrap(WebResultMerger.resolve(identifier: "https://concerts.example.org/2026/strings",
                                                        appContainer: appContainer, publicContainer: publicContainer))
        XCTAssertFalse(web.isFromApp)
        XCTAssertNil(WebResultMerger.resolve(identifier: "https://nowhere.example/", appContainer: appContainer,
                                             publicContainer: publicContainer))

        // merge: a public result whose identifier the app holds is dropped even if the app query did not return it.
        let publicResults = webIndex.fetchSearchableItems(withIdentifiers: [shared, "https://concerts.example.org/2026/strings"])
        XCTAssertEqual(publicResults.count, 2)
        let merged = WebResultMerger.merge(appResults: [], publicResults: publicResults, appContainer: appContainer)
        XCTAssertEqual(merged.map(\.uniqueIdentifier), ["https://concerts.example.org/2026/strings"])
        let appResults = appIndex.fetchSearchableItems(withIdentifiers: [shared])
        let both = WebResultMerger.merge(appResults: appResults, publicResults: publicResults, appContainer: appContainer)
        XCTAssertEqual(both.map(\.attributeSet.title), ["Pesto (from the app)", "Night of Strings 2026"])
    }

    func testMergeOrdersByRankStably() {
        func item(_ id: String, rank: Double) -> CSSearchableItem {
            let item = CSSearchableItem(uniqueIdentifier: id, domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet())
            item.rank = rank
            return item
        }
        let merged = WebResultMerger.merge(appResults: [item("a1", rank: 2), item("a2", rank: 1)],
                                           publicResults: [item("w1", rank: 3), item("w2", rank: 1), item("a1", rank: 9)],
                                           appContainer: SearchlightContainer())
        XCTAssertEqual(merged.map(\.uniqueIdentifier), ["w1", "a1", "a2", "w2"])
    }

    func testOpeningAPublicResultLiftsItInRankingAndTheLiftDecays() async throws {
        let clock = TestClock()
        let container = SearchlightContainer(clock: clock.function)
        let index = CSSearchableIndex(name: "web", container: container)
        func page(_ id: String) -> CSSearchableItem {
            makeItem("https://example.com/\(id)", title: "Trail running shoes", description: "shoes for trails")
        }
        try await index.indexSearchableItems([page("a"), page("b")])
        func ranked() -> [String] {
            return runUserQuery("trail shoes", in: container).items.sorted { $0.compare(byRank: $1) == .orderedAscending }.map(\.uniqueIdentifier)
        }
        XCTAssertEqual(Set(ranked()), ["https://example.com/a", "https://example.com/b"])
        let engagement = WebEngagement(container: container)
        XCTAssertEqual(engagement.boost(for: "https://example.com/b"), 1, "no engagement, no lift")
        for _ in 0..<5 { engagement.recordOpen(identifier: "https://example.com/b") }
        XCTAssertEqual(engagement.score(for: "https://example.com/b"), 5, accuracy: 1e-9)
        XCTAssertGreaterThan(engagement.boost(for: "https://example.com/b"), 1)
        XCTAssertEqual(ranked().first, "https://example.com/b", "the page people open rises")
        clock.advance(by: 14 * 86_400)
        XCTAssertEqual(engagement.score(for: "https://example.com/b"), 2.5, accuracy: 1e-6, "one half-life later")
        clock.advance(by: 300 * 86_400)
        XCTAssertEqual(engagement.boost(for: "https://example.com/b"), 1, "and is forgotten")
    }

    func testEngagementIsThreadSafe() {
        let engagement = WebEngagement(container: SearchlightContainer())
        let date = Date(timeIntervalSinceReferenceDate: 1_000)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in 0..<500 { engagement.recordOpen(identifier: "id\(i % 10)", at: date) }
        }
        let total = (0..<10).map { engagement.score(for: "id\($0)", at: date) }.reduce(0, +)
        XCTAssertEqual(total, 4_000, accuracy: 1e-6)
    }
}
