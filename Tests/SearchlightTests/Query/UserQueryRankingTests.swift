import Foundation
import Synchronization
import XCTest
@testable import Searchlight

/// Runs a user query to completion; returns the items in delivery order, the suggestions and the error.
func runUserQuery(_ text: String, in container: SearchlightContainer,
                  configure: (CSUserQueryContext) -> Void = { $0.enableRankedResults = true },
                  suggestions: Bool = false) -> (items: [CSSearchableItem], suggestions: [CSSuggestion], error: (any Error)?, query: CSUserQuery) {
    let context = CSUserQueryContext()
    configure(context)
    let query = CSUserQuery(userQueryString: text, userQueryContext: context, container: container)
    let box = Mutex<(items: [CSSearchableItem], suggestions: [CSSuggestion], error: (any Error)?)>(([], [], nil))
    if suggestions {
        query.foundSuggestionsHandler = { list in box.withLock { $0.suggestions += list } }
    }
    let done = DispatchSemaphore(value: 0)
    query.foundItemsHandler = { items in box.withLock { $0.items += items } }
    query.completionHandler = { error in
        box.withLock { $0.error = error }
        done.signal()
    }
    query.start()
    done.wait()
    let result = box.withLock { $0 }
    return (result.items, result.suggestions, result.error, query)
}

/// Natural queries over real Debian package descriptions must find the obvious answer.
final class UserQueryRankingTests: XCTestCase {
    static let container: SearchlightContainer = {
        let url = fixturesDirectory.appendingPathComponent("debian-en-ranking.jsonl")
        let items = (try? ItemFileReader.readItems(from: url).items) ?? []
        XCTAssertGreaterThan(items.count, 1_600)
        return makeContainer(items)
    }()

    func top(_ text: String, _ count: Int = 10) -> [String] {
        let run = runUserQuery(text, in: Self.container) { $0.enableRankedResults = true; $0.maxResultCount = count }
        XCTAssertNil(run.error)
        return run.items.map(\.uniqueIdentifier)
    }

    func testWebServer() {
        let ids = top("web server")
        XCTAssertTrue(ids.contains("deb:nginx"), "\(ids)")
        XCTAssertTrue(ids.contains("deb:apache2"), "\(ids)")
    }

    func testPDFViewer() {
        let ids = top("pdf viewer")
        XCTAssertTrue(ids.contains("deb:evince") || ids.contains("deb:okular"), "\(ids)")
    }

    func testPrefixWhileTyping() {
        let ids = top("thunderb", 3)
        XCTAssertEqual(ids.first, "deb:thunderbird", "\(ids)")
    }

    func testTypo() {
        let ids = top("wireshrak", 5)
        XCTAssertTrue(ids.prefix(2).contains("deb:wireshark"), "\(ids)")
    }

    func testMoreNaturalQueries() {
        XCTAssertTrue(top("mail client").contains("deb:thunderbird"), "\(top("mail client"))")
        XCTAssertTrue(top("network traffic analyzer", 5).contains("deb:wireshark"))
        XCTAssertTrue(top("firefox", 3).contains("deb:firefox-esr"))
    }
}
