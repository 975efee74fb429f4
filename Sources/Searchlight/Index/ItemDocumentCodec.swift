import Foundation
import SearchlightEngine

/// Maps Core Spotlight items onto engine documents and back.
///
/// Text-like attributes (strings, string arrays, URLs, type identifiers) become analyzed text fields named after
/// the attribute, so postings answer both free text and the query language; numbers and dates become numeric
/// columns for ranges and sorting. Whatever a field cannot hold exactly (the int/double/bool flavour of a number,
/// data, persons, headers, custom key flags, an empty array) goes into one compact stored blob, decoded only for
/// the hits a caller fetches. Custom keys live in fields prefixed with `$` so they never collide with catalogue
/// names.
package enum ItemDocumentCodec {
    /// Internal field names; attribute and custom names can never start with `_`.
    package static let blobField = "_item"
    package static let expirationField = "_expiration"
    package static let kindField = "_kind"

    /// The text field of a custom key. Field options are shared by every document in the field, while
    /// `searchableByDefault` is each item's own key flag: values searched by default get a field of their own,
    /// so indexing one item never changes how another item's values are searched.
    package static func customTextField(_ keyName: String, searchableByDefault: Bool = false) -> String {
        "$" + keyName + (searchableByDefault ? "#d" : "")
    }

    /// The custom key whose values a field holds (`$name`, `$name#d`, `$name#n`), or nil for a catalogue field.
    package static func customKeyName(ofField field: String) -> String? {
        guard field.hasPrefix("$") else { return nil }
        let name = field.dropFirst()
        return String(name.hasSuffix("#d") || name.hasSuffix("#n") ? name.dropLast(2) : name)
    }

    /// The attribute whose values a text field holds: a custom key's name for its text fields, else the field's
    /// own name (a catalogue attribute's).
    package static func attributeName(ofTextField field: String) -> String { customKeyName(ofField: field) ?? field }

    /// Both text fields a custom key's values may be in.
    package static func customTextFields(_ keyName: String) -> [String] {
        [customTextField(keyName), customTextField(keyName, searchableByDefault: true)]
    }
    /// The numeric field of a custom key.
    package static func customNumericField(_ keyName: String) -> String { "$" + keyName + "#n" }

    /// BM25F weight and flags of a catalogue text attribute: title above display name and keywords above
    /// descriptions and bodies.
    package static func textOptions(for descriptor: AttributeDescriptor) -> FieldOptions {
        switch descriptor.name {
        case "title": return .text(weight: 4, searchableByDefault: true, primary: true)
        case "displayName": return .text(weight: 2.5, searchableByDefault: true, primary: true)
        case "alternateNames", "keywords": return .text(weight: 2, searchableByDefault: true)
        case "contentDescription", "subject": return .text(weight: 1, searchableByDefault: true)
        case "textContent", "transcribedTextContent": return .text(weight: 0.7, searchableByDefault: true)
        default: return .text(weight: 1, searchableByDefault: descriptor.isText)
        }
    }

    /// Each catalogue attribute's descriptor and text options, found with one lookup per attribute.
    private static let catalogFields: [String: (descriptor: AttributeDescriptor, options: FieldOptions)] = {
        var map: [String: (descriptor: AttributeDescriptor, options: FieldOptions)] = [:]
        for descriptor in AttributeCatalog.all { map[descriptor.name] = (descriptor, textOptions(for: descriptor)) }
        return map
    }()

    private enum BlobEntry: UInt8 {
        case catalogValue = 1
        case customValue = 2
        case customInTextFields = 3
        case customInTextFieldsArray = 4
        case customInDateField = 5
        case customInDateFieldsArray = 6
    }

    private static let blobVersion: UInt8 = 1

    // MARK: Encoding

    /// The engine document for `item`, registering any field it needs. `expiration` is absolute.
    package static func document(for item: CSSearchableItem, expiration: Date, kind: Double = 0,
                                 writer: IndexWriter) throws(EngineError) -> Document {
        try document(for: item, expiration: expiration, kind: kind) { name, options throws(EngineError) in
            try writer.registerField(name, options)
        }
    }

    /// Converts `items` (each with its absolute expiration) and upserts them in order through `recorder`, the same
    /// as converting and upserting them one by one with `document(for:expiration:writer:)`. With several analysis
    /// threads the writer converts them in parallel against the schema as it is (no field registered); an item
    /// that needs a new field (or changed options) is converted again in order, registering. When an item's
    /// conversion fails (a field past the index's limit), `refused` gets its identifier before the error is thrown.
    static func upsert(_ items: [(item: CSSearchableItem, expiration: Date)], into recorder: inout RecordingWriter,
                       refused: (String) -> Void = { _ in }) throws(EngineError) {
        let writer = recorder.writer
        let schema = writer.schema
        try recorder.upsert(count: items.count, make: { index in
            try? document(for: items[index].item, expiration: items[index].expiration, kind: 0) {
                name, options throws(EngineError) in
                guard let id = schema.field(named: name), schema.fields[Int(id.rawValue)].options == options else {
                    throw .unknownField(FieldID(rawValue: UInt16.max))
                }
                return id
            }
        }, makeInOrder: { index throws(EngineError) in
            do throws(EngineError) {
                return try document(for: items[index].item, expiration: items[index].expiration, writer: writer)
            } catch {
                refused(items[index].item.uniqueIdentifier)
                throw error
            }
        })
    }

    private static func document(for item: CSSearchableItem, expiration: Date, kind: Double,
                                 field register: (String, FieldOptions) throws(EngineError) -> FieldID)
        throws(EngineError) -> Document {
        let storage = item.attributeSet.snapshot
        var values: [(FieldID, FieldValue)] = []
        var blob = StoredValueWriter()
        var entries: [(BlobEntry, String, CustomAttributeKeyInfo?, AttributeValue?)] = []

        func text(_ name: String, _ options: FieldOptions, _ strings: [String]) throws(EngineError) {
            guard !strings.isEmpty else { return }
            let field = try register(name, options)
            for s in strings { values.append((field, .text(s))) }
        }
        // Single values (most attributes) without a one-element array.
        func text(_ name: String, _ options: FieldOptions, single string: String) throws(EngineError) {
            values.append((try register(name, options), .text(string)))
        }
        func numbers(_ name: String, _ list: [Double]) throws(EngineError) {
            guard !list.isEmpty else { return }
            let field = try register(name, .numeric)
            for n in list { values.append((field, .number(n))) }
        }
        func number(_ name: String, single n: Double) throws(EngineError) {
            values.append((try register(name, .numeric), .number(n)))
        }
        values.reserveCapacity(storage.named.count + storage.custom.count + 4)

        for (name, slot) in storage.named.sorted(by: { $0.key < $1.key }) {
            guard case .value(let value) = slot, let field = catalogFields[name] else { continue }
            let descriptor = field.descriptor, options = field.options
            switch (descriptor.kind, value) {
            case (.string, .string(let s)), (.uniformType, .string(let s)):
                try text(name, options, single: s)
            case (.url, .url(let u)):
                try text(name, options, single: u.absoluteString)
            case (.strings, .strings(let list)) where !list.isEmpty:
                try text(name, options, list)
            case (.date, .date(let d)):
                try number(name, single: d.timeIntervalSinceReferenceDate)
            case (.dates, .dates(let list)) where !list.isEmpty:
                try numbers(name, list.map(\.timeIntervalSinceReferenceDate))
            default:
                // Kept exactly in the blob; still searchable through its text and numbers.
                entries.append((.catalogValue, name, nil, value))
                try text(name, options, value.textValues)
                // Only number attributes get a numeric column: one name never holds two field kinds.
                if descriptor.kind == .number { try numbers(name, value.numbers.map(\.doubleValue)) }
            }
        }

        for (keyName, entry) in storage.custom.sorted(by: { $0.key < $1.key }) {
            guard case .value(let value) = entry.slot else { continue }
            let key = entry.key
            let options = FieldOptions.text(weight: 1, searchableByDefault: key.isSearchableByDefault)
            let textField = customTextField(keyName, searchableByDefault: key.isSearchableByDefault)
            switch value {
            case .string(let s) where key.isSearchable:
                entries.append((.customInTextFields, keyName, key, nil))
                try text(textField, options, single: s)
            case .strings(let list) where key.isSearchable && !list.isEmpty:
                entries.append((.customInTextFieldsArray, keyName, key, nil))
                try text(textField, options, list)
            case .date(let d) where key.isSearchable:
                entries.append((.customInDateField, keyName, key, nil))
                try number(customNumericField(keyName), single: d.timeIntervalSinceReferenceDate)
            case .dates(let list) where key.isSearchable && !list.isEmpty:
                entries.append((.customInDateFieldsArray, keyName, key, nil))
                try numbers(customNumericField(keyName), list.map(\.timeIntervalSinceReferenceDate))
            default:
                entries.append((.customValue, keyName, key, value))
                if key.isSearchable {
                    try text(textField, options, value.textValues)
                    // A mixed array's dates are in the column too, as a date array's are.
                    try numbers(customNumericField(keyName), value.numbers.map(\.doubleValue)
                                + value.dates.map(\.timeIntervalSinceReferenceDate))
                }
            }
        }

        blob.byte(blobVersion)
        blob.varint(UInt64(item.updateListenerOptions.rawValue))
        blob.varint(UInt64(entries.count))
        for (tag, name, key, value) in entries {
            blob.byte(tag.rawValue)
            blob.string(name)
            if let key {
                let flags = (key.isSearchable ? 1 : 0) | (key.isSearchableByDefault ? 2 : 0)
                    | (key.isUnique ? 4 : 0) | (key.isMultiValued ? 8 : 0)
                blob.byte(UInt8(flags))
            }
            if let value { blob.value(value) }
        }
        values.append((try register(blobField, .stored), .bytes(blob.bytes)))
        values.append((try register(expirationField, .numeric), .number(expiration.timeIntervalSinceReferenceDate)))
        if kind != 0 { values.append((try register(kindField, .numeric), .number(kind))) }
        return Document(id: item.uniqueIdentifier, domain: item.domainIdentifier, values: values)
    }

    // MARK: Decoding

    /// Rebuilds the item stored at `address`, with only the attributes in `fetch` when it is given
    /// (`nil` = all). Returns nil if the document is gone or its blob is unreadable.
    package static func item(at address: DocAddress, in snapshot: IndexSnapshot,
                             fetch: Set<String>? = nil) -> CSSearchableItem? {
        guard let fetch else {
            guard let document = snapshot.document(at: address) else { return nil }
            return item(from: document, schema: snapshot.schema)
        }
        return item(at: address, in: snapshot, plan: FetchPlan(fetch, schema: snapshot.schema))
    }

    /// The attributes a query fetches and the stored fields they live in (their own, a custom key's text and
    /// date fields), plus the item blob and the expiration: resolved once per query, not per hit.
    package struct FetchPlan: Sendable {
        let names: FetchNames
        let fields: Set<FieldID>

        package init(_ names: Set<String>, schema: Schema) {
            self.names = FetchNames(names)
            var fields = Set<FieldID>()
            for name in [blobField, expirationField] { if let id = schema.field(named: name) { fields.insert(id) } }
            for name in names {
                for fieldName in [name, customNumericField(name)] + customTextFields(name) {
                    if let id = schema.field(named: fieldName) { fields.insert(id) }
                }
            }
            self.fields = fields
        }
    }

    /// The item with the planned attributes only; only their fields are decoded, not the description of
    /// every hit.
    package static func item(at address: DocAddress, in snapshot: IndexSnapshot, plan: FetchPlan) -> CSSearchableItem? {
        guard let document = snapshot.document(at: address, fields: plan.fields) else { return nil }
        return item(from: document, schema: snapshot.schema, fetch: plan.names)
    }

    /// The exact numbers behind a document's numeric column `field`, which holds them as Doubles (rounding
    /// integers beyond 2^53): a number attribute's or custom key's integers, Doubles and Booleans from the
    /// blob, or the column itself for dates, which are Doubles. Empty if the document is gone.
    package static func exactNumbers(of field: FieldID, at address: DocAddress,
                                     in snapshot: IndexSnapshot) -> [AttributeNumber] {
        guard let fieldName = snapshot.schema.info(field)?.name else { return [] }
        let custom = customKeyName(ofField: fieldName)
        let name = custom ?? fieldName
        let plan = FetchPlan([name], schema: snapshot.schema)
        guard let storage = item(at: address, in: snapshot, plan: plan)?.attributeSet.snapshot else { return [] }
        let slot = custom != nil ? storage.custom[name]?.slot : storage.named[name]
        if case .value(let value)? = slot, !value.numbers.isEmpty { return value.numbers }
        return snapshot.numbers(field, of: address).map(AttributeNumber.double)
    }

    package static func item(from document: Document, schema: Schema, fetch: Set<String>? = nil) -> CSSearchableItem? {
        item(from: document, schema: schema, fetch: fetch.map(FetchNames.init))
    }

    /// Attribute names to fetch, tested per stored value and blob entry: a few names are compared directly
    /// (short names compare without hashing), many through a set.
    struct FetchNames: Sendable {
        private let list: [String]
        private let set: Set<String>?

        init(_ names: Set<String>) {
            list = Array(names)
            set = names.count > 8 ? names : nil
        }

        func contains(_ name: String) -> Bool { set?.contains(name) ?? list.contains(name) }
    }

    /// Values grouped by field name, in first-seen order: a document decodes few fields, so a linear search
    /// beats hashing every name into a dictionary; past `linearLimit` groups (an item with many custom keys)
    /// names are found through one, or decoding would be quadratic in the number of fields.
    private struct Grouped<Value> {
        private(set) var groups: [(name: String, values: [Value])] = []
        /// Group positions by name, once there are more than `linearLimit` groups.
        private var positions: [String: Int]?
        private static var linearLimit: Int { 8 }

        mutating func append(_ value: Value, to name: String) {
            if let index = position(of: name) {
                groups[index].values.append(value)
                return
            }
            groups.append((name, [value]))
            if positions != nil {
                positions![name] = groups.count - 1
            } else if groups.count > Self.linearLimit {
                positions = Dictionary(uniqueKeysWithValues: groups.indices.map { (groups[$0].name, $0) })
            }
        }

        private func position(of name: String) -> Int? {
            if let positions { return positions[name] }
            return groups.firstIndex { $0.name == name }
        }

        subscript(name: String) -> [Value]? { position(of: name).map { groups[$0].values } }
    }

    private static func item(from document: Document, schema: Schema, fetch: FetchNames?) -> CSSearchableItem? {
        var storage = AttributeStorage()
        var blobBytes: [UInt8]?
        var expiration: Double?
        var texts = Grouped<String>()
        var numbers = Grouped<Double>()
        for (field, value) in document.values {
            guard let name = schema.info(field)?.name else { continue }
            switch value {
            case .bytes(let b) where name == blobField: blobBytes = b
            case .number(let n) where name == expirationField: expiration = n
            case .text(let s): texts.append(s, to: name)
            case .number(let n): numbers.append(n, to: name)
            default: break
            }
        }
        guard let blobBytes else { return nil }
        var reader = StoredValueReader(blobBytes)
        guard reader.byte() == blobVersion, let listener = reader.varint(), let count = reader.varint() else { return nil }
        var inBlob: [String] = []
        for _ in 0..<count {
            guard let rawTag = reader.byte(), let tag = BlobEntry(rawValue: rawTag), let name = reader.string() else {
                return nil
            }
            if tag == .catalogValue {
                guard let value = reader.value() else { return nil }
                inBlob.append(name)
                if wanted(name, fetch) { storage.named[name] = .value(value) }
                continue
            }
            guard let flags = reader.byte() else { return nil }
            // A custom key kept in text or date fields has nothing more in the blob; unless it is fetched,
            // its fields may not have been decoded.
            if tag != .customValue, !wanted(name, fetch) { continue }
            let key = CustomAttributeKeyInfo(keyName: name, isSearchable: flags & 1 != 0,
                                             isSearchableByDefault: flags & 2 != 0, isUnique: flags & 4 != 0,
                                             isMultiValued: flags & 8 != 0)
            // Stores written before by-default values had a field of their own kept them in the plain one.
            func customTexts(_ name: String, _ key: CustomAttributeKeyInfo) -> [String]? {
                texts[customTextField(name, searchableByDefault: key.isSearchableByDefault)] ?? texts[customTextField(name)]
            }
            let value: AttributeValue?
            switch tag {
            case .customValue: value = reader.value()
            case .customInTextFields: value = customTexts(name, key)?.first.map(AttributeValue.string)
            case .customInTextFieldsArray: value = customTexts(name, key).map(AttributeValue.strings)
            case .customInDateField:
                value = numbers[customNumericField(name)]?.first.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
            case .customInDateFieldsArray:
                value = numbers[customNumericField(name)].map { .dates($0.map(Date.init(timeIntervalSinceReferenceDate:))) }
            case .catalogValue: value = nil
            }
            guard let value else { return nil }
            if wanted(name, fetch) { storage.custom[name] = CustomAttributeEntry(key: key, slot: .value(value)) }
        }
        for (name, list) in texts.groups where !name.hasPrefix("$") && !inBlob.contains(name) && wanted(name, fetch) {
            guard let descriptor = AttributeCatalog.descriptor(named: name) else { continue }
            switch descriptor.kind {
            case .string, .uniformType: storage.named[name] = .value(.string(list[0]))
            case .strings: storage.named[name] = .value(.strings(list))
            case .url: if let url = URL(string: list[0]) { storage.named[name] = .value(.url(url)) }
            default: break
            }
        }
        for (name, list) in numbers.groups where !name.hasPrefix("$") && !name.hasPrefix("_") && !inBlob.contains(name)
            && wanted(name, fetch) {
            guard let descriptor = AttributeCatalog.descriptor(named: name) else { continue }
            switch descriptor.kind {
            case .date: storage.named[name] = .value(.date(Date(timeIntervalSinceReferenceDate: list[0])))
            case .dates: storage.named[name] = .value(.dates(list.map(Date.init(timeIntervalSinceReferenceDate:))))
            default: break
            }
        }
        let item = CSSearchableItem(uniqueIdentifier: document.id, domainIdentifier: document.domain,
                                    attributeSet: CSSearchableItemAttributeSet(storage: storage))
        item.updateListenerOptions = .init(rawValue: UInt(truncatingIfNeeded: listener))
        if let expiration { item.explicitExpirationDate = Date(timeIntervalSinceReferenceDate: expiration) }
        return item
    }

    private static func wanted(_ name: String, _ fetch: FetchNames?) -> Bool { fetch?.contains(name) ?? true }
}
