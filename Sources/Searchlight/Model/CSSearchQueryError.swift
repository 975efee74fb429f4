import Foundation

/// Mirror of `CSSearchQueryError` (domain `CSSearchQueryErrorDomain`, raw codes -2000…-2003) with a message.
/// Matches like Apple's: `catch CSSearchQueryError.invalidQuery`, `error.code == .cancelled`; built like Apple's
/// bridged errors: `CSSearchQueryError(.cancelled)`, `init(_:userInfo:)`, `init(_nsError:)`, `userInfo`.
public struct CSSearchQueryError: CustomNSError, LocalizedError, Hashable, Sendable {
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        case unknown = -2000
        case indexUnreachable = -2001
        case invalidQuery = -2002
        case cancelled = -2003
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
    /// one gives `.unknown` holding that error under `NSUnderlyingErrorKey`.
    public init(_nsError error: NSError) {
        if error.domain == Self.errorDomain, let code = Code(rawValue: error.code) {
            self.init(code, userInfo: error.userInfo)
        } else {
            self.init(.unknown, userInfo: [
                NSUnderlyingErrorKey: error,
                NSLocalizedDescriptionKey: "error \(error.code) of domain '\(error.domain)' is not a known CSSearchQueryError code",
            ])
        }
    }

    /// Apple's user-info dictionary; the library's own errors carry their message under
    /// `NSLocalizedDescriptionKey`.
    public var userInfo: [String: Any] { stored.userInfo }
    /// The wrapped `NSError`, under the name Apple's bridged error structs give it (`_BridgedStoredNSError`).
    public var _nsError: NSError { stored }
    /// What went wrong (for `.invalidQuery`: where in the query string).
    /// Foundation's generic text when `userInfo` has no description.
    public var message: String { stored.localizedDescription }

    public static var errorDomain: String { CSSearchQueryErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { userInfo }
    public var errorDescription: String? { userInfo[NSLocalizedDescriptionKey] as? String }

    /// Equal when code and description are (Apple compares the underlying `NSError`s).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static var unknown: Code { .unknown }
    public static var indexUnreachable: Code { .indexUnreachable }
    public static var invalidQuery: Code { .invalidQuery }
    public static var cancelled: Code { .cancelled }


    public static func unknownError(_ message: String) -> CSSearchQueryError { .init(.unknown, message: message) }
    public static func unreachable(_ message: String) -> CSSearchQueryError { .init(.indexUnreachable, message: message) }
    public static func invalid(_ message: String) -> CSSearchQueryError { .init(.invalidQuery, message: message) }
    public static func cancelledQuery(_ message: String = "the query was cancelled") -> CSSearchQueryError {
        .init(.cancelled, message: message)
    }
}

extension CSSearchQueryError.Code {
    /// Lets `catch CSSearchQueryError.invalidQuery` match any error carrying that code in this domain.
    public static func ~= (code: Self, error: any Error) -> Bool {
        if let e = error as? CSSearchQueryError { return e.code == code }
        let ns = error as NSError
        return ns.domain == CSSearchQueryErrorDomain && ns.code == code.rawValue
    }
}
