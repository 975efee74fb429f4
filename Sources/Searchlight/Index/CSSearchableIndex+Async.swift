import Foundation

/// The `async throws` twins of the completion-handler calls, as Swift imports Apple's API.
extension CSSearchableIndex {
    public func indexSearchableItems(_ items: [CSSearchableItem]) async throws {
        try await bridge { self.indexSearchableItems(items, completionHandler: $0) }
    }

    public func deleteSearchableItems(withIdentifiers identifiers: [String]) async throws {
        try await bridge { self.deleteSearchableItems(withIdentifiers: identifiers, completionHandler: $0) }
    }

    public func deleteSearchableItems(withDomainIdentifiers domainIdentifiers: [String]) async throws {
        try await bridge { self.deleteSearchableItems(withDomainIdentifiers: domainIdentifiers, completionHandler: $0) }
    }

    public func deleteAllSearchableItems() async throws {
        try await bridge { self.deleteAllSearchableItems(completionHandler: $0) }
    }

    public func endBatch(withClientState clientState: Data) async throws {
        try await bridge { self.endBatch(withClientState: clientState, completionHandler: $0) }
    }

    public func endIndexBatch(expectedClientState: Data?, newClientState: Data) async throws {
        try await bridge {
            self.endIndexBatch(expectedClientState: expectedClientState, newClientState: newClientState, completionHandler: $0)
        }
    }

    /// The last client state, or empty data when none is stored (Apple's Swift signature returns `Data`); throws
    /// the error the handler form delivers (it was dropped, so a failed read looked like no state).
    public func fetchLastClientState() async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            fetchLastClientState { state, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: state ?? Data()) }
            }
        }
    }

    public func refreshSearchableItems(withIdentifiers identifiers: [String]) async throws {
        try await bridge { self.refreshSearchableItems(withIdentifiers: identifiers, completionHandler: $0) }
    }

    private func bridge(_ start: (@escaping @Sendable ((any Error)?) -> Void) -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            start { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }
}
