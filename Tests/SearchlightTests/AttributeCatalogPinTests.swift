import Foundation
import XCTest
import Searchlight

// Apple-style code against Core Spotlight's Swift surface (developer.apple.com declarations / SDK headers),
// compiled with only `import Searchlight`. Each helper pins exact type and settability through key paths.
private typealias AS = CSSearchableItemAttributeSet
private func rw<T>(_ kp: ReferenceWritableKeyPath<AS, T>, _: T.Type) {}
private func ro<T>(_ kp: KeyPath<AS, T>, _: T.Type) {}

final class AttributeCatalogPinTests: XCTestCase {
    func testAttributeSetPropertiesMatchAppleTypes() {
        // General
        rw(\.displayName, String?.self); rw(\.alternateNames, [String]?.self); rw(\.path, String?.self)
        rw(\.contentURL, URL?.self); rw(\.thumbnailURL, URL?.self); rw(\.thumbnailData, Data?.self)
        rw(\.darkThumbnailURL, URL?.self); rw(\.relatedUniqueIdentifier, String?.self)
        rw(\.weakRelatedUniqueIdentifier, String?.self); rw(\.metadataModificationDate, Date?.self)
        rw(\.contentType, String?.self); rw(\.contentTypeTree, [String]?.self); rw(\.keywords, [String]?.self)
        rw(\.title, String?.self); rw(\.version, String?.self); rw(\.userCreated, NSNumber?.self)
        rw(\.userOwned, NSNumber?.self); rw(\.userCurated, NSNumber?.self); rw(\.rankingHint, NSNumber?.self)
        rw(\.domainIdentifier, String?.self)
        ro(\.textContentSummary, String?.self); rw(\.transcribedTextContent, String?.self); ro(\.isPriority, NSNumber?.self)
        // Actions, containment, provider
        rw(\.supportsPhoneCall, NSNumber?.self); rw(\.supportsNavigation, NSNumber?.self)
        rw(\.actionIdentifiers, [String].self); rw(\.sharedItemContentType, UTType?.self)
        rw(\.containerTitle, String?.self); rw(\.containerDisplayName, String?.self)
        rw(\.containerIdentifier, String?.self); rw(\.containerOrder, NSNumber?.self)
        rw(\.providerDataTypeIdentifiers, [String]?.self); rw(\.providerFileTypeIdentifiers, [String]?.self)
        rw(\.providerInPlaceFileTypeIdentifiers, [String]?.self)
        // Documents
        rw(\.subject, String?.self); rw(\.theme, String?.self); rw(\.contentDescription, String?.self)
        rw(\.identifier, String?.self); rw(\.audiences, [String]?.self); rw(\.fileSize, NSNumber?.self)
        rw(\.pageCount, NSNumber?.self); rw(\.pageWidth, NSNumber?.self); rw(\.pageHeight, NSNumber?.self)
        rw(\.securityMethod, String?.self); rw(\.creator, String?.self); rw(\.encodingApplications, [String]?.self)
        rw(\.kind, String?.self); rw(\.fontNames, [String]?.self)
        // Events
        rw(\.dueDate, Date?.self); rw(\.completionDate, Date?.self); rw(\.startDate, Date?.self)
        rw(\.endDate, Date?.self); rw(\.importantDates, [Date]?.self); rw(\.allDay, NSNumber?.self)
        // Messaging
        rw(\.accountIdentifier, String?.self); rw(\.accountHandles, [String]?.self); rw(\.htmlContentData, Data?.self)
        rw(\.textContent, String?.self); rw(\.authors, [CSPerson]?.self); rw(\.primaryRecipients, [CSPerson]?.self)
        rw(\.additionalRecipients, [CSPerson]?.self); rw(\.hiddenAdditionalRecipients, [CSPerson]?.self)
        rw(\.emailHeaders, [String: [Any]]?.self); rw(\.mailboxIdentifiers, [String]?.self)
        rw(\.authorNames, [String]?.self); rw(\.recipientNames, [String]?.self)
        rw(\.authorEmailAddresses, [String]?.self); rw(\.recipientEmailAddresses, [String]?.self)
        rw(\.authorAddresses, [String]?.self); rw(\.recipientAddresses, [String]?.self)
        rw(\.phoneNumbers, [String]?.self); rw(\.emailAddresses, [String]?.self)
        rw(\.instantMessageAddresses, [String]?.self); rw(\.likelyJunk, NSNumber.self)
        // Media
        rw(\.editors, [String]?.self); rw(\.participants, [String]?.self); rw(\.projects, [String]?.self)
        rw(\.downloadedDate, Date?.self); rw(\.contentSources, [String]?.self); rw(\.comment, String?.self)
        rw(\.copyright, String?.self); rw(\.lastUsedDate, Date?.self); rw(\.contentCreationDate, Date?.self)
        rw(\.contentModificationDate, Date?.self); rw(\.addedDate, Date?.self); rw(\.duration, NSNumber?.self)
        rw(\.contactKeywords, [String]?.self); rw(\.codecs, [String]?.self); rw(\.mediaTypes, [String]?.self)
        rw(\.streamable, NSNumber?.self); rw(\.totalBitRate, NSNumber?.self); rw(\.videoBitRate, NSNumber?.self)
        rw(\.audioBitRate, NSNumber?.self); rw(\.deliveryType, NSNumber?.self); rw(\.organizations, [String]?.self)
        rw(\.role, String?.self); rw(\.languages, [String]?.self); rw(\.rights, String?.self)
        rw(\.publishers, [String]?.self); rw(\.contributors, [String]?.self); rw(\.coverage, [String]?.self)
        rw(\.rating, NSNumber?.self); rw(\.ratingDescription, String?.self); rw(\.playCount, NSNumber?.self)
        rw(\.information, String?.self); rw(\.director, String?.self); rw(\.producer, String?.self)
        rw(\.genre, String?.self); rw(\.performers, [String]?.self); rw(\.originalFormat, String?.self)
        rw(\.originalSource, String?.self); rw(\.local, NSNumber?.self); rw(\.contentRating, NSNumber?.self)
        rw(\.url, URL?.self)
        // Music
        rw(\.audioSampleRate, NSNumber?.self); rw(\.audioChannelCount, NSNumber?.self); rw(\.tempo, NSNumber?.self)
        rw(\.keySignature, String?.self); rw(\.timeSignature, String?.self); rw(\.audioEncodingApplication, String?.self)
        rw(\.composer, String?.self); rw(\.lyricist, String?.self); rw(\.album, String?.self); rw(\.artist, String?.self)
        rw(\.audioTrackNumber, NSNumber?.self); rw(\.recordingDate, Date?.self); rw(\.musicalGenre, String?.self)
        rw(\.generalMIDISequence, NSNumber?.self); rw(\.musicalInstrumentCategory, String?.self)
        rw(\.musicalInstrumentName, String?.self)
        // Images
        rw(\.pixelHeight, NSNumber?.self); rw(\.pixelWidth, NSNumber?.self); rw(\.pixelCount, NSNumber?.self)
        rw(\.colorSpace, String?.self); rw(\.bitsPerSample, NSNumber?.self); rw(\.flashOn, NSNumber?.self)
        rw(\.focalLength, NSNumber?.self); rw(\.focalLength35mm, NSNumber?.self); rw(\.acquisitionMake, String?.self)
        rw(\.acquisitionModel, String?.self); rw(\.cameraOwner, String?.self); rw(\.lensModel, String?.self)
        rw(\.isoSpeed, NSNumber?.self); rw(\.orientation, NSNumber?.self); rw(\.layerNames, [String]?.self)
        rw(\.whiteBalance, NSNumber?.self); rw(\.aperture, NSNumber?.self); rw(\.profileName, String?.self)
        rw(\.resolutionWidthDPI, NSNumber?.self); rw(\.resolutionHeightDPI, NSNumber?.self)
        rw(\.exposureMode, NSNumber?.self); rw(\.exposureTime, NSNumber?.self); rw(\.exifVersion, String?.self)
        rw(\.exifgpsVersion, String?.self); rw(\.hasAlphaChannel, NSNumber?.self); rw(\.redEyeOn, NSNumber?.self)
        rw(\.meteringMode, String?.self); rw(\.maxAperture, NSNumber?.self); rw(\.fNumber, NSNumber?.self)
        rw(\.exposureProgram, String?.self); rw(\.exposureTimeString, String?.self)
        // Places
        rw(\.headline, String?.self); rw(\.instructions, String?.self); rw(\.thoroughfare, String?.self)
        rw(\.subThoroughfare, String?.self); rw(\.postalCode, String?.self); rw(\.city, String?.self)
        rw(\.stateOrProvince, String?.self); rw(\.country, String?.self); rw(\.fullyFormattedAddress, String?.self)
        rw(\.altitude, NSNumber?.self); rw(\.latitude, NSNumber?.self); rw(\.longitude, NSNumber?.self)
        rw(\.speed, NSNumber?.self); rw(\.timestamp, Date?.self); rw(\.imageDirection, NSNumber?.self)
        rw(\.namedLocation, String?.self); rw(\.gpsTrack, NSNumber?.self); rw(\.gpsStatus, String?.self)
        rw(\.gpsMeasureMode, String?.self); rw(\.gpsdop, NSNumber?.self); rw(\.gpsMapDatum, String?.self)
        rw(\.gpsDestLatitude, NSNumber?.self); rw(\.gpsDestLongitude, NSNumber?.self)
        rw(\.gpsDestBearing, NSNumber?.self); rw(\.gpsDestDistance, NSNumber?.self)
        rw(\.gpsProcessingMethod, String?.self); rw(\.gpsAreaInformation, String?.self)
        rw(\.gpsDateStamp, Date?.self); rw(\.gpsDifferental, NSNumber?.self)
    }

