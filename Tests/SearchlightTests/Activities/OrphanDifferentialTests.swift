// The Linux NSUserActivity (Foundation has its own on Apple platforms; see SearchlightActivityDonation).
#if !canImport(Darwin)
import Foundation
import SearchlightEngine
import XCTest
@testable import Searchlight

/// Seeded random writes, deletes, donations and expiries: after every write no activity tied to an item
/// (`relatedUniqueIdentifier`) outlives it, whichever way the item went (the orphan pass reads only the
/// activities `ActivityLinks` ties to the items that went).
final class OrphanDifferentialTests: XCTestCase {
    func testNoActivityOutlivesItsItemOverRandomWritesDeletesDonationsAndExpiries() async throws {
        for seed in UInt64(1)...12 {
            try await run(seed: seed, steps: 150, durable: false)
        }
    }

    /// The same in a durable container whose writes sometimes fail (an injected I/O error rolls them back) and
    /// which is sometimes reopened after a crash (the journal replayed, the links made again).
    func testNoActivityOutlivesItsItemAcrossFailedWritesAndReopens() async throws {
        for seed in UInt64(101)...104 {
            try await run(seed: seed, steps: 120, durable: true)
        }
    }

    private func run(seed: UInt64, steps: Int, durable: Bool) async throws {
        var rng = SeededGenerator(seed: seed)
        let clock = TestClock()
        let faults = FaultInjectingFileSystem()
        let url = durable ? makeStoreURL(self) : nil
        func open() throws -> SearchlightContainer {
            guard let url else { return SearchlightContainer(clock: clock.function) }
            return try SearchlightContainer(directory: url, options: storeOptions(faults, checkpointBytes: 8_000),
                                            clock: clock.function)
        }
        var container = try open()
        var failed = 0, reopened = 0
        let items = (0..<8).map { "item\($0)" }
        for step in 0..<steps {
            let operations = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                Self.randomOperation(items: items, now: clock.now, rng: &rng)
            }
            // Activity changes go alone, as the activity APIs submit them.
            let submitted: [IndexOperation]
            if case .activities = operations[0] { submitted = [operations[0]] } else {
                submitted = operations.filter { if case .activities = $0 { false } else { true } }
            }
            let fail = durable && Int.random(in: 0..<6, using: &rng) == 0
            let fired = faults.firedFaults.count
            if fail { faults.inject(.failWrite(errno: 5)) }
            let before = Self.activityLinks(container.snapshot().engine)
            var applied = true
            do { try await container.apply(submitted) } catch { applied = false }
            if faults.firedFaults.count > fired, !applied { failed += 1 }
            faults.reset()
            if durable, container.refusesWrites || Int.random(in: 0..<10, using: &rng) == 0 {
                container.closeWithoutCheckpoint()
                container = try open()
                reopened += 1
            }
            let engine = container.snapshot().engine
            for address in ActivityWriter.activityAddresses(in: engine) {
                guard let link = ActivityDocumentCodec.links(at: address, in: engine)?.strong,
                      engine.lookup(id: link) == nil else { continue }
                return XCTFail("seed \(seed) step \(step): \(engine.id(of: address) ?? "?") outlived item \(link)")
            }
            // And an item write takes no activity whose item stayed and which has not expired.
            if applied, !submitted.contains(where: { if case .activities = $0 { true } else { false } }) {
                let after = Self.activityLinks(engine)
                for (id, entry) in before where entry.expiration > clock.now.timeIntervalSinceReferenceDate
                    && entry.link.map({ engine.lookup(id: $0) != nil }) ?? true && after[id] == nil {
                    return XCTFail("seed \(seed) step \(step): \(id) went with its item \(entry.link ?? "-") present")
                }
            }
            if Int.random(in: 0..<3, using: &rng) == 0 { clock.advance(by: Double(Int.random(in: 0...8, using: &rng))) }
        }
        if durable {
            container.close()
            // The faults fired and the store was reopened, or the test checked less than it says.
            XCTAssertGreaterThan(failed, 0, "seed \(seed)")
            XCTAssertGreaterThan(reopened, 0, "seed \(seed)")
        }
    }

    /// Every stored activity's tied item and expiration, by record identifier.
    private static func activityLinks(_ engine: IndexSnapshot) -> [String: (link: String?, expiration: Double)] {
        var links: [String: (link: String?, expiration: Double)] = [:]
        for address in ActivityWriter.activityAddresses(in: engine) {
            guard let record = ActivityDocumentCodec.record(at: address, in: engine) else { continue }
            links[record.identifier] = (record.donation.strongLink,
                                        record.expirationDate.timeIntervalSinceReferenceDate)
        }
        return links
    }

    private static func randomOperation(items: [String], now: Date, rng: inout SeededGenerator) -> IndexOperation {
        switch Int.random(in: 0..<12, using: &rng) {
        case 0..<4:
            return .index((0..<Int.random(in: 1...3, using: &rng)).map { _ in
                let item = makeItem(items.randomElement(using: &rng)!, title: "t",
                                    domain: ["d1", "d2", nil].randomElement(using: &rng)!)
                item.expirationDate = now.addingTimeInterval(Double(Int.random(in: 1...30, using: &rng)))
                return item
            })
        case 4, 5:
            return .deleteIdentifiers([items.randomElement(using: &rng)!])
        case 6:
            return .deleteDomains([["d1", "d2"].randomElement(using: &rng)!])
        case 7 where Int.random(in: 0..<4, using: &rng) == 0:
            return .deleteAll
        case 8:
            return .activities(.deletePersistentIdentifiers(["p\(Int.random(in: 0..<6, using: &rng))"]))
        default:
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.relatedUniqueIdentifier = items.randomElement(using: &rng)!
            let expiration = Bool.random(using: &rng)
                ? now.addingTimeInterval(Double(Int.random(in: 1...40, using: &rng))) : nil
            return .activities(.donate(ActivityDonation(
                activityType: "com.example.view", title: "v", attributeSet: set,
                persistentIdentifier: "p\(Int.random(in: 0..<6, using: &rng))", expirationDate: expiration)))
        }
    }
}

#endif
