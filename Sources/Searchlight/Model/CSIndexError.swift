import Foundation

/// Mirror of `CSIndexError` (domain `CSIndexErrorDomain`, Apple's raw codes), carrying a message that says
/// what was wrong and where. Matches like Apple's: `catch CSIndexError.invalidItemError`, `error.code == .quotaExceeded`;
/// built like Apple's bridged errors: `CSIndexError(.quotaExceeded)`, `init(_:userInfo:)`, `init(_nsError:)`, `userInfo`.
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
    /// Kept in an `NSError` because that is `Sendable` and a `[String: Any]` is not (Apple's bridged error
    /// structs keep theirs the same way).
    private let stored: NSError

    /// Apple's initialiser: `userInfo[NSLocalizedDescriptionKey]`, if any, becomes the description.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        stored = NSError(domain: Self.errorDomain, code: code.rawValue, userInfo: userInfo)
    }

    /// An error whose description is `message` (how the library builds the errors it throws).
    public init(_ code: Code, message: String) {
        self.init(code, userInfo: [NSLocalizedDescriptionKey: message])
    }

    /// Apple's bridging initialiser. Where Apple's traps on an error of another domain or an unknown code, this
    /// one gives `.unknownError` holding that error under `NSUnderlyingErrorKey`.
    public init(_nsError error: NSError) {
        if error.domain == Self.errorDomain, let code = Code(rawValue: error.code) {
            self.init(code, userInfo: error.userInfo)
        } else {
            self.init(.unknownError, userInfo: [
                NSUnderlyingErrorKey: error,
                NSLocalizedDescriptionKey: "error \(error.code) of domain '\(error.domain)' is not a known CSIndexError code",
            ])
        }
    }

    /// Apple's user-info dictionary; the library's own errors carry their message under
    /// `NSLocalizedDescriptionKey`.
    public var userInfo: [String: Any] { stored.userInfo }
    /// The wrapped `NSError`, under the name Apple's bridged error structs give it (`_BridgedStoredNSError`).
    public var _nsError: NSError { stored }
    /// What went wrong, naming the item and attribute where there is one.
    /// Foundation's generic text when `userInfo` has no description.
    public var message: String { stored.localizedDescription }

    public static var errorDomain: String { CSIndexErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { userInfo }
    public var errorDescription: String? { userInfo[NSLocalizedDescriptionKey] as? String }

    /// Equal when code and description are (Apple compares the underlying `NSError`s).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

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
