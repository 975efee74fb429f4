import Foundation
import XCTest
import Searchlight

/// Apple-style uses of the public API's signatures that the pin tests do not reach, each compiled against
/// `import Searchlight` only and checked for Apple's documented behaviour.
/// An app's attribute set subclass with a stored property of its own and no initialisers: in Swift it inherits
/// every initialiser of an Objective-C superclass such as Apple's. (`@unchecked Sendable` restates Searchlight's
/// conformance, which Swift asks subclasses to do.)
private final class NoteAttributeSet: CSSearchableItemAttributeSet, @unchecked Sendable {
    var noteColor = "yellow"
}

/// Private subclasses of the other archivable model classes.
private final class PinnedItem: CSSearchableItem, @unchecked Sendable {}
private final class FriendPerson: CSPerson, @unchecked Sendable {}

/// An attribute set subclass with a designated initialiser of its own calls `super.init(contentType:)`, which
/// Apple declares designated. (It must also implement `init(from:)`, which Searchlight's `Decodable` conformance
/// requires of every subclass that declares designated initialisers; Apple's class is not `Decodable`.)
private final class RecipeAttributeSet: CSSearchableItemAttributeSet, @unchecked Sendable {
    init(recipe: String) {
        super.init(contentType: .content)
        title = recipe
    }

    required init?(coder: NSCoder) { super.init(coder: coder) }

    required convenience init(from decoder: any Decoder) throws {
        self.init(recipe: try CSSearchableItemAttributeSet(from: decoder).title ?? "")
    }
}

/// An index subclass whose initialiser calls `super.init(name:)` or `super.init(name:protectionClass:)`, both
/// designated in Apple's API. (It must also implement `init(name:protectionClass:)`, which Searchlight requires
/// so that `default()` can return `Self`.)
private final class AppIndex: CSSearchableIndex, @unchecked Sendable {
    let purpose: String

    init(purpose: String) {
        self.purpose = purpose
        super.init(name: "app-\(purpose)")
    }

    init(protectedPurpose purpose: String) {
        self.purpose = purpose
        super.init(name: "app-\(purpose)", protectionClass: .complete)
    }

    required init(name: String, protectionClass: FileProtectionType?) {
        purpose = "shared"
        super.init(name: name, protectionClass: protectionClass)
    }
}

/// The same for a custom key subclass: `init?(keyName:)` is inherited.
private final class AppAttributeKey: CSCustomAttributeKey, @unchecked Sendable {
    var note = "app"
}

/// Xcode's "Spotlight Index Extension" template, unchanged: a non-final subclass with state of its own and no
/// `Sendable` annotation. Apple's base class is not `Sendable`; Searchlight's was `@unchecked Sendable`, so this
/// class drew "must restate inherited '@unchecked Sendable' conformance" (a build warning, an error under
/// warnings-as-errors). The test build staying free of warnings is what pins that; the test below runs it.
class IndexRequestHandler: CSIndexExtensionRequestHandler {
    var reindexedIdentifiers: [String] = []

    override func searchableIndex(_ searchableIndex: CSSearchableIndex,
                                  reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping () -> Void) {
        // Reindex all data with the provided index
        acknowledgementHandler()
    }

    override func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                                  acknowledgementHandler: @escaping () -> Void) {
        // Reindex any items with the given identifiers and the provided index
        reindexedIdentifiers += identifiers
        acknowledgementHandler()
    }

    override func data(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String) throws -> Data {
        Data(itemIdentifier.utf8)
    }

    override func fileURL(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String,
                          inPlace: Bool) throws -> URL {
        URL(fileURLWithPath: "/tmp/\(itemIdentifier)")
    }

    override func searchableItems(forIdentifiers identifiers: [String]) async -> [CSSearchableItem] {
        identifiers.map { makeItem($0, title: "fresh \($0)") }
    }
}

