import Foundation

/// Mirror of `CSIndexError` (domain `CSIndexErrorDomain`, Apple's raw codes), carrying a message that says
/// what was wrong and where. Matches like Apple's: `catch CSIndexError.invalidItemError`, `error.code == .quotaExceeded`.
public struct CSIndexError: CustomNSError, LocalizedError, Hashable, Sendable {
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        case unknownError = -1
        case indexUnavailableError = -1000
        case invalidItemError = -1001
        case invalidClientStateError = -1002
        case remoteConnectionError = -1003
        case quotaExceeded = -1004
        case indexingUnsupported = -1005
        case mismatchedClientState = -1006
    }

    public let code: Code
    /// What went wrong, naming the item and attribute where there is one.
    public let message: String

    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public static var errorDomain: String { CSIndexErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    public var errorDescription: String? { message }

    public static var unknownError: Code { .unknownError }
    public static var indexUnavailableError: Code { .indexUnavailableError }
    public static var invalidItemError: Code { .invalidItemError }
    public static var invalidClientStateError: Code { .invalidClientStateError }
    public static var remoteConnectionError: Code { .remoteConnectionError }
    public static var quotaExceeded: Code { .quotaExceeded }
    public static var indexingUnsupported: Code { .indexingUnsupported }
    public static var mismatchedClientState: Code { .mismatchedClientState }


    public static func unknown(_ message: String) -> CSIndexError { .init(.unknownError, message: message) }
    public static func indexUnavailable(_ message: String) -> CSIndexError { .init(.indexUnavailableError, message: message) }
    public static func invalidItem(_ message: String) -> CSIndexError { .init(.invalidItemError, message: message) }
    public static func invalidClientState(_ message: String) -> CSIndexError { .init(.invalidClientStateError, message: message) }
    public static func remoteConnection(_ message: String) -> CSIndexError { .init(.remoteConnectionError, message: message) }
    public static func quota(_ message: String) -> CSIndexError { .init(.quotaExceeded, message: message) }
    public static func unsupported(_ message: String) -> CSIndexError { .init(.indexingUnsupported, message: message) }
    public static func mismatchedState(_ message: String) -> CSIndexError { .init(.mismatchedClientState, message: message) }
}

extension CSIndexError.Code {
    /// Lets `catch CSIndexError.invalidItemError` match any error carrying that code in this domain.
    public static func ~= (code: Self, error: any Error) -> Bool {
        if let e = error as? CSIndexError { return e.code == code }
        let ns = error as NSError
        return ns.domain == CSIndexErrorDomain && ns.code == code.rawValue
    }
}
