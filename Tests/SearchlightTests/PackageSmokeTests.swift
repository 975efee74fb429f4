import XCTest

final class SearchlightPackageSmokeTests: XCTestCase {
    func testTargetBuilds() { XCTAssertEqual(1 + 1, 2) }
}
