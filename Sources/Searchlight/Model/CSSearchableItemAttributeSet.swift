import Foundation
import Synchronization
#if canImport(UniformTypeIdentifiers)
import UniformTypeIdentifiers
#endif

/// Mirror of Core Spotlight's `CSSearchableItemAttributeSet`: the metadata of one searchable item.
///
/// A reference type like Apple's (assigning it shares it; `copy()` makes an independent deep copy). Every
/// attribute lives in one dictionary keyed by its catalogue name (`AttributeCatalog`), each slot either absent
/// (unset), `.cleared` (the caller assigned `nil`, which an `isUpdate` merge turns into a removal) or a value.
///
/// Apple says to mutate an attribute set from one thread at a time; this one is genuinely thread-safe instead.
open class CSSearchableItemAttributeSet: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // `@unchecked Sendable` is sound: the only stored state is `storage`, a `Mutex` around a value type
    // (`AttributeStorage`, itself `Sendable`), and every read and write goes through `withLock`.
    private let storage: Mutex<AttributeStorage>

    /// Creates an empty attribute set with the given uniform type identifier string, e.g. `"public.text"`.
    public init(itemContentType: String) {
        storage = Mutex(AttributeStorage())
        super.init()
        contentType = itemContentType
    }

    /// Creates an empty attribute set of the given content type (Apple's preferred initialiser). Designated, as
    /// Apple declares it, so a subclass's own initialiser can call `super.init(contentType:)`.
    public init(contentType: UTType) {
        storage = Mutex(AttributeStorage())
        super.init()
        self.contentType = contentType.identifier
    }

    /// Creates an attribute set with no content type.
    public override init() {
        storage = Mutex(AttributeStorage())
        super.init()
    }

    /// Creates an attribute set holding a copy of `storage` (used by copies and the interchange reader).
    /// A convenience initialiser: a designated one, invisible outside the module, would keep an app's subclass
    /// from inheriting the public initialisers (`init(contentType:)`, `init(from:)`) as Apple's subclasses do.
    package convenience init(storage: AttributeStorage) {
        self.init()
        replaceStorage(storage)
    }

    /// Decodes the interchange JSON shape of an `attributeSet` object (see `ItemJSON`).
    public required convenience init(from decoder: any Decoder) throws {
        let decoded = try ItemJSON.attributeSet(from: JSONValue(from: decoder), path: "attributeSet")
        self.init(storage: decoded.snapshot)
    }

    // MARK: Content type

    /// The uniform type identifier of the item. Setting it also sets the derived `contentTypeTree`.
    public var contentType: String? {
        get { stringAttribute("contentType") }
        set {
            storage.withLock { s in
                if let newValue {
                    s.named["contentType"] = .value(.string(newValue))
                    s.named["contentTypeTree"] = .value(.strings(ContentTypeTree.tree(for: newValue)))
                } else {
                    s.named["contentType"] = .cleared
                    s.named["contentTypeTree"] = .cleared
                }
            }
        }
    }

    /// The content type followed by every type it conforms to ("pedigree"), derived from `contentType`
    /// unless set explicitly.
    public var contentTypeTree: [String]? {
        get { stringsAttribute("contentTypeTree") }
        set { setStringsAttribute("contentTypeTree", newValue) }
    }

    // MARK: Custom attributes

    /// Sets (or, with `nil`, clears) a custom attribute, with Apple's signature. Apple allows NSString, NSNumber,
    /// NSNull, NSData, NSDate, CSPerson and arrays of those.
    open func setValue(_ value: (any NSSecureCoding)?, forCustomKey key: CSCustomAttributeKey) {
        setValue(value as Any?, forCustomKey: key)
    }

    /// Sets (or, with `nil`, clears) a custom attribute given as a Swift value: String, Swift numbers, Date, Data,
    /// URL, CSLocalizedString and arrays of those are accepted too. Other values are kept and reported by
    /// validation when the item is indexed (`CSIndexError.invalidItemError`).
    open func setValue(_ value: Any?, forCustomKey key: CSCustomAttributeKey) {
        let slot: AttributeSlot = value.map { .value(AttributeValue.fromCustom($0)) } ?? .cleared
        let info = key.resolvedInfo
        storage.withLock { $0.custom[info.keyName] = CustomAttributeEntry(key: info, slot: slot) }
    }

    /// The custom attribute's value typed as Apple's: NSString, NSNumber, NSDate, NSURL, NSData, CSPerson, NSNull or
    /// an NSArray of those, whatever form it was set in. `as? String` (or `[String]`, `Date`...) on it works, but on
    /// Linux the compiler warns that such a cast "always fails"; `as? NSString` or `as Any? as? String` does not.
    open func value(forCustomKey key: CSCustomAttributeKey) -> (any NSSecureCoding)? {
        storage.withLock { $0.custom[key.keyName]?.slot.value }?.secureCodingValue
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    /// Archives the whole storage as one binary value (the index's stored value codec): every attribute and custom
    /// value keeps its exact kind (Int64, Bool, dates to the bit, persons...), cleared slots and custom key flags.
    open func encode(with coder: NSCoder) {
        var writer = StoredValueWriter()
        writer.storage(snapshot)
        coder.encode(NSData(data: Data(writer.bytes)), forKey: "storage")
    }

    /// The class an archive names: the set's own when Foundation can name it (a top-level class), else this one.
    /// swift-corelibs-foundation's `NSStringFromClass` traps on a private or nested subclass, so archiving one
    /// (or an item holding one) crashed; it now archives as an attribute set, every value kept.
    open override var classForKeyedArchiver: AnyClass? {
        keyedArchiverClass(of: self, else: CSSearchableItemAttributeSet.self)
    }

    /// Decodes what `encode(with:)` wrote; nil (a failed decode, not a crash) when the storage is missing,
    /// truncated or names attributes, kinds or custom keys the API could not have set.
    public required init?(coder: NSCoder) {
        guard let data = coder.decodeObject(of: NSData.self, forKey: "storage") else { return nil }
        var reader = StoredValueReader([UInt8](data as Data))
        guard let decoded = reader.storage(), reader.isAtEnd else { return nil }
        storage = Mutex(decoded)
        super.init()
    }

    // MARK: NSCopying

    /// A deep copy: later changes to either set do not affect the other. A subclass's copy is of the subclass
    /// ("a copy of the receiver"), made through its `init?(coder:)` as an archive round trip would; if that
    /// fails, a plain attribute set with the same storage.
    open func copy(with zone: NSZone? = nil) -> Any {
        subclassCopy(of: self, base: CSSearchableItemAttributeSet.self)
            ?? CSSearchableItemAttributeSet(storage: snapshot)
    }

    // MARK: Equality

    /// Equal when every slot (attributes, custom values with their keys' flags, cleared slots) is: Apple's class
    /// overrides `isEqual:` and `hash` too, so a copy or a decoded archive equals the original.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CSSearchableItemAttributeSet else { return false }
        return other === self || other.snapshot == snapshot
    }

    open override var hash: Int { snapshot.hashValue }

    open override var description: String {
        let s = snapshot
        let names = (s.named.keys.sorted() + s.custom.keys.sorted().map { "custom:" + $0 }).joined(separator: ", ")
        return "<CSSearchableItemAttributeSet \(contentType ?? "no type"): \(names)>"
    }
}

