import Foundation
import Synchronization

/// Mirror of `CSPerson`: an author or recipient with display name and handles (emails, phone numbers).
/// `NSSecureCoding` like Apple's, so `value(forCustomKey:)` can hand one back as Apple types it.
open class CSPerson: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
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

    /// A copy of the receiver's class (a subclass's through its `init?(coder:)`).
    open func copy(with zone: NSZone? = nil) -> Any { subclassCopy(of: self, base: CSPerson.self) ?? CSPerson(value) }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    /// Archived as CSPerson when a private or nested subclass would trap Foundation's archiver.
    open override var classForKeyedArchiver: AnyClass? { keyedArchiverClass(of: self, else: CSPerson.self) }

    open func encode(with coder: NSCoder) {
        let v = value
        coder.encode(v.displayName.map(NSString.init(string:)), forKey: "displayName")
        coder.encode(NSArray(array: v.handles.map(NSString.init(string:))), forKey: "handles")
        coder.encode(NSString(string: v.handleIdentifier), forKey: "handleIdentifier")
        coder.encode(v.contactIdentifier.map(NSString.init(string:)), forKey: "contactIdentifier")
    }

    /// Decodes what `encode(with:)` wrote; nil (a failed decode, not a crash) when handles or their identifier
    /// are missing or of another type.
    public required init?(coder: NSCoder) {
        guard let handles = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "handles") as? [String],
              let handleIdentifier = coder.decodeObject(of: NSString.self, forKey: "handleIdentifier") else { return nil }
        state = Mutex(PersonValue(
            displayName: coder.decodeObject(of: NSString.self, forKey: "displayName").map(String.init),
            handles: handles, handleIdentifier: String(handleIdentifier),
            contactIdentifier: coder.decodeObject(of: NSString.self, forKey: "contactIdentifier").map(String.init)))
        super.init()
    }

    open override func isEqual(_ object: Any?) -> Bool { (object as? CSPerson)?.value == value }
    open override var hash: Int { value.hashValue }
    open override var description: String { "<CSPerson \(displayName ?? "") \(handles)>" }
}
