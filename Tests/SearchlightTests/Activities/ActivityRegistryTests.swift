import Foundation
import Synchronization
import XCTest
@testable import Searchlight

/// The container's live activity objects: donors by record identifier, kept weakly.
final class ActivityRegistryTests: XCTestCase {
    private final class Donor: Sendable {}

    /// Registering a donor walked every donor registered so far (to drop dead ones), so an app that donated a few
    /// thousand activities spent seconds in `becomeCurrent()`: 40,000 live donors are registered in well under a
    /// second now, each still found under its identifier.
    func testRegisteringManyDonorsIsNotQuadratic() {
        let registry = ActivityRegistry()
        let donors = (0..<40_000).map { _ in Donor() }
        let start = Date()
        for (n, donor) in donors.enumerated() { registry.registerDonor(donor, for: "r\(n)") }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "registering 40,000 donors")
        XCTAssertTrue(registry.donor(for: "r0") === donors[0])
        XCTAssertTrue(registry.donor(for: "r39999") === donors[39_999])
    }

    /// Donors that are gone are dropped as more register, so the registry does not grow with every activity ever
    /// donated; live ones stay.
    func testDeadDonorsAreDropped() {
        let registry = ActivityRegistry()
        let kept = Donor()
        registry.registerDonor(kept, for: "kept")
        for n in 0..<10_000 { registry.registerDonor(Donor(), for: "gone\(n)") }
        XCTAssertLessThan(registry.donorCount, 1_000)
        XCTAssertTrue(registry.donor(for: "kept") === kept)
        XCTAssertNil(registry.donor(for: "gone9999"))
    }
}
