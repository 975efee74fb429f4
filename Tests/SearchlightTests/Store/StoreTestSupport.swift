import Foundation
import Synchronization
import XCTest
@testable import Searchlight
import SearchlightEngine

/// A fresh, private store directory for one test (removed at the end of the test).
func makeStoreURL(_ test: XCTestCase) -> URL {
    let base = FileManager.default.temporaryDirectory
        .appendingPathComponent("searchlight-container-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
    test.addTeardownBlock { try? FileManager.default.removeItem(at: base) }
    return base.appendingPathComponent("store")
}

/// Store options with a file layer (faults) and a checkpoint threshold.
func storeOptions(_ fileSystem: any StoreFileSystem = POSIXFileSystem(), checkpointBytes: Int = 64 << 20) -> StoreOptions {
    var options = StoreOptions()
    options.fileSystem = fileSystem
    options.checkpointJournalBytes = checkpointBytes
    return options
}

extension CSSearchableIndex {
    /// The client state, waited for.
    var lastClientState: Data? {
        let box = Mutex<Data?>(nil)
        let done = DispatchSemaphore(value: 0)
        fetchLastClientState { state, _ in
            box.withLock { $0 = state }
            done.signal()
        }
        done.wait()
        return box.withLock { $0 }
    }

    /// Runs a batch of index calls and ends it with `state`; returns the end's error.
    func batch(_ state: String, _ body: (CSSearchableIndex) -> Void) -> (any Error)? {
        beginBatch()
        body(self)
        return completion { done in endBatch(withClientState: Data(state.utf8), completionHandler: done) }
    }
}

/// Deterministic pseudo-random numbers (SplitMix64) for seeded tests.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