final class PortSignatureTests: XCTestCase {
    /// Apple's bridged error structs (`_BridgedStoredNSError`) expose the `NSError` they wrap as `_nsError`;
    /// code that hands a Core Spotlight error to Objective-C-era APIs reads it.
    func testBridgedErrorsExposeTheirNSError() {
        let index = CSIndexError(.quotaExceeded, userInfo: [NSLocalizedDescriptionKey: "full", "extra": 3])
        let ns: NSError = index._nsError
        XCTAssertEqual(ns.domain, CSIndexErrorDomain)
        XCTAssertEqual(ns.code, -1004)
        XCTAssertEqual(ns.localizedDescription, "full")
        XCTAssertEqual(ns.userInfo["extra"] as? Int, 3)
        XCTAssertEqual(CSIndexError(_nsError: index._nsError), index)

        let query = CSSearchQueryError(.invalidQuery, message: "bad")
        let qns: NSError = query._nsError
        XCTAssertEqual(qns.domain, CSSearchQueryErrorDomain)
        XCTAssertEqual(qns.code, -2002)
        XCTAssertEqual(qns.localizedDescription, "bad")
        XCTAssertEqual(CSSearchQueryError(_nsError: query._nsError), query)
    }

    /// Apple bridges an `NSError` of a Core Spotlight domain back to its error struct, so `as? CSIndexError`
    /// and `catch let error as CSIndexError` see an error that travelled as an `NSError` (wrapped by the app,
    /// kept under `NSUnderlyingErrorKey`, or built with `NSError(domain:code:)`).
    func testNSErrorsOfTheDomainsCastToTheErrorStructs() {
        let full: any Error = NSError(domain: CSIndexErrorDomain, code: -1004,
                                      userInfo: [NSLocalizedDescriptionKey: "full", "extra": 1])
        let cast = full as? CSIndexError
        XCTAssertEqual(cast?.code, .quotaExceeded)
        XCTAssertEqual(cast?.localizedDescription, "full")
        XCTAssertEqual(cast?.userInfo["extra"] as? Int, 1)
        do {
            throw full
        } catch let error as CSIndexError {
            XCTAssertEqual(error.code, .quotaExceeded)
        } catch {
            XCTFail("an NSError of CSIndexErrorDomain was not caught as CSIndexError: \(error)")
        }
        let travelled: any Error = CSIndexError(.invalidItemError, message: "item 'a' is bad") as NSError
        XCTAssertEqual((travelled as? CSIndexError)?.message, "item 'a' is bad")
        let underlying = NSError(domain: "App", code: 1, userInfo: [NSUnderlyingErrorKey: travelled as NSError])
        XCTAssertEqual((underlying.userInfo[NSUnderlyingErrorKey] as? CSIndexError)?.code, .invalidItemError)

        let query: any Error = NSError(domain: CSSearchQueryErrorDomain, code: -2003)
        XCTAssertEqual((query as? CSSearchQueryError)?.code, .cancelled)
        do {
            throw query
        } catch let error as CSSearchQueryError {
            XCTAssertEqual(error.code, .cancelled)
        } catch {
            XCTFail("an NSError of CSSearchQueryErrorDomain was not caught as CSSearchQueryError: \(error)")
        }

        // Another domain does not cast; nor, here, does a code the domain does not define (Apple's cast would
        // succeed and then trap reading `code`).
        XCTAssertNil(query as? CSIndexError)
        XCTAssertNil(full as? CSSearchQueryError)
        let foreign: any Error = NSError(domain: "Other", code: -1004)
        XCTAssertNil(foreign as? CSIndexError)
        let undefined: any Error = NSError(domain: CSIndexErrorDomain, code: -1999)
        XCTAssertNil(undefined as? CSIndexError)
    }

    func testAnAttributeSetSubclassInheritsTheInitialisers() throws {
        let set = NoteAttributeSet(contentType: .plainText)
        set.title = "Groceries"
        XCTAssertEqual(set.contentType, "public.plain-text")
        XCTAssertEqual(set.contentTypeTree?.contains("public.text"), true)
        XCTAssertEqual(set.noteColor, "yellow")
        XCTAssertEqual(NoteAttributeSet(itemContentType: "public.text").contentType, "public.text")
        let decoded = try JSONDecoder().decode(NoteAttributeSet.self, from: JSONEncoder().encode(set))
        XCTAssertEqual(decoded.title, "Groceries")
        XCTAssertEqual(decoded.noteColor, "yellow")
    }

