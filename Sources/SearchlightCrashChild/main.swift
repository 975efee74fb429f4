// searchlight-crash-child: indexes deterministic batches into a durable container until it is killed, for the
// crash test (Tests/SearchlightTests/Store/CrashTests.swift).
//
// Usage: searchlight-crash-child <store directory> [max batches] [checkpoint bytes]
// It resumes after the batch named by the stored client state, then indexes batch n = last + 1, +2, … and
// prints "ack <n>" (flushed) once batch n's completion handler reported success. Batch n indexes items
// "b<n>-<k>" for k in 0..<(1 + n % 5) and deletes "b<n-2>-0"; its client state is "<n>" in UTF-8.
import Dispatch
import Foundation
import Searchlight
import SearchlightEngine

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: searchlight-crash-child <store directory> [max batches] [checkpoint bytes]\n".utf8))
    exit(2)
}
let maxBatches = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
var options = StoreOptions()
options.checkpointJournalBytes = arguments.count > 3 ? Int(arguments[3]) ?? (64 << 20) : (64 << 20)

let container: SearchlightContainer
do {
    container = try SearchlightContainer(directory: URL(fileURLWithPath: arguments[1]), options: options)
} catch {
    FileHandle.standardError.write(Data("open failed: \(error)\n".utf8))
    exit(1)
}
let index = CSSearchableIndex(name: "crash", container: container)

/// Writes a line to stdout unbuffered (one write call), so the parent sees it even if killed right after.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Waits for a completion-handler API.
func wait<T: Sendable>(_ body: (@escaping @Sendable (T) -> Void) -> Void) -> T {
    let semaphore = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    body { value in
        box.value = value
        semaphore.signal()
    }
    semaphore.wait()
    return box.value!
}

final class ResultBox<T>: @unchecked Sendable {
    // Written once by the completion handler before the semaphore is signalled, read after the wait.
    var value: T?
}

let lastState: Data? = wait { done in index.fetchLastClientState { state, _ in done(state) } }
let last = lastState.flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
say("resume \(last)")

for n in (last + 1)...(last + maxBatches) {
    let items = (0..<(1 + n % 5)).map { k -> CSSearchableItem in
        let attributes = CSSearchableItemAttributeSet(contentType: .text)
        attributes.title = "batch \(n) item \(k)"
        attributes.textContent = String(repeating: "durable journal record \(n) ", count: 1 + k)
        return CSSearchableItem(uniqueIdentifier: "b\(n)-\(k)", domainIdentifier: "crash.\(n % 3)",
                                attributeSet: attributes)
    }
    index.beginBatch()
    index.indexSearchableItems(items)
    if n > 2 { index.deleteSearchableItems(withIdentifiers: ["b\(n - 2)-0"]) }
    let error: (any Error)? = wait { done in
        index.endBatch(withClientState: Data("\(n)".utf8)) { done($0) }
    }
    if let error {
        FileHandle.standardError.write(Data("batch \(n) failed: \(error)\n".utf8))
        exit(1)
    }
    say("ack \(n)")
}
container.close()
