import Synchronization

/// A fault a test can inject into the file layer.
package enum StoreFault: Sendable, Equatable {
    /// `write` fails with this errno before writing anything.
    case failWrite(errno: Int32)
    /// `write` writes only this many bytes (a torn record), then fails with EIO.
    case shortWrite(bytes: Int)
    /// The disk is full: `write` writes nothing and fails with ENOSPC.
    case noSpace
    /// `fsync` of a file fails with EIO (the data may or may not be on disk).
    case failSync
    /// `rename` fails with EIO.
    case failRename
    /// `ftruncate` fails with EIO.
    case failTruncate
    /// `fsync` of a directory fails with EIO.
    case failDirectorySync
}

/// A file layer for tests: the real POSIX layer, except that armed faults fire on the matching call.
/// Each armed fault fires once, on the `skip + 1`-th matching call after it was armed.
package final class FaultInjectingFileSystem: StoreFileSystem {
    private struct Armed {
        var fault: StoreFault
        var skip: Int
    }

    private let base = POSIXFileSystem()
    private let armed = Mutex<[Armed]>([])
    private let fired = Mutex<[StoreFault]>([])

    package init() {}

    /// Arms `fault` for the `skip + 1`-th matching call from now.
    package func inject(_ fault: StoreFault, skip: Int = 0) {
        armed.withLock { $0.append(Armed(fault: fault, skip: skip)) }
    }

    /// Disarms every fault not yet fired.
    package func reset() { armed.withLock { $0.removeAll() } }

    /// The faults that have fired, in order.
    package var firedFaults: [StoreFault] { fired.withLock { $0 } }

    /// The armed fault that fires now among those `matches` accepts, if any.
    private func take(_ matches: (StoreFault) -> Bool) -> StoreFault? {
        let fault: StoreFault? = armed.withLock { list in
            guard let index = list.firstIndex(where: { matches($0.fault) }) else { return nil }
            if list[index].skip > 0 {
                list[index].skip -= 1
                return nil
            }
            return list.remove(at: index).fault
        }
        if let fault { fired.withLock { $0.append(fault) } }
        return fault
    }

    package func prepareDirectory(_ path: String) throws(StoreError) { try base.prepareDirectory(path) }

    package func openForAppending(_ path: String, truncate: Bool) throws(StoreError) -> Int32 {
        try base.openForAppending(path, truncate: truncate)
    }

    package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(StoreError) {
        let fault = take {
            switch $0 {
            case .failWrite, .shortWrite, .noSpace: return true
            default: return false
            }
        }
        switch fault {
        case .failWrite(let code)?: throw .io(operation: "write", path: path, errno: code)
        case .noSpace?: throw .io(operation: "write", path: path, errno: ENOSPC_CODE)
        case .shortWrite(let count)?:
            let prefix = UnsafeRawBufferPointer(rebasing: bytes[0..<min(max(count, 0), bytes.count)])
            try base.write(fd, prefix, path: path)
            throw .io(operation: "write", path: path, errno: 5)
        default: try base.write(fd, bytes, path: path)
        }
    }

    package func sync(_ fd: Int32, path: String) throws(StoreError) {
        if take({ $0 == .failSync }) != nil { throw .io(operation: "fsync", path: path, errno: 5) }
        try base.sync(fd, path: path)
    }

    package func isLinked(_ fd: Int32, path: String) throws(StoreError) -> Bool { try base.isLinked(fd, path: path) }

    package func isSameFile(_ fd: Int32, path: String) throws(StoreError) -> Bool {
        try base.isSameFile(fd, path: path)
    }

    package func truncate(_ fd: Int32, to length: Int, path: String) throws(StoreError) {
        if take({ $0 == .failTruncate }) != nil { throw .io(operation: "ftruncate", path: path, errno: 5) }
        try base.truncate(fd, to: length, path: path)
    }

    package func close(_ fd: Int32) { base.close(fd) }

    package func readFile(_ path: String) throws(StoreError) -> [UInt8]? { try base.readFile(path) }

    package func mapFile(_ path: String) throws(StoreError) -> MappedFile? { try base.mapFile(path) }

    package func rename(_ from: String, to: String) throws(StoreError) {
        if take({ $0 == .failRename }) != nil { throw .io(operation: "rename", path: from, errno: 5) }
        try base.rename(from, to: to)
    }

    package func syncDirectory(_ path: String) throws(StoreError) {
        if take({ $0 == .failDirectorySync }) != nil { throw .io(operation: "fsync", path: path, errno: 5) }
        try base.syncDirectory(path)
    }

    package func remove(_ path: String) throws(StoreError) { try base.remove(path) }

    package func list(_ directory: String) throws(StoreError) -> [String] { try base.list(directory) }

    package func lock(_ path: String) throws(StoreError) -> Int32 { try base.lock(path) }
}
