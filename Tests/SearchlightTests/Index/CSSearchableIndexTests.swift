import Foundation
import Synchronization
import XCTest
@testable import Searchlight

final class CSSearchableIndexTests: XCTestCase {
    func testIndexThenFetchRoundTripsEveryAttribute() async throws {
        let index = makeIndex()
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        for descriptor in AttributeCatalog.all where !descriptor.isReadOnly {
            set.setValue(sample(for: descriptor).stored, forAttribute: descriptor.name)
        }
        // A type may be listed in only one of the three provider arrays.
        set.providerDataTypeIdentifiers = ["public.data"]
        set.providerFileTypeIdentifiers = ["public.file-url"]
        set.providerInPlaceFileTypeIdentifiers = ["public.folder"]
        let key = try XCTUnwrap(CSCustomAttributeKey(keyName: "com_example_status", searchable: true,
                                                     searchableByDefault: true, unique: false, multiValued: false))
        set.setValue("open", forCustomKey: key)
        let counts = try XCTUnwrap(CSCustomAttributeKey(keyName: "com_example_counts"))
        set.setValue([NSNumber(value: 1), NSNumber(value: 2.5)], forCustomKey: counts)
        let hidden = try XCTUnwrap(CSCustomAttributeKey(keyName: "hidden", searchable: false, searchableByDefault: false,
                                                        unique: true, multiValued: true))
        set.setValue(["a", "b"], forCustomKey: hidden)
        let when = try XCTUnwrap(CSCustomAttributeKey(keyName: "when"))
        set.setValue(Date(timeIntervalSinceReferenceDate: 1234.5), forCustomKey: when)
        let item = CSSearchableItem(uniqueIdentifier: "all", domainIdentifier: "a.b", attributeSet: set)
        item.expirationDate = Date(timeIntervalSinceReferenceDate: 900_000_000)
        item.updateListenerOptions = [.summarization]
        try await index.indexSearchableItems([item])

        let fetched = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["all"]).first)
        XCTAssertEqual(fetched.domainIdentifier, "a.b")
        XCTAssertEqual(fetched.expirationDate, Date(timeIntervalSinceReferenceDate: 900_000_000))
        XCTAssertEqual(fetched.updateListenerOptions, [.summarization])
        var expected = set.snapshot
        expected.removeClearedSlots()
        let actual = fetched.attributeSet.snapshot
        for name in Set(expected.named.keys).union(actual.named.keys).sorted() {
            XCTAssertEqual(actual.named[name], expected.named[name], "attribute \(name)")
        }
        XCTAssertEqual(actual.custom, expected.custom)
    }

    func testFetchAttributesLimitsWhatComesBack() async throws {
        let index = makeIndex()
        try await index.indexSearchableItems([makeItem("1", title: "Report", keywords: ["q3"], description: "numbers")])
        let item = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["1"], fetchAttributes: ["title"]).first)
        XCTAssertEqual(item.attributeSet.title, "Report")
        XCTAssertNil(item.attributeSet.keywords)
        XCTAssertNil(item.attributeSet.contentDescription)
        // Spotlight's names too, as a query's fetch attributes take them.
        let aliased = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["1"],
                                                              fetchAttributes: ["kMDItemDescription", "kMDItemKeywords"]).first)
        XCTAssertEqual(aliased.attributeSet.contentDescription, "numbers")
        XCTAssertEqual(aliased.attributeSet.keywords, ["q3"])
        XCTAssertNil(aliased.attributeSet.title)
    }

    func testIndexingAnExistingIdentifierReplacesTheWholeItem() async throws {
        let index = makeIndex()
        try await index.indexSearchableItems([makeItem("1", title: "Old", domain: "d", keywords: ["k"])])
        try await index.indexSearchableItems([makeItem("1", title: "New")])
        let item = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["1"]).first)
        XCTAssertEqual(item.attributeSet.title, "New")
        XCTAssertNil(item.attributeSet.keywords, "attributes the new item does not set are gone")
        XCTAssertNil(item.domainIdentifier, "the domain comes from the new item")
        XCTAssertEqual(index.itemCount(), 1)
    }

    func testIsUpdateMergesAndRemovesClearedAttributes() async throws {
        let index = makeIndex()
        try await index.indexSearchableItems([makeItem("1", title: "Title", domain: "d", keywords: ["k"], description: "desc")])
        let update = CSSearchableItemAttributeSet(itemContentType: "public.text")
        update.contentType = nil
        update.keywords = nil
        update.displayName = "Shown"
        let item = CSSearchableItem(uniqueIdentifier: "1", domainIdentifier: nil, attributeSet: update)
        item.isUpdate = true
        try await index.indexSearchableItems([item])
        let merged = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["1"]).first)
        XCTAssertEqual(merged.attributeSet.title, "Title")
        XCTAssertEqual(merged.attributeSet.contentDescription, "desc")
        XCTAssertEqual(merged.attributeSet.displayName, "Shown")
        XCTAssertNil(merged.attributeSet.keywords)
        XCTAssertNil(merged.attributeSet.contentType)
        XCTAssertEqual(merged.domainIdentifier, "d")
        XCTAssertFalse(merged.isUpdate)
    }

    func testUpdateOfAnAbsentItemIsDropped() async throws {
        let index = makeIndex()
        let item = makeItem("ghost", title: "Nobody")
        item.isUpdate = true
        try await index.indexSearchableItems([item])
        XCTAssertEqual(index.itemCount(), 0)
    }

    /// A domain delete earlier in the same batch removed the item: a later update in the batch finds it absent
    /// and is dropped, as after a delete by identifier (it must not bring the old attributes back).
    func testUpdateAfterItsDomainWasDeletedInTheSameBatchIsDropped() async throws {
        let index = makeIndex()
        try await index.indexSearchableItems([makeItem("x", title: "Old", domain: "a.b"),
                                              makeItem("y", title: "Kept", domain: "ab")])
        index.beginBatch()
        try await index.deleteSearchableItems(withDomainIdentifiers: ["a"])
        let update = CSSearchableItem(uniqueIdentifier: "x", domainIdentifier: nil,
                                      attributeSet: CSSearchableItemAttributeSet(itemContentType: "public.text"))
        update.attributeSet.contentDescription = "updated"
        update.isUpdate = true
        let sibling = CSSearchableItem(uniqueIdentifier: "y", domainIdentifier: nil,
                                       attributeSet: CSSearchableItemAttributeSet(itemContentType: "public.text"))
        sibling.attributeSet.contentDescription = "merged"
        sibling.isUpdate = true
        try await index.indexSearchableItems([update, sibling])
        try await index.endBatch(withClientState: Data([1]))
        XCTAssertEqual(index.allIdentifiers, ["y"], "the update of a deleted item is dropped; one outside the domain merges")
        XCTAssertTrue(index.fetchSearchableItems(withIdentifiers: ["x"]).isEmpty)
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: ["y"]).first?.attributeSet.contentDescription, "merged")
    }

    func testUpdateAfterIndexInTheSameCallMerges() async throws {
        let index = makeIndex()
        let update = CSSearchableItem(uniqueIdentifier: "1", domainIdentifier: nil,
                                      attributeSet: CSSearchableItemAttributeSet(itemContentType: "public.text"))
        update.attributeSet.contentDescription = "added"
        update.isUpdate = true
        try await index.indexSearchableItems([makeItem("1", title: "T"), update])
        let item = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["1"]).first)
        XCTAssertEqual(item.attributeSet.title, "T")
        XCTAssertEqual(item.attributeSet.contentDescription, "added")
    }

    /// Identifiers are distinct by their bytes: within one call an update (or delete) of `"café"` decomposed does
    /// not reach `"café"` precomposed indexed earlier in it.
    func testUpdateInTheSameCallFindsOnlyTheByteEqualIdentifier() async throws {
        let index = makeIndex()
        let composed = "caf\u{e9}", decomposed = "cafe\u{301}"
        let update = makeItem(decomposed, title: "B")
        update.isUpdate = true
        try await index.indexSearchableItems([makeItem(composed, title: "A"), update])
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: [composed]).first?.attributeSet.title, "A")
        XCTAssertTrue(index.fetchSearchableItems(withIdentifiers: [decomposed]).isEmpty, "an update of an absent item is dropped")
        index.beginBatch()
        try await index.indexSearchableItems([makeItem(decomposed, title: "D")])
        try await index.deleteSearchableItems(withIdentifiers: [composed.precomposedStringWithCanonicalMapping])
        let kept = makeItem(decomposed, title: "D2")
        kept.isUpdate = true
        try await index.indexSearchableItems([kept])
        try await index.endBatch(withClientState: Data([1]))
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: [decomposed]).first?.attributeSet.title, "D2",
                       "deleting the precomposed identifier leaves the decomposed one to update")
    }

    /// An update valid alone can break a rule together with the stored item (a type in two provider arrays): the
    /// call fails with invalidItemError and the stored item stays as it was, one the index would accept again.
    func testAnUpdateMakingTheStoredItemInvalidIsRefused() async throws {
        let index = makeIndex()
        let item = makeItem("1", title: "t")
        item.attributeSet.providerDataTypeIdentifiers = ["public.png"]
        try await index.indexSearchableItems([item])
        let update = CSSearchableItem(uniqueIdentifier: "1", domainIdentifier: nil,
                                      attributeSet: CSSearchableItemAttributeSet())
        update.attributeSet.providerFileTypeIdentifiers = ["public.png"]
        update.attributeSet.title = "changed"
        update.isUpdate = true
        let error = index.completion { index.indexSearchableItems([makeItem("2", title: "x"), update], completionHandler: $0) }
        XCTAssertEqual(indexErrorCode(error), .invalidItemError)
        let message = (error as? CSIndexError)?.message ?? ""
        XCTAssertTrue(message.contains("item '1'") && message.contains("providerFileTypeIdentifiers"), message)
        XCTAssertEqual(index.allIdentifiers, ["1"], "nothing from the call was applied")
        let stored = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: ["1"]).first)
        XCTAssertEqual(stored.attributeSet.title, "t")
        XCTAssertTrue(stored.validationProblems().isEmpty)
    }

    func testLaterCallerMutationsDoNotLeakIntoTheIndex() async throws {
        let index = makeIndex()
        let item = makeItem("1", title: "Before")
        try await index.indexSearchableItems([item])
        item.attributeSet.title = "After"
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: ["1"]).first?.attributeSet.title, "Before")
    }

    func testAnInvalidItemFailsTheWholeCallAndNamesIt() async throws {
        let index = makeIndex()
        try await index.indexSearchableItems([makeItem("keep", title: "Kept")])
        let bad = makeItem("bad", title: "x", domain: "a..b")
        let alsoBad = makeItem("", title: "y")
        do {
            try await index.indexSearchableItems([makeItem("good", title: "ok"), bad, alsoBad])
            XCTFail("expected invalidItemError")
        } catch let error as CSIndexError {
            XCTAssertEqual(error.code, .invalidItemError)
            XCTAssertTrue(error.message.contains("'bad'"), error.message)
            XCTAssertTrue(error.message.contains("a..b"), error.message)
            XCTAssertTrue(error.message.contains("empty uniqueIdentifier"), error.message)
        }
        XCTAssertEqual(index.allIdentifiers, ["keep"], "nothing from the failed call, nothing lost")
    }

    func testInvalidCustomValueAndNonFiniteNumberAreRejected() async throws {
        let index = makeIndex()
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        set.latitude = NSNumber(value: Double.nan)
        do {
            try await index.indexSearchableItems([CSSearchableItem(uniqueIdentifier: "n", domainIdentifier: nil, attributeSet: set)])
            XCTFail("expected invalidItemError")
        } catch {
            XCTAssertEqual(indexErrorCode(error), .invalidItemError)
            XCTAssertTrue("\(error.localizedDescription)".contains("latitude"), error.localizedDescription)
        }
        XCTAssertEqual(index.itemCount(), 0)
    }

    /// An item needing more fields than an index holds is invalid input, refused by name; the fields the refused
    /// call registered go with it, so later items may still add new custom keys and catalogue attributes.
    func testAnItemWithMoreFieldsThanTheIndexHoldsIsRefusedAndLeavesNoFieldBehind() {
        let index = makeIndex()
        let delegate = ReindexCounter()
        index.indexDelegate = delegate
        XCTAssertNil(index.completion { index.indexSearchableItems([makeItem("keep", title: "kept")], completionHandler: $0) })
        // One text field per custom key: one key more than the fields left.
        let keys = Int(UInt16.max) - index.container.snapshot().engine.schema.fields.count + 1
        let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
        for n in 0..<keys { set.setValue("v\(n)" as NSString, forCustomKey: customKey("k\(n)")) }
        let big = CSSearchableItem(uniqueIdentifier: "big", domainIdentifier: nil, attributeSet: set)
        let refused = index.completion { index.indexSearchableItems([big], completionHandler: $0) }
        XCTAssertEqual(indexErrorCode(refused), .invalidItemError)
        let message = (refused as? CSIndexError)?.message ?? ""
        XCTAssertTrue(message.contains("'big'") && message.contains("65,535"), message)
        let fresh = makeItem("fresh", title: "fresh")
        fresh.attributeSet.setValue("x" as NSString, forCustomKey: customKey("freshKey"))
        XCTAssertNil(index.completion { index.indexSearchableItems([fresh], completionHandler: $0) })
        let plain = makeItem("plain", title: "plain")
        plain.attributeSet.artist = "someone"
        XCTAssertNil(index.completion { index.indexSearchableItems([plain], completionHandler: $0) })
        XCTAssertEqual(index.allIdentifiers, ["fresh", "keep", "plain"])
        // Bad input, refused: nothing for the delegate to re-add (asked, a delegate re-adding it would loop).
        index.container.delegateQueue.sync {}
        XCTAssertEqual(delegate.asked.withLock { $0 }, [])
    }

    /// A large call is copied and screened on several threads: the invalid items far into it are still named
    /// (in order) and nothing is applied; a valid large call is applied from copies the caller cannot change.
    func testALargeCallIsScreenedWholeAndCopied() async throws {
        let index = makeIndex()
        var items = (0..<700).map { makeItem("i\($0)", title: "large call \($0)") }
        items[260].attributeSet.latitude = NSNumber(value: Double.infinity)
        items[650] = makeItem("bad", title: "x", domain: "a..b")
        do {
            try await index.indexSearchableItems(items)
            XCTFail("expected invalidItemError")
        } catch {
            XCTAssertEqual(indexErrorCode(error), .invalidItemError)
            let message = error.localizedDescription
            XCTAssertTrue(message.contains("'i260', 'bad'"), message)
        }
        XCTAssertEqual(index.itemCount(), 0)
        items[260].attributeSet.latitude = nil
        items[650] = makeItem("i650", title: "large call 650")
        try await index.indexSearchableItems(items)
        for item in items { item.attributeSet.title = "changed afterwards" }
        XCTAssertEqual(index.itemCount(), 700)
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: ["i699"]).first?.attributeSet.title, "large call 699")
    }

    func testDeleteByIdentifiersIgnoresUnknownOnes() async throws {
        let index = makeIndex()
        try await index.indexSearchableItems([makeItem("1", title: "a"), makeItem("2", title: "b")])
        try await index.deleteSearchableItems(withIdentifiers: ["1", "unknown"])
        XCTAssertEqual(index.allIdentifiers, ["2"])
        XCTAssertTrue(index.fetchSearchableItems(withIdentifiers: ["1"]).isEmpty, "no ghost after delete")
    }

    func testDeleteByDomainIsHierarchicalOnDotsOnly() async throws {
        let index = makeIndex()
        try await index.indexSearchableItems([
            makeItem("1", title: "a", domain: "acct1"), makeItem("2", title: "b", domain: "acct1.inbox"),
            makeItem("3", title: "c", domain: "acct1.inbox.2024"), makeItem("4", title: "d", domain: "acct10"),
            makeItem("5", title: "e", domain: "acct1.sent"), makeItem("6", title: "f"),
        ])
        try await index.deleteSearchableItems(withDomainIdentifiers: ["acct1.inbox"])
        XCTAssertEqual(index.allIdentifiers, ["1", "4", "5", "6"])
        try await index.deleteSearchableItems(withDomainIdentifiers: ["acct1"])
        XCTAssertEqual(index.allIdentifiers, ["4", "6"])
        XCTAssertEqual(index.identifiers(inDomain: "acct10"), ["4"])
    }

    /// `identifiers(inDomain:)` lists exactly what deleting that domain deletes: a subdomain whose first character
    /// after the dot is a combining mark (`"a.\u{301}x"`, one grapheme `".\u{301}"`) is below `a` for both.
    func testIdentifiersInDomainAreWhatDeletingTheDomainDeletes() async throws {
        let index = makeIndex()
        try await index.indexSearchableItems([makeItem("1", title: "a", domain: "a.\u{301}x"), makeItem("2", title: "b", domain: "a"),
                                              makeItem("3", title: "c", domain: "ab")])
        XCTAssertEqual(index.identifiers(inDomain: "a"), ["1", "2"])
        try await index.deleteSearchableItems(withDomainIdentifiers: ["a"])
        XCTAssertEqual(index.allIdentifiers, ["3"])
    }

    /// A domain identifier is stored with the bytes it was given: an item in `"cafe\u{301}"` (decomposed) indexed
    /// beside one in `"caf\u{e9}"` (precomposed) keeps its own spelling, in one segment and after a merge.
    func testADomainKeepsItsSpellingBesideACanonicallyEquivalentOne() async throws {
        let index = makeIndex()
        let composed = "caf\u{e9}", decomposed = "cafe\u{301}"
        try await index.indexSearchableItems([makeItem("1", title: "a", domain: composed),
                                              makeItem("2", title: "b", domain: decomposed)])
        try await index.indexSearchableItems([makeItem("3", title: "c", domain: decomposed)])
        index.container.waitForBackgroundMerges()
        for (id, domain) in [("1", composed), ("2", decomposed), ("3", decomposed)] {
            let stored = try XCTUnwrap(index.fetchSearchableItems(withIdentifiers: [id]).first?.domainIdentifier)
            XCTAssertEqual(Array(stored.utf8), Array(domain.utf8), "item \(id)")
        }
    }

    /// Domains match by their bytes, as identifiers do (NSString equality): deleting `"caf\u{e9}"` (precomposed)
    /// leaves the items in `"cafe\u{301}"` (decomposed) and below it, and lists none of them.
    func testDeletingADomainLeavesACanonicallyEquivalentOne() async throws {
        let index = makeIndex()
        let composed = "caf\u{e9}", decomposed = "cafe\u{301}"
        try await index.indexSearchableItems([makeItem("1", title: "a", domain: composed),
                                              makeItem("2", title: "b", domain: decomposed),
                                              makeItem("3", title: "c", domain: decomposed + ".x")])
        XCTAssertEqual(index.identifiers(inDomain: composed), ["1"])
        XCTAssertEqual(index.identifiers(inDomain: decomposed), ["2", "3"])
        try await index.deleteSearchableItems(withDomainIdentifiers: [composed])
        XCTAssertEqual(index.allIdentifiers, ["2", "3"])
    }

    func testDeleteByMalformedDomainIsAnError() async throws {
        let index = makeIndex()
        try await index.indexSearchableItems([makeItem("1", title: "a", domain: "a")])
        do {
            try await index.deleteSearchableItems(withDomainIdentifiers: ["a."])
            XCTFail("expected invalidItemError")
        } catch {
            XCTAssertEqual(indexErrorCode(error), .invalidItemError)
        }
        XCTAssertEqual(index.itemCount(), 1)
    }

    func testDeleteAllRemovesEverythingAndResetsClientState() async throws {
        let index = makeIndex()
        index.beginBatch()
        try await index.indexSearchableItems([makeItem("1", title: "a")])
        try await index.endBatch(withClientState: Data("cp1".utf8))
        try await index.deleteAllSearchableItems()
        XCTAssertEqual(index.itemCount(), 0)
        let state = try await index.fetchLastClientState()
        XCTAssertEqual(state, Data())
    }

    func testCompletionHandlerSeesTheChange() throws {
        let index = makeIndex()
        let error = index.completion { done in
            index.indexSearchableItems([makeItem("1", title: "a")]) { error in
                XCTAssertEqual(index.allIdentifiers, ["1"], "read-your-writes inside the completion handler")
                done(error)
            }
        }
        XCTAssertNil(error)
        let deleteError = index.completion { done in
            index.deleteSearchableItems(withIdentifiers: ["1"]) { error in
                XCTAssertEqual(index.allIdentifiers, [])
                done(error)
            }
        }
        XCTAssertNil(deleteError)
    }

    /// A completion handler may make another call and wait for its completion (with a semaphore, or by bridging
    /// to `async`): every handler ran on one serial queue, so the inner completion waited behind the handler
    /// waiting for it, and held every later completion of the container.
    func testCompletionHandlerMayWaitForAnotherWrite() {
        let index = makeIndex()
        let done = DispatchSemaphore(value: 0)
        let waited = Mutex<[DispatchTimeoutResult]>([])
        index.indexSearchableItems([makeItem("a", title: "A")]) { _ in
            let written = DispatchSemaphore(value: 0)
            index.indexSearchableItems([makeItem("b", title: "B")]) { _ in written.signal() }
            let fetched = DispatchSemaphore(value: 0)
            index.fetchLastClientState { _, _ in fetched.signal() }
            waited.withLock { $0 = [written.wait(timeout: .now() + 5), fetched.wait(timeout: .now() + 5)] }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(waited.withLock { $0 }, [.success, .success], "a handler waiting on another call's completion")
        XCTAssertEqual(index.allIdentifiers, ["a", "b"])
    }

    func testContainersAreIsolatedAndNamesShareOneContainer() async throws {
        let container = SearchlightContainer()
        let mail = CSSearchableIndex(name: "mail", container: container)
        let notes = CSSearchableIndex(name: "notes", container: container)
        let other = makeIndex()
        try await mail.indexSearchableItems([makeItem("m", title: "mail")])
        XCTAssertEqual(notes.allIdentifiers, ["m"], "index names share their container's items")
        XCTAssertEqual(other.allIdentifiers, [], "another container never sees them")
    }

    func testDefaultIndexIsSharedAndIndexingIsAvailable() {
        XCTAssertTrue(CSSearchableIndex.isIndexingAvailable())
        XCTAssertTrue(CSSearchableIndex.default() === CSSearchableIndex.default())
        XCTAssertTrue(CSSearchableIndex.default().container === SearchlightContainer.default)
    }

    func testStatistics() async throws {
        let index = makeIndex()
        try await index.indexSearchableItems([makeItem("1", title: "alpha beta", domain: "x"),
                                              makeItem("2", title: "gamma", domain: "y.z")])
        let stats = index.statistics()
        XCTAssertEqual(stats.items, 2)
        XCTAssertEqual(stats.domains, 2)
        XCTAssertGreaterThan(stats.terms, 0)
        XCTAssertGreaterThan(stats.estimatedMemoryBytes, 0)
    }
}