    func testAttributeSetInitialisersAndCustomValues() {
        let a = CSSearchableItemAttributeSet(contentType: UTType.text)
        let b = CSSearchableItemAttributeSet(itemContentType: "public.text")
        let key = CSCustomAttributeKey(keyName: "com_example_k")!
        a.setValue("v" as NSString, forCustomKey: key)
        a.setValue(nil, forCustomKey: key)
        let v: (any NSSecureCoding)? = b.value(forCustomKey: key)
        XCTAssertNil(v)
        let copy = a.copy() as! CSSearchableItemAttributeSet
        XCTAssertEqual(copy.contentType, "public.text")
    }
}

// MARK: - probe (compile-only)
final class ProbeDelegate: NSObject, CSSearchableIndexDelegate {
    func searchableIndex(_ searchableIndex: CSSearchableIndex,
                         reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void) {
        acknowledgementHandler()
    }
    func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                         acknowledgementHandler: @escaping () -> Void) {
        acknowledgementHandler()
    }
    func data(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String) throws -> Data { Data() }
    func fileURL(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String, inPlace: Bool) throws -> URL {
        URL(fileURLWithPath: "/")
    }
    func searchableItems(forIdentifiers identifiers: [String], searchableItemsHandler: @escaping @Sendable ([CSSearchableItem]) -> Void) {}
    func searchableItemsDidUpdate(_ items: [CSSearchableItem]) {}
}

