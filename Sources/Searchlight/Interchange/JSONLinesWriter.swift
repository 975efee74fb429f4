#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes items as JSON Lines (one compact object per line), buffering output and flushing in large writes.
public final class JSONLinesWriter {
    private let handle: FileHandle
    private let ownsHandle: Bool
    private let bufferSize: Int
    private var buffer: [UInt8] = []
    /// Number of items written so far.
    public private(set) var count = 0

    /// Writes to an open handle, e.g. `FileHandle.standardOutput`. The handle is not closed.
    public init(fileHandle: FileHandle, bufferSize: Int = 1 << 20) {
        handle = fileHandle
        ownsHandle = false
        self.bufferSize = max(1, bufferSize)
    }

    /// Creates (or truncates) the file at `url`, in place: `FileManager.createFile` replaced the path with a new
    /// file, breaking a link off its target and turning a device (even /dev/null, when allowed) into a plain file.
    public init(creatingFileAt url: URL, bufferSize: Int = 1 << 20) throws(InterchangeError) {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw InterchangeError(message: "cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        ownsHandle = true
        self.bufferSize = max(1, bufferSize)
    }

    deinit {
        try? flush()
        if ownsHandle { try? handle.close() }
    }

    /// Appends one item as a line. An item that cannot be written (a non-finite number, an unsupported custom
    /// value) throws and writes nothing.
    public func write(_ item: CSSearchableItem) throws(InterchangeError) {
        let value = try ItemJSON.jsonValue(for: item)
        var line: [UInt8] = []
        try JSONSerializer.write(value, to: &line)
        line.append(0x0A)
        buffer.append(contentsOf: line)
        count += 1
        if buffer.count >= bufferSize { try flush() }
    }

    /// Writes buffered lines to the handle.
    public func flush() throws(InterchangeError) {
        guard !buffer.isEmpty else { return }
        do { try handle.write(contentsOf: buffer) } catch {
            throw InterchangeError(message: "write failed: \(error.localizedDescription)")
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
