import Foundation
import Synchronization
import XCTest
@testable import Searchlight
import SearchlightEngine

/// Records which identifiers an index asks to re-add.
final class ReindexCounter: CSIndexExtensionRequestHandler, @unchecked Sendable {
    let asked = Mutex<[[String]]>([])
    override func searchableIndex(_ searchableIndex: CSSearchableIndex,
                                  reindexSearchableItemsWithIdentifiers identifiers: [String],
                                  acknowledgementHandler: @escaping @Sendable () -> Void) {
        asked.withLock { $0.append(identifiers) }
        acknowledgementHandler()
    }
}

final class DelegateTests: XCTestCase {
    final class Recorder: CSIndexExtensionRequestHandler, @unchecked Sendable {
        let events = Mutex<[String]>([])
        let fresh: [CSSearchableItem]
        init(fresh: [CSSearchableItem] = []) {
            self.fresh = fresh
            super.init()
        }
        override func searchableIndex(_ searchableIndex: CSSearchableIndex,
                                      reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping @Sendable () -> Void) {
            events.withLock { $0.append("all") }
            acknowledgementHandler()
        }
        override func data(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String) throws -> Data {
            Data("\(itemIdentifier):\(typeIdentifier)".utf8)
        }
        override func searchableItems(forIdentifiers identifiers: [String],
                             searchableItemsHandler: @escaping @Sendable ([CSSearchableItem]) -> Void) {
            events.withLock { $0.append("pull \(identifiers)") }
            searchableItemsHandler(fresh)
        }
    }