final class ProbeImporter: CSImportExtension {
    override func update(_ attributes: CSSearchableItemAttributeSet, forFileAt contentURL: URL) throws {}
}

func probeIndex() async throws {
    let index: CSSearchableIndex = CSSearchableIndex.default()
    let named = CSSearchableIndex(name: "n")
    let prot = CSSearchableIndex(name: "n", protectionClass: .complete)
    let prot2 = CSSearchableIndex(name: "n", protectionClass: nil)
    _ = (prot, prot2)
    let available: Bool = CSSearchableIndex.isIndexingAvailable()
    _ = available
    let delegate = ProbeDelegate()
    named.indexDelegate = delegate
    let d: (any CSSearchableIndexDelegate)? = named.indexDelegate
    _ = d
    let item = CSSearchableItem(uniqueIdentifier: "a", domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet(contentType: .text))
    index.indexSearchableItems([item]) { (error: (any Error)?) in _ = error }
    index.deleteSearchableItems(withIdentifiers: ["a"]) { _ in }
    index.deleteSearchableItems(withDomainIdentifiers: ["a"]) { _ in }
    index.deleteAllSearchableItems { _ in }
    named.beginBatch()
    named.endBatch(withClientState: Data()) { _ in }
    named.endIndexBatch(expectedClientState: nil, newClientState: Data()) { _ in }
    named.fetchLastClientState { (state: Data?, error: (any Error)?) in _ = (state, error) }
    try await index.indexSearchableItems([item])
    try await index.deleteSearchableItems(withIdentifiers: ["a"])
    try await index.deleteSearchableItems(withDomainIdentifiers: ["a"])
    try await index.deleteAllSearchableItems()
    try await named.endBatch(withClientState: Data())
    try await named.endIndexBatch(expectedClientState: Data(), newClientState: Data())
    let state: Data = try await named.fetchLastClientState()
    _ = state
}

