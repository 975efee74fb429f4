import Foundation
import XCTest
import Searchlight

/// The porting example of README.md, as printed there, must compile and find what it indexed.
final class ReadmeExampleTests: XCTestCase {
    func testThePortingExampleWorks() async throws {
        let indexed = expectation(description: "indexed")
        // --- from README.md ---
        let attributeSet = CSSearchableItemAttributeSet(itemContentType: kUTTypeImage as String)
        attributeSet.title = "Becky"
        attributeSet.contentDescription = "This is an entry all about the interesting person called Becky"
        let item = CSSearchableItem(uniqueIdentifier: "1",
                                    domainIdentifier: "com.ios9daybyday.SearchAPIs.people",
                                    attributeSet: attributeSet)
        CSSearchableIndex.default().indexSearchableItems([item]) { error in
            if let error { print("indexing failed: \(error.localizedDescription)") }
            indexed.fulfill()
        }
        // --- end ---
        await fulfillment(of: [indexed], timeout: 10)

        let found = expectation(description: "query done")
        let titles = TitleCollector()
        // --- from README.md ---
        let context = CSSearchQueryContext()
        context.fetchAttributes = ["title", "contentDescription"]
        let query = CSSearchQuery(queryString: #"title == "B*"cd"#, queryContext: context)
        query.foundItemsHandler = { items in items.forEach { titles.add($0.attributeSet.title ?? "") } }
        query.completionHandler = { error in found.fulfill() }
        query.start()
        // --- end ---
        await fulfillment(of: [found], timeout: 10)
        XCTAssertTrue(titles.all.contains("Becky"), "\(titles.all)")

        var ranked: [String] = []
        // --- from README.md ---
        let userContext = CSUserQueryContext()
        userContext.fetchAttributes = ["title"]  // results carry only fetched attributes, as on Apple platforms
        for try await response in CSUserQuery(userQueryString: "becki", userQueryContext: userContext).responses {
            if case .item(let result) = response { ranked.append(result.item.attributeSet.title ?? "") }
        }
        // --- end ---
        XCTAssertTrue(ranked.contains("Becky"), "a typo still finds her: \(ranked)")
        try await CSSearchableIndex.default().deleteSearchableItems(withIdentifiers: ["1"])
    }
}

/// Collects titles from a handler that may run on another thread.
final class TitleCollector: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `titles` is only touched while `lock` is held.
    private let lock = NSLock()
    private var titles: [String] = []
    func add(_ title: String) { lock.withLock { titles.append(title) } }
    var all: [String] { lock.withLock { titles } }
}
