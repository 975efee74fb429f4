import Foundation
import XCTest
@testable import Searchlight

final class BatchTests: XCTestCase {
    func testABatchBecomesVisibleAtOnceWithItsClientState() async throws {
        let index = makeIndex()
        index.beginBatch()
        try await index.indexSearchableItems([makeItem("1", title: "a")])
        try await index.indexSearchableItems([makeItem("2", title: "b")])
        try await index.deleteSearchableItems(withIdentifiers: ["1"])
        XCTAssertEqual(index.itemCount(), 0, "nothing of an open batch is visible")
        try await index.endBatch(withClientState: Data("checkpoint-1".utf8))
        XCTAssertEqual(index.allIdentifiers, ["2"])
        let state = try await index.fetchLastClientState()
        XCTAssertEqual(String(decoding: state, as: UTF8.self), "checkpoint-1")
    }

    func testClientStateIsPerIndexName() async throws {
        let container = SearchlightContainer()
        let a = CSSearchableIndex(name: "a", container: container)
        let b = CSSearchableIndex(name: "b", container: container)
        a.beginBatch()
        try await a.endBatch(withClientState: Data([1]))
        let stateOfB = try await b.fetchLastClientState()
        let stateOfA = try await a.fetchLastClientState()
        XCTAssertEqual(stateOfB, Data())
        XCTAssertEqual(stateOfA, Data([1]))
        let handlerState: Data?? = await withCheckedContinuation { continuation in
            b.fetchLastClientState { state, _ in continuation.resume(returning: state) }
        }
        XCTAssertEqual(handlerState, .some(nil), "the completion-handler form reports nil when nothing is stored")
    }

    func testCompareAndSwapAppliesOnlyOnTheExpectedState() async throws {
        let index = makeIndex()
        index.beginBatch()
        try await index.indexSearchableItems([makeItem("1", title: "a")])
        try await index.endIndexBatch(expectedClientState: nil, newClientState: Data([1]))
        index.beginBatch()
        try await index.indexSearchableItems([makeItem("2", title: "b")])
        do {
            try await index.endIndexBatch(expectedClientState: Data([9]), newClientState: Data([2]))
            XCTFail("expected mismatchedClientState")
        } catch {
            XCTAssertEqual(indexErrorCode(error), .mismatchedClientState)
        }
        XCTAssertEqual(index.allIdentifiers, ["1"], "a mismatched batch applies nothing")
        let state = try await index.fetchLastClientState()
        XCTAssertEqual(state, Data([1]))
        index.beginBatch()
        try await index.indexSearchableItems([makeItem("3", title: "c")])
        try await index.endIndexBatch(expectedClientState: Data([1]), newClientState: Data([3]))
        XCTAssertEqual(index.allIdentifiers, ["1", "3"])
    }

    /// The async `fetchLastClientState()` reports "nothing stored" as empty data (its result is not optional):
    /// handing that back as the expected state must match, as it must after a delete-all cleared the states.
    func testTheFetchedStateOfAFreshIndexIsTheExpectedState() async throws {
        let index = makeIndex()
        let fresh = try await index.fetchLastClientState()
        index.beginBatch()
        try await index.indexSearchableItems([makeItem("1", title: "a")])
        try await index.endIndexBatch(expectedClientState: fresh, newClientState: Data([1]))
        let stored = try await index.fetchLastClientState()
        XCTAssertEqual(stored, Data([1]))
        try await index.deleteAllSearchableItems()
        let cleared = try await index.fetchLastClientState()
        index.beginBatch()
        try await index.indexSearchableItems([makeItem("2", title: "b")])
        try await index.endIndexBatch(expectedClientState: cleared, newClientState: Data([2]))
        XCTAssertEqual(index.allIdentifiers, ["2"])
        // Nothing stored still differs from a state that is not empty.
        try await index.deleteAllSearchableItems()
        index.beginBatch()
        try await index.indexSearchableItems([makeItem("3", title: "c")])
        do {
            try await index.endIndexBatch(expectedClientState: Data([2]), newClientState: Data([3]))
            XCTFail("expected mismatchedClientState")
        } catch {
            XCTAssertEqual(indexErrorCode(error), .mismatchedClientState)
        }
        XCTAssertEqual(index.itemCount(), 0)
    }

    /// An index whose handler form reports an error reading the client state (a subclass, as a test double is).
    final class FailingStateIndex: CSSearchableIndex, @unchecked Sendable {
        override func fetchLastClientState(completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void) {
            completionHandler(nil, CSIndexError.indexUnavailable("the store is offline"))
        }
    }

