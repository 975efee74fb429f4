import Foundation
import Synchronization
import XCTest
@testable import Searchlight

/// Readers and writers at once: every read sees whole batches only, and reading never fails.
final class ConcurrencyTests: XCTestCase {
    func testReadersSeeWholeBatchesWhileWritersCommit() async throws {
        let container = SearchlightContainer()
        let batchSize = 5
        let rounds = 40
        final class Shared: Sendable {
            let violations = Mutex<[String]>([])
            let stop = Mutex(false)
        }
        let shared = Shared()
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    let index = CSSearchableIndex(name: "writer\(writer)", container: container)
                    for round in 0..<rounds {
                        index.beginBatch()
                        let items = (0..<batchSize).map { makeItem("w\(writer)-r\(round)-i\($0)", title: "round \(round)",
                                                                   keywords: ["w\(writer)r\(round)"]) }
                        try? await index.indexSearchableItems(items)
                        if round > 0 {
                            try? await index.deleteSearchableItems(withIdentifiers: (0..<batchSize).map { "w\(writer)-r\(round - 1)-i\($0)" })
                        }
                        try? await index.endBatch(withClientState: Data("\(round)".utf8))
                    }
                }
            }
            for reader in 0..<8 {
                group.addTask {
                    var reads = 0
                    while !shared.stop.withLock({ $0 }) || reads < 20 {
                        let snapshot = container.snapshot()
                        let ids = snapshot.visibleAddresses().compactMap { snapshot.engine.id(of: $0) }
                        var perWriter: [String: Int] = [:]
                        for id in ids { perWriter[String(id.prefix(2)), default: 0] += 1 }
                        for (writer, count) in perWriter where count != batchSize {
                            shared.violations.withLock { $0.append("reader \(reader) saw \(count) items of \(writer)") }
                        }
                        for address in snapshot.visibleAddresses().prefix(3) {
                            if ItemDocumentCodec.item(at: address, in: snapshot.engine) == nil {
                                shared.violations.withLock { $0.append("reader \(reader) could not decode \(address)") }
                            }
                        }
                        reads += 1
                        await Task.yield()
                    }
                }
            }
            for await _ in group.prefix(2) {}
            shared.stop.withLock { $0 = true }
        }
        XCTAssertEqual(shared.violations.withLock { $0 }, [])
        let final = CSSearchableIndex(name: "writer0", container: container)
        XCTAssertEqual(final.itemCount(), 2 * batchSize)
        let state = try await final.fetchLastClientState()
        XCTAssertEqual(String(decoding: state, as: UTF8.self), "\(rounds - 1)")
    }
}
