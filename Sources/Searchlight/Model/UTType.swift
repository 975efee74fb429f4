#if !canImport(UniformTypeIdentifiers)
/// A minimal stand-in for Apple's `UTType` where the platform has none (Linux). On Apple platforms the real
/// `UniformTypeIdentifiers.UTType` is used instead. Conformance comes from `ContentTypeTree`.
public struct UTType: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public let identifier: String

    /// A known type (system or registered), named in any case, by its declared spelling; nil otherwise, like
    /// Apple's failable initialiser.
    public init?(_ identifier: String) {
        guard let declared = ContentTypeTree.canonicalIdentifier(identifier) else { return nil }
        self.identifier = declared
    }

    /// Equal when the identifiers are, without case, as Apple compares type identifiers.
    public static func == (lhs: UTType, rhs: UTType) -> Bool {
        ContentTypeTree.sameIdentifier(lhs.identifier, rhs.identifier)
    }

    /// Hashes the identifier without case, consistently with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier.lowercased()) }

    /// Declares an app-owned type conforming to `parent` (default `public.data`) and registers it.
    public init(exportedAs identifier: String, conformingTo parent: UTType? = nil) {
        self.identifier = identifier
        ContentTypeTree.register(identifier, conformingTo: [(parent ?? .data).identifier])
    }

    /// A type another party owns; registered like an exported one if unknown.
    public init(importedAs identifier: String, conformingTo parent: UTType? = nil) {
        self.identifier = identifier
        if !ContentTypeTree.isKnown(identifier) {
            ContentTypeTree.register(identifier, conformingTo: [(parent ?? .data).identifier])
        }
    }

    init(system identifier: String) { self.identifier = identifier }

    /// The type of a filename extension (default: conforming to `public.data`): the declared type with that
    /// extension conforming to `supertype`, else a dynamic type (`isDynamic`) conforming to it, as Apple's.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        self.init(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
    }

    /// The type of a MIME type (default: conforming to `public.data`), declared or dynamic, as Apple's.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        self.init(tag: mimeType, tagClass: .mimeType, conformingTo: supertype)
    }

    /// The type with `tag` of `tagClass` conforming to `supertype` (nil: any): declared, or else dynamic. Nil
    /// for an empty tag.
    public init?(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) {
        guard !tag.isEmpty, !tag.contains(where: \.isNewline) else { return nil }
        if let declared = UTType.types(tag: tag, tagClass: tagClass, conformingTo: supertype).first {
            self = declared
        } else {
            self.init(system: ContentTypeTree.dynamicType(tag: tag, tagClass: tagClass.rawValue,
                                                          conformingTo: supertype?.identifier))
        }
    }

    /// The declared types with `tag` of `tagClass` that conform to `supertype` (nil: any), preferred first.
    public static func types(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) -> [UTType] {
        ContentTypeTree.types(withTag: tag, tagClass: tagClass.rawValue).filter { identifier in
            supertype.map { ContentTypeTree.conforms(identifier, to: $0.identifier) } ?? true
        }.map(UTType.init(system:))
    }

    /// The first filename extension of the type's declaration, if any.
    public var preferredFilenameExtension: String? { tags[.filenameExtension]?.first }
    /// The first MIME type of the type's declaration, if any.
    public var preferredMIMEType: String? { tags[.mimeType]?.first }

    /// The type's tags by class: filename extensions and MIME types (a dynamic type's own tag).
    public var tags: [UTTagClass: [String]] {
        var tags: [UTTagClass: [String]] = [:]
        for tagClass in [UTTagClass.filenameExtension, .mimeType] {
            let values = ContentTypeTree.tags(of: identifier, tagClass: tagClass.rawValue)
            if !values.isEmpty { tags[tagClass] = values }
        }
        return tags
    }

    /// A description for people; Searchlight keeps no localized descriptions (nil).
    public var localizedDescription: String? { nil }
    /// Whether a declaration (system or registered) defines the type.
    public var isDeclared: Bool { ContentTypeTree.isKnown(identifier) && !isDynamic }
    /// Whether the type was made up for a tag no declared type has.
    public var isDynamic: Bool { identifier.lowercased().hasPrefix(ContentTypeTree.dynamicPrefix) }
    /// Whether the type is a public one (`public.*`, in any case).
    public var isPublic: Bool { identifier.lowercased().hasPrefix("public.") }

    /// Whether the type conforms to `type` and is not it.
    public func isSubtype(of type: UTType) -> Bool { self != type && conforms(to: type) }
    /// Whether `type` conforms to this type and is not it.
    public func isSupertype(of type: UTType) -> Bool { type.isSubtype(of: self) }

    /// A type as named, known or not, registering nothing: an unknown one is a dynamic type (it conforms to
    /// `public.item` only), as reading an attribute must not change what other types conform to.
    package init(named identifier: String) { self.identifier = identifier }

    public func conforms(to type: UTType) -> Bool { ContentTypeTree.conforms(identifier, to: type.identifier) }

    /// Every type this one conforms to, excluding itself.
    public var supertypes: Set<UTType> {
        Set(ContentTypeTree.tree(for: identifier).dropFirst().map(UTType.init(system:)))
    }

    public var description: String { identifier }
    /// The identifier and whether the type is dynamic and declared (Apple's is `CustomDebugStringConvertible` too).
    public var debugDescription: String {
        "\(identifier) (\(isDynamic ? "dynamic" : "not dynamic"), \(isDeclared ? "declared" : "not declared"))"
    }
}

/// A kind of tag a type is known by (Apple's `UTTagClass`).
public struct UTTagClass: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let filenameExtension = UTTagClass(rawValue: "public.filename-extension")
    public static let mimeType = UTTagClass(rawValue: "public.mime-type")
}
#endif
