import Foundation
import Searchlight

/// `searchlight state`: the last client state, readable.
enum StateCommand {
    static let help = """
    USAGE: searchlight state [--store DIR] [--json]

    Prints the client state of the last committed import batch: which inputs, how far, how many items.
    """

    static let spec = ArgumentSpec(takesOperands: false)

    static func run(_ args: Arguments) throws -> Int32 {
        let index = CSSearchableIndex(name: StoreAccess.indexName, container: try StoreAccess.open(args))
        let state = try StoreAccess.wait { index.fetchLastClientState(completionHandler: $0) }
        guard let state, !state.isEmpty else {
            if args.json { Terminal.json(["state": NSNull()]) } else { Terminal.out("no client state stored") }
            return 0
        }
        if let checkpoint = ImportCheckpoint(state) {
            if args.json {
                Terminal.json(["inputs": checkpoint.fingerprint, "file": checkpoint.file, "line": checkpoint.line,
                               "items": checkpoint.items])
            } else {
                Terminal.out("last import batch: input #\(checkpoint.file + 1), up to line \(checkpoint.line), "
                             + "\(checkpoint.items) items committed (inputs \(checkpoint.fingerprint))")
            }
        } else {
            let text = String(data: state, encoding: .utf8) ?? state.base64EncodedString()
            if args.json { Terminal.json(["state": text, "bytes": state.count]) } else { Terminal.out("client state (\(state.count) bytes): \(text)") }
        }
        return 0
    }
}
