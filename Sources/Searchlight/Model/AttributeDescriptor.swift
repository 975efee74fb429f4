/// The shape of an attribute's value, matching the Swift type Apple gives the property.
package enum AttributeKind: String, Sendable, Hashable, CaseIterable {
    /// `String?`
    case string
    /// `[String]?`
    case strings
    /// `NSNumber?` (numbers and 0/1 flags)
    case number
    /// `Date?`
    case date
    /// `[Date]?`
    case dates
    /// `URL?`
    case url
    /// `Data?`
    case data
    /// `[CSPerson]?`
    case persons
    /// `[String: [Any]]?` (`emailHeaders`)
    case headers
    /// `UTType?` (`sharedItemContentType`), stored as its identifier string
    case uniformType
}

/// The header category (Objective-C category of `CSSearchableItemAttributeSet`) an attribute belongs to.
package enum AttributeCategory: String, Sendable, Hashable, CaseIterable {
    case general, actionExtras, containment, itemProvider, documents, events, messaging, media, music, images, places
}

/// One row of the attribute catalogue: everything the index, query and interchange layers need to know
/// about a `CSSearchableItemAttributeSet` property.
package struct AttributeDescriptor: Sendable, Hashable {
    /// The Swift property name (also the JSON key and the `CSSearchQuery` attribute name).
    package let name: String
    package let kind: AttributeKind
    package let category: AttributeCategory
    /// The Spotlight metadata key (`kMDItem…`) alias, accepted in queries too (reference §1.17).
    package let spotlightKey: String
    /// Searched by free text (unqualified queries, `CSUserQuery`) by default (reference §3.6).
    package let isText: Bool
    /// Holds several values; queries match if any element matches.
    package let isMultiValued: Bool
    /// System-generated and read-only in Apple's API (`textContentSummary`, `isPriority`).
    package let isReadOnly: Bool

    package init(name: String, kind: AttributeKind, category: AttributeCategory, spotlightKey: String,
                 isText: Bool, isMultiValued: Bool, isReadOnly: Bool) {
        self.name = name
        self.kind = kind
        self.category = category
        self.spotlightKey = spotlightKey
        self.isText = isText
        self.isMultiValued = isMultiValued
        self.isReadOnly = isReadOnly
    }
}
