import Foundation

/// The value form of a `CSPerson`, as stored in attribute sets and written to JSON.
package struct PersonValue: Sendable, Hashable {
    package var displayName: String?
    package var handles: [String]
    package var handleIdentifier: String
    package var contactIdentifier: String?

    package init(displayName: String?, handles: [String], handleIdentifier: String, contactIdentifier: String? = nil) {
        self.displayName = displayName
        self.handles = handles
        self.handleIdentifier = handleIdentifier
        self.contactIdentifier = contactIdentifier
    }
}
