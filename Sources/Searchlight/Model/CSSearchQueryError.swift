import Foundation

/// Mirror of `CSSearchQueryError` (domain `CSSearchQueryErrorDomain`, raw codes -2000…-2003) with a message.
/// Matches like Apple's: `catch CSSearchQueryError.invalidQuery`, `error.code == .cancelled`.
public struct CSSearchQueryError: CustomNSError, LocalizedError, Hashable, Sendable {
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        case unknown = -2000
        case indexUnreachable = -2001
        case invalidQuery = -2002
        case cancelled = -2003
    }

    public let code: Code
    /// What went wrong (for `.invalidQuery`: where in the query string).
    public let message: String

    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public static var errorDomain: String { CSSearchQueryErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    public var errorDescription: String? { message }

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
