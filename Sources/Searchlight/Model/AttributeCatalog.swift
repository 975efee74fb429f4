/// The single source of truth for `CSSearchableItemAttributeSet`'s attributes: the table lives in
/// `AttributeCatalog+Table.swift`; the typed properties in `CSSearchableItemAttributeSet+Attributes.swift` and
/// the JSON interchange are derived from it.
package enum AttributeCatalog {
    private static let byName: [String: AttributeDescriptor] = {
        var map: [String: AttributeDescriptor] = [:]
        for d in all {
            assert(map[d.name] == nil, "duplicate attribute \(d.name)")
            map[d.name] = d
        }
        return map
    }()

    private static let bySpotlightKey: [String: AttributeDescriptor] = {
        var map: [String: AttributeDescriptor] = [:]
        for d in all {
            assert(map[d.spotlightKey] == nil, "duplicate Spotlight key \(d.spotlightKey)")
            map[d.spotlightKey] = d
        }
        return map
    }()

    private static let positions: [String: Int] = {
        var map: [String: Int] = [:]
        for (i, d) in all.enumerated() { map[d.name] = i }
        return map
    }()

    /// The attribute's index in `all` (Apple's header order), used to write attributes in a stable order.
    package static func position(of name: String) -> Int? { positions[name] }

    /// The descriptor for a property name, e.g. `"contentDescription"`.
    package static func descriptor(named name: String) -> AttributeDescriptor? { byName[name] }

    /// The descriptor for a Spotlight key, e.g. `"kMDItemDescription"`.
    package static func descriptor(spotlightKey key: String) -> AttributeDescriptor? { bySpotlightKey[key] }

    /// Resolves either spelling a query may use: the property name or its `kMDItem…` alias.
    package static func descriptor(forQueryName name: String) -> AttributeDescriptor? {
        byName[name] ?? bySpotlightKey[name]
    }

    /// The attributes free-text search looks at by default.
    package static let textAttributes: [AttributeDescriptor] = all.filter(\.isText)
}