    /// A private (or nested) subclass archives without trapping: swift-corelibs-foundation's archiver cannot name
    /// such a class (`NSStringFromClass` traps), so it archives as an attribute set, keeping every value.
    func testAPrivateAttributeSetSubclassArchivesWithoutTrapping() throws {
        let set = NoteAttributeSet(contentType: .plainText)
        set.title = "Groceries"
        let data = try NSKeyedArchiver.archivedData(withRootObject: set, requiringSecureCoding: true)
        let back = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItemAttributeSet.self,
                                                                     from: data))
        XCTAssertEqual(back.snapshot, set.snapshot)
        let item = CSSearchableItem(uniqueIdentifier: "n", domainIdentifier: nil, attributeSet: set)
        let itemData = try NSKeyedArchiver.archivedData(withRootObject: item, requiringSecureCoding: true)
        let itemBack = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItem.self, from: itemData))
        XCTAssertEqual(itemBack.attributeSet.title, "Groceries")
    }

    /// A copy is "a copy of the receiver" (NSCopying): a subclass's `copy()` is an instance of the subclass, as an
    /// archive round trip of a top-level one already was, so ported `set.copy() as! NoteAttributeSet` does not trap.
    func testAnAttributeSetSubclassCopiesAsItself() throws {
        let set = NoteAttributeSet(contentType: .plainText)
        set.title = "Groceries"
        set.setValue(3, forCustomKey: try XCTUnwrap(CSCustomAttributeKey(keyName: "items")))
        let copy = try XCTUnwrap(set.copy() as? NoteAttributeSet)
        XCTAssertFalse(copy === set)
        XCTAssertEqual(copy.snapshot, set.snapshot)
        set.title = "Changed"
        XCTAssertEqual(copy.title, "Groceries")
        let recipe = try XCTUnwrap(RecipeAttributeSet(recipe: "Pancakes").copy() as? RecipeAttributeSet)
        XCTAssertEqual(recipe.title, "Pancakes")
        XCTAssertTrue(type(of: CSSearchableItemAttributeSet().copy()) == CSSearchableItemAttributeSet.self)
    }

    /// A private subclass of an item, a custom key or a person archives without trapping too (see
    /// `testAPrivateAttributeSetSubclassArchivesWithoutTrapping`), as its base class, every value kept.
    func testPrivateModelSubclassesArchiveWithoutTrapping() throws {
        let key = try XCTUnwrap(AppAttributeKey(keyName: "com_example_tags", searchable: false,
                                                searchableByDefault: true, unique: true, multiValued: true))
        let keyData = try NSKeyedArchiver.archivedData(withRootObject: key, requiringSecureCoding: true)
        XCTAssertEqual(try NSKeyedUnarchiver.unarchivedObject(ofClass: CSCustomAttributeKey.self, from: keyData), key)

        let item = PinnedItem(uniqueIdentifier: "p", domainIdentifier: "a.b", attributeSet: .init())
        item.attributeSet.title = "Pinned"
        let itemData = try NSKeyedArchiver.archivedData(withRootObject: item, requiringSecureCoding: true)
        let itemBack = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchableItem.self, from: itemData))
        XCTAssertEqual(itemBack.uniqueIdentifier, "p")
        XCTAssertEqual(itemBack.attributeSet.title, "Pinned")

        let person = FriendPerson(displayName: "Ann", handles: ["a@x"], handleIdentifier: "email")
        let personData = try NSKeyedArchiver.archivedData(withRootObject: person, requiringSecureCoding: true)
        let personBack = try NSKeyedUnarchiver.unarchivedObject(ofClass: CSPerson.self, from: personData)
        XCTAssertEqual(personBack?.displayName, "Ann")
    }

    /// A subclass of an item, a custom key or a person copies as itself too, every value kept.
    func testModelSubclassesCopyAsThemselves() throws {
        let key = try XCTUnwrap(AppAttributeKey(keyName: "com_example_tags", searchable: false,
                                                searchableByDefault: true, unique: true, multiValued: true))
        let keyCopy = try XCTUnwrap(key.copy() as? AppAttributeKey)
        XCTAssertEqual(keyCopy, key)
        XCTAssertTrue(keyCopy.isUnique)

        let item = PinnedItem(uniqueIdentifier: "p", domainIdentifier: "a.b", attributeSet: .init())
        item.attributeSet.title = "Pinned"
        item.expirationDate = Date(timeIntervalSinceReferenceDate: 5)
        let itemCopy = try XCTUnwrap(item.copy() as? PinnedItem)
        XCTAssertEqual(itemCopy, item)
        XCTAssertFalse(itemCopy.attributeSet === item.attributeSet)

        let person = FriendPerson(displayName: "Ann", handles: ["a@x"], handleIdentifier: "email")
        person.contactIdentifier = "C1"
        let personCopy = try XCTUnwrap(person.copy() as? FriendPerson)
        XCTAssertEqual(personCopy, person)
        XCTAssertTrue(type(of: CSPerson(displayName: nil, handles: [], handleIdentifier: "h").copy()) == CSPerson.self)
    }

    func testACustomKeySubclassInheritsTheInitialisers() {
        let key = AppAttributeKey(keyName: "com_example_app_rating")
        XCTAssertEqual(key?.keyName, "com_example_app_rating")
        XCTAssertEqual(key?.isSearchable, true)
        XCTAssertEqual(key?.isMultiValued, false)
        XCTAssertEqual(key?.note, "app")
        XCTAssertNil(AppAttributeKey(keyName: "not valid"))
        let flagged = AppAttributeKey(keyName: "com_example_tags", searchable: true, searchableByDefault: true,
                                      unique: false, multiValued: true)
        XCTAssertEqual(flagged?.isMultiValued, true)
    }

    func testTheIndexExtensionTemplateServesTheIndex() async throws {
        let index = makeIndex()
        let handler = IndexRequestHandler()
        index.indexDelegate = handler
        let set = CSSearchableItemAttributeSet(contentType: .text)
        set.providerDataTypeIdentifiers = ["public.plain-text"]
        try await index.indexSearchableItems([CSSearchableItem(uniqueIdentifier: "a", domainIdentifier: nil, attributeSet: set)])
        XCTAssertEqual(try index.providerData(forItemIdentifier: "a", typeIdentifier: "public.plain-text"), Data("a".utf8))
        try await index.refreshSearchableItems(withIdentifiers: ["b"])
        XCTAssertEqual(index.fetchSearchableItems(withIdentifiers: ["b"]).first?.attributeSet.title, "fresh b")
        handler.searchableIndex(index, reindexSearchableItemsWithIdentifiers: ["c"]) {}
        XCTAssertEqual(handler.reindexedIdentifiers, ["c"])
    }

    func testAnAttributeSetSubclassCallsTheDesignatedContentTypeInitialiser() throws {
        let set = RecipeAttributeSet(recipe: "Pancakes")
        XCTAssertEqual(set.contentType, "public.content")
        XCTAssertEqual(set.contentTypeTree?.first, "public.content")
        XCTAssertEqual(set.title, "Pancakes")
        let decoded = try JSONDecoder().decode(RecipeAttributeSet.self, from: JSONEncoder().encode(set))
        XCTAssertEqual(decoded.title, "Pancakes")
    }

    func testAnIndexSubclassCallsTheDesignatedNameInitialisers() {
        let notes = AppIndex(purpose: "notes")
        XCTAssertEqual(notes.name, "app-notes")
        // Non-optional, as iOS 27 declares it: none given reads as the default class of an app's files.
        let unprotected: FileProtectionType = notes.protectionClass
        XCTAssertEqual(unprotected.rawValue, FileProtectionType.completeUntilFirstUserAuthentication.rawValue)
        XCTAssertEqual(notes.purpose, "notes")
        let secrets = AppIndex(protectedPurpose: "secrets")
        XCTAssertEqual(secrets.name, "app-secrets")
        XCTAssertEqual(secrets.protectionClass.rawValue, FileProtectionType.complete.rawValue)
        XCTAssertTrue(notes.container === secrets.container)
        let shared = AppIndex.default()
        XCTAssertEqual(shared.purpose, "shared")
        XCTAssertTrue(shared === AppIndex.default())
    }
}
