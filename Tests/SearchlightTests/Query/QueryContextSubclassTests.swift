import Foundation
import XCTest
@testable import Searchlight

/// An app's query context subclasses, private as test and app code often declares them.
private final class AppQueryContext: CSSearchQueryContext, @unchecked Sendable {}
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
}
