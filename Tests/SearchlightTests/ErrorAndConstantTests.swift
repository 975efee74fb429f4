import Foundation
import XCTest
@testable import Searchlight

final class ErrorAndConstantTests: XCTestCase {
    func testIndexErrorCodesAndDomain() {
        let expected: [CSIndexError.Code: Int] = [
            .unknownError: -1, .indexUnavailableError: -1000, .invalidItemError: -1001, .invalidClientStateError: -1002,
            .remoteConnectionError: -1003, .quotaExceeded: -1004, .indexingUnsupported: -1005, .mismatchedClientState: -1006,
        ]
        XCTAssertEqual(CSIndexError.Code.allCases.count, expected.count)
        for (code, raw) in expected { XCTAssertEqual(code.rawValue, raw) }
        let error = CSIndexError.invalidItem("item 'x': attribute 'latitude' holds the non-finite number nan")
        XCTAssertEqual(CSIndexError.errorDomain, "CSIndexErrorDomain")
        XCTAssertEqual(error.errorCode, -1001)
        let ns = error as NSError
        XCTAssertEqual(ns.domain, CSIndexErrorDomain)
        XCTAssertEqual(ns.code, -1001)
        XCTAssertEqual(error.errorUserInfo[NSLocalizedDescriptionKey] as? String, error.message)
        XCTAssertEqual(error.localizedDescription, "item 'x': attribute 'latitude' holds the non-finite number nan")
        XCTAssertEqual(error.code, .invalidItemError)
        XCTAssertEqual(CSIndexError.mismatchedState("m").code, .mismatchedClientState)
        XCTAssertEqual(CSIndexError.invalidClientState("m").errorCode, -1002)
        XCTAssertEqual(CSIndexError.quota("m").errorCode, -1004)
    }

    func testIndexErrorPatternMatching() {
        func thrower(_ e: any Error) throws { throw e }
        do {
            try thrower(CSIndexError.invalidItem("bad"))
            XCTFail("must throw")
        } catch CSIndexError.quotaExceeded {
            XCTFail("wrong code matched")
        } catch CSIndexError.invalidItemError {
            // expected
        } catch {
            XCTFail("pattern did not match: \(error)")
        }
        // Also matches an NSError carrying the same domain and code.
        let bridged = NSError(domain: CSIndexErrorDomain, code: -1004)
        XCTAssertTrue(CSIndexError.quotaExceeded ~= bridged)
        XCTAssertFalse(CSIndexError.invalidItemError ~= bridged)
        XCTAssertFalse(CSIndexError.invalidItemError ~= NSError(domain: "Other", code: -1001))
    }

    func testSearchQueryErrorCodes() {
        XCTAssertEqual(CSSearchQueryError.Code.unknown.rawValue, -2000)
        XCTAssertEqual(CSSearchQueryError.Code.indexUnreachable.rawValue, -2001)
        XCTAssertEqual(CSSearchQueryError.Code.invalidQuery.rawValue, -2002)
        XCTAssertEqual(CSSearchQueryError.Code.cancelled.rawValue, -2003)
        let error = CSSearchQueryError.invalid("query 'title == ' ends early at column 10")
        XCTAssertEqual((error as NSError).domain, "CSSearchQueryErrorDomain")
        XCTAssertEqual((error as NSError).code, -2002)
        XCTAssertEqual(error.localizedDescription, "query 'title == ' ends early at column 10")
        do {
            throw CSSearchQueryError.cancelledQuery()
        } catch CSSearchQueryError.cancelled {
            // expected
        } catch {
            XCTFail("pattern did not match")
        }
    }

    func testConstants() {
        XCTAssertEqual(CSSearchableItemActionType, "com.apple.corespotlightitem")
        XCTAssertEqual(CSSearchableItemActivityIdentifier, "kCSSearchableItemActivityIdentifier")
        XCTAssertEqual(CSQueryContinuationActionType, "com.apple.corespotlightcontinuation")
        XCTAssertEqual(CSSearchQueryString, "kCSSearchQueryString")
        XCTAssertEqual(CSIndexErrorDomain, "CSIndexErrorDomain")
        XCTAssertEqual(CSSearchQueryErrorDomain, "CSSearchQueryErrorDomain")
        let mailboxes = [CSMailboxInbox, CSMailboxDrafts, CSMailboxSent, CSMailboxJunk, CSMailboxTrash, CSMailboxArchive]
        XCTAssertEqual(Set(mailboxes).count, 6)
        XCTAssertFalse(CSActionIdentifier.isEmpty)
        XCTAssertGreaterThan(CoreSpotlightVersionNumber, 0)
        XCTAssertFalse(CoreSpotlightVersionString.isEmpty)
    }
}
