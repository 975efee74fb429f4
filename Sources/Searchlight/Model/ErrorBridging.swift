import Foundation

// Apple's error structs bridge from `NSError`: an `NSError` of their domain casts to them (`as? CSIndexError`,
// `catch let error as CSIndexError`). Swift on Linux has no such bridging for errors declared outside Foundation,
// but its runtime does consult `_ObjectiveCBridgeable`, with `NSError` as the Objective-C side, for these casts.
// An `NSError` with a code the domain does not define does not cast (Apple's would, then trap reading `code`).

extension CSIndexError: _ObjectiveCBridgeable {
    /// The `NSError` this error bridges to: the same as `error as NSError`.
    public func _bridgeToObjectiveC() -> NSError { _nsError }

    public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout CSIndexError?) {
        guard _conditionallyBridgeFromObjectiveC(source, result: &result) else {
            fatalError("error \(source.code) of domain '\(source.domain)' is not a CSIndexError")
        }
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSError, result: inout CSIndexError?) -> Bool {
        guard source.domain == errorDomain, let code = Code(rawValue: source.code) else { return false }
        result = CSIndexError(code, userInfo: source.userInfo)
        return true
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> CSIndexError {
        guard let source else { return CSIndexError(.unknownError) }
        return CSIndexError(_nsError: source)
    }
}

extension CSSearchQueryError: _ObjectiveCBridgeable {
    /// The `NSError` this error bridges to: the same as `error as NSError`.
    public func _bridgeToObjectiveC() -> NSError { _nsError }

    public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout CSSearchQueryError?) {
        guard _conditionallyBridgeFromObjectiveC(source, result: &result) else {
            fatalError("error \(source.code) of domain '\(source.domain)' is not a CSSearchQueryError")
        }
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSError, result: inout CSSearchQueryError?) -> Bool {
        guard source.domain == errorDomain, let code = Code(rawValue: source.code) else { return false }
        result = CSSearchQueryError(code, userInfo: source.userInfo)
        return true
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> CSSearchQueryError {
        guard let source else { return CSSearchQueryError(.unknown) }
        return CSSearchQueryError(_nsError: source)
    }
}
