#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The real file layer: POSIX `open`, `write`, `fsync`, `ftruncate`, `rename`, `flock`.
package struct POSIXFileSystem: StoreFileSystem {
    package init() {}

    private static func fail(_ operation: String, _ path: String) -> StoreError {
        .io(operation: operation, path: path, errno: errno)
    }

    package func prepareDirectory(_ path: String) throws(StoreError) {
        var info = stat()
        if stat(path, &info) != 0 {
            guard errno == ENOENT else { throw Self.fail("stat", path) }
            let parent = Self.parent(of: path)
            if !parent.isEmpty, parent != path, stat(parent, &info) != 0 { try prepareParents(parent) }
            guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw Self.fail("mkdir", path) }
            guard stat(path, &info) == 0 else { throw Self.fail("stat", path) }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .insecure(path: path, reason: "it is not a directory") }
        guard info.st_uid == geteuid() else {
            throw .insecure(path: path, reason: "it belongs to user \(info.st_uid), not to this user (\(geteuid()))")
        }
        let mode = UInt32(info.st_mode) & 0o777
        guard mode & 0o022 == 0 else {
            throw .insecure(path: path, reason: "it is writable by group or others (mode 0\(String(mode, radix: 8))); "
                            + "use mode 0700")
        }
    }

    private func prepareParents(_ path: String) throws(StoreError) {
        var info = stat()
        if stat(path, &info) == 0 { return }
        let parent = Self.parent(of: path)
        if !parent.isEmpty, parent != path { try prepareParents(parent) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw Self.fail("mkdir", path) }
    }

    private static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    package func openForAppending(_ path: String, truncate: Bool) throws(StoreError) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (truncate ? O_TRUNC : 0)
        let fd = open(path, flags, 0o600)
        guard fd >= 0 else { throw Self.fail("open", path) }
        return fd
    }

    package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(StoreError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.baseAddress.map { systemWrite(fd, $0 + offset, bytes.count - offset) } ?? 0
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.fail("write", path)
            }
            if n == 0 { throw .io(operation: "write", path: path, errno: EIO) }
            offset += n
        }
    }

    package func sync(_ fd: Int32, path: String) throws(StoreError) {
        #if canImport(Darwin)
        // On Darwin plain fsync does not flush the drive's cache; F_FULLFSYNC does.
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(fd) == 0 else { throw Self.fail("fsync", path) }
    }

    package func isLinked(_ fd: Int32, path: String) throws(StoreError) -> Bool {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Self.fail("fstat", path) }
        return info.st_nlink > 0
    }

    package func isSameFile(_ fd: Int32, path: String) throws(StoreError) -> Bool {
        var open = stat(), named = stat()
        guard fstat(fd, &open) == 0 else { throw Self.fail("fstat", path) }
        guard stat(path, &named) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return false }
            throw Self.fail("stat", path)
        }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    package func truncate(_ fd: Int32, to length: Int, path: String) throws(StoreError) {
        guard ftruncate(fd, off_t(length)) == 0 else { throw Self.fail("ftruncate", path) }
    }

    package func close(_ fd: Int32) {
        _ = systemClose(fd)
    }

    package func readFile(_ path: String) throws(StoreError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw Self.fail("open", path)
        }
        defer { _ = systemClose(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Self.fail("fstat", path) }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        var failure: StoreError?
        bytes.withUnsafeMutableBytes { buffer in
            while offset < size, let base = buffer.baseAddress {
                let n = read(fd, base + offset, size - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = Self.fail("read", path)
                    return
                }
                if n == 0 { break }
                offset += n
            }
        }
        if let failure { throw failure }
        if offset < size { bytes.removeSubrange(offset...) }
        return bytes
    }

    package func mapFile(_ path: String) throws(StoreError) -> MappedFile? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw Self.fail("open", path)
        }
        defer { _ = systemClose(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Self.fail("fstat", path) }
        let size = Int(info.st_size)
        guard size > 0 else { return MappedFile(copying: []) }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw Self.fail("mmap", path)
        }
        _ = madvise(address, size, MADV_SEQUENTIAL)
        return MappedFile(bytes: UnsafeRawBufferPointer(start: address, count: size),
                          release: { _ = munmap(address, size) })
    }

    package func rename(_ from: String, to: String) throws(StoreError) {
        guard systemRename(from, to) == 0 else { throw Self.fail("rename", from) }
    }

    package func syncDirectory(_ path: String) throws(StoreError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.fail("open", path) }
        defer { _ = systemClose(fd) }
        guard fsync(fd) == 0 else { throw Self.fail("fsync", path) }
    }

    package func remove(_ path: String) throws(StoreError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw Self.fail("unlink", path) }
    }

    package func list(_ directory: String) throws(StoreError) -> [String] {
        guard let dir = opendir(directory) else { throw Self.fail("opendir", directory) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    package func lock(_ path: String) throws(StoreError) -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.fail("open", path) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            _ = systemClose(fd)
            if code == EWOULDBLOCK { throw .locked(path: path) }
            throw .io(operation: "flock", path: path, errno: code)
        }
        return fd
    }
}

// The C functions under names that do not collide with the protocol's methods.
private func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Darwin)
    Darwin.write(fd, p, n)
    #elseif canImport(Glibc)
    Glibc.write(fd, p, n)
    #else
    Musl.write(fd, p, n)
    #endif
}

private func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Darwin)
    Darwin.close(fd)
    #elseif canImport(Glibc)
    Glibc.close(fd)
    #else
    Musl.close(fd)
    #endif
}

private func systemRename(_ from: String, _ to: String) -> Int32 {
    #if canImport(Darwin)
    Darwin.rename(from, to)
    #elseif canImport(Glibc)
    Glibc.rename(from, to)
    #else
    Musl.rename(from, to)
    #endif
}