/// The class a keyed archive should name for `object`: its own when swift-corelibs-foundation can name it (a
/// top-level class; `NSStringFromClass` traps on a private or nested one), else `base`.
package func keyedArchiverClass(of object: AnyObject, else base: AnyClass) -> AnyClass {
    let own: AnyClass = type(of: object)
    return String(reflecting: own).split(separator: ".").count == 2 ? own : base
}

/// A copy of `object` as its own subclass of `base` ("a copy of the receiver"): archived, then read back through
/// the subclass's `init?(coder:)`, also under `base`'s name, which a private or nested subclass archives as. Nil
/// for `base` itself (its copy is direct) or when that fails.
package func subclassCopy<Base: NSObject & NSSecureCoding>(of object: Base, base: Base.Type) -> Base? {
    let subclass = type(of: object)
    guard subclass != base,
          let data = try? NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true),
          let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
    unarchiver.decodingFailurePolicy = .setErrorAndReturn
    unarchiver.setClass(subclass, forClassName: NSStringFromClass(base))
    defer { unarchiver.finishDecoding() }
    return unarchiver.decodeObject(of: subclass, forKey: NSKeyedArchiveRootObjectKey)
}

// MARK: - Package API for the index and interchange layers

extension CSSearchableItemAttributeSet {
    /// A consistent copy of the whole storage (both dictionaries, all three slot states).
    package var snapshot: AttributeStorage { storage.withLock { $0 } }

    /// Replaces the whole storage at once.
    package func replaceStorage(_ newStorage: AttributeStorage) { storage.withLock { $0 = newStorage } }

    /// The slot of a catalogue attribute or, failing that, of a custom key with that name; nil when unset.
    package func slot(forAttribute name: String) -> AttributeSlot? {
        storage.withLock { s in s.named[name] ?? s.custom[name]?.slot }
    }

    /// The value of a catalogue attribute (by property name or `kMDItem…` alias) or custom key; nil if unset
    /// or cleared. Catalogue names win over a custom key with the same name.
    package func value(forAttribute name: String) -> AttributeValue? {
        let canonical = AttributeCatalog.descriptor(forQueryName: name)?.name ?? name
        return storage.withLock { s in (s.named[canonical] ?? s.custom[canonical]?.slot)?.value }
    }

    /// Sets a catalogue attribute by name, bypassing read-only-ness (the index sets system attributes);
    /// `nil` records "cleared". Setting `contentType` keeps `contentTypeTree` derived, as the property does.
    package func setValue(_ value: AttributeValue?, forAttribute name: String) {
        if name == "contentType" {
            if case .string(let type)? = value { contentType = type; return }
            if value == nil { contentType = nil; return }
        }
        storage.withLock { $0.named[name] = value.map(AttributeSlot.value) ?? .cleared }
    }

