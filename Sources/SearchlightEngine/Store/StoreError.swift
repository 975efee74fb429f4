/// Why a durable store could not be opened or written. Every case names the file it is about.
package enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call failed (`errno` as reported; ENOSPC is a full disk).
    case io(operation: String, path: String, errno: Int32)
    /// A file is damaged: bad magic, failed checksum, impossible structure.
    case corrupt(path: String, reason: String)
    /// A file was written by a newer format version than this build reads.
    case unsupportedVersion(path: String, version: UInt32, supported: UInt32)
    /// Another process holds the store's lock.
    case locked(path: String)
    /// This process already has the store open.
    case alreadyOpen(path: String)
    /// The directory's owner or permissions would let someone else read or change the store.
    case insecure(path: String, reason: String)
    /// The store was closed, or an earlier failure left it unable to guarantee durability.
    case unavailable(path: String, reason: String)

    package var description: String {
        switch self {
        case .io(let operation, let path, let errno):
            return "\(operation) failed on '\(path)' (errno \(errno)\(errno == ENOSPC_CODE ? ", disk full" : ""))"
        case .corrupt(let path, let reason): return "store file '\(path)' is corrupt: \(reason)"
        case .unsupportedVersion(let path, let version, let supported):
            return "store file '\(path)' has format version \(version), newer than the supported version \(supported); "
                + "open it with a newer Searchlight"
        case .locked(let path): return "the store '\(path)' is locked by another process"
        case .alreadyOpen(let path): return "the store '\(path)' is already open in this process"
        case .insecure(let path, let reason): return "the store directory '\(path)' is refused: \(reason)"
        case .unavailable(let path, let reason): return "the store '\(path)' is unavailable: \(reason)"
        }
    }
}

/// ENOSPC's value on the supported platforms (28 on Linux and Darwin).
package let ENOSPC_CODE: Int32 = 28
