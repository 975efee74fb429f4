import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes chunks `0..<count` on up to `threads` threads and hands each to `consume` on the calling thread, in
/// chunk order, as soon as it and the chunks before it are ready.
///
/// This is how a batch is indexed on several cores without changing the index: chunks of documents are made and
/// analyzed in parallel while the caller interns the chunks before them in order. The caller takes unclaimed
/// chunks itself whenever the next one is not ready, so no thread idles while work is left, and a stalled helper
/// delays at most the one chunk it holds. Each chunk is claimed once (an atomic counter) and published by a
/// release store of its own flag, so threads share no lock. If `consume` throws, no further chunk is claimed,
/// the helpers are waited for, and chunks made but not consumed are destroyed before the error is rethrown.
package func pipelinedChunks<T: Sendable, E: Error>(
    _ count: Int, threads: Int, make: @escaping @Sendable (Int) -> T, consume: (Int, consuming T) throws(E) -> Void
) throws(E) {
    guard count > 0 else { return }
    let state = PipelineState<T>(count: count, make: make)
    let helpers = min(max(threads, 1), count) - 1
    let group = DispatchGroup()
    for _ in 0..<helpers {
        DispatchQueue.global().async(group: group) { state.help() }
    }
    var consumed = 0
    defer {
        state.stopClaiming()
        group.wait()
        state.destroyUnconsumed(from: consumed)
    }
    while consumed < count {
        while !state.isReady(consumed) {
            if !state.makeNextUnclaimed() { state.pause() }
        }
        let chunk = state.take(consumed)
        consumed += 1
        try consume(consumed - 1, chunk)
    }
}

/// The chunks of one `pipelinedChunks` call: their results, ready flags and the claim counter.
private final class PipelineState<T: Sendable>: @unchecked Sendable {
    let count: Int
    let make: @Sendable (Int) -> T
    /// Slot `i` is initialized exactly when `ready[i]` is 1 (and not yet taken).
    let slots: UnsafeMutablePointer<T>
    let ready: UnsafeMutablePointer<Atomic<Int>>
    /// The next chunk nobody has claimed.
    let next = Atomic<Int>(0)

    init(count: Int, make: @escaping @Sendable (Int) -> T) {
        self.count = count
        self.make = make
        slots = .allocate(capacity: count)
        ready = .allocate(capacity: count)
        for index in 0..<count { (ready + index).initialize(to: Atomic(0)) }
    }

    deinit {
        ready.deinitialize(count: count)
        ready.deallocate()
        slots.deallocate()
    }

    /// A helper thread: makes chunks until none is left.
    func help() {
        while makeNextUnclaimed() {}
    }

    /// Claims the next chunk and makes it; false when every chunk is claimed.
    func makeNextUnclaimed() -> Bool {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard index < count else { return false }
        (slots + index).initialize(to: make(index))
        ready[index].store(1, ordering: .releasing)
        return true
    }

    func isReady(_ index: Int) -> Bool { ready[index].load(ordering: .acquiring) == 1 }

    /// Moves chunk `index` out (it must be ready).
    func take(_ index: Int) -> T {
        ready[index].store(2, ordering: .relaxed)
        return (slots + index).move()
    }

    /// Waits a moment for a chunk another thread is making.
    func pause() {
        sched_yield()
    }

    /// After this, `makeNextUnclaimed` claims nothing.
    func stopClaiming() {
        next.store(count, ordering: .relaxed)
    }

    /// Destroys the chunks made but not taken (once no helper runs).
    func destroyUnconsumed(from first: Int) {
        for index in first..<count where ready[index].load(ordering: .acquiring) == 1 {
            (slots + index).deinitialize(count: 1)
            ready[index].store(0, ordering: .relaxed)
        }
    }
}
