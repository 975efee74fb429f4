import Foundation
import Searchlight
import Synchronization

/// Set by SIGINT; an import stops after the batch in flight, so the store ends at the last complete batch (a
/// second SIGINT ends the process at once).
let interruptRequested = Atomic<Bool>(false)

/// `searchlight index FILE...`: imports items in batches, each recording how far it got as the index's client
/// state, so `--resume` continues after the last committed batch and every item ends up indexed exactly once.
enum IndexCommand {
    static let help = """
    USAGE: searchlight index FILE... [--batch-size N] [--resume] [--strict] [--store DIR] [--json]

    Imports items from JSON Lines files or JSON array files ('-' reads standard input) in batches.
    Each batch stores how far into the input it got as the index's client state.

    OPTIONS:
      --batch-size N  items per batch (default 1000)
      --resume        continue after the last committed batch of a previous run over the same inputs
      --strict        stop at the first bad line (default: report it with its number and skip it)
      --store DIR     the store directory (default ./.searchlight)
      --json          machine-readable summary
    """

    static let spec = ArgumentSpec(flags: ["--resume", "--strict"], options: ["--batch-size"])

    static func run(_ args: Arguments) throws -> Int32 {
        let inputs = args.positional
        guard !inputs.isEmpty else { throw UsageError(command: "index", message: "name at least one FILE (or '-' for standard input)") }
        let batchSize = try args.integer("--batch-size", default: 1000)
        for path in inputs where path != "-" {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CommandFailure(message: "searchlight index: no such file: \(path)")
            }
            guard !isDirectory.boolValue else {
                throw CommandFailure(message: "searchlight index: is a directory, not a file: \(path)")
            }
        }
        let container = try StoreAccess.open(args, create: true)
        let index = CSSearchableIndex(name: StoreAccess.indexName, container: container)
        let fingerprint = ImportCheckpoint.fingerprint(of: inputs)

        var resumeFrom: ImportCheckpoint?
        if args.flag("--resume") {
            let state = try StoreAccess.wait { index.fetchLastClientState(completionHandler: $0) }
            if let checkpoint = ImportCheckpoint(state), checkpoint.fingerprint == fingerprint {
                resumeFrom = checkpoint
            } else if !(state ?? Data()).isEmpty {
                Terminal.err("searchlight index: the last import was of other inputs; starting from the beginning")
            }
        }

        // A second Ctrl-C stops at once: an import waiting for input has no batch to finish. The store keeps the
        // batches already committed (a kill at any moment is safe), so --resume continues exactly after them.
        signal(SIGINT) { _ in if interruptRequested.exchange(true, ordering: .relaxed) { _exit(1) } }
        var total = resumeFrom?.items ?? 0
        var skipped: [InterchangeError] = []
        let counts = try inputs.map(lineCount)
        var progress = ProgressBar(total: counts.contains(nil) ? nil : counts.reduce(0) { $0 + ($1 ?? 0) })
        var interrupted = false
        var pending: [CSSearchableItem] = []
        var pendingPosition = resumeFrom.map { ($0.file, $0.line) } ?? (0, 0)

        func commit(file: Int, line: Int) throws {
            guard !pending.isEmpty else { return }
            let checkpoint = ImportCheckpoint(fingerprint: fingerprint, file: file, line: line, items: total + pending.count)
            let batch = pending
            try StoreAccess.perform {
                index.beginBatch()
                index.indexSearchableItems(batch)
                index.endBatch(withClientState: checkpoint.data, completionHandler: $0)
            }
            total += pending.count
            pending.removeAll(keepingCapacity: true)
            progress.update(done: total + skipped.count)
            if interruptRequested.load(ordering: .relaxed) { interrupted = true }
        }

        fileLoop: for (fileNumber, path) in inputs.enumerated() {
            if let resumeFrom, fileNumber < resumeFrom.file { continue }
            let skipLines = (resumeFrom?.file == fileNumber) ? resumeFrom?.line ?? 0 : 0
            let reader = try ItemSource(path: path)
            while true {
                let next: (CSSearchableItem, Int)?
                do {
                    next = try reader.next()
                } catch let failure as CommandFailure {
                    progress.finish()
                    throw CommandFailure(message: failure.message + " (\(total) items committed before it)")
                } catch let error as InterchangeError {
                    // A bad line a resumed run already passed was reported by the run that passed it.
                    if skipLines > 0, reader.position <= skipLines { continue }
                    if args.flag("--strict") {
                        progress.finish()
                        throw CommandFailure(message: "searchlight index: \(path): \(error.description) "
                                             + "(stopped by --strict; \(total) items committed before it)")
                    }
                    Terminal.err("searchlight index: \(path): \(error.description); skipped")
                    skipped.append(error)
                    continue
                }
                guard let (item, position) = next else { break }
                if position <= skipLines { continue }
                // Invalid items are bad input like a malformed line: reported with their position, never
                // silently dropped from a batch whose checkpoint moves past them.
                if let problem = item.validationProblems().first {
                    let error = reader.error(at: position, message: problem.message)
                    if args.flag("--strict") {
                        progress.finish()
                        throw CommandFailure(message: "searchlight index: \(path): \(error.description) "
                                             + "(stopped by --strict; \(total) items committed before it)")
                    }
                    Terminal.err("searchlight index: \(path): \(error.description); skipped")
                    skipped.append(error)
                    continue
                }
                pending.append(item)
                pendingPosition = (fileNumber, position)
                if pending.count >= batchSize {
                    try commit(file: fileNumber, line: position)
                    if interrupted { break fileLoop }
                }
            }
            try commit(file: pendingPosition.0, line: pendingPosition.1)
            if interrupted { break }
        }
        progress.finish()
        if !interrupted { try StoreAccess.acknowledgeReindex(container) }
        if args.json {
            Terminal.json(["indexed": total, "skipped": skipped.count, "interrupted": interrupted,
                           "resumed": resumeFrom != nil, "store": args.storeDirectory.path])
        } else {
            Terminal.err("indexed \(total) items\(skipped.isEmpty ? "" : ", skipped \(skipped.count) bad lines")"
                         + (interrupted ? "; interrupted: run again with --resume to continue" : ""))
        }
        return interrupted ? 1 : 0
    }

    /// Newlines in a file (a cheap total for the progress bar); nil for anything but a regular file, which
    /// counting would read to its end (a pipe named as a file is read once, by the import).
    private static func lineCount(_ path: String) throws -> Int? {
        guard path != "-", (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular,
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var count = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            count += chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        return count
    }
}