func probeItem() {
    let set = CSSearchableItemAttributeSet(contentType: .text)
    let item = CSSearchableItem(uniqueIdentifier: nil, domainIdentifier: "d", attributeSet: set)
    item.uniqueIdentifier = "x"
    item.domainIdentifier = nil
    item.expirationDate = nil
    item.expirationDate = Date.distantFuture
    let e: Date = item.expirationDate
    item.attributeSet = set
    item.isUpdate = true
    item.updateListenerOptions = [.summarization, .priority]
    let r: ComparisonResult = item.compare(byRank: item)
    _ = (e, r)
    XCTAssertEqual(CSSearchableItem.UpdateListenerOptions.summarization.rawValue, 2)
    XCTAssertEqual(CSSearchableItem.UpdateListenerOptions.priority.rawValue, 4)
    XCTAssertEqual(CSSearchableItem.UpdateListenerOptions.default.rawValue, 0)
}

func probePersonKey() {
    let p = CSPerson(displayName: nil, handles: ["a@b.c"], handleIdentifier: "emailAddresses")
    p.contactIdentifier = "c"
    let dn: String? = p.displayName; let h: [String] = p.handles; let hi: String = p.handleIdentifier
    _ = (dn, h, hi)
    let k: CSCustomAttributeKey? = CSCustomAttributeKey(keyName: "k", searchable: true, searchableByDefault: false, unique: false, multiValued: true)
    let b: Bool = k!.isSearchable && k!.isSearchableByDefault && k!.isUnique && k!.isMultiValued
    let n: String = k!.keyName
    _ = (b, n)
}

func probeErrors(_ error: any Error) {
    let e = CSIndexError(.invalidItemError)
    let c: CSIndexError.Code = e.code
    let i: Int = e.errorCode
    let dom: String = CSIndexError.errorDomain
    let ui: [String: Any] = e.userInfo
    _ = (c, i, dom, ui)
    let q = CSSearchQueryError(.cancelled)
    let qc: CSSearchQueryError.Code = q.code
    _ = qc
    switch error {
    case CSIndexError.quotaExceeded: break
    case CSSearchQueryError.cancelled: break
    default: break
    }
    if let e = error as? CSIndexError, e.code == .mismatchedClientState {}
}

