import Foundation
import XCTest
@testable import Searchlight
import SearchlightEngine

/// Renown counts the items that mention a name among the visible ones: an expired item, hidden from every query
/// but not yet purged (that waits for the container's next write), must not keep lifting the names it mentions.
final class RenownOfExpiredMentionsTests: XCTestCase {
    func testExpiredItemsNoLongerLendRenown() throws {
        let clock = TestClock()
        var items = (0..<60).map { n in makeItem("i\(n)", title: "thing\(n)", description: "editor words \(n)") }
        for n in 0..<7 {
            items[n].attributeSet.contentDescription = "editor words vim \(n)"
            items[n].expirationDate = clock.now.addingTimeInterval(100)
        }
        items += [makeItem("vim", title: "vim", description: "an editor"), makeItem("emacs", title: "emacs", description: "an editor")]
        let container = makeContainer(items, clock: clock)
        func ranks() -> [String: Double] {
            let run = runUserQuery("an editor", in: container)
            XCTAssertNil(run.error)
            return Dictionary(uniqueKeysWithValues: run.items.map { ($0.uniqueIdentifier, $0.rank) })
        }
        let before = ranks()
        XCTAssertGreaterThan(try XCTUnwrap(before["vim"]), try XCTUnwrap(before["emacs"]) * 1.5, "seven items mention vim")
        clock.advance(by: 1_000)
        let after = ranks()
        XCTAssertEqual(try XCTUnwrap(after["vim"]), try XCTUnwrap(after["emacs"]), accuracy: 1e-6,
                       "the items mentioning vim have expired: \(after)")
    }
}
