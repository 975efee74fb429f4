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

    /// The README's ways to catch an index error on Linux, where `catch let error as NSError` lets the struct pass:
    /// `catch let error as CSIndexError`, or `error as NSError` inside a plain `catch`.
    func testIndexErrorsAreCaughtTheWaysTheReadmeShows() async {
        let index = CSSearchableIndex(name: "CatchIndexErrors-\(UUID().uuidString)")
        let bad = CSSearchableItem(uniqueIdentifier: "", domainIdentifier: nil, attributeSet: CSSearchableItemAttributeSet(contentType: .text))
        do {
            try await index.indexSearchableItems([bad])
            XCTFail("an empty identifier must be refused")
        } catch let error as CSIndexError {
            XCTAssertEqual(error.code, .invalidItemError)
        } catch {
            XCTFail("not a CSIndexError: \(type(of: error))")
        }
        do {
            try await index.indexSearchableItems([bad])
            XCTFail("an empty identifier must be refused")
        } catch {
            let error = error as NSError
            XCTAssertEqual(error.domain, CSIndexErrorDomain)
            XCTAssertEqual(error.code, CSIndexError.Code.invalidItemError.rawValue)
            XCTAssertFalse(error.localizedDescription.isEmpty)
        }
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

    func testErrorsAreBuiltAndBridgedLikeApplesBridgedErrors() {
        let a = CSIndexError(.indexUnavailableError)
        let b = CSSearchQueryError(.cancelled)
        let c = CSIndexError(.quotaExceeded, userInfo: [NSLocalizedDescriptionKey: "full"])
        XCTAssertEqual(a.code, .indexUnavailableError)
        XCTAssertEqual(b.code, .cancelled)
        XCTAssertEqual(c.userInfo[NSLocalizedDescriptionKey] as? String, "full")
        XCTAssertEqual(c.localizedDescription, "full")
        XCTAssertEqual(c.message, "full")
        XCTAssertTrue(a.localizedDescription.contains("-1000"), a.localizedDescription)
        XCTAssertEqual(CSIndexError(_nsError: a as NSError).code, .indexUnavailableError)
        XCTAssertEqual(CSSearchQueryError(_nsError: b as NSError).code, .cancelled)
        XCTAssertEqual(CSIndexError(_nsError: c as NSError).userInfo[NSLocalizedDescriptionKey] as? String, "full")
        XCTAssertEqual(CSIndexError.invalidItemError, CSIndexError.Code.invalidItemError)
        XCTAssertEqual(CSSearchQueryError.invalidQuery, CSSearchQueryError.Code.invalidQuery)

        // An NSError of another domain, or with a code Apple does not define, becomes `unknown…`, not a crash.
        let foreign = CSIndexError(_nsError: NSError(domain: "Other", code: 7))
        XCTAssertEqual(foreign.code, .unknownError)
        XCTAssertEqual((foreign.userInfo[NSUnderlyingErrorKey] as? NSError)?.domain, "Other")
        XCTAssertTrue(foreign.message.contains("Other"), foreign.message)
        XCTAssertEqual(CSSearchQueryError(_nsError: NSError(domain: CSSearchQueryErrorDomain, code: -2999)).code, .unknown)

        // The library's own errors keep their message in userInfo and bridge with their domain and code.
        let thrown = CSIndexError.invalidItem("item 'x': attribute 'latitude' is not finite")
        XCTAssertEqual(thrown.userInfo[NSLocalizedDescriptionKey] as? String, "item 'x': attribute 'latitude' is not finite")
        XCTAssertEqual(thrown.message, "item 'x': attribute 'latitude' is not finite")
        let ns = thrown as NSError
        XCTAssertEqual(ns.domain, CSIndexErrorDomain)
        XCTAssertEqual(ns.code, -1001)
        XCTAssertEqual(ns.userInfo[NSLocalizedDescriptionKey] as? String, thrown.message)
        XCTAssertEqual(ns.localizedDescription, thrown.message)
        let invalid = CSSearchQueryError.invalid("query 'title == ' ends early at column 10") as NSError
        XCTAssertEqual(invalid.domain, CSSearchQueryErrorDomain)
        XCTAssertEqual(invalid.code, -2002)
        XCTAssertEqual(invalid.userInfo[NSLocalizedDescriptionKey] as? String, "query 'title == ' ends early at column 10")

        // Equal by code and description; hashed by code.
        XCTAssertEqual(a, CSIndexError(.indexUnavailableError))
        XCTAssertNotEqual(c, CSIndexError(.quotaExceeded, userInfo: [NSLocalizedDescriptionKey: "other"]))
        XCTAssertEqual(Set([a, CSIndexError(.indexUnavailableError), c]).count, 2)
    }

    /// An error bridged to NSError and back (`init(_nsError:)`) is the same error, with its code, message and
    /// user info; Apple's `init(_:userInfo:)` keeps a description.
    func testErrorsRoundTripThroughNSError() {
        let error = CSIndexError(.invalidItemError, message: "item 'x': title is not a string")
        let ns = error as NSError
        XCTAssertEqual(ns.domain, CSIndexErrorDomain)
        XCTAssertEqual(ns.code, CSIndexError.Code.invalidItemError.rawValue)
        XCTAssertEqual(ns.localizedDescription, "item 'x': title is not a string")
        let back = CSIndexError(_nsError: ns)
        XCTAssertEqual(back, error)
        XCTAssertEqual(back.code, .invalidItemError)
        XCTAssertEqual(back.message, error.message)
        let custom = CSIndexError(.quotaExceeded, userInfo: [NSLocalizedDescriptionKey: "full", "extra": 7])
        XCTAssertEqual(custom.message, "full")
        XCTAssertEqual(custom.userInfo["extra"] as? Int, 7)
        XCTAssertEqual((custom as NSError).userInfo["extra"] as? Int, 7)
        let plain = CSIndexError(.quotaExceeded)
        XCTAssertFalse(plain.message.isEmpty)
        XCTAssertEqual(plain.errorDescription, nil)
        let q = CSSearchQueryError(.cancelled, message: "cancelled by the app")
        XCTAssertEqual(CSSearchQueryError(_nsError: q as NSError), q)
        let foreign = CSSearchQueryError(_nsError: NSError(domain: "Other", code: 5))
        XCTAssertEqual(foreign.code, .unknown)
        XCTAssertEqual((foreign.userInfo[NSUnderlyingErrorKey] as? NSError)?.domain, "Other")
        // Hashable consistent with ==.
        XCTAssertEqual(Set([error, back]).count, 1)
        do {
            throw error
        } catch CSIndexError.invalidItemError {
        } catch {
            XCTFail("pattern did not match: \(error)")
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
