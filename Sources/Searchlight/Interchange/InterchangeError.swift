import Foundation

/// A problem reading or writing the JSON interchange format, with the 1-based line (and byte column) where the
/// input is a file or stream, and a message saying what was expected.
public struct InterchangeError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
    /// 1-based line of the input (JSON Lines line, or line inside a JSON array file); nil when not from a file.
    public var line: Int?
    /// 1-based byte column within the line, when known.
    public var column: Int?
    public var message: String

    public init(line: Int? = nil, column: Int? = nil, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        switch (line, column) {
        case let (l?, c?): return "line \(l), column \(c): \(message)"
        case let (l?, nil): return "line \(l): \(message)"
        default: return message
        }
    }

    public var errorDescription: String? { description }

    /// The same error placed on a line (and shifted column) of a larger input.
    func located(line: Int, columnOffset: Int = 0) -> InterchangeError {
        InterchangeError(line: line, column: column.map { $0 + columnOffset }, message: message)
    }
}
