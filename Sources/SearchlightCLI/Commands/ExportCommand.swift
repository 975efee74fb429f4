#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Searchlight

/// `searchlight export`: every item as JSON Lines, or as an Elasticsearch/OpenSearch bulk request body.
enum ExportCommand {
    static let help = """
    USAGE: searchlight export [--format jsonl|elasticsearch-bulk] [--index-name NAME] [--output FILE] [--store DIR]

    Writes every stored item. 'jsonl' (default) is the interchange shape 'searchlight index' reads;
    'elasticsearch-bulk' is a _bulk request body (an action line and a document line per item) for users who
    move to Elasticsearch or OpenSearch: POST it to /_bulk with Content-Type application/x-ndjson.
    """

    static let spec = ArgumentSpec(options: ["--format", "--index-name", "--output"], takesOperands: false)

    static func run(_ args: Arguments) throws -> Int32 {
        let format = args.value("--format") ?? "jsonl"
        guard ["jsonl", "elasticsearch-bulk"].contains(format) else {
            throw UsageError(command: "export", message: "unknown format '\(format)'; use jsonl or elasticsearch-bulk")
        }
        let indexName = args.value("--index-name") ?? "searchlight"
        let container = try StoreAccess.open(args)
        let handle: FileHandle
        let output = args.value("--output") ?? "standard output"
        if let output = args.value("--output") {
            // Opened in place (created or truncated), not replaced by an atomic createFile: a device or a
            // link given as the output stays what it is.
            let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else {
                throw CommandFailure(message: "searchlight export: cannot create \(output): \(String(cString: strerror(errno)))")
            }
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        } else {
            handle = .standardOutput
        }
        var buffer = Data()
        var count = 0
        for item in ExportSource.allItems(in: container) {
            let json = try ItemJSON.encode(item)
            if format == "elasticsearch-bulk" {
                let action = try JSONSerialization.data(withJSONObject: ["index": ["_index": indexName, "_id": item.uniqueIdentifier]],
                                                        options: [.sortedKeys])
                buffer.append(action)
                buffer.append(0x0A)
            }
            buffer.append(json)
            buffer.append(0x0A)
            count += 1
            if buffer.count > 1 << 20 {
                try write(buffer, to: handle, output: output)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try write(buffer, to: handle, output: output)
        if handle !== FileHandle.standardOutput {
            do { try handle.close() } catch {
                throw CommandFailure(message: "searchlight export: cannot write \(output): \(error.localizedDescription)")
            }
        }
        Terminal.err("exported \(count) items")
        return 0
    }

    /// Writes `data`; a failed write (disk full, closed pipe) is a failure naming the output, not a short export.
    private static func write(_ data: Data, to handle: FileHandle, output: String) throws {
        do { try handle.write(contentsOf: data) } catch {
            throw CommandFailure(message: "searchlight export: cannot write \(output): \(error.localizedDescription)")
        }
    }
}
