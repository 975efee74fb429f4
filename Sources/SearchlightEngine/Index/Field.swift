/// A registered field, as a small integer (dense, assigned in registration order).
public struct FieldID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static func < (lhs: FieldID, rhs: FieldID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "field#\(rawValue)" }
}

/// How a field is indexed. Every value of every field is also stored, so callers can rebuild items.
public struct FieldOptions: Sendable, Equatable {
    /// The indexing kind of a field.
    public enum Kind: Sendable, Equatable {
        /// Analyzed text with positions, scored by BM25F.
        case text
        /// A Double column (multi-valued allowed) for range filters, sorting and static boosts.
        case numeric
        /// Stored only, never indexed.
        case stored
    }

    public var kind: Kind
    /// BM25F weight of a text field (title > displayName/keywords > description).
    public var weight: Float
    /// Part of the unscoped free-text field set.
    public var searchableByDefault: Bool
    /// A title-like field: exact and prefix matches on it get an extra boost.
    public var primary: Bool

    public init(kind: Kind, weight: Float = 1, searchableByDefault: Bool = true, primary: Bool = false) {
        self.kind = kind
        self.weight = weight
        self.searchableByDefault = kind == .text && searchableByDefault
        self.primary = kind == .text && primary
    }

    /// A text field.
    public static func text(weight: Float = 1, searchableByDefault: Bool = true, primary: Bool = false) -> FieldOptions {
        FieldOptions(kind: .text, weight: weight, searchableByDefault: searchableByDefault, primary: primary)
    }

    /// A numeric (Double) column.
    public static let numeric = FieldOptions(kind: .numeric, searchableByDefault: false)

    /// A stored-only field.
    public static let stored = FieldOptions(kind: .stored, searchableByDefault: false)
}

/// A field's name and options.
public struct FieldInfo: Sendable, Equatable {
    public let id: FieldID
    public let name: String
    public var options: FieldOptions
}

/// The registered fields; snapshots carry a copy so a later registration never changes them.
public struct Schema: Sendable {
    public private(set) var fields: [FieldInfo] = []
    private var byName: [String: FieldID] = [:]

    public init() {}

    /// The field with a name, if registered.
    public func field(named name: String) -> FieldID? { byName[name] }

    /// The info of a field id, if registered.
    public func info(_ id: FieldID) -> FieldInfo? {
        Int(id.rawValue) < fields.count ? fields[Int(id.rawValue)] : nil
    }

    /// The unscoped free-text fields, kept with the registrations: every search resolves them.
    public private(set) var defaultFields: [FieldID] = []
    /// The same as plain numbers (a query plan's field scope); all are text fields, in registration order.
    package private(set) var defaultFieldNumbers: [Int] = []

    /// Whether a field belongs to the default scope. Text fields only: `searchableByDefault` is a settable flag,
    /// and a snapshot reloaded from disk rebuilds the options through `FieldOptions.init`, which clears it on
    /// other kinds.
    private static func isDefault(_ options: FieldOptions) -> Bool { options.searchableByDefault && options.kind == .text }

    /// Rebuilds the default scope after a field's options changed (a new field only appends to it).
    private mutating func defaultsChanged() {
        defaultFields = fields.filter { Self.isDefault($0.options) }.map(\.id)
        defaultFieldNumbers = defaultFields.map { Int($0.rawValue) }
    }

    /// The text fields.
    public var textFields: [FieldID] { fields.filter { $0.options.kind == .text }.map(\.id) }

    mutating func register(_ name: String, options: FieldOptions) throws(EngineError) -> FieldID {
        if let existing = byName[name] {
            guard fields[Int(existing.rawValue)].options.kind == options.kind else {
                throw .fieldKindMismatch(name: name)
            }
            fields[Int(existing.rawValue)].options = options
            defaultsChanged()
            return existing
        }
        guard fields.count < Int(UInt16.max) else { throw .tooManyFields }
        let id = FieldID(rawValue: UInt16(fields.count))
        fields.append(FieldInfo(id: id, name: name, options: options))
        byName[name] = id
        if Self.isDefault(options) {
            defaultFields.append(id)
            defaultFieldNumbers.append(Int(id.rawValue))
        }
        return id
    }

    mutating func setWeight(_ weight: Float, for id: FieldID) throws(EngineError) {
        guard Int(id.rawValue) < fields.count else { throw .unknownField(id) }
        fields[Int(id.rawValue)].options.weight = weight
    }

    func kind(_ id: FieldID) -> FieldOptions.Kind? { info(id)?.options.kind }
}

/// Errors the engine reports instead of crashing.
public enum EngineError: Error, Equatable, Sendable {
    /// A field was registered again with another kind.
    case fieldKindMismatch(name: String)
    /// More than 65,535 fields.
    case tooManyFields
    /// A document or query referred to a field that was never registered.
    case unknownField(FieldID)
    /// A document id was empty.
    case emptyIdentifier
    /// A segment would exceed the 32-bit limits of its offsets.
    case segmentTooLarge
}
