import Foundation
import XCTest
@testable import Searchlight

/// Kills a child process that indexes batches with client state (SIGKILL, at seeded random moments) and checks
/// after every kill that the store reopens with every acknowledged batch complete and no partial batch.
///
/// The child is the `searchlight-crash-child` executable of this package (Sources/SearchlightCrashChild). A
/// plain `swift build --build-tests` / `swift test` builds it next to the test bundle; if it is missing (a
/// filtered build), the test builds it with `swift build --product searchlight-crash-child` first.
final class CrashTests: XCTestCase {
    /// Batch n indexes "b<n>-<k>" for k in 0..<(1 + n % 5) and deletes "b<n-2>-0" (see the child's main.swift).
    static func expectedIdentifiers(afterBatch m: Int) -> [String] {
        guard m > 0 else { return [] }
        var ids: [String] = []
        for n in 1...m {
            for k in 0..<(1 + n % 5) where !(k == 0 && n <= m - 2) { ids.append("b\(n)-\(k)") }
        }
        return ids.sorted()
    }

    static func childExecutable() throws -> URL {
        let name = "searchlight-crash-child"
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var candidates = [
            URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent(),
            Bundle(for: CrashTests.self).bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ].map { $0.appendingPathComponent(name) }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)"))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found }
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = ["swift", "build", "--product", name]
        build.currentDirectoryURL = packageRoot
        try build.run()
        build.waitUntilExit()
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found }
        throw CSIndexError.unknown("\(name) was not found next to the tests (\(candidates.map(\.path))) and could not be built")
    }

    func testKilledAtSeededRandomMomentsLosesNoAcknowledgedBatchAndShowsNoPartialOne() throws {
        let url = makeStoreURL(self)
        let child = try Self.childExecutable()
        var random = SeededRandom(seed: 20_261_122)
        var durable = 0  // the batch the last reopen found: every later reopen must find it or a later one
        var killedMidRun = 0
        for round in 0..<50 {
            let process = Process()
            process.executableURL = child
            // A small checkpoint threshold so kills also land inside snapshots and journal switches.
            process.arguments = [url.path, "100000", "6000"]
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            var seen = Data()
            if round % 2 == 0 {
                // Any moment from launch: during start-up and recovery too.
                usleep(UInt32.random(in: 0...300_000, using: &random))
            } else {
                // A moment while batches are being indexed, however slow the start-up is on this machine.
                while !seen.contains(UInt8(ascii: "\n")) {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    seen.append(chunk)
                }
                usleep(UInt32.random(in: 1_000...120_000, using: &random))
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            seen.append(output.fileHandleForReading.readDataToEndOfFile())
            let lines = String(decoding: seen, as: UTF8.self).split(separator: "\n")
            let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, "round \(round): \(problems)")
            XCTAssertTrue(problems.isEmpty, "round \(round): \(problems)")
            var acknowledged = durable
            for line in lines {
                if line.hasPrefix("resume ") {
                    XCTAssertEqual(Int(line.dropFirst(7)), durable, "round \(round): the child resumed elsewhere")
                } else if line.hasPrefix("ack "), let n = Int(line.dropFirst(4)) {
                    XCTAssertEqual(n, acknowledged + 1, "round \(round): acknowledgements in order")
                    acknowledged = n
                }
            }
            if acknowledged > durable { killedMidRun += 1 }

            let container = try SearchlightContainer(directory: url)
            XCTAssertNil(container.recoveryReport?.corruption, "round \(round)")
            let index = CSSearchableIndex(name: "crash", container: container)
            let state = index.lastClientState.flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
            // The last acknowledged batch, or a later one that completed before the kill.
            XCTAssertGreaterThanOrEqual(state, acknowledged, "round \(round): an acknowledged batch was lost")
            XCTAssertLessThanOrEqual(state, acknowledged + 1, "round \(round)")
            // Exactly the items of batches 1...state: nothing missing, nothing from a partial batch.
            XCTAssertEqual(index.allIdentifiers, Self.expectedIdentifiers(afterBatch: state), "round \(round), state \(state)")
            if state > 0 {
                let last = index.fetchSearchableItems(withIdentifiers: ["b\(state)-0"]).first
                XCTAssertEqual(last?.attributeSet.title, "batch \(state) item 0")
            }
            durable = state
            // Alternate between a clean close (snapshot) and a crash-like release (journal only).
            if round % 3 == 0 { container.close() } else { container.closeWithoutCheckpoint() }
        }
        XCTAssertGreaterThanOrEqual(killedMidRun, 20, "kills should land while batches are being indexed")
        print("crash test: \(killedMidRun) of 50 kills during indexing, \(durable) batches durable")
        XCTAssertGreaterThan(durable, 50)
    }

    func testASecondProcessIsRefusedWithAClearError() throws {
        let url = makeStoreURL(self)
        let container = try SearchlightContainer(directory: url)
        let process = Process()
        process.executableURL = try Self.childExecutable()
        process.arguments = [url.path, "1"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 1)
        XCTAssertTrue(message.contains("locked by another process"), message)
        container.close()
        // Once released, the other process opens it.
        let again = Process()
        again.executableURL = process.executableURL
        again.arguments = [url.path, "1"]
        again.standardOutput = Pipe()
        try again.run()
        again.waitUntilExit()
        XCTAssertEqual(again.terminationStatus, 0)
    }
}
