import Foundation
import XCTest
import Searchlight

// Core Spotlight app code written as Apple's documentation, WWDC samples and open-source apps write it: it must
// compile unchanged against Searchlight and behave as on Apple platforms.

final class PortIndexDelegate: NSObject, CSSearchableIndexDelegate {
    var reindexAllCount = 0
    func searchableIndex(_ searchableIndex: CSSearchableIndex,
                         reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void) {
        reindexAllCount += 1
        acknowledgementHandler()
    }

    func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                         acknowledgementHandler: @escaping () -> Void) {
        acknowledgementHandler()
    }

    func searchableIndexDidThrottle(_ searchableIndex: CSSearchableIndex) {}
    func searchableIndexDidFinishThrottle(_ searchableIndex: CSSearchableIndex) {}

    func data(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String) throws -> Data {
        Data("data for \(itemIdentifier)".utf8)
    }

    func fileURL(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String,
                 inPlace: Bool) throws -> URL {
        URL(fileURLWithPath: "/tmp/\(itemIdentifier)")
    }

    func searchableItems(forIdentifiers identifiers: [String],
                         searchableItemsHandler: @escaping ([CSSearchableItem]) -> Void) {
        searchableItemsHandler([])
    }

    func searchableItemsDidUpdate(_ items: [CSSearchableItem]) {}
}

final class PortExtensionHandler: CSIndexExtensionRequestHandler, @unchecked Sendable {
    override func searchableIndex(_ searchableIndex: CSSearchableIndex,
                                  reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void) {
        acknowledgementHandler()
    }

    override func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                                  acknowledgementHandler: @escaping () -> Void) {
        acknowledgementHandler()
    }
}

final class PortActivityDelegate: NSObject, NSUserActivityDelegate {
    func userActivityWillSave(_ userActivity: NSUserActivity) {}
    func userActivityWasContinued(_ userActivity: NSUserActivity) {}
}

final class PortImporter: CSImportExtension, @unchecked Sendable {
    override func update(_ attributes: CSSearchableItemAttributeSet, forFileAt contentURL: URL) throws {
        attributes.title = contentURL.lastPathComponent
    }
}

final class PortFidelityTests: XCTestCase {

    private func makeNoteItem(id: String, title: String, body: String) -> CSSearchableItem {
        let attributeSet = CSSearchableItemAttributeSet(contentType: .text)
        attributeSet.title = title
        attributeSet.displayName = title
        attributeSet.contentDescription = body
        attributeSet.textContent = body
        attributeSet.keywords = ["note", "port"]
        attributeSet.contentCreationDate = Date()
        attributeSet.contentModificationDate = Date()
        attributeSet.thumbnailData = Data([1, 2, 3])
        attributeSet.rating = 4
        attributeSet.rankingHint = 50
        attributeSet.supportsNavigation = true
        attributeSet.supportsPhoneCall = NSNumber(value: true)
        attributeSet.latitude = 37.33
        attributeSet.longitude = NSNumber(value: -122.03)
        attributeSet.phoneNumbers = ["+1 555 0100"]
        attributeSet.authorNames = ["Ann"]
        attributeSet.authors = [CSPerson(displayName: "Ann", handles: ["ann@example.com"], handleIdentifier: "email")]
        attributeSet.startDate = Date()
        attributeSet.endDate = Date().addingTimeInterval(3600)
        attributeSet.allDay = false
        attributeSet.duration = 90
        attributeSet.city = "Cupertino"
        attributeSet.namedLocation = "Apple Park"
        attributeSet.containerTitle = "Notebook"
        attributeSet.relatedUniqueIdentifier = nil
        attributeSet.path = "/notes/\(id)"
        attributeSet.contentURL = URL(string: "https://example.com/notes/\(id)")
        attributeSet.thumbnailURL = URL(fileURLWithPath: "/tmp/thumb.png")
        attributeSet.userCreated = 1
        attributeSet.identifier = id
        if let key = CSCustomAttributeKey(keyName: "com_example_port_priority") {
            attributeSet.setValue(NSNumber(value: 3), forCustomKey: key)
        }
        let item = CSSearchableItem(uniqueIdentifier: id, domainIdentifier: "com.example.notes", attributeSet: attributeSet)
        item.expirationDate = Date.distantFuture
        return item
    }

