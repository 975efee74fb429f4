#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Searchlight

/// Output helpers: results to standard output, messages and progress to standard error.
enum Terminal {
    static func out(_ line: String) {
        writeOut(Data((line + "\n").utf8))
    }

    static func err(_ line: String) {
        writeErr(Data((line + "\n").utf8))
    }

    /// Writes to standard output; a failed write (a full disk) ends the tool with status 1 and a message rather
    /// than a crash (`FileHandle.write(_:)` traps on an error).
    static func writeOut(_ data: Data) {
        do { try FileHandle.standardOutput.write(contentsOf: data) } catch {
            err("searchlight: cannot write standard output: \(error.localizedDescription)")
            exit(1)
        }
    }

    /// Writes to standard error; a failure there has nowhere to be reported and is ignored (never a crash).
    static func writeErr(_ data: Data) {
        try? FileHandle.standardError.write(contentsOf: data)
    }

    /// An I/O error's message: Foundation's ("The operation could not be completed") says nothing; the POSIX error
    /// under it ("Is a directory") says what went wrong.
    static func describe(_ error: any Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }

    /// Whether standard error is a terminal (progress bars only go there).
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }

    /// One JSON object per line, keys sorted so output is stable.
    static func json(_ object: Any) {
        guard JSONSerialization.isValidJSONObject(object),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else {
            err("searchlight: internal error: result is not JSON-serializable")
            return
        }
        writeOut(data + Data("\n".utf8))
    }

    /// One JSON value as a line, written as the interchange writes it (numbers keep their kind).
    static func json(_ value: JSONValue) {
        var bytes: [UInt8] = []
        do { try JSONSerializer.write(value, to: &bytes) } catch {
            err("searchlight: internal error: \(error)")
            return
        }
        bytes.append(0x0A)
        writeOut(Data(bytes))
    }
}

/// A one-line progress bar on standard error: items, items per second and an estimate of the time left.
struct ProgressBar {
    let enabled: Bool
    let total: Int?
    private let start = Date()
    private var lastDraw = Date.distantPast

    init(total: Int?, enabled: Bool = Terminal.stderrIsTerminal) {
        self.total = total
        self.enabled = enabled
    }

    mutating func update(done: Int, force: Bool = false) {
        guard enabled else { return }
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let rate = Double(done) / elapsed
        var line = "\r\u{1B}[2K"
        if let total, total > 0 {
            let fraction = min(Double(done) / Double(total), 1)
            let width = 30
            let filled = Int(fraction * Double(width))
            let eta = rate > 0 ? Double(max(total - done, 0)) / rate : 0
            line += "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
            line += "\(done)/\(total) items  \(Int(rate)) items/s  ETA \(Self.format(eta))"
        } else {
            line += "\(done) items  \(Int(rate)) items/s"
        }
        Terminal.writeErr(Data(line.utf8))
    }

    func finish() {
        guard enabled else { return }
        Terminal.writeErr(Data("\r\u{1B}[2K".utf8))
    }

    private static func format(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 60 ? "\(s / 60)m\(s % 60)s" : "\(s)s"
    }
}
