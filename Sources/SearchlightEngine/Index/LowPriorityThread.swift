import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs `work` on a new thread of lower priority than the writer's: a background merge fills the cores the
/// writer leaves idle instead of taking time from the batch it is applying. The thread ends with the work.
func startLowPriorityThread(_ work: @escaping @Sendable () -> Void) {
    let thread = Thread {
        #if os(Linux)
        // On Linux the nice value belongs to the calling thread alone; 10 gives it about a tenth of a core the
        // writer wants, and all of an idle one.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
        work()
    }
    #if !os(Linux)
    thread.qualityOfService = .utility
    #endif
    thread.start()
}
