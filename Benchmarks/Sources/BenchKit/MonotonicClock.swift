#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds from CLOCK_MONOTONIC: cheap (vDSO), never jumps with wall-clock changes.
@inline(__always)
public func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// Seconds taken by `body`, from the monotonic clock.
public func measureSeconds(_ body: () throws -> Void) rethrows -> Double {
    let start = monotonicNanoseconds()
    try body()
    return Double(monotonicNanoseconds() - start) / 1e9
}

/// Nanoseconds of CPU time consumed by the calling thread (CLOCK_THREAD_CPUTIME_ID): time the thread was
/// preempted on a busy machine does not count. A system call, so it adds a fraction of a microsecond.
@inline(__always)
public func threadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// Nanoseconds of CPU time consumed by every thread of the process (CLOCK_PROCESS_CPUTIME_ID): includes work an
/// engine hands to other threads (compression beside sealing, background merges).
public func processCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// Which clock times each query execution.
public enum QueryClock: String, CaseIterable, Sendable {
    /// CLOCK_MONOTONIC wall time (the default).
    case monotonic
    /// CLOCK_THREAD_CPUTIME_ID: robust when other processes share the cores.
    case threadCPU = "thread-cpu"

    @inline(__always)
    public func now() -> UInt64 {
        switch self {
        case .monotonic: return monotonicNanoseconds()
        case .threadCPU: return threadCPUNanoseconds()
        }
    }
}
