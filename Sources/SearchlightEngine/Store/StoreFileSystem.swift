/// The file operations a durable store needs, behind a protocol so tests can inject faults (failed or short
/// writes, a full disk, failed fsync, rename or truncate) between the store and the real file system.
///
/// Paths are plain POSIX paths. Files are created with mode 0600, directories with 0700. Every method that
/// can fail throws a `StoreError` naming the path.
package protocol StoreFileSystem: Sendable {
    /// Creates the directory (mode 0700) if absent, or checks that the existing one belongs to this user and is
    /// not writable by group or others.
    func prepareDirectory(_ path: String) throws(StoreError)
    /// Opens a file for writing, creating it (0600) when absent; `truncate` empties it; writes append.
    func openForAppending(_ path: String, truncate: Bool) throws(StoreError) -> Int32
    /// Writes every byte or throws (a short write leaves a prefix behind, as a real crash or full disk can).
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(StoreError)
    /// Flushes a file's data to stable storage.
    func sync(_ fd: Int32, path: String) throws(StoreError)
    /// Whether an open file still has a name in a directory (false once it, or its directory, was deleted: what
    /// is written to it then can never be read again).
    func isLinked(_ fd: Int32, path: String) throws(StoreError) -> Bool
    /// Whether `path` names the file open as `fd` (same device and inode); false when nothing is at `path`.
    func isSameFile(_ fd: Int32, path: String) throws(StoreError) -> Bool
    /// Cuts a file to `length` bytes.
    func truncate(_ fd: Int32, to length: Int, path: String) throws(StoreError)
    func close(_ fd: Int32)
    /// The whole file, or nil when it does not exist.
    func readFile(_ path: String) throws(StoreError) -> [UInt8]?
    /// The whole file mapped read-only (no copy), or nil when it does not exist; for large snapshots.
    func mapFile(_ path: String) throws(StoreError) -> MappedFile?
    /// Atomically replaces `to` with `from`.
    func rename(_ from: String, to: String) throws(StoreError)
    /// Makes a directory's entries (creations, renames) durable.
    func syncDirectory(_ path: String) throws(StoreError)
    func remove(_ path: String) throws(StoreError)
    /// The names (not paths) of a directory's entries.
    func list(_ directory: String) throws(StoreError) -> [String]
    /// Takes an exclusive advisory lock (`flock`) on a lock file, without waiting; returns the held descriptor.
    func lock(_ path: String) throws(StoreError) -> Int32
}

extension StoreFileSystem {
    /// Writes a byte array.
    package func write(_ fd: Int32, _ bytes: [UInt8], path: String) throws(StoreError) {
        let result: Result<Void, StoreError> = bytes.withUnsafeBytes { raw in
            Result { () throws(StoreError) in try write(fd, raw, path: path) }
        }
        try result.get()
    }

    /// Writes `bytes` to a new file at `path` through a temporary file: write, fsync, rename, fsync directory.
    package func writeAtomically(_ bytes: [UInt8], to path: String, directory: String) throws(StoreError) {
        let temporary = path + ".tmp"
        let fd = try openForAppending(temporary, truncate: true)
        do {
            try write(fd, bytes, path: temporary)
            try sync(fd, path: temporary)
            close(fd)
        } catch {
            close(fd)
            try? remove(temporary)
            throw error
        }
        do {
            try rename(temporary, to: path)
        } catch {
            try? remove(temporary)
            throw error
        }
        try syncDirectory(directory)
    }
}

/// A file's bytes, mapped read-only or held in memory; unmapped when released.
package final class MappedFile {
    package let bytes: UnsafeRawBufferPointer
    private let release: () -> Void

    package init(bytes: UnsafeRawBufferPointer, release: @escaping () -> Void) {
        self.bytes = bytes
        self.release = release
    }

    /// Bytes held in memory (the fallback when mapping is not possible).
    package convenience init(copying array: [UInt8]) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(array.count, 1), alignment: 16)
        array.withUnsafeBytes { if let base = $0.baseAddress { buffer.baseAddress?.copyMemory(from: base, byteCount: $0.count) } }
        self.init(bytes: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<array.count]),
                  release: { buffer.deallocate() })
    }

    deinit { release() }
}