    /// Re-adds what it is asked to and waits for that write's completion before acknowledging.
    final class Rewriter: CSIndexExtensionRequestHandler, @unchecked Sendable {
        let events = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        override func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                                      acknowledgementHandler: @escaping @Sendable () -> Void) {
            events.withLock { $0.append("ids \(identifiers.sorted())") }
            let written = DispatchSemaphore(value: 0)
            searchableIndex.indexSearchableItems(identifiers.map { makeItem($0, title: "again \($0)") }) { _ in written.signal() }
            let waited = written.wait(timeout: .now() + 5)
            events.withLock { $0.append(waited == .success ? "written" : "timed out") }
            acknowledgementHandler()
            done.signal()
        }
    }

    /// A delegate asked to re-add items may write them and wait for the write's completion: delegates are called
    /// apart from completion handlers, so it does not wait on itself (it timed out, and held every completion).
    func testADelegateMayWriteBackAndWaitForItsCompletion() throws {
        let fileSystem = FaultInjectingFileSystem()
        let container = try SearchlightContainer(directory: makeStoreURL(self), options: storeOptions(fileSystem))
        let index = CSSearchableIndex(name: "f", container: container)
        let delegate = Rewriter()
        index.indexDelegate = delegate
        XCTAssertNil(index.completion { index.indexSearchableItems([makeItem("ok", title: "Ok")], completionHandler: $0) })
        fileSystem.inject(.failWrite(errno: 5))
        XCTAssertNotNil(index.completion { index.indexSearchableItems([makeItem("b1", title: "B1"), makeItem("b2", title: "B2")],
                                                                   completionHandler: $0) })
        XCTAssertEqual(delegate.done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(delegate.events.withLock { $0 }, [#"ids ["b1", "b2"]"#, "written"])
        XCTAssertEqual(index.allIdentifiers, ["b1", "b2", "ok"])
        container.close()
    }

    /// Only a write that failed after it was accepted asks the delegate to re-add its items (reference §3.5); a call
    /// refused for bad input was asked too, so a delegate re-adding the same invalid item looped forever.
    func testRefusedInputDoesNotAskTheDelegateToReindex() throws {
        let fileSystem = FaultInjectingFileSystem()
        let container = try SearchlightContainer(directory: makeStoreURL(self), options: storeOptions(fileSystem))
        let index = CSSearchableIndex(name: "r", container: container)
        let delegate = ReindexCounter()
        index.indexDelegate = delegate
        let invalid = makeItem("bad", title: "Bad")
        invalid.attributeSet.latitude = NSNumber(value: Double.nan)
        XCTAssertEqual(indexErrorCode(index.completion { index.indexSearchableItems([invalid], completionHandler: $0) }),
                       .invalidItemError)
        index.beginBatch()
        index.indexSearchableItems([makeItem("b", title: "B")])
        XCTAssertEqual(indexErrorCode(index.completion {
            index.endBatch(withClientState: Data(count: 400), completionHandler: $0)
        }), .invalidClientStateError)
        // A write the store could not make does ask.
        fileSystem.inject(.failWrite(errno: 5))
        XCTAssertNotNil(index.completion { index.indexSearchableItems([makeItem("io", title: "Io")], completionHandler: $0) })
        container.delegateQueue.sync {}
        XCTAssertEqual(delegate.asked.withLock { $0 }, [["io"]])
        container.close()
    }

    /// A batch the store could not write asks the delegate to re-add what the batch would have left indexed, each
    /// once: it was asked for every identifier indexed in the batch, repeated ones again and ones the batch itself
    /// deleted afterwards (by identifier, by domain or delete-all) too, which a delegate would bring back.
    func testAFailedBatchAsksToReAddWhatItWouldHaveLeftEachOnce() throws {
        let fileSystem = FaultInjectingFileSystem()
        let container = try SearchlightContainer(directory: makeStoreURL(self), options: storeOptions(fileSystem))
        let index = CSSearchableIndex(name: "lost", container: container)
        let delegate = ReindexCounter()
        index.indexDelegate = delegate
        index.beginBatch()
        index.indexSearchableItems([makeItem("gone", title: "T"), makeItem("a", title: "T"), makeItem("a", title: "T")])
        index.indexSearchableItems([makeItem("again", title: "T")])
        index.deleteSearchableItems(withIdentifiers: ["again"])
        index.indexSearchableItems([makeItem("again", title: "T"), makeItem("a", title: "T", domain: "x.y"),
                                    makeItem("moved", title: "T", domain: "x")])
        index.deleteSearchableItems(withIdentifiers: ["gone"])
        index.indexSearchableItems([makeItem("moved", title: "T", domain: "xy"),
                                    makeItem("x", title: "T", domain: "x.y.z")])
        index.deleteSearchableItems(withDomainIdentifiers: ["x"])
        index.indexSearchableItems([makeItem("after", title: "T", domain: "x")])
        fileSystem.inject(.failWrite(errno: 5))
        XCTAssertNotNil(index.completion { index.endBatch(withClientState: Data([1]), completionHandler: $0) })
        container.delegateQueue.sync {}
        let asked = delegate.asked.withLock { $0 }
        XCTAssertEqual(asked.count, 1)
        XCTAssertEqual(asked.first?.sorted(), ["after", "again", "moved"])

        // After a delete-all, only what the batch indexed later.
        fileSystem.reset()
        index.beginBatch()
        index.indexSearchableItems([makeItem("before", title: "T")])
        index.deleteAllSearchableItems()
        index.indexSearchableItems([makeItem("last", title: "T")])
        fileSystem.inject(.failWrite(errno: 5))
        XCTAssertNotNil(index.completion { index.endBatch(withClientState: Data([2]), completionHandler: $0) })
        container.delegateQueue.sync {}
        XCTAssertEqual(delegate.asked.withLock { $0 }.last, ["last"])
        container.close()
    }

    /// An update (`isUpdate`) not giving its domain merges into the item as stored, so a domain delete of the
    /// batch reaches it by the stored domain: an update before the delete, or after it (then dropped, its item
    /// gone), leaves nothing to re-add, and neither does an update of an item that is not there at all. Only the
    /// update of an item the batch leaves is asked for.
    func testAFailedBatchDoesNotAskToReAddAnUpdateItsDomainDeleteReaches() throws {
        let fileSystem = FaultInjectingFileSystem()
        let container = try SearchlightContainer(directory: makeStoreURL(self), options: storeOptions(fileSystem))
        let index = CSSearchableIndex(name: "lost", container: container)
        XCTAssertNil(index.completion {
            index.indexSearchableItems([makeItem("early", title: "T", domain: "d"),
                                        makeItem("late", title: "T", domain: "d.e"),
                                        makeItem("kept", title: "T", domain: "k")], completionHandler: $0)
        })
        let delegate = ReindexCounter()
        index.indexDelegate = delegate
        func update(_ id: String) -> CSSearchableItem {
            let item = makeItem(id, title: "U")
            item.isUpdate = true
            return item
        }
        index.beginBatch()
        index.indexSearchableItems([update("late"), makeItem("inBatch", title: "T", domain: "d")])
        index.indexSearchableItems([update("inBatch"), update("kept")])
        index.deleteSearchableItems(withDomainIdentifiers: ["d"])
        index.indexSearchableItems([update("early"), update("absent")])
        fileSystem.inject(.failWrite(errno: 5))
        XCTAssertNotNil(index.completion { index.endBatch(withClientState: Data([1]), completionHandler: $0) })
        container.delegateQueue.sync {}
        XCTAssertEqual(delegate.asked.withLock { $0 }, [["kept"]])
        container.close()
    }

    /// Re-adds what it is asked to, without waiting, and counts the requests.
    final class EagerRewriter: CSIndexExtensionRequestHandler, @unchecked Sendable {
        let requests = Mutex(0)
        override func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                                      acknowledgementHandler: @escaping @Sendable () -> Void) {
            requests.withLock { $0 += 1 }
            searchableIndex.indexSearchableItems(identifiers.map { makeItem($0, title: "again \($0)") })
            acknowledgementHandler()
        }
    }

    /// A write refused because the container was closed was never accepted: asking the delegate to re-add it made
    /// a delegate that does so (as asked) be refused and asked again, without end.
    func testAClosedContainerDoesNotAskTheDelegateToReindex() throws {
        let container = try SearchlightContainer(directory: makeStoreURL(self))
        let index = CSSearchableIndex(name: "closed", container: container)
        let delegate = EagerRewriter()
        index.indexDelegate = delegate
        container.close()
        XCTAssertEqual(indexErrorCode(index.completion { index.indexSearchableItems([makeItem("x", title: "X")],
                                                                                    completionHandler: $0) }),
                       .indexUnavailableError)
        Thread.sleep(forTimeInterval: 0.3)
        container.delegateQueue.sync {}
        XCTAssertEqual(delegate.requests.withLock { $0 }, 0)
    }

    /// A store whose failed append could not be cut off again refuses every later write until it is reopened,
    /// as a closed one does: asking the delegate to re-add each refused write looped as it did after close().
    func testAStoreThatMustBeReopenedDoesNotAskTheDelegateToReindexWithoutEnd() throws {
        let faults = FaultInjectingFileSystem()
        let container = try SearchlightContainer(directory: makeStoreURL(self), options: storeOptions(faults))
        let index = CSSearchableIndex(name: "failed", container: container)
        let delegate = EagerRewriter()
        index.indexDelegate = delegate
        faults.inject(.failWrite(errno: EIO))
        faults.inject(.failTruncate)
        XCTAssertEqual(indexErrorCode(index.completion { index.indexSearchableItems([makeItem("x", title: "X")],
                                                                                    completionHandler: $0) }),
                       .indexUnavailableError)
        Thread.sleep(forTimeInterval: 0.5)
        container.delegateQueue.sync {}
        // The failed write itself may ask once; the refusals that follow must not ask again.
        XCTAssertLessThanOrEqual(delegate.requests.withLock { $0 }, 1)
        container.close()
    }

    /// A full disk stays full until space is freed: a write refused with `quotaExceeded` was never journaled, and the
    /// caller is told so (reference §3.5: the app retries). Asking the delegate to re-add it made a delegate that
    /// does so be refused and asked again, hammering the full disk as fast as it could write.
    func testAFullDiskDoesNotAskTheDelegateToReindexWithoutEnd() throws {
        let faults = FaultInjectingFileSystem()
        let container = try SearchlightContainer(directory: makeStoreURL(self), options: storeOptions(faults))
        let index = CSSearchableIndex(name: "full", container: container)
        let delegate = EagerRewriter()
        index.indexDelegate = delegate
        for _ in 0..<50 { faults.inject(.noSpace) }
        XCTAssertEqual(indexErrorCode(index.completion { index.indexSearchableItems([makeItem("x", title: "X")],
                                                                                    completionHandler: $0) }),
                       .quotaExceeded)
        index.beginBatch()
        index.indexSearchableItems([makeItem("y", title: "Y")])
        XCTAssertEqual(indexErrorCode(index.completion { index.endBatch(withClientState: Data("1".utf8), completionHandler: $0) }),
                       .quotaExceeded)
        Thread.sleep(forTimeInterval: 0.3)
        container.delegateQueue.sync {}
        XCTAssertEqual(delegate.requests.withLock { $0 }, 0)
        XCTAssertEqual(faults.firedFaults.count, 2, "nothing but the two calls wrote")
        faults.reset()
        // Space freed: the caller's retry works.
        XCTAssertNil(index.completion { index.indexSearchableItems([makeItem("x", title: "X")], completionHandler: $0) })
        XCTAssertEqual(index.allIdentifiers, ["x"])
        container.close()
    }

    /// Hands its items over twice (a misbehaving delegate).
    final class TwiceRefresher: CSIndexExtensionRequestHandler, @unchecked Sendable {
        override func searchableItems(forIdentifiers identifiers: [String],
                                      searchableItemsHandler: @escaping @Sendable ([CSSearchableItem]) -> Void) {
            searchableItemsHandler(identifiers.map { makeItem($0, title: "first \($0)") })
            searchableItemsHandler(identifiers.map { makeItem($0, title: "second \($0)") })
        }
    }

    /// A delegate that calls its items handler twice gets the first call taken: the second indexed the items again
    /// and ran the completion handler a second time (the `async` twin resumed its continuation twice: a crash).
    func testAnItemsHandlerCalledTwiceCountsOnce() throws {
        let index = makeIndex()
        let delegate = TwiceRefresher()
        index.indexDelegate = delegate
        let completions = Mutex(0)
        let done = DispatchSemaphore(value: 0)
        index.refreshSearchableItems(withIdentifiers: ["t"]) { _ in
            completions.withLock { $0 += 1 }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertNil(index.completion { index.deleteSearchableItems(withIdentifiers: [], completionHandler: $0) })
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(completions.withLock { $0 }, 1)
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: ["t"]).first?.attributeSet.title, "first t")
    }

    /// Lets go of its items handler without calling it (a misbehaving delegate).
    final class SilentRefresher: CSIndexExtensionRequestHandler, @unchecked Sendable {
        override func searchableItems(forIdentifiers identifiers: [String],
                                      searchableItemsHandler: @escaping @Sendable ([CSSearchableItem]) -> Void) {}
    }

    /// A delegate that releases its items handler unanswered ends the refresh with an error: the completion handler
    /// never ran, so `try await refreshSearchableItems` hung for good on a leaked continuation.
    func testARefreshTheDelegateDropsEndsWithAnError() async throws {
        let index = makeIndex()
        let delegate = SilentRefresher()
        index.indexDelegate = delegate
        let outcome = Mutex<(any Error)??>(nil)
        let done = expectation(description: "refresh returned")
        Task {
            do { try await index.refreshSearchableItems(withIdentifiers: ["s"]) } catch { outcome.withLock { $0 = .some(error) } }
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 10)
        let error = outcome.withLock { $0 } ?? nil
        XCTAssertEqual((error as? CSIndexError)?.code, .unknownError, "\(String(describing: error))")
        XCTAssertTrue(index.fetchSearchableItems(withIdentifiers: ["s"]).isEmpty)
    }

    /// Answers refreshes with the `async` form of the items requirement, as Swift lets an app implement it.
    final class AsyncRefresher: NSObject, CSSearchableIndexDelegate {
        func searchableIndex(_ searchableIndex: CSSearchableIndex,
                             reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void) {
            acknowledgementHandler()
        }
        func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                             acknowledgementHandler: @escaping () -> Void) {
            acknowledgementHandler()
        }
        func searchableItems(forIdentifiers identifiers: [String]) async -> [CSSearchableItem] {
            identifiers.map { makeItem($0, title: "async \($0)") }
        }
    }

    /// A delegate may implement `searchableItems(forIdentifiers:) async -> [CSSearchableItem]` (Apple's Swift import
    /// of the handler requirement): it compiled but was never called, so a refresh silently indexed nothing.
    func testADelegateMayAnswerARefreshAsynchronously() async throws {
        let index = makeIndex()
        let delegate = AsyncRefresher()
        index.indexDelegate = delegate
        try await index.refreshSearchableItems(withIdentifiers: ["a"])
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: ["a"]).first?.attributeSet.title, "async a")

        final class AsyncExtension: CSIndexExtensionRequestHandler, @unchecked Sendable {
            override func searchableItems(forIdentifiers identifiers: [String]) async -> [CSSearchableItem] {
                identifiers.map { makeItem($0, title: "extension \($0)") }
            }
        }
        let handler = AsyncExtension()
        index.indexDelegate = handler
        try await index.refreshSearchableItems(withIdentifiers: ["b"])
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: ["b"]).first?.attributeSet.title, "extension b")
    }

    func testReindexAllReachesTheDelegate() {
        let index = makeIndex()
        let recorder = Recorder()
        index.indexDelegate = recorder
        index.requestReindexAll()
        XCTAssertEqual(recorder.events.withLock { $0 }, ["all"])
    }

    func testTheDelegateIsHeldWeakly() {
        let index = makeIndex()
        var recorder: Recorder? = Recorder()
        index.indexDelegate = recorder
        XCTAssertNotNil(index.indexDelegate)
        recorder = nil
        XCTAssertNil(index.indexDelegate)
    }

    func testProviderDataComesFromTheDelegateForListedTypesOnly() async throws {
        let index = makeIndex()
        let recorder = Recorder()
        index.indexDelegate = recorder
        let item = makeItem("doc", title: "Doc")
        item.attributeSet.providerDataTypeIdentifiers = ["public.pdf"]
        try await index.indexSearchableItems([item])
        XCTAssertEqual(try index.providerData(forItemIdentifier: "doc", typeIdentifier: "public.pdf"), Data("doc:public.pdf".utf8))
        XCTAssertThrowsError(try index.providerData(forItemIdentifier: "doc", typeIdentifier: "public.png"))
        XCTAssertThrowsError(try index.providerData(forItemIdentifier: "missing", typeIdentifier: "public.pdf"))
    }

    func testRefreshPullsItemsFromTheDelegate() async throws {
        let index = makeIndex()
        let recorder = Recorder(fresh: [makeItem("p", title: "Pulled")])
        index.indexDelegate = recorder
        try await index.refreshSearchableItems(withIdentifiers: ["p"])
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: ["p"]).first?.attributeSet.title, "Pulled")
        XCTAssertEqual(recorder.events.withLock { $0 }, ["pull [\"p\"]"])
    }

    /// Hands fresh items over later, from another thread, and records whether it was asked on the delegate queue.
    final class LateRefresher: CSIndexExtensionRequestHandler, @unchecked Sendable {
        static let onDelegateQueue = DispatchSpecificKey<Bool>()
        let askedOnDelegateQueue = Mutex<[Bool]>([])
        override func searchableItems(forIdentifiers identifiers: [String],
                                      searchableItemsHandler: @escaping @Sendable ([CSSearchableItem]) -> Void) {
            askedOnDelegateQueue.withLock { $0.append(DispatchQueue.getSpecific(key: Self.onDelegateQueue) == true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
                searchableItemsHandler(identifiers.map { makeItem($0, title: "Fresh \($0)") })
            }
        }
    }

    /// A refresh outlives the index instance that asked: the delegate's items were dropped, and the completion
    /// handler never ran, when the instance was released before the delegate answered. The delegate is asked on
    /// the delegate queue, as documented (it was asked on the caller's thread).
    func testRefreshCompletesEvenIfTheIndexObjectIsReleased() throws {
        let container = SearchlightContainer()
        container.delegateQueue.setSpecific(key: LateRefresher.onDelegateQueue, value: true)
        let delegate = LateRefresher()
        let done = DispatchSemaphore(value: 0)
        do {
            let index = CSSearchableIndex(name: "refresh", container: container)
            index.indexDelegate = delegate
            index.refreshSearchableItems(withIdentifiers: ["x"]) { _ in done.signal() }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "the completion handler never ran")
        let check = CSSearchableIndex(name: "check", container: container)
        XCTAssertEqual(check.fetchSearchableItems(withIdentifiers: ["x"]).first?.attributeSet.title, "Fresh x")
        XCTAssertEqual(delegate.askedOnDelegateQueue.withLock { $0 }, [true])
    }

    /// Keeps its items handler until the test answers with it.
    final class HeldRefresher: CSIndexExtensionRequestHandler, @unchecked Sendable {
        let handler = Mutex<(@Sendable ([CSSearchableItem]) -> Void)?>(nil)
        override func searchableItems(forIdentifiers identifiers: [String],
                                      searchableItemsHandler: @escaping @Sendable ([CSSearchableItem]) -> Void) {
            handler.withLock { $0 = searchableItemsHandler }
        }
    }

    /// A refresh the delegate answers while the app has a batch open on the same instance is indexed on its own:
    /// it joined the app's batch, reported success once recorded, and was lost with the batch when the batch's
    /// expected client state did not match (the system's pull is not the app's write; reference §3.4, §3.5).
    func testARefreshAnsweredDuringABatchIsNotSwallowedByIt() throws {
        let index = makeIndex(name: "pulled")
        let delegate = HeldRefresher()
        index.indexDelegate = delegate
        let refreshed = Mutex<(any Error)??>(nil)
        let done = DispatchSemaphore(value: 0)
        index.refreshSearchableItems(withIdentifiers: ["r"]) { error in
            refreshed.withLock { $0 = .some(error) }
            done.signal()
        }
        index.container.delegateQueue.sync {}
        index.beginBatch()
        index.indexSearchableItems([makeItem("app", title: "App")])
        delegate.handler.withLock { $0 }?([makeItem("r", title: "Refreshed")])
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertNil(refreshed.withLock { $0 } ?? nil)
        XCTAssertEqual(indexErrorCode(index.completion {
            index.endIndexBatch(expectedClientState: Data([9]), newClientState: Data([1]), completionHandler: $0)
        }), .mismatchedClientState)
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: ["r"]).first?.attributeSet.title, "Refreshed")
        XCTAssertTrue(index.fetchSearchableItems(withIdentifiers: ["app"]).isEmpty)
    }

    /// A Spotlight File Import extension as ported apps write it (ZoomNewSpotlight): nothing calls it on Linux,
    /// but the subclass compiles unchanged and the app can call `update` itself.
    func testAnImportExtensionSubclassFillsTheAttributeSetItIsGiven() throws {
        class ImportExtension: CSImportExtension {
            override func update(_ attributes: CSSearchableItemAttributeSet, forFileAt: URL) throws {
                attributes.title = forFileAt.lastPathComponent
            }
        }
        let set = CSSearchableItemAttributeSet(contentType: .data)
        let url = URL(fileURLWithPath: "/tmp/notes/meeting.zoom")
        let importer: CSImportExtension = ImportExtension()
        try importer.update(set, forFileAt: url)
        XCTAssertEqual(set.title, "meeting.zoom")

        let untouched = CSSearchableItemAttributeSet(contentType: .data)
        try CSImportExtension().update(untouched, forFileAt: url)
        XCTAssertNil(untouched.title)
    }
}
