import Foundation
import XCTest
import Searchlight

/// Apple-style uses of the public API's signatures that the pin tests do not reach, each compiled against
/// `import Searchlight` only and checked for Apple's documented behaviour.
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
}
