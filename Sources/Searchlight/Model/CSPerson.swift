import Foundation
import Synchronization

/// Mirror of `CSPerson`: an author or recipient with display name and handles (emails, phone numbers).
open class CSPerson: NSObject, NSCopying, @unchecked Sendable {
    // `@unchecked Sendable` is sound: the only mutable state (`contactIdentifier`) lives inside a `Mutex`.
    private let state: Mutex<PersonValue>

    public init(displayName: String?, handles: [String], handleIdentifier: String) {
        state = Mutex(PersonValue(displayName: displayName, handles: handles, handleIdentifier: handleIdentifier))
        super.init()
    }

    package init(_ value: PersonValue) {
        state = Mutex(value)
        super.init()
    }

    /// The value stored in attribute sets.
    package var value: PersonValue { state.withLock { $0 } }

    open var displayName: String? { value.displayName }
    open var handles: [String] { value.handles }
    /// A Contacts property key such as `CNContactPhoneNumbersKey` saying what the handles are.
    open var handleIdentifier: String { value.handleIdentifier }
    /// Set once the person is resolved to a Contacts record.
    open var contactIdentifier: String? {
        get { value.contactIdentifier }
        set { state.withLock { $0.contactIdentifier = newValue } }
    }

    open func copy(with zone: NSZone? = nil) -> Any { CSPerson(value) }

    open override func isEqual(_ object: Any?) -> Bool { (object as? CSPerson)?.value == value }
    open override var hash: Int { value.hashValue }
    open override var description: String { "<CSPerson \(displayName ?? "") \(handles)>" }
}
