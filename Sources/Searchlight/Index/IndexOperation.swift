import Foundation

/// One change to a container, as a call or a batch records it before it is applied.
package enum IndexOperation: Sendable {
    /// Index (replace) or, for `isUpdate` items, merge. The items are private copies.
    case index([CSSearchableItem])
    case deleteIdentifiers([String])
    case deleteDomains([String])
    case deleteAll
}

/// What a commit does to the client state of one index name.
package enum ClientStateChange: Sendable {
    /// Store `state` for `name`.
    case set(name: String, state: Data)
    /// Store `state` for `name` only if the stored state equals `expected` (nil: none stored yet).
    case compareAndSet(name: String, expected: Data?, state: Data)
}
