import Foundation

/// What a reader does with a bad line.
public enum InterchangeErrorPolicy: Sendable {
    /// Throw the first error.
    case stopOnFirstError
    /// Skip bad lines, collecting their errors, and read to the end.
    case collectErrors
}

/// Reads items from JSON Lines (one item object per line) in chunks, never holding the whole input in memory.
/// Blank lines are skipped, `\r\n` endings and a leading UTF-8 byte-order mark are accepted. Errors name the
/// 1-based line number (and byte column). After a bad line `next()` can be called again to keep going.
public final class JSONLinesReader {
    private let handle: FileHandle
    private let ownsHandle: Bool
    private let chunkSize: Int
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    /// The 1-based number of the last line read (0 before the first).
    public private(set) var lineNumber = 0
    /// Whether reading the input failed: the input then ends (a failed read is not retried, nor a bad line).
    package private(set) var readFailed = false

    /// Reads from an open handle, e.g. `FileHandle.standardInput`. The handle is not closed.
    public init(fileHandle: FileHandle, chunkSize: Int = 1 << 20) {
        handle = fileHandle
        ownsHandle = false
        self.chunkSize = max(1, chunkSize)
    }

    /// Reads from an open handle whose first bytes were already read (to tell the input's form) into `prefix`.
    package convenience init(fileHandle: FileHandle, prefix: [UInt8], chunkSize: Int = 1 << 20) {
        self.init(fileHandle: fileHandle, chunkSize: chunkSize)
        buffer = prefix
    }

    /// Opens the file at `url`.
    public init(contentsOf url: URL, chunkSize: Int = 1 << 20) throws(InterchangeError) {
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw InterchangeError(message: "cannot open \(url.path): \(error.localizedDescription)")
        }
        ownsHandle = true
        self.chunkSize = max(1, chunkSize)
    }

    deinit {
        if ownsHandle { try? handle.close() }
    }

    /// The index of the first `\n` at or after `start` (memchr: this scan runs over every input byte).
    private static func indexOfNewline(in buffer: [UInt8], from start: Int) -> Int? {
        guard start < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { b -> Int? in
            guard let base = b.baseAddress, let hit = memchr(base + start, 0x0A, b.count - start) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The next line's bytes without its line ending, or nil at end of input.
    private func nextLine() throws(InterchangeError) -> ArraySlice<UInt8>? {
        while true {
            if let newline = Self.indexOfNewline(in: buffer, from: position) {
                var end = newline
                if end > position && buffer[end - 1] == 0x0D { end -= 1 }
                let line = buffer[position..<end]
                position = newline + 1
                lineNumber += 1
                return line
            }
            if atEnd {
                guard position < buffer.count else { return nil }
                var end = buffer.count
                if buffer[end - 1] == 0x0D { end -= 1 }
                let line = buffer[position..<end]
                position = buffer.count
                lineNumber += 1
                return line
            }
            // Drop consumed bytes, then read another chunk.
            if position > 0 {
                buffer.removeSubrange(0..<position)
                position = 0
            }
            let chunk: Data?
            do { chunk = try handle.read(upToCount: chunkSize) } catch {
                // Retrying would fail again at once (under .collectErrors, forever); the bytes are gone either way.
                readFailed = true
                atEnd = true
                buffer.removeAll()
                throw InterchangeError(line: lineNumber + 1, message: "read failed: \(error.localizedDescription)")
            }
            if let chunk, !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { atEnd = true }
        }
    }

    /// The next item, or nil at end of input. Throws an error located at the bad line; the reader is then
    /// positioned after that line, so calling `next()` again continues with the following one.
    public func next() throws(InterchangeError) -> CSSearchableItem? {
        while let line = try nextLine() {
            var start = line.startIndex
            if lineNumber == 1, line.count >= 3, line[start] == 0xEF, line[start + 1] == 0xBB, line[start + 2] == 0xBF {
                start += 3
            }
            let body = line[start...]
            // Blank: JSON whitespace only (a carriage return too, as inside a line).
            if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            let number = lineNumber
            return try body.withUnsafeBufferPointer { bytes throws(InterchangeError) in
                do throws(InterchangeError) {
                    return try ItemJSON.item(from: JSONParser.parse(bytes))
                } catch {
                    // Columns count the line's bytes, a byte-order mark's too.
                    throw error.located(line: number, columnOffset: start - line.startIndex)
                }
            }
        }
        return nil
    }

    /// Calls `body` with each item and its line number; returns the errors skipped under `.collectErrors`.
    /// Only bad lines are skipped: an error `body` throws, whatever its type, ends the loop.
    @discardableResult
    public func forEach(policy: InterchangeErrorPolicy = .stopOnFirstError,
                        _ body: (CSSearchableItem, Int) throws -> Void) throws -> [InterchangeError] {
        var errors: [InterchangeError] = []
        while true {
            let item: CSSearchableItem?
            do throws(InterchangeError) { item = try next() } catch {
                if policy == .stopOnFirstError { throw error }
                errors.append(error)
                continue
            }
            guard let item else { return errors }
            try body(item, lineNumber)
        }
    }

    /// Reads every remaining item. Under `.collectErrors` bad lines are skipped and reported in `errors`.
    public func readAll(policy: InterchangeErrorPolicy = .stopOnFirstError)
        throws(InterchangeError) -> (items: [CSSearchableItem], errors: [InterchangeError]) {
        var items: [CSSearchableItem] = []
        var errors: [InterchangeError] = []
        while true {
            do throws(InterchangeError) {
                guard let item = try next() else { return (items, errors) }
                items.append(item)
            } catch {
                if policy == .stopOnFirstError { throw error }
                errors.append(error)
            }
        }
    }
}
