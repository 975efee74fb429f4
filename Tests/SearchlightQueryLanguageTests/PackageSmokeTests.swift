import XCTest

final class SearchlightQueryLanguagePackageSmokeTests: XCTestCase {
    func testTargetBuilds() { XCTAssertEqual(1 + 1, 2) }
}
