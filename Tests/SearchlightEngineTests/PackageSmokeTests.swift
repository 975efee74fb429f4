import XCTest

final class SearchlightEnginePackageSmokeTests: XCTestCase {
    func testTargetBuilds() { XCTAssertEqual(1 + 1, 2) }
}
