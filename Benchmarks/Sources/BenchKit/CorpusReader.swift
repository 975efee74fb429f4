import Foundation

/// Reads a JSON Lines corpus from a file, a gzip file (through `gzip -dc`) or standard input (`-`).
public enum CorpusReader {
    public enum Failure: Error, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case badLine(number: Int, reason: String)
        case empty

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): return "cannot read corpus \(path): \(reason)"
            case .badLine(let number, let reason): return "corpus line \(number) is not an item: \(reason)"
            case .empty: return "the corpus holds no items"
            }
        }
    }

    /// The raw bytes of `path`: `-` is standard input, a `.gz` path is decompressed by `gzip -dc`.
    public static func bytes(of path: String) throws -> Data {
        if path == "-" {
            return FileHandle.standardInput.readDataToEndOfFile()
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw Failure.unreadable(path: path, reason: "no such readable file")
        }
        if path.hasSuffix(".gz") {
            let gzip = Process()
            gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            gzip.arguments = ["gzip", "-dc", path]
            let pipe = Pipe()
            gzip.standardOutput = pipe
            do { try gzip.run() } catch {
                throw Failure.unreadable(path: path, reason: "cannot start gzip: \(error)")
            }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            gzip.waitUntilExit()
            guard gzip.terminationStatus == 0 else {
                throw Failure.unreadable(path: path, reason: "gzip -dc exited \(gzip.terminationStatus)")
            }
            return data
        }
        do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw Failure.unreadable(path: path, reason: "\(error)")
        }
    }

    /// Parses JSON Lines; blank lines are skipped, anything else that is not an item is an error.
    public static func items(from data: Data) throws -> [CorpusItem] {
        let decoder = JSONDecoder()
        var items: [CorpusItem] = []
        var lineNumber = 0
        var start = data.startIndex
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
            lineNumber += 1
            let line = data[start..<end]
            start = end < data.endIndex ? data.index(after: end) : end
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            do {
                items.append(try decoder.decode(CorpusItem.self, from: line))
            } catch {
                throw Failure.badLine(number: lineNumber, reason: "\(error)")
            }
        }
        guard !items.isEmpty else { throw Failure.empty }
        return items
    }

    /// The corpus repeated `times` times; copy k > 0 gets identifiers suffixed `#k` (fresh, unique), the
    /// text is shared, so a million items cost little more than the original strings.
    public static func replicate(_ items: [CorpusItem], times: Int) -> [CorpusItem] {
        guard times > 1 else { return items }
        var out: [CorpusItem] = []
        out.reserveCapacity(items.count * times)
        out.append(contentsOf: items)
        for copy in 1..<times {
            for var item in items {
                item.uniqueIdentifier += "#\(copy)"
                out.append(item)
            }
        }
        return out
    }
}
