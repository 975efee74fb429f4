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

    /// Index names are compared as Core Spotlight's NSStrings are, by their code units: "café" with a precomposed
    /// é and "cafe\u{301}" are two indexes with two client states. `String ==` took them for one: the second's state
    /// replaced the first's, and an expected-state batch of one passed against the other's state.
    func testCanonicallyEquivalentIndexNamesKeepSeparateClientStates() {
        XCTAssertEqual(Self.composed, Self.decomposed, "the two spellings are canonically equivalent")
        let container = SearchlightContainer()
        Self.storeSeparateStates(in: container)
        Self.checkSeparateStates(in: container, "in memory")
    }

    /// The two spellings' states survive a reopen, from a snapshot (`close()`) and from the journal (a crash).
    func testCanonicallyEquivalentIndexNamesKeepSeparateClientStatesAcrossAReopen() throws {
        for crash in [false, true] {
            let label = crash ? "replayed from the journal" : "loaded from a snapshot"
            let url = makeStoreURL(self)
            let container = try SearchlightContainer(directory: url)
            Self.storeSeparateStates(in: container)
            if crash { container.closeWithoutCheckpoint() } else { container.close() }
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
            XCTAssertEqual(names.contains("snapshot.sls"), !crash, "\(label): \(names)")
            let reopened = try SearchlightContainer(directory: url)
            Self.checkSeparateStates(in: reopened, label)
            // A checkpoint of the reopened store keeps both too.
            reopened.close()
            let again = try SearchlightContainer(directory: url)
            Self.checkSeparateStates(in: again, "\(label), checkpointed again")
            again.close()
        }
    }

    /// The engagement ledger's reserved client-state name is still refused to an index (its check compares the
    /// name's bytes now, as the table does).
    func testTheReservedEngagementNameIsStillRefused() throws {
        let url = makeStoreURL(self)
        let container = try SearchlightContainer(directory: url)
        let reserved = CSSearchableIndex(name: EngagementLedger.clientStateName, container: container)
        let error = reserved.batch("s") { $0.indexSearchableItems([makeItem("a", title: "A")]) }
        XCTAssertEqual(indexErrorCode(error), .invalidClientStateError)
        XCTAssertEqual(reserved.allIdentifiers, [])
        Self.storeSeparateStates(in: container)
        container.close()
        let reopened = try SearchlightContainer(directory: url)
        Self.checkSeparateStates(in: reopened, "beside the ledger's state")
        let again = CSSearchableIndex(name: EngagementLedger.clientStateName, container: reopened)
        XCTAssertEqual(indexErrorCode(again.batch("s") { _ in }), .invalidClientStateError)
        reopened.close()
    }

    private static let composed = "caf\u{E9}"
    private static let decomposed = "cafe\u{301}"

    /// Stores [1] for the composed name, then [2] for the decomposed one, checking each expected state against its
    /// own index's state.
    private static func storeSeparateStates(in container: SearchlightContainer) {
        let composed = CSSearchableIndex(name: Self.composed, container: container)
        let decomposed = CSSearchableIndex(name: Self.decomposed, container: container)
        XCTAssertNil(composed.batch("\u{1}") { $0.indexSearchableItems([makeItem("c", title: "C")]) })
        XCTAssertEqual(composed.lastClientState, Data([1]))
        XCTAssertEqual(decomposed.lastClientState, nil, "the other spelling has no state yet")
        decomposed.beginBatch()
        let mismatched = decomposed.completion {
            decomposed.endIndexBatch(expectedClientState: Data([1]), newClientState: Data([9]), completionHandler: $0)
        }
        XCTAssertEqual(indexErrorCode(mismatched), .mismatchedClientState, "compared with the other index's state")
        decomposed.beginBatch()
        let matched = decomposed.completion {
            decomposed.endIndexBatch(expectedClientState: nil, newClientState: Data([2]), completionHandler: $0)
        }
        XCTAssertNil(matched)
        XCTAssertEqual(composed.lastClientState, Data([1]))
        XCTAssertEqual(decomposed.lastClientState, Data([2]))
    }

    private static func checkSeparateStates(in container: SearchlightContainer, _ label: String) {
        let composed = CSSearchableIndex(name: Self.composed, container: container)
        let decomposed = CSSearchableIndex(name: Self.decomposed, container: container)
        XCTAssertEqual(composed.lastClientState, Data([1]), label)
        XCTAssertEqual(decomposed.lastClientState, Data([2]), label)
        composed.beginBatch()
        let mismatched = composed.completion {
            composed.endIndexBatch(expectedClientState: Data([2]), newClientState: Data([9]), completionHandler: $0)
        }
        XCTAssertEqual(indexErrorCode(mismatched), .mismatchedClientState, label)
        composed.beginBatch()
        let matched = composed.completion {
            composed.endIndexBatch(expectedClientState: Data([1]), newClientState: Data([1]), completionHandler: $0)
        }
        XCTAssertNil(matched, label)
        XCTAssertEqual(decomposed.lastClientState, Data([2]), label)
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
    /// 40,000 domains took minutes that way. The bound is a generous one (8 s in a debug build here with the machine
    /// shared, 29 s under ThreadSanitizer): it catches the quadratic walk, not a slow machine.
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
        XCTAssertLessThan(seconds, 60, "deleting \(count / 2) domains in a batch took \(seconds) s")
    }

    /// A batch deleting its domains one call at a time (an app looping over its accounts) costs what one call
    /// deleting them all does: each call's delete scanned every item written so far in the round, pending and in
    /// the writer, so 2,000 one-domain calls over 4,000 items took a minute.
    func testDeletingDomainsOneCallAtATimeInABatchIsLinear() async throws {
        let count = 4_000
        let index = makeIndex()
        let start = Date()
        index.beginBatch()
        try await index.indexSearchableItems((0..<count).map { makeItem("i\($0)", title: "t", domain: "d\($0).sub") })
        for domain in stride(from: 0, to: count, by: 2) {
            index.deleteSearchableItems(withDomainIdentifiers: ["d\(domain)"], completionHandler: nil)
        }
        try await index.endBatch(withClientState: Data([1]))
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(index.itemCount(), count / 2)
        XCTAssertEqual(index.identifiers(inDomain: "d1"), ["i1"])
        XCTAssertEqual(index.identifiers(inDomain: "d2"), [])
        XCTAssertLessThan(seconds, 10, "deleting \(count / 2) domains one call at a time took \(seconds) s")
    }

    /// A batch alternating "index an item, delete a domain" costs each delete what it deletes: every delete scanned
    /// every item written so far in the round, pending and in the writer (the coalescing of consecutive deletes
    /// does not apply), so 4,000 such pairs took half a minute.
    func testIndexingAndDeletingDomainsInTurnInABatchIsLinear() async throws {
        let count = 4_000
        let index = makeIndex()
        let start = Date()
        index.beginBatch()
        for item in 0..<count {
            let written = makeItem("i\(item)", title: "t", domain: "d\(item).sub")
            index.indexSearchableItems([written], completionHandler: nil)
            // Odd rounds delete the item before (one component, below which it is filed); even ones a stranger.
            let domain = item % 2 == 1 ? "d\(item - 1)" : "none\(item)"
            index.deleteSearchableItems(withDomainIdentifiers: [domain], completionHandler: nil)
        }
        try await index.endBatch(withClientState: Data([1]))
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(index.itemCount(), count / 2)
        XCTAssertEqual(index.identifiers(inDomain: "d1"), ["i1"])
        XCTAssertEqual(index.identifiers(inDomain: "d2"), [])
        XCTAssertLessThan(seconds, 10, "indexing and deleting \(count) domains in turn took \(seconds) s")
    }

    /// Domain deletes inside a round reach what the round wrote by dotted components and bytes, as of the delete:
    /// `a.b` takes `a.b` and `a.b.c` but not `a.bc`; an item moved out of the domain before the delete stays, and
    /// one written into it after the delete stays.
    func testDomainDeletesBetweenWritesInABatchKeepDomainSemantics() async throws {
        let index = makeIndex()
        index.beginBatch()
        index.indexSearchableItems([makeItem("ab", title: "t", domain: "a.b"),
                                    makeItem("abc", title: "t", domain: "a.b.c"),
                                    makeItem("a-bc", title: "t", domain: "a.bc"),
                                    makeItem("moved", title: "t", domain: "a.b.x")], completionHandler: nil)
        index.indexSearchableItems([makeItem("moved", title: "t", domain: "q")], completionHandler: nil)
        index.deleteSearchableItems(withDomainIdentifiers: ["a.b"], completionHandler: nil)
        index.indexSearchableItems([makeItem("later", title: "t", domain: "a.b.c")], completionHandler: nil)
        index.deleteSearchableItems(withDomainIdentifiers: ["z"], completionHandler: nil)
        try await index.endBatch(withClientState: Data([1]))
        XCTAssertEqual(index.identifiers(inDomain: "a"), ["a-bc", "later"])
        XCTAssertEqual(index.identifiers(inDomain: "q"), ["moved"])
        XCTAssertEqual(index.itemCount(), 3)
    }
}