    func testPortIndexWithCompletionHandlerAndQueryWithHandlers() throws {
        let index = CSSearchableIndex(name: "PortNotes-\(UUID().uuidString)")
        let item = makeNoteItem(id: "port-note-1-\(UUID().uuidString)", title: "Groceries list", body: "Milk eggs bread")
        let indexed = expectation(description: "indexed")
        index.indexSearchableItems([item]) { error in
            if let error = error {
                XCTFail("Indexing error: \(error.localizedDescription)")
            }
            indexed.fulfill()
        }
        wait(for: [indexed], timeout: 10)

        let escaped = "Groc"
        let queryString = "title == \"*\(escaped)*\"cd"
        let context = CSSearchQueryContext()
        context.fetchAttributes = ["title", "displayName", "keywords"]
        let query = CSSearchQuery(queryString: queryString, queryContext: context)
        var found: [CSSearchableItem] = []
        let lock = NSLock()
        let done = expectation(description: "done")
        query.foundItemsHandler = { items in
            lock.lock(); found.append(contentsOf: items); lock.unlock()
        }
        query.completionHandler = { error in
            XCTAssertNil(error)
            done.fulfill()
        }
        query.start()
        wait(for: [done], timeout: 10)
        XCTAssertTrue(found.contains { $0.uniqueIdentifier == item.uniqueIdentifier })
        XCTAssertEqual(found.first { $0.uniqueIdentifier == item.uniqueIdentifier }?.attributeSet.title, "Groceries list")
    }

    func testPortAsyncIndexAndResults() async throws {
        let index = CSSearchableIndex(name: "PortAsync", protectionClass: .completeUntilFirstUserAuthentication)
        let delegate = PortIndexDelegate()
        index.indexDelegate = delegate
        let id = "port-async-\(UUID().uuidString)"
        try await index.indexSearchableItems([makeNoteItem(id: id, title: "Quarterly report zebra", body: "Revenue grew")])

        let context = CSSearchQueryContext()
        context.fetchAttributes = ["title", "contentDescription"]
        let query = CSSearchQuery(queryString: "title == \"*zebra*\"c", queryContext: context)
        var titles: [String] = []
        for try await result in query.results {
            if result.item.uniqueIdentifier == id { titles.append(result.item.attributeSet.title ?? "") }
        }
        XCTAssertEqual(titles, ["Quarterly report zebra"])
        try await index.deleteSearchableItems(withIdentifiers: [id])
        try await index.deleteSearchableItems(withDomainIdentifiers: ["com.example.notes"])
    }

    func testPortUserQueryResponses() async throws {
        let index = CSSearchableIndex.default()
        let id = "port-user-\(UUID().uuidString)"
        try await index.indexSearchableItems([makeNoteItem(id: id, title: "Xylophone lessons", body: "Music practice")])
        CSUserQuery.prepare()
        let queryContext = CSUserQueryContext()
        queryContext.fetchAttributes = ["title", "contentDescription"]
        queryContext.maxSuggestionCount = 5
        queryContext.enableRankedResults = true
        let query = CSUserQuery(userQueryString: "xylo", userQueryContext: queryContext)
        var items: [CSUserQuery.Item] = []
        var suggestions: [CSUserQuery.Suggestion] = []
        for try await element in query.responses {
            switch element {
            case .item(let item):
                items.append(item)
            case .suggestion(let suggestion):
                suggestions.append(suggestion)
            @unknown default:
                break
            }
        }
        XCTAssertTrue(items.contains { $0.item.uniqueIdentifier == id }, "items: \(items.map(\.id))")
        let sorted = items.sorted { $0.item.compare(byRank: $1.item) == .orderedDescending }
        XCTAssertEqual(sorted.count, items.count)
        for s in suggestions {
            let text = String(s.suggestion.localizedAttributedSuggestion.characters)
            XCTAssertFalse(text.isEmpty)
            _ = s.suggestion.suggestionKind == .custom
        }
        if let first = items.first {
            query.userEngaged(first, visibleItems: items, interaction: .select)
        }
    }

    func testPortUserActivity() throws {
        let activity = NSUserActivity(activityType: "com.example.app.viewRecipe")
        activity.title = "Pasta carbonara"
        activity.isEligibleForSearch = true
        activity.isEligibleForHandoff = false
        activity.isEligibleForPublicIndexing = false
        activity.keywords = ["pasta", "dinner"]
        activity.userInfo = ["recipeID": 42]
        activity.requiredUserInfoKeys = ["recipeID"]
        activity.persistentIdentifier = "recipe-42"
        let attributes = CSSearchableItemAttributeSet(contentType: .content)
        attributes.contentDescription = "A Roman classic"
        attributes.thumbnailData = Data([0xFF])
        attributes.relatedUniqueIdentifier = "recipe-42"
        activity.contentAttributeSet = attributes
        activity.becomeCurrent()
        activity.resignCurrent()
        activity.invalidate()
    }

