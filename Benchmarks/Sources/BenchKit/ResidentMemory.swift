import Foundation
#if canImport(Glibc)
import CMalloc
#endif

/// Resident memory of this process, read from /proc/self/status (Linux).
public enum ResidentMemory {
    /// VmRSS in bytes, or nil where /proc is absent.
    public static func current() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let digits = line.dropFirst("VmRSS:".count).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// Hands freed heap pages back to the kernel, so RSS before/after reflects what is still held.
    public static func trim() {
        #if canImport(Glibc)
        malloc_trim(0)
        #endif
    }
}
