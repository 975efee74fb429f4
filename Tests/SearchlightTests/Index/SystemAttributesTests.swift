import Foundation
import Synchronization
import XCTest
@testable import Searchlight

final class SystemAttributesTests: XCTestCase {
    final class Listener: CSIndexExtensionRequestHandler, @unchecked Sendable {
        let updated = Mutex<[CSSearchableItem]>([])
        let expectation: XCTestExpectation
        init(_ expectation: XCTestExpectation) {
            self.expectation = expectation
            super.init()
        }
        override func searchableItemsDidUpdate(_ items: [CSSearchableItem]) {
            updated.withLock { $0 += items }
            expectation.fulfill()
        }
    }

    static let body = String(repeating: "The quarterly numbers are in and the board wants a review. ", count: 4)
        + "Please send the deck by Friday. Everything else can wait until next week."

    func mail(_ id: String, subject: String, options: CSSearchableItem.UpdateListenerOptions) -> CSSearchableItem {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.email-message")
        set.subject = subject
        set.textContent = Self.body
        let item = CSSearchableItem(uniqueIdentifier: id, domainIdentifier: "mail", attributeSet: set)
        item.updateListenerOptions = options
        return item
    }

    func testOptedInItemsGetASummaryAndPriorityAndTheDelegateHears() async throws {
        let index = makeIndex()
        let heard = expectation(description: "searchableItemsDidUpdate")
        let listener = Listener(heard)
        index.indexDelegate = listener
        try await index.indexSearchableItems([
            mail("urgent", subject: "URGENT: board deck", options: [.summarization, .priority]),
            mail("plain", subject: "Lunch?", options: []),
        ])
        await fulfillment(of: [heard], timeout: 10)
        let updated = listener.updated.withLock { $0 }
        XCTAssertEqual(updated.map(\.uniqueIdentifier), ["urgent"], "only items that opted in")
        let stored = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["urgent"]).first)
        let summary = try XCTUnwrap(stored.attributeSet.textContentSummary)
        XCTAssertTrue(summary.hasPrefix("The quarterly numbers are in"), summary)
        XCTAssertLessThanOrEqual(summary.count, 200)
        XCTAssertTrue(summary.hasSuffix("."), "cut at a sentence: \(summary)")
        XCTAssertEqual(stored.attributeSet.isPriority, 1)
        XCTAssertEqual(stored.attributeSet.subject, "URGENT: board deck", "the update merges, keeping the rest")
        XCTAssertNil(index.fetchSearchableItems(withIdentifiers: ["plain"]).first?.attributeSet.textContentSummary)
    }

    /// The attributes are made from the version a write stores, in that write: a version replaced before its
    /// completion ran must not leave its summary and priority on the replacement, which did not opt in.
    func testAReplacedVersionsAttributesDoNotLandOnTheNewOne() async throws {
        let index = makeIndex()
        let first = mail("m", subject: "URGENT: board deck", options: [.summarization, .priority])
        let second = mail("m", subject: "Lunch?", options: [])
        second.attributeSet.textContent = "Shall we get lunch on Friday?"
        index.indexSearchableItems([first], completionHandler: nil)
        try await index.indexSearchableItems([second])
        // Whatever the first write's completion set off has been applied too.
        for _ in 0..<2 {
            await withCheckedContinuation { done in index.container.afterPendingWrites { done.resume() } }
        }
        let stored = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["m"]).first)
        XCTAssertEqual(stored.attributeSet.subject, "Lunch?")
        XCTAssertNil(stored.attributeSet.textContentSummary, "the replaced version's summary")
        XCTAssertNil(stored.attributeSet.isPriority, "the replaced version's priority")
        // And an item that opts in has them as soon as its write is acknowledged.
        try await index.indexSearchableItems([mail("n", subject: "ASAP please", options: [.priority])])
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: ["n"]).first?.attributeSet.isPriority, 1)
    }

    /// A summary describes the text it was made from: an update that shortens or clears that text (or changes the
    /// type to one not summarized) removes it instead of leaving the old text's summary on the item.
    func testAnUpdateThatNoLongerQualifiesRemovesTheOldSummary() async throws {
        let index = makeIndex()
        try await index.indexSearchableItems([mail("m", subject: "Report", options: [.summarization])])
        XCTAssertNotNil(index.fetchSearchableItems(withIdentifiers: ["m"]).first?.attributeSet.textContentSummary)
        let update = CSSearchableItem(uniqueIdentifier: "m", domainIdentifier: nil,
                                      attributeSet: CSSearchableItemAttributeSet())
        update.attributeSet.textContent = "Never mind, all sorted."
        update.isUpdate = true
        try await index.indexSearchableItems([update])
        let stored = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["m"]).first)
        XCTAssertEqual(stored.attributeSet.textContent, "Never mind, all sorted.")
        XCTAssertNil(stored.attributeSet.textContentSummary, "the summary of text the item no longer has")
        XCTAssertEqual(stored.attributeSet.subject, "Report")
    }

    func testNoSummaryForShortOrNonMessageContent() {
        let short = mail("s", subject: "hi", options: [.summarization])
        short.attributeSet.textContent = "Too short to summarize."
        XCTAssertNil(SystemAttributes.update(for: short))
        let document = mail("d", subject: "doc", options: [.summarization])
        document.attributeSet.contentType = "com.adobe.pdf"
        XCTAssertNil(SystemAttributes.update(for: document))
        let calm = mail("c", subject: "Lunch?", options: [.priority])
        let update = SystemAttributes.update(for: calm)
        XCTAssertEqual(update?.attributeSet.isPriority, 0)
        XCTAssertEqual(update?.isUpdate, true)
    }
}