    func testPortContinuation() throws {
        let item = makeNoteItem(id: "port-cont-1", title: "T", body: "B")
        guard let activity = SearchlightContinuation.activity(forSelecting: item) else { return XCTFail() }
        // AppDelegate.application(_:continue:restorationHandler:)
        if activity.activityType == CSSearchableItemActionType {
            if let uniqueIdentifier = activity.userInfo?[CSSearchableItemActivityIdentifier] as? String {
                XCTAssertEqual(uniqueIdentifier, "port-cont-1")
            } else { XCTFail("no identifier") }
        } else { XCTFail("wrong type") }
        let search = SearchlightContinuation.activityForSearchInApp(query: "pasta")
        XCTAssertEqual(search.activityType, CSQueryContinuationActionType)
        XCTAssertEqual(search.userInfo?[CSSearchQueryString] as? String, "pasta")
    }

    func testPortBatchingAndClientState() async throws {
        let index = CSSearchableIndex(name: "PortBatch-\(UUID().uuidString)")
        index.beginBatch()
        index.indexSearchableItems([makeNoteItem(id: "port-batch-1", title: "Batch", body: "One")], completionHandler: nil)
        let state = Data("v1".utf8)
        try await index.endBatch(withClientState: state)
        let fetched = try await index.fetchLastClientState()
        XCTAssertEqual(fetched, state)
        let fetchedByHandler = expectation(description: "fetch")
        index.fetchLastClientState { data, error in
            XCTAssertEqual(data, state)
            XCTAssertNil(error)
            fetchedByHandler.fulfill()
        }
        await fulfillment(of: [fetchedByHandler], timeout: 10)
        try await index.deleteAllSearchableItems()
    }

    func testPortLegacyItemContentTypeAndKUTType() throws {
        let a = CSSearchableItemAttributeSet(itemContentType: kUTTypeText as String)
        XCTAssertEqual(a.contentType, "public.text")
        let b = CSSearchableItemAttributeSet(contentType: UTType.image)
        XCTAssertEqual(b.contentType, UTType.image.identifier)
        XCTAssertTrue(b.contentTypeTree?.contains("public.data") ?? false, "tree: \(String(describing: b.contentTypeTree))")
    }

    func testPortErrorsAndCancel() async throws {
        let index = CSSearchableIndex(name: "Port2")
        let badSet = CSSearchableItemAttributeSet(contentType: .text)
        badSet.title = "bad"
        let bad = CSSearchableItem(uniqueIdentifier: "", domainIdentifier: "a..b", attributeSet: badSet)
        do {
            try await index.indexSearchableItems([bad])
            XCTFail("an empty identifier must be refused")
        } catch let error as CSIndexError {
            switch error.code {
            case .invalidItemError: break
            case .unknownError, .indexUnavailableError, .invalidClientStateError, .remoteConnectionError,
                 .quotaExceeded, .indexingUnsupported, .mismatchedClientState: XCTFail("code \(error.code)")
            @unknown default: XCTFail()
            }
        }
        // `catch let error as NSError` misses the struct on Linux (README, "What does not port"); bridging inside a
        // plain `catch` instead: ErrorAndConstantTests.testIndexErrorsAreCaughtTheWaysTheReadmeShows.
        let q = CSSearchQuery(queryString: "title == *", queryContext: nil)
        q.protectionClasses = [.complete, .completeUnlessOpen]
        let done = expectation(description: "c")
        q.completionHandler = { error in
            if let error = error as? CSSearchQueryError { XCTAssertEqual(error.code, .cancelled) }
            done.fulfill()
        }
        q.start()
        q.cancel()
        await fulfillment(of: [done], timeout: 5)
        XCTAssertTrue(q.isCancelled)
    }

