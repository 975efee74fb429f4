import Foundation

/// Mirror of `CSSearchableIndexDelegate`: how the index asks an app to re-add items it lost or failed to apply,
/// reports throttling, and asks for item data. Optional requirements have default implementations.
///
/// Searchlight calls the delegate on a private queue, like Core Spotlight (one per container, apart from the
/// completion handlers: a delegate may re-add items and wait for their completion); it never throttles, so the
/// throttle callbacks are never made.
public protocol CSSearchableIndexDelegate: AnyObject {
    /// The index lost everything (for example its store could not be read): re-add all items, then call
    /// `acknowledgementHandler` once the app's own state is persisted.
    func searchableIndex(_ searchableIndex: CSSearchableIndex,
                         reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping @Sendable () -> Void)
    /// Items that were acknowledged but could not be applied: re-add them, then acknowledge.
    func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                         acknowledgementHandler: @escaping @Sendable () -> Void)
    func searchableIndexDidThrottle(_ searchableIndex: CSSearchableIndex)
    func searchableIndexDidFinishThrottle(_ searchableIndex: CSSearchableIndex)
    /// Data of a type listed in the item's `providerDataTypeIdentifiers`.
    func data(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String) throws -> Data
    /// A file of a type listed in `providerFileTypeIdentifiers` / `providerInPlaceFileTypeIdentifiers`.
    func fileURL(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String,
                 inPlace: Bool) throws -> URL
    /// Fresh items for identifiers the index asks about (`CSSearchableIndex.refreshSearchableItems`). Implement
    /// this or its `async` form below: the index calls this one, whose default asks the `async` form.
    func searchableItems(forIdentifiers identifiers: [String],
                         searchableItemsHandler: @escaping @Sendable ([CSSearchableItem]) -> Void)
    /// The `async` form of the requirement above, as Swift imports Apple's (default: no items).
    func searchableItems(forIdentifiers identifiers: [String]) async -> [CSSearchableItem]
    /// System-generated attributes (`textContentSummary`) are ready for items that opted in through
    /// `updateListenerOptions`.
    func searchableItemsDidUpdate(_ items: [CSSearchableItem])
}

extension CSSearchableIndexDelegate {
    public func searchableIndexDidThrottle(_ searchableIndex: CSSearchableIndex) {}
    public func searchableIndexDidFinishThrottle(_ searchableIndex: CSSearchableIndex) {}
    public func data(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String) throws -> Data {
        throw CSIndexError.unknown("the index delegate does not provide data (type '\(typeIdentifier)' of item '\(itemIdentifier)')")
    }
    public func fileURL(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String,
                        inPlace: Bool) throws -> URL {
        throw CSIndexError.unknown("the index delegate does not provide files (type '\(typeIdentifier)' of item '\(itemIdentifier)')")
    }
    /// Answers with the `async` form, so a delegate implementing only that one is asked (it was never called).
    public func searchableItems(forIdentifiers identifiers: [String],
                                searchableItemsHandler: @escaping @Sendable ([CSSearchableItem]) -> Void) {
        let delegate = UncheckedDelegate(value: self)
        Task { searchableItemsHandler(await delegate.value.searchableItems(forIdentifiers: identifiers)) }
    }
    public func searchableItems(forIdentifiers identifiers: [String]) async -> [CSSearchableItem] { [] }
    public func searchableItemsDidUpdate(_ items: [CSSearchableItem]) {}
}

/// Carries a delegate into the task that asks its `async` form. `@unchecked Sendable`: the index already calls
/// its delegate off the app's isolation (on the delegate queue), as Core Spotlight does; this is one more such call.
private struct UncheckedDelegate: @unchecked Sendable {
    let value: any CSSearchableIndexDelegate
}

/// Mirror of `CSIndexExtensionRequestHandler`: the base class an index extension subclasses to re-add items on
/// request. Subclasses override the two reindex methods (and, optionally, the data providers).
///
/// Not `Sendable`, like Apple's: subclasses keep state of their own (Xcode's template does), and a `Sendable`
/// base class would make each of them restate `@unchecked Sendable`. The index calls it as any delegate.
open class CSIndexExtensionRequestHandler: NSObject, CSSearchableIndexDelegate {
    public override init() { super.init() }

    open func searchableIndex(_ searchableIndex: CSSearchableIndex,
                              reindexAllSearchableItemsWithAcknowledgementHandler acknowledgementHandler: @escaping @Sendable () -> Void) {
        acknowledgementHandler()
    }

    open func searchableIndex(_ searchableIndex: CSSearchableIndex, reindexSearchableItemsWithIdentifiers identifiers: [String],
                              acknowledgementHandler: @escaping @Sendable () -> Void) {
        acknowledgementHandler()
    }

    open func data(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String) throws -> Data {
        throw CSIndexError.unknown("\(type(of: self)) does not provide data (type '\(typeIdentifier)' of item '\(itemIdentifier)')")
    }

    open func fileURL(for searchableIndex: CSSearchableIndex, itemIdentifier: String, typeIdentifier: String,
                      inPlace: Bool) throws -> URL {
        throw CSIndexError.unknown("\(type(of: self)) does not provide files (type '\(typeIdentifier)' of item '\(itemIdentifier)')")
    }

    // The optional requirements are implemented here (not only in the protocol extension) so that subclasses
    // can override them and be called dynamically.
    open func searchableIndexDidThrottle(_ searchableIndex: CSSearchableIndex) {}

    open func searchableIndexDidFinishThrottle(_ searchableIndex: CSSearchableIndex) {}

    /// Answers with the `async` form, so a subclass may override either.
    open func searchableItems(forIdentifiers identifiers: [String],
                              searchableItemsHandler: @escaping @Sendable ([CSSearchableItem]) -> Void) {
        let handler = UncheckedDelegate(value: self)
        Task { searchableItemsHandler(await handler.value.searchableItems(forIdentifiers: identifiers)) }
    }

    open func searchableItems(forIdentifiers identifiers: [String]) async -> [CSSearchableItem] { [] }

    open func searchableItemsDidUpdate(_ items: [CSSearchableItem]) {}
}
