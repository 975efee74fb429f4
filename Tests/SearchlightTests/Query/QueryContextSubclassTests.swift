import Foundation
import XCTest
@testable import Searchlight

/// An app's query context subclasses, private as test and app code often declares them; one archives a setting
/// of its own.
private final class AppQueryContext: CSSearchQueryContext, @unchecked Sendable {
    var tag = ""

    override init() { super.init() }

    required init?(coder: NSCoder) {
        tag = coder.decodeObject(of: NSString.self, forKey: "tag").map(String.init) ?? ""
        super.init(coder: coder)
    }

    override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(NSString(string: tag), forKey: "tag")
    }
}
private final class AppUserQueryContext: CSUserQueryContext, @unchecked Sendable {}

/// Subclasses of `CSSearchQueryContext` and `CSUserQueryContext`: archiving and `NSCopying`.
final class QueryContextSubclassTests: XCTestCase {
    /// A private (or nested) context subclass archives as its base class, every setting kept: the contexts did not
    /// name a class for the archiver, and swift-corelibs-foundation's `NSStringFromClass` traps on such a class.
    func testAPrivateContextSubclassArchivesWithoutTrapping() throws {
        let context = AppQueryContext()
        context.filterQueries = ["rating == 1"]
        context.limit = 7
        let data = try NSKeyedArchiver.archivedData(withRootObject: context, requiringSecureCoding: true)
        let back = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSSearchQueryContext.self, from: data))
        XCTAssertEqual(back.filterQueries, ["rating == 1"])
        XCTAssertEqual(back.limit, 7)

        let user = AppUserQueryContext()
        user.maxResultCount = 9
        user.fetchAttributes = ["title"]
        let userData = try NSKeyedArchiver.archivedData(withRootObject: user, requiringSecureCoding: true)
        let userBack = try XCTUnwrap(NSKeyedUnarchiver.unarchivedObject(ofClass: CSUserQueryContext.self,
                                                                         from: userData))
        XCTAssertEqual(userBack.maxResultCount, 9)
        XCTAssertEqual(userBack.fetchAttributes, ["title"])
    }

    /// `copy()` is "a copy of the receiver" (NSCopying): a subclass's copy is an instance of the subclass, with
    /// every inherited setting, the cursor (which archives leave out) and what the subclass archives; it was a
    /// plain `CSSearchQueryContext` or `CSUserQueryContext`, so a ported `context.copy() as! AppContext` trapped.
    func testAContextSubclassCopiesAsItself() throws {
        let container = makeContainer((0..<5).map { makeItem("c\($0)", title: "Copy \($0)") })
        let first = CSSearchQuery(queryString: "true", queryContext: nil, container: container)
        XCTAssertNil(runQuery(first).error)
        let cursor = try XCTUnwrap(first.cursor)

        let context = AppQueryContext()
        context.tag = "inbox"
        context.fetchAttributes = ["title"]
        context.filterQueries = ["rating == 1"]
        context.keyboardLanguage = "de"
        context.sourceOptions = .allowMail
        context.sortAttributes = [.init("title", ascending: false)]
        context.limit = 3
        context.offset = 2
        context.cursor = cursor
        let copy = try XCTUnwrap(context.copy() as? AppQueryContext)
        XCTAssertFalse(copy === context)
        XCTAssertEqual(copy.tag, "inbox")
        XCTAssertEqual(copy.fetchAttributes, ["title"])
        XCTAssertEqual(copy.filterQueries, ["rating == 1"])
        XCTAssertEqual(copy.keyboardLanguage, "de")
        XCTAssertEqual(copy.sourceOptions, .allowMail)
        XCTAssertEqual(copy.sortAttributes, [.init("title", ascending: false)])
        XCTAssertEqual(copy.limit, 3)
        XCTAssertEqual(copy.offset, 2)
        XCTAssertEqual(copy.cursor, cursor)
        context.limit = 9
        XCTAssertEqual(copy.limit, 3)

        let user = AppUserQueryContext(currentSuggestion: nil)
        user.enableRankedResults = true
        user.maxResultCount = 4
        user.maxRankedResultCount = 6
        user.filterQueries = ["true"]
        user.cursor = cursor
        let userCopy = try XCTUnwrap(user.copy() as? AppUserQueryContext)
        XCTAssertTrue(userCopy.enableRankedResults)
        XCTAssertEqual(userCopy.maxResultCount, 4)
        XCTAssertEqual(userCopy.maxRankedResultCount, 6)
        XCTAssertEqual(userCopy.filterQueries, ["true"])
        XCTAssertEqual(userCopy.cursor, cursor)

        XCTAssertTrue(type(of: CSSearchQueryContext().copy()) == CSSearchQueryContext.self)
        XCTAssertTrue(type(of: CSUserQueryContext().copy()) == CSUserQueryContext.self)
    }
}
