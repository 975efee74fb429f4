import Dispatch

/// Runs `body` for chunks `0..<count` on every core and returns the results in chunk order.
///
/// Each chunk initializes only its own slot of one buffer, so the threads share no variable and take no
/// lock (a `Mutex` captured by the work closure is itself an access every thread modifies, which the thread
/// sanitizer rightly reports). Used for a batch's parallel text analysis and item conversion.
package func concurrentChunks<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
    guard count > 0 else { return [] }
    let slots = UnsafeMutablePointer<T>.allocate(capacity: count)
    defer { slots.deallocate() }
    let shared = Slots(base: slots)
    DispatchQueue.concurrentPerform(iterations: count) { chunk in
        (shared.base + chunk).initialize(to: body(chunk))
    }
    let results = Array(UnsafeBufferPointer(start: slots, count: count))
    slots.deinitialize(count: count)
    return results
}

/// The result buffer, shared by the chunks; each writes a different slot.
private struct Slots<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>
}