/// Items from one input: a JSON Lines stream (positions are line numbers) or a JSON array (element numbers).
final class ItemSource {
    private var lines: JSONLinesReader?
    private var array: [CSSearchableItem] = []
    private var arrayErrors: [InterchangeError] = []
    private(set) var position = 0
    private let path: String

    /// Opens the input once and tells its form from the bytes up to its first non-blank one, which then go to the
    /// reader: standard input or a pipe named as a file (/dev/stdin, a FIFO, `<(...)`) cannot be read twice.
    init(path: String) throws {
        self.path = path
        let input: FileHandle
        if path == "-" { input = .standardInput } else {
            do { input = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)) } catch {
                throw CommandFailure(message: "searchlight index: \(path): cannot open: \(error.localizedDescription)")
            }
        }
        let blank: [UInt8] = [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF]
        var head: [UInt8] = []
        do {
            while !head.contains(where: { !blank.contains($0) }), let chunk = try input.read(upToCount: 4096), !chunk.isEmpty {
                head.append(contentsOf: chunk)
            }
        } catch {
            throw CommandFailure(message: "searchlight index: \(path): cannot read: \(Terminal.describe(error))")
        }
        guard head.first(where: { !blank.contains($0) }) == UInt8(ascii: "[") else {
            lines = JSONLinesReader(fileHandle: input, prefix: head)
            return
        }
        do { head.append(contentsOf: try input.readToEnd() ?? Data()) } catch {
            throw CommandFailure(message: "searchlight index: \(path): cannot read: \(Terminal.describe(error))")
        }
        do { (array, arrayErrors) = try ItemFileReader.readArray(Data(head), policy: .collectErrors) } catch {
            throw CommandFailure(message: "searchlight index: \(path): \(error)")
        }
    }

    /// An error at `position`: a line of a JSON Lines input, an element of a JSON array (named as its reader does).
    func error(at position: Int, message: String) -> InterchangeError {
        lines == nil ? InterchangeError(message: "array element \(position): \(message)")
                     : InterchangeError(line: position, message: message)
    }

    /// The next item and its position; throws a bad line's error (the following call continues after it), or a
    /// failure when the input cannot be read (which ends it: that is no bad line to skip).
    func next() throws -> (CSSearchableItem, Int)? {
        if let lines {
            // The bad line's number too, when it throws.
            defer { position = lines.lineNumber }
            let item: CSSearchableItem?
            do { item = try lines.next() } catch {
                guard !lines.readFailed else {
                    throw CommandFailure(message: "searchlight index: \(path): cannot read: \(error.description)")
                }
                throw error
            }
            return item.map { ($0, lines.lineNumber) }
        }
        if !arrayErrors.isEmpty { throw arrayErrors.removeFirst() }
        guard position < array.count else { return nil }
        position += 1
        return (array[position - 1], position)
    }
}

/// The client state an import batch stores: which inputs, and how far into them it got (< 250 bytes).
struct ImportCheckpoint: Equatable {
    var fingerprint: String
    var file: Int
    var line: Int
    var items: Int

    init(fingerprint: String, file: Int, line: Int, items: Int) {
        self.fingerprint = fingerprint
        self.file = file
        self.line = line
        self.items = items
    }

    init?(_ data: Data?) {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              object["v"] as? Int == 1, let fingerprint = object["inputs"] as? String,
              let file = object["file"] as? Int, let line = object["line"] as? Int, let items = object["items"] as? Int
        else { return nil }
        self.init(fingerprint: fingerprint, file: file, line: line, items: items)
    }

    var data: Data {
        Data(#"{"v":1,"inputs":"\#(fingerprint)","file":\#(file),"line":\#(line),"items":\#(items)}"#.utf8)
    }

    /// A stable fingerprint of the input list (FNV-1a over the absolute paths).
    static func fingerprint(of inputs: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for path in inputs {
            let absolute = path == "-" ? "-" : URL(fileURLWithPath: path).standardizedFileURL.path
            for byte in absolute.utf8 + [0] {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }
}