    func testPortSuggestionsAndContext() async throws {
        let ctx = CSUserQueryContext.userQueryContext
        ctx.maxSuggestionCount = 3
        ctx.maxResultCount = 10
        ctx.maxRankedResultCount = 5
        ctx.disableSemanticSearch = true
        ctx.filterQueries = ["contentType == \"public.text\""]
        ctx.keyboardLanguage = "en"
        let q = CSUserQuery(userQueryString: "pasta", userQueryContext: ctx)
        var got: [CSSuggestion] = []
        for try await s in q.suggestions {
            got.append(s.suggestion)
            let next = CSUserQueryContext(currentSuggestion: s.suggestion)
            _ = next
        }
        _ = got.sorted { $0.compare(byRank: $1) == .orderedAscending }
        let q2 = CSUserQuery(userQueryString: nil, userQueryContext: nil)
        q2.foundSuggestionsHandler = { suggestions in _ = suggestions.count }
        q2.foundItemsHandler = { items in _ = items.count }
        let done = expectation(description: "d")
        q2.completionHandler = { _ in done.fulfill() }
        q2.start()
        await fulfillment(of: [done], timeout: 5)
        _ = q2.foundSuggestionCount
        CSUserQuery.prepareProtectionClasses([.completeUntilFirstUserAuthentication])
    }

    func testPortAttributeKinds() throws {
        let set = CSSearchableItemAttributeSet(contentType: UTType.emailMessage)
        set.contentType = UTType.emailMessage.identifier
        set.authors = [CSPerson(displayName: "A", handles: ["a@x.com"], handleIdentifier: "emailAddresses")]
        set.primaryRecipients = [CSPerson(displayName: nil, handles: ["b@x.com"], handleIdentifier: "emailAddresses")]
        set.additionalRecipients = []
        set.hiddenAdditionalRecipients = nil
        set.emailHeaders = ["Subject": ["Hi"]]
        set.emailAddresses = ["a@x.com"]
        set.mailboxIdentifiers = [CSMailboxInbox]
        set.likelyJunk = false
        set.actionIdentifiers = ["reply"]
        set.sharedItemContentType = .plainText
        set.subject = "Hi"
        set.htmlContentData = Data("<b>x</b>".utf8)
        set.fileSize = 1024
        set.pageCount = NSNumber(value: 3)
        set.importantDates = [Date()]
        set.dueDate = Date()
        set.languages = ["en"]
        set.darkThumbnailURL = URL(fileURLWithPath: "/tmp/d.png")
        set.weakRelatedUniqueIdentifier = "x"
        set.domainIdentifier = "mail"
        set.metadataModificationDate = Date()
        set.providerDataTypeIdentifiers = [UTType.plainText.identifier]
        set.altitude = 12.5
        set.headline = "h"
        set.musicalGenre = "rock"
        set.pixelWidth = 100
        set.containerOrder = 1
        set.transcribedTextContent = "spoken words"
        _ = set.textContentSummary
        _ = set.isPriority
        let item = CSSearchableItem(uniqueIdentifier: nil, domainIdentifier: nil, attributeSet: set)
        XCTAssertFalse(item.uniqueIdentifier.isEmpty)
        item.expirationDate = nil
        XCTAssertNotNil(item.expirationDate)
        item.isUpdate = true
        item.updateListenerOptions = [.summarization, .priority]
        let copy = item.copy() as! CSSearchableItem
        XCTAssertEqual(copy.uniqueIdentifier, item.uniqueIdentifier)
        let setCopy = set.copy() as! CSSearchableItemAttributeSet
        XCTAssertEqual(setCopy.subject, "Hi")
        let key = CSCustomAttributeKey(keyName: "com_example_tags", searchable: true, searchableByDefault: true, unique: false, multiValued: true)!
        set.setValue(["a", "b"] as NSArray, forCustomKey: key)
        set.setValue("s" as NSString, forCustomKey: CSCustomAttributeKey(keyName: "com_example_s")!)
        XCTAssertEqual(set.value(forCustomKey: CSCustomAttributeKey(keyName: "com_example_s")!) as? NSString, "s")
        let title = String(CSLocalizedString(localizedStrings: ["en": "Hello"]))
        set.title = title
    }

    func testPortUserActivityExtras() async throws {
        let activity = NSUserActivity(activityType: "com.example.browse")
        let d = PortActivityDelegate()
        activity.delegate = d
        activity.title = "Browse"
        activity.isEligibleForSearch = true
        activity.isEligibleForPrediction = true
        activity.webpageURL = URL(string: "https://example.com/x")
        activity.addUserInfoEntries(from: ["k": "v"])
        activity.needsSave = true
        activity.targetContentIdentifier = "x"
        activity.expirationDate = Date().addingTimeInterval(60)
        activity.becomeCurrent()
        NSUserActivity.deleteSavedUserActivities(withPersistentIdentifiers: ["none"]) { }
        await NSUserActivity.deleteAllSavedUserActivities()
        _ = NSUserActivity.current
        _ = NSUserActivityTypeBrowsingWeb
    }
}