    /// Forgets a catalogue attribute or custom key entirely (back to "unset").
    package func removeSlot(forAttribute name: String) {
        storage.withLock { s in
            if s.named.removeValue(forKey: name) == nil { s.custom.removeValue(forKey: name) }
        }
    }

    /// Sets a custom attribute from an already converted value (`nil` records "cleared").
    package func setCustomValue(_ value: AttributeValue?, for key: CustomAttributeKeyInfo) {
        storage.withLock { $0.custom[key.keyName] = CustomAttributeEntry(key: key, slot: value.map(AttributeSlot.value) ?? .cleared) }
    }

    /// `isUpdate` semantics (reference §3.1): every slot set in `update` overwrites this set's slot; a value
    /// replaces, a cleared slot stays recorded as cleared (so updates coalesce exactly; call
    /// `removeClearedSlots()` when the result is what gets stored). Unset slots of `update` change nothing.
    package func merge(update: CSSearchableItemAttributeSet) {
        let incoming = update.snapshot
        storage.withLock { $0.merge(incoming) }
    }

    /// Drops every cleared slot, leaving only values (the stored form of an item after a merge).
    package func removeClearedSlots() {
        storage.withLock { $0.removeClearedSlots() }
    }

    /// A deep, independent copy.
    package func deepCopy() -> CSSearchableItemAttributeSet { CSSearchableItemAttributeSet(storage: snapshot) }
}

// MARK: - Typed accessors used by the generated properties

extension CSSearchableItemAttributeSet {
    @inline(__always) private func read(_ name: String) -> AttributeValue? {
        storage.withLock { $0.named[name]?.value }
    }

    @inline(__always) private func write(_ name: String, _ value: AttributeValue?) {
        storage.withLock { $0.named[name] = value.map(AttributeSlot.value) ?? .cleared }
    }

    func stringAttribute(_ name: String) -> String? {
        if case .string(let v)? = read(name) { return v }
        return nil
    }
    func setStringAttribute(_ name: String, _ value: String?) { write(name, value.map(AttributeValue.string)) }

    func stringsAttribute(_ name: String) -> [String]? {
        if case .strings(let v)? = read(name) { return v }
        return nil
    }
    func setStringsAttribute(_ name: String, _ value: [String]?) { write(name, value.map(AttributeValue.strings)) }

    func numberAttribute(_ name: String) -> NSNumber? {
        if case .number(let v)? = read(name) { return v.nsNumber }
        return nil
    }
    func setNumberAttribute(_ name: String, _ value: NSNumber?) {
        write(name, value.map { .number(AttributeNumber($0)) })
    }

    func dateAttribute(_ name: String) -> Date? {
        if case .date(let v)? = read(name) { return v }
        return nil
    }
    func setDateAttribute(_ name: String, _ value: Date?) { write(name, value.map(AttributeValue.date)) }

    func datesAttribute(_ name: String) -> [Date]? {
        if case .dates(let v)? = read(name) { return v }
        return nil
    }
    func setDatesAttribute(_ name: String, _ value: [Date]?) { write(name, value.map(AttributeValue.dates)) }

    func urlAttribute(_ name: String) -> URL? {
        if case .url(let v)? = read(name) { return v }
        return nil
    }
    func setUrlAttribute(_ name: String, _ value: URL?) { write(name, value.map(AttributeValue.url)) }

    func dataAttribute(_ name: String) -> Data? {
        if case .data(let v)? = read(name) { return v }
        return nil
    }
    func setDataAttribute(_ name: String, _ value: Data?) { write(name, value.map(AttributeValue.data)) }

    func personsAttribute(_ name: String) -> [CSPerson]? {
        if case .persons(let v)? = read(name) { return v.map(CSPerson.init) }
        return nil
    }
    func setPersonsAttribute(_ name: String, _ value: [CSPerson]?) {
        write(name, value.map { .persons($0.map(\.value)) })
    }

    func headersAttribute(_ name: String) -> [String: [Any]]? {
        if case .headers(let v)? = read(name) { return v.mapValues { $0.map(\.foundationValue) } }
        return nil
    }
    func setHeadersAttribute(_ name: String, _ value: [String: [Any]]?) {
        write(name, value.map { .headers($0.mapValues { $0.map(AttributeValue.fromCustom) }) })
    }

    func uniformTypeAttribute(_ name: String) -> UTType? {
        guard case .string(let v)? = read(name) else { return nil }
        #if canImport(UniformTypeIdentifiers)
        return UTType(v) ?? UTType(importedAs: v)
        #else
        // Reading registers nothing (`UTType(importedAs:)` would declare the type, a child of public.data).
        return UTType(named: v)
        #endif
    }
    func setUniformTypeAttribute(_ name: String, _ value: UTType?) {
        write(name, value.map { .string($0.identifier) })
    }
}
