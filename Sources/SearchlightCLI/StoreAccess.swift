import Dispatch
import Foundation
import Searchlight
import Synchronization

/// Opens the store a command works on and turns completion handlers into plain calls.
enum StoreAccess {
    /// The index name the tool's batches use for their client state.
    static let indexName = "searchlight-cli"

    /// The container persisted in `--store DIR`. A command that writes (`create`) creates a missing store; a
    /// read-only one refuses it, or a directory holding none (a mistyped `--store` is an error, not an empty
    /// index), and creates nothing.
    static func open(_ args: Arguments, create: Bool = false) throws -> SearchlightContainer {
        let directory = args.storeDirectory
        var isDirectory: ObjCBool = false
        if !create, !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) || !isDirectory.boolValue
            || !holdsStore(directory) {
            throw CommandFailure(message: "searchlight \(args.command): no store at \(directory.path) (index items into it first, or check --store)")
        }
        let container: SearchlightContainer
        do {
            container = try SearchlightContainer(directory: directory)
        } catch {
            throw CommandFailure(message: "searchlight \(args.command): cannot open store \(directory.path): \(error.localizedDescription)")
        }
        try reportLoss(of: container, args, readOnly: !create)
        return container
    }

    /// A store found damaged opens EMPTY (its files moved aside): said on standard error, never shown as an empty
    /// index in silence. A read-only command fails (its output would show none of the items); one that writes goes
    /// on after a warning. Later opens warn until an `index` run re-adds the items (`acknowledgeReindex`).
    private static func reportLoss(of container: SearchlightContainer, _ args: Arguments, readOnly: Bool) throws {
        let path = args.storeDirectory.path
        if let report = container.recoveryReport, let corruption = report.corruption {
            let message = "the store \(path) was damaged and could not be read (\(corruption)); it was reset to empty "
                + "and its files were moved aside, not deleted: \(report.movedAside.joined(separator: ", ")). "
                + "Index the items again"
            if readOnly { throw CommandFailure(message: "searchlight \(args.command): " + message) }
            Terminal.err("searchlight \(args.command): warning: " + message)
        } else if container.reindexAllPending(for: indexName) {
            Terminal.err("searchlight \(args.command): warning: the store \(path) lost its items when it was found damaged "
                         + "at an earlier open (its files were moved aside as *.corrupt-<time>); index them again")
        }
    }

    /// After an `index` run re-added items to a lost store: later opens stop warning. Written before returning (a
    /// checkpoint runs after the acknowledgement).
    static func acknowledgeReindex(_ container: SearchlightContainer) throws {
        guard container.reindexAllPending(for: indexName) else { return }
        container.acknowledgeReindexAll(name: indexName)
        try container.checkpoint()
    }

    /// Whether `directory` holds a store: its `LOCK` (made by every open), or a public web index (`web index`). A
    /// read-only command on any other directory (`--store .`) would leave a new store's files in it.
    private static func holdsStore(_ directory: URL) -> Bool {
        ["LOCK", "public-web"].contains { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
    }

    /// Runs an asynchronous call with a completion handler and waits for it; its error is thrown as it is, so the
    /// tool reports it with the command's name.
    static func perform(_ start: (@escaping @Sendable ((any Error)?) -> Void) -> Void) throws {
        let result = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        start { error in
            result.withLock { $0 = error }
            done.signal()
        }
        done.wait()
        if let error = result.withLock({ $0 }) { throw error }
    }

    /// Waits for a call that delivers a value and an optional error (thrown as it is).
    static func wait<T: Sendable>(_ start: (@escaping @Sendable (T, (any Error)?) -> Void) -> Void) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        start { value, error in
            result.withLock { $0 = error.map { .failure($0) } ?? .success(value) }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }
}