@available(*, deprecated, message: "pins the deprecated CSSearchQuery(queryString:attributes:) too")
func probeQuery() {
    let context = CSSearchQueryContext()
    context.fetchAttributes = ["title"]
    context.filterQueries = ["a == 1"]
    context.keyboardLanguage = "en"
    context.sourceOptions = .allowMail
    let q = CSSearchQuery(queryString: "title == \"x\"", queryContext: context)
    let q2 = CSSearchQuery(queryString: "title == \"x\"", attributes: ["title"])
    let q3 = CSSearchQuery(queryString: "title == \"x\"", attributes: nil)
    _ = (q2, q3)
    q.foundItemsHandler = { (items: [CSSearchableItem]) in _ = items }
    q.completionHandler = { (error: (any Error)?) in _ = error }
    q.protectionClasses = [.complete]
    let n: Int = q.foundItemCount
    let c: Bool = q.isCancelled
    _ = (n, c)
    q.start(); q.cancel()
    let results: CSSearchQuery.Results = q.results
    _ = results
    let uctx = CSUserQueryContext.userQueryContext
    uctx.enableRankedResults = true; uctx.disableSemanticSearch = true
    uctx.maxResultCount = 1; uctx.maxSuggestionCount = 1; uctx.maxRankedResultCount = 1
    let u = CSUserQuery(userQueryString: "x", userQueryContext: uctx)
    let u2 = CSUserQuery(userQueryString: nil, userQueryContext: nil)
    _ = u2
    u.foundSuggestionsHandler = { (s: [CSSuggestion]) in _ = s }
    let sc: Int = u.foundSuggestionCount
    _ = sc
    CSUserQuery.prepare()
    CSUserQuery.prepareProtectionClasses([.complete])
    let ctx2 = CSUserQueryContext(currentSuggestion: nil)
    _ = ctx2
    let rs: CSUserQuery.Responses = u.responses
    let ss: CSUserQuery.Suggestions = u.suggestions
    _ = (rs, ss)
    let kind: CSUserQuery.UserInteractionKind = .focus
    XCTAssertEqual(kind.rawValue, 1)
    XCTAssertEqual(CSUserQuery.UserInteractionKind.select.rawValue, 0)
}

func probeSuggestion(_ s: CSSuggestion) {
    let a: AttributedString = s.localizedAttributedSuggestion
    let k: CSSuggestion.SuggestionKind = s.suggestionKind
    let r1: ComparisonResult = s.compare(byRank: s)
    let r2: ComparisonResult = s.compare(s)
    _ = (a, k, r1, r2)
    XCTAssertEqual(CSSuggestion.SuggestionKind.none.rawValue, 0)
    XCTAssertEqual(CSSuggestion.SuggestionKind.custom.rawValue, 1)
    XCTAssertEqual(CSSuggestion.SuggestionKind.default.rawValue, 2)
    let key: NSAttributedString.Key = .suggestionHighlight
    _ = key
}

func probeActivity() {
    let a = NSUserActivity(activityType: CSSearchableItemActionType)
    a.contentAttributeSet = CSSearchableItemAttributeSet(contentType: .text)
    let id = a.userInfo?[CSSearchableItemActivityIdentifier] as? String
    let q = a.userInfo?[CSSearchQueryString] as? String
    _ = (id, q, CSQueryContinuationActionType, CSActionIdentifier, CSMailboxInbox, CSMailboxDrafts, CSMailboxSent,
         CSMailboxJunk, CSMailboxTrash, CSMailboxArchive, CSIndexErrorDomain, CSSearchQueryErrorDomain)
    let v: Double = CoreSpotlightVersionNumber
    _ = v
}

final class AppleSurfacePinTests: XCTestCase {
    func testItemMembersAndOptionRawValues() { probeItem() }
    func testEnumRawValuesMatchApple() {
        XCTAssertEqual(CSUserQuery.UserInteractionKind.select.rawValue, 0)
        XCTAssertEqual(CSUserQuery.UserInteractionKind.focus.rawValue, 1)
        XCTAssertEqual(CSUserQuery.UserInteractionKind.default, .select)
        XCTAssertEqual(CSSuggestion.SuggestionKind.none.rawValue, 0)
        XCTAssertEqual(CSSuggestion.SuggestionKind.custom.rawValue, 1)
        XCTAssertEqual(CSSuggestion.SuggestionKind.default.rawValue, 2)
        XCTAssertEqual(CSSearchQueryContext.SourceOptions.allowMail.rawValue, 1)
        XCTAssertEqual(CSSearchQueryError.Code.allCases.map(\.rawValue), [-2000, -2001, -2002, -2003])
        XCTAssertEqual(CSIndexError.Code.allCases.map(\.rawValue), [-1, -1000, -1001, -1002, -1003, -1004, -1005, -1006])
        // The constants' values: ErrorAndConstantTests.testConstants.
    }
}
