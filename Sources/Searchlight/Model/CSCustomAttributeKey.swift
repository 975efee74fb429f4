import Foundation
import SearchlightQueryLanguage

/// The value form of a custom key: its name and flags (reference §1.9).
package struct CustomAttributeKeyInfo: Sendable, Hashable {
    package var keyName: String
    package var isSearchable: Bool
    package var isSearchableByDefault: Bool
    package var isUnique: Bool
    package var isMultiValued: Bool

    /// Apple's defaults: searchable, not searched by default, not unique, single-valued.
    package init(keyName: String, isSearchable: Bool = true, isSearchableByDefault: Bool = false,
                 isUnique: Bool = false, isMultiValued: Bool = false) {
        self.keyName = keyName
        self.isSearchable = isSearchable
        self.isSearchableByDefault = isSearchableByDefault
        self.isUnique = isUnique
        self.isMultiValued = isMultiValued
    }

    /// Why a key name is unacceptable, or nil if it is fine: non-empty, ASCII letters, digits and `_` only,
    /// and not starting with the reserved prefix `kMD`.
    package static func problem(withKeyName name: String) -> String? {
        if name.isEmpty { return "custom attribute key name is empty" }
        // A long name is quoted as an excerpt: the message must not grow with the name.
        let quoted = QueryParseError.excerpt(name)
        if name.hasPrefix("kMD") { return "custom attribute key name '\(quoted)' starts with the reserved prefix 'kMD'" }
        for byte in name.utf8 {
            let ok = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F
            if !ok {
                return "custom attribute key name '\(quoted)' may contain only ASCII letters, digits and '_'"
            }
        }
        return nil
    }
}

/// Mirror of `CSCustomAttributeKey`: names an app-defined attribute and says how it is searched.
open class CSCustomAttributeKey: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // `@unchecked Sendable` is sound: the only stored property is an immutable `let` of a Sendable value type.
    package let info: CustomAttributeKeyInfo

    /// A key with Apple's defaults (searchable, not searched by default, not unique, single-valued);
    /// nil when `keyName` is not a valid key name.
    public convenience init?(keyName: String) {
        self.init(keyName: keyName, searchable: true, searchableByDefault: false, unique: false, multiValued: false)
    }

    /// Designated initialiser; nil when `keyName` is empty, not ASCII letters/digits/`_`, or starts with `kMD`.
    public init?(keyName: String, searchable: Bool, searchableByDefault: Bool, unique: Bool, multiValued: Bool) {
        if CustomAttributeKeyInfo.problem(withKeyName: keyName) != nil { return nil }
        info = CustomAttributeKeyInfo(keyName: keyName, isSearchable: searchable,
                                      isSearchableByDefault: searchableByDefault, isUnique: unique,
                                      isMultiValued: multiValued)
        super.init()
    }

    /// A key from flags already checked (a copy, a built-in key); a convenience initialiser, so that an app's
    /// subclass still inherits `init?(keyName:)`. Traps on an invalid name, which the callers rule out.
    package convenience init(info: CustomAttributeKeyInfo) {
        self.init(keyName: info.keyName, searchable: info.isSearchable, searchableByDefault: info.isSearchableByDefault,
                  unique: info.isUnique, multiValued: info.isMultiValued)!
    }

    open var keyName: String { info.keyName }
    /// Queries may reference the attribute at all.
    open var isSearchable: Bool { info.isSearchable }
    /// Free-text (unqualified) search looks at it.
    open var isSearchableByDefault: Bool { info.isSearchableByDefault }
    /// A storage hint (intern repeated values), not a uniqueness constraint.
    open var isUnique: Bool { info.isUnique }
    open var isMultiValued: Bool { info.isMultiValued }

    /// The name and flags as the accessors give them: what an attribute set stores, indexes and archives. A subclass
    /// may override `keyName` or a flag instead of passing it to the initialiser; reading `info` there stored the
    /// value under the overridden name with the initialiser's flags (a key searched by default was not).
    package var resolvedInfo: CustomAttributeKeyInfo {
        type(of: self) == CSCustomAttributeKey.self ? info
            : CustomAttributeKeyInfo(keyName: keyName, isSearchable: isSearchable,
                                     isSearchableByDefault: isSearchableByDefault, isUnique: isUnique,
                                     isMultiValued: isMultiValued)
    }

    /// A copy of the receiver's class (a subclass's through its `init?(coder:)`).
    open func copy(with zone: NSZone? = nil) -> Any {
        subclassCopy(of: self, base: CSCustomAttributeKey.self) ?? CSCustomAttributeKey(info: info)
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    /// Archived as CSCustomAttributeKey when a private or nested subclass would trap Foundation's archiver.
    open override var classForKeyedArchiver: AnyClass? {
        keyedArchiverClass(of: self, else: CSCustomAttributeKey.self)
    }

    open func encode(with coder: NSCoder) {
        let info = resolvedInfo
        coder.encode(NSString(string: info.keyName), forKey: "keyName")
        coder.encode(info.isSearchable, forKey: "searchable")
        coder.encode(info.isSearchableByDefault, forKey: "searchableByDefault")
        coder.encode(info.isUnique, forKey: "unique")
        coder.encode(info.isMultiValued, forKey: "multiValued")
    }

    /// Decodes what `encode(with:)` wrote; nil (a failed decode, not a crash) when the key name is missing or one
    /// `init(keyName:)` refuses.
    public required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "keyName").map(String.init),
              CustomAttributeKeyInfo.problem(withKeyName: name) == nil else { return nil }
        info = CustomAttributeKeyInfo(keyName: name, isSearchable: coder.decodeBool(forKey: "searchable"),
                                      isSearchableByDefault: coder.decodeBool(forKey: "searchableByDefault"),
                                      isUnique: coder.decodeBool(forKey: "unique"),
                                      isMultiValued: coder.decodeBool(forKey: "multiValued"))
        super.init()
    }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? CSCustomAttributeKey)?.resolvedInfo == resolvedInfo
    }

    open override var hash: Int { resolvedInfo.hashValue }

    open override var description: String { "<CSCustomAttributeKey \(info.keyName)>" }
}