    /// The `async` `fetchLastClientState()` throws the error its handler form delivers: it returned empty data, as
    /// for an index with no state yet, so a caller resumed from scratch instead of seeing the failure.
    func testAsyncFetchOfClientStateThrowsTheHandlersError() async throws {
        let index = FailingStateIndex(name: "failing", container: SearchlightContainer())
        do {
            let state = try await index.fetchLastClientState()
            XCTFail("expected an error, got \(state.count) bytes")
        } catch let error as CSIndexError {
            XCTAssertEqual(error.code, .indexUnavailableError)
        }
    }

    func testOversizedClientStateFailsTheBatch() async throws {
        let index = makeIndex()
        index.beginBatch()
        try await index.indexSearchableItems([makeItem("1", title: "a")])
        do {
            try await index.endBatch(withClientState: Data(repeating: 7, count: 251))
            XCTFail("expected invalidClientStateError")
        } catch let error as CSIndexError {
            XCTAssertEqual(error.code, .invalidClientStateError)
            XCTAssertTrue(error.message.contains("251"), error.message)
        }
        XCTAssertEqual(index.itemCount(), 0)
        index.beginBatch()
        try await index.endBatch(withClientState: Data(repeating: 7, count: 250))
        let state = try await index.fetchLastClientState()
        XCTAssertEqual(state.count, 250, "250 bytes is within the limit")
    }

    func testEndWithoutBeginIsAClearError() async throws {
        let index = makeIndex()
        do {
            try await index.endBatch(withClientState: Data())
            XCTFail("expected an error")
        } catch let error as CSIndexError {
            XCTAssertTrue(error.message.contains("without a matching beginBatch"), error.message)
        }
    }

    func testNestedBeginIsReportedAndDiscardsTheBatch() async throws {
        let index = makeIndex()
        index.beginBatch()
        try await index.indexSearchableItems([makeItem("1", title: "a")])
        index.beginBatch()
        do {
            try await index.endBatch(withClientState: Data([1]))
            XCTFail("expected an error")
        } catch let error as CSIndexError {
            XCTAssertTrue(error.message.contains("nested"), error.message)
        }
        XCTAssertEqual(index.itemCount(), 0)
        // The index works normally afterwards.
        index.beginBatch()
        try await index.indexSearchableItems([makeItem("2", title: "b")])
        try await index.endBatch(withClientState: Data([2]))
        XCTAssertEqual(index.allIdentifiers, ["2"])
    }

    func testTheDefaultIndexRefusesBatches() async throws {
        final class DefaultOnly: CSSearchableIndex, @unchecked Sendable {}
        let index = DefaultOnly.default()
        XCTAssertTrue(index === DefaultOnly.default())
        index.beginBatch()
        do {
            try await index.indexSearchableItems([makeItem("batched-on-default", title: "x")])
            XCTFail("expected indexingUnsupported")
        } catch {
            XCTAssertEqual(indexErrorCode(error), .indexingUnsupported)
        }
        do {
            try await index.endBatch(withClientState: Data())
            XCTFail("expected indexingUnsupported")
        } catch {
            XCTAssertEqual(indexErrorCode(error), .indexingUnsupported)
        }
        XCTAssertTrue(index.fetchSearchableItems(withIdentifiers: ["batched-on-default"]).isEmpty)
    }

    func testDeleteAllInsideABatchClearsStatesBeforeTheNewOne() async throws {
        let index = makeIndex()
        index.beginBatch()
        try await index.indexSearchableItems([makeItem("1", title: "a")])
        try await index.endBatch(withClientState: Data([1]))
        index.beginBatch()
        try await index.deleteAllSearchableItems()
        try await index.indexSearchableItems([makeItem("2", title: "b")])
        try await index.endBatch(withClientState: Data([2]))
        XCTAssertEqual(index.allIdentifiers, ["2"])
        let state = try await index.fetchLastClientState()
        XCTAssertEqual(state, Data([2]))
    }

    /// A batch deleting many domains of items it indexed tests each item's domain once (a lookup per dotted
    /// ancestor), in the writer and in the batch's pending items, not against every deleted domain: 20,000 of
    /// 40,000 domains took minutes that way.
    func testDeletingManyDomainsInABatchIsLinear() async throws {
        let count = 40_000
        let index = makeIndex()
        let start = Date()
        index.beginBatch()
        try await index.indexSearchableItems((0..<count).map { makeItem("i\($0)", title: "t", domain: "d\($0).sub") })
        try await index.deleteSearchableItems(withDomainIdentifiers: (0..<count).filter { $0 % 2 == 0 }.map { "d\($0)" })
        try await index.endBatch(withClientState: Data([1]))
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(index.itemCount(), count / 2)
        XCTAssertEqual(index.identifiers(inDomain: "d1.sub"), ["i1"])
        XCTAssertEqual(index.identifiers(inDomain: "d2.sub"), [])
        XCTAssertLessThan(seconds, 20, "deleting \(count / 2) domains in a batch took \(seconds) s")
    }
}
