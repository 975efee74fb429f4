import Foundation

/// The interchange shape of items (the shape of ../shared/corpus, beside the repository):
///
///     {"uniqueIdentifier": "…", "domainIdentifier": "…", "expirationDate": "2026-12-21T00:00:00Z",
///      "isUpdate": true, "updateListenerOptions": 2,
///      "attributeSet": {"title": "…", "keywords": ["…"], "latitude": 37.33, "authors": [{"displayName": …}],
///                       "customAttributes": {"version": "1.0", "size": 12, "when": {"$date": "…"}},
///                       "customAttributeKeys": {"tags": {"searchableByDefault": true, "multiValued": true}}}}
///
/// Property names are the Swift names; dates are ISO 8601 strings; `Data` is base64; URLs are strings;
/// persons are objects; JSON `null` marks an attribute the caller cleared (so `isUpdate` items round-trip).
/// `updateListenerOptions` is the raw value's 64-bit pattern (negative past `Int64.max`, as the archive keeps it).
/// Optional members are written only when they differ from the default. Custom values that JSON cannot tell
/// apart from strings are tagged: `{"$date": …}`, `{"$data": …}`, `{"$url": …}`, `{"$null": true}`.
public enum ItemJSON {
    // MARK: Bytes

    /// One item as compact single-line JSON (UTF-8, no trailing newline).
    public static func encode(_ item: CSSearchableItem) throws(InterchangeError) -> Data {
        var out: [UInt8] = []
        try JSONSerializer.write(jsonValue(for: item), to: &out)
        return Data(out)
    }

    /// One item from JSON bytes.
    public static func decodeItem(from data: Data) throws(InterchangeError) -> CSSearchableItem {
        try item(from: JSONParser.parse(data))
    }

    /// An attribute set as compact JSON (the `attributeSet` object).
    public static func encode(_ attributeSet: CSSearchableItemAttributeSet) throws(InterchangeError) -> Data {
        var out: [UInt8] = []
        try JSONSerializer.write(jsonValue(for: attributeSet), to: &out)
        return Data(out)
    }

    /// An attribute set from the JSON of an `attributeSet` object.
    public static func decodeAttributeSet(from data: Data) throws(InterchangeError) -> CSSearchableItemAttributeSet {
        try attributeSet(from: JSONParser.parse(data), path: "attributeSet")
    }

    // MARK: Item ↔ JSONValue

    package static func jsonValue(for item: CSSearchableItem) throws(InterchangeError) -> JSONValue {
        var members = [JSONMember("uniqueIdentifier", .string(item.uniqueIdentifier))]
        if let domain = item.domainIdentifier { members.append(JSONMember("domainIdentifier", .string(domain))) }
        if let expiration = item.explicitExpirationDate {
            members.append(JSONMember("expirationDate", .string(try dateText(expiration, path: "expirationDate"))))
        }
        if item.isUpdate { members.append(JSONMember("isUpdate", .bool(true))) }
        if item.updateListenerOptions != .default {
            // The 64-bit pattern, as the archive keeps it: past Int64.max it is written negative (it trapped).
            let bits = Int64(bitPattern: UInt64(item.updateListenerOptions.rawValue))
            members.append(JSONMember("updateListenerOptions", .int(bits)))
        }
        members.append(JSONMember("attributeSet", try jsonValue(for: item.attributeSet)))
        return .object(members)
    }

    package static func item(from json: JSONValue) throws(InterchangeError) -> CSSearchableItem {
        guard case .object(let members) = json else { throw problem("item", "expected an object but found \(json.typeName)") }
        var identifier: String?
        var domain: String?
        var expiration: Date?
        var isUpdate = false
        var options: UInt = 0
        var set: CSSearchableItemAttributeSet?
        for member in members {
            switch member.key {
            case "uniqueIdentifier": identifier = try string(member.value, path: "uniqueIdentifier")
            case "domainIdentifier":
                if member.value != .null { domain = try string(member.value, path: "domainIdentifier") }
            case "expirationDate":
                if member.value != .null { expiration = try date(member.value, path: "expirationDate") }
            case "isUpdate":
                guard case .bool(let b) = member.value else { throw problem("isUpdate", "expected true or false") }
                isUpdate = b
            case "updateListenerOptions":
                guard case .int(let i) = member.value else { throw problem("updateListenerOptions", "expected an integer") }
                options = UInt(truncatingIfNeeded: i)  // a negative one is the bit pattern of a raw value past Int64.max
            case "attributeSet": set = try attributeSet(from: member.value, path: "attributeSet")
            default: throw problem(member.key, "unknown item member")
            }
        }
        guard let identifier else { throw problem("uniqueIdentifier", "missing") }
        let item = CSSearchableItem(uniqueIdentifier: identifier, domainIdentifier: domain,
                                    attributeSet: set ?? CSSearchableItemAttributeSet())
        item.explicitExpirationDate = expiration
        item.isUpdate = isUpdate
        item.updateListenerOptions = .init(rawValue: options)
        return item
    }

    // MARK: Attribute set ↔ JSONValue

    package static func jsonValue(for set: CSSearchableItemAttributeSet) throws(InterchangeError) -> JSONValue {
        let storage = set.snapshot
        var members: [JSONMember] = []
        // The tree a reader derives, left out: only a system type's, the same in every process (a declared or
        // dynamic type's depends on what the reading process declared, so it is written).
        let derivedTree: AttributeSlot? = switch storage.named["contentType"] {
        case .value(.string(let type))? where ContentTypeTree.systemTypes[type] != nil:
            .value(.strings(ContentTypeTree.tree(for: type)))
        case .value?: nil
        case .cleared?: .cleared
        default: nil
        }
        // Only the slots present, in catalogue order (unknown names, which the API cannot create, go last).
        let ordered = storage.named.map { (AttributeCatalog.position(of: $0.key) ?? Int.max, $0.key, $0.value) }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        for (_, name, slot) in ordered {
            if name == "contentTypeTree", slot == derivedTree { continue }
            switch slot {
            case .cleared: members.append(JSONMember(name, .null))
            case .value(let v):
                members.append(JSONMember(name, try namedJSON(v, path: "attributeSet.\(name)")))
            }
        }
        if !storage.custom.isEmpty {
            var customs: [JSONMember] = []
            var keys: [JSONMember] = []
            for name in storage.custom.keys.sorted() {
                guard let entry = storage.custom[name] else { continue }
                switch entry.slot {
                case .cleared: customs.append(JSONMember(name, .null))
                case .value(let v): customs.append(JSONMember(name, try customJSON(v, path: "attributeSet.customAttributes.\(name)")))
                }
                let k = entry.key, d = CustomAttributeKeyInfo(keyName: name)
                if k != d {
                    keys.append(JSONMember(name, .object([
                        JSONMember("searchable", .bool(k.isSearchable)),
                        JSONMember("searchableByDefault", .bool(k.isSearchableByDefault)),
                        JSONMember("unique", .bool(k.isUnique)),
                        JSONMember("multiValued", .bool(k.isMultiValued)),
                    ])))
                }
            }
            members.append(JSONMember("customAttributes", .object(customs)))
            if !keys.isEmpty { members.append(JSONMember("customAttributeKeys", .object(keys))) }
        }
        return .object(members)
    }

    package static func attributeSet(from json: JSONValue, path: @autoclosure () -> String) throws(InterchangeError) -> CSSearchableItemAttributeSet {
        guard case .object(let members) = json else { throw problem(path(), "expected an object but found \(json.typeName)") }
        var storage = AttributeStorage()
        storage.named.reserveCapacity(members.count)
        var customValues: [JSONMember] = []
        var customKeys: [String: CustomAttributeKeyInfo] = [:]
        var sawTree = false
        for member in members {
            switch member.key {
            case "customAttributes":
                guard case .object(let c) = member.value else { throw problem(path() + ".customAttributes", "expected an object") }
                customValues = c
            case "customAttributeKeys":
                guard case .object(let c) = member.value else { throw problem(path() + ".customAttributeKeys", "expected an object") }
                for k in c { customKeys[k.key] = try keyInfo(k.value, name: k.key, path: path() + ".customAttributeKeys." + k.key) }
            default:
                guard let descriptor = AttributeCatalog.descriptor(named: member.key) else {
                    throw problem(path() + "." + member.key, "unknown attribute (not a CSSearchableItemAttributeSet property)")
                }
                if descriptor.name == "contentTypeTree" { sawTree = true }
                if member.value == .null {
                    storage.named[descriptor.name] = .cleared
                } else {
                    storage.named[descriptor.name] = .value(try namedValue(member.value, kind: descriptor.kind,
                                                                           path: path() + "." + member.key))
                }
            }
        }
        if !sawTree {
            switch storage.named["contentType"] {
            case .value(.string(let type))?: storage.named["contentTypeTree"] = .value(.strings(ContentTypeTree.tree(for: type)))
            case .cleared?: storage.named["contentTypeTree"] = .cleared
            default: break
            }
        }
        for member in customValues {
            let name = member.key
            if let reason = CustomAttributeKeyInfo.problem(withKeyName: name) {
                throw problem(path() + ".customAttributes." + name, reason)
            }
            let key = customKeys[name] ?? CustomAttributeKeyInfo(keyName: name)
            let slot: AttributeSlot = member.value == .null
                ? .cleared : .value(try customValue(member.value, path: path() + ".customAttributes." + name))
            storage.custom[name] = CustomAttributeEntry(key: key, slot: slot)
        }
        // Flags with no value to go with were dropped unread (the writer puts a cleared one's `null` there).
        for name in customKeys.keys.sorted() where storage.custom[name] == nil {
            throw problem(path() + ".customAttributeKeys." + name, "no attribute '\(name)' in customAttributes (a cleared one is null there)")
        }
        return CSSearchableItemAttributeSet(storage: storage)
    }

    // MARK: Values

    private static func namedJSON(_ value: AttributeValue, path: @autoclosure () -> String) throws(InterchangeError) -> JSONValue {
        switch value {
        case .string(let s): return .string(s)
        case .strings(let s): return .array(s.map(JSONValue.string))
        case .number(let n): return try numberJSON(n, path: path())
        case .date(let d): return .string(try dateText(d, path: path()))
        case .dates(let ds):
            var texts: [JSONValue] = []
            for (i, d) in ds.enumerated() { texts.append(.string(try dateText(d, path: "\(path())[\(i)]"))) }
            return .array(texts)
        case .url(let u): return .string(u.absoluteString)
        case .data(let d): return .string(d.base64EncodedString())
        case .person(let p): return personJSON(p)
        case .persons(let ps): return .array(ps.map(personJSON))
        case .headers(let h):
            var members: [JSONMember] = []
            for name in h.keys.sorted() {
                var values: [JSONValue] = []
                for v in h[name] ?? [] { values.append(try customJSON(v, path: path() + "." + name)) }
                members.append(JSONMember(name, .array(values)))
            }
            return .object(members)
        case .null, .array, .unsupported:
            return try customJSON(value, path: path())
        }
    }

    private static func namedValue(_ json: JSONValue, kind: AttributeKind, path: @autoclosure () -> String) throws(InterchangeError) -> AttributeValue {
        switch kind {
        case .string, .uniformType: return .string(try string(json, path: path()))
        case .strings:
            guard case .array(let elements) = json else { throw problem(path(), "expected an array of strings but found \(json.typeName)") }
            var out: [String] = []
            out.reserveCapacity(elements.count)
            for (i, e) in elements.enumerated() { out.append(try string(e, path: "\(path())[\(i)]")) }
            return .strings(out)
        case .number: return .number(try number(json, path: path()))
        case .date: return .date(try date(json, path: path()))
        case .dates:
            guard case .array(let elements) = json else { throw problem(path(), "expected an array of dates but found \(json.typeName)") }
            var out: [Date] = []
            for (i, e) in elements.enumerated() { out.append(try date(e, path: "\(path())[\(i)]")) }
            return .dates(out)
        case .url: return .url(try url(json, path: path()))
        case .data: return .data(try data(json, path: path()))
        case .persons:
            guard case .array(let elements) = json else { throw problem(path(), "expected an array of persons but found \(json.typeName)") }
            var out: [PersonValue] = []
            for (i, e) in elements.enumerated() { out.append(try person(e, path: "\(path())[\(i)]")) }
            return .persons(out)
        case .headers:
            guard case .object(let members) = json else { throw problem(path(), "expected an object of header arrays but found \(json.typeName)") }
            var out: [String: [AttributeValue]] = [:]
            for m in members {
                guard case .array(let values) = m.value else { throw problem(path() + "." + m.key, "expected an array") }
                var converted: [AttributeValue] = []
                for (i, v) in values.enumerated() { converted.append(try customValue(v, path: "\(path()).\(m.key)[\(i)]")) }
                out[m.key] = converted
            }
            return .headers(out)
        }
    }

    private static func customJSON(_ value: AttributeValue, path: @autoclosure () -> String) throws(InterchangeError) -> JSONValue {
        switch value {
        case .string(let s): return .string(s)
        case .strings(let s): return .array(s.map(JSONValue.string))
        case .number(let n): return try numberJSON(n, path: path())
        case .date(let d): return .object([JSONMember("$date", .string(try dateText(d, path: path())))])
        case .dates(let ds):
            var dates: [JSONValue] = []
            for (i, d) in ds.enumerated() {
                dates.append(.object([JSONMember("$date", .string(try dateText(d, path: "\(path())[\(i)]")))]))
            }
            return .array(dates)
        case .url(let u): return .object([JSONMember("$url", .string(u.absoluteString))])
        case .data(let d): return .object([JSONMember("$data", .string(d.base64EncodedString()))])
        case .person(let p): return personJSON(p)
        case .persons(let ps): return .array(ps.map(personJSON))
        case .null: return .object([JSONMember("$null", .bool(true))])
        case .array(let elements):
            var out: [JSONValue] = []
            for (i, e) in elements.enumerated() { out.append(try customJSON(e, path: "\(path())[\(i)]")) }
            return .array(out)
        case .headers: return try namedJSON(value, path: path())
        case .unsupported(let typeName):
            throw problem(path(), "cannot write a value of unsupported type \(typeName)")
        }
    }

    /// A custom value (or `emailHeaders` element) inside `enclosingArrays` arrays. Past the kept depth an array
    /// becomes the placeholder `AttributeValue.fromCustom` builds, so an imported item archives and unarchives as
    /// one set through the API does (validation refuses both).
    private static func customValue(_ json: JSONValue, path: @autoclosure () -> String,
                                    enclosingArrays: Int = 0) throws(InterchangeError) -> AttributeValue {
        switch json {
        case .string(let s): return .string(s)
        case .int, .double, .bool: return .number(try number(json, path: path()))
        case .array(let elements):
            if enclosingArrays > AttributeValue.maximumNestingDepth { return AttributeValue.tooDeepPlaceholder }
            var out: [AttributeValue] = []
            for (i, e) in elements.enumerated() {
                out.append(try customValue(e, path: "\(path())[\(i)]", enclosingArrays: enclosingArrays + 1))
            }
            return .normalizedArray(out)
        case .object(let members):
            // A tag is the whole value: other members beside it were dropped unread, so they are an error.
            if members.count > 1, members.contains(where: { ["$date", "$data", "$url", "$null"].contains($0.key) }) {
                throw problem(path(), "a tagged value ({\"$date\"|\"$data\"|\"$url\"|\"$null\": …}) has no other members")
            }
            if let d = json["$date"] { return .date(try date(d, path: path() + ".$date")) }
            if let d = json["$data"] { return .data(try data(d, path: path() + ".$data")) }
            if let u = json["$url"] { return .url(try url(u, path: path() + ".$url")) }
            if json["$null"] == .bool(true) { return .null }
            if json["handleIdentifier"] != nil || json["handles"] != nil { return .person(try person(json, path: path())) }
            throw problem(path(), "expected a string, number, boolean, array, person object or {\"$date\"|\"$data\"|\"$url\"|\"$null\": …}")
        case .null:
            throw problem(path(), "null is not allowed inside a value (use {\"$null\": true} for NSNull)")
        }
    }

    /// The ISO 8601 text of a date; a date no text holds (not finite, or millions of years away) is an error, as
    /// a non-finite number is.
    private static func dateText(_ date: Date, path: @autoclosure () -> String) throws(InterchangeError) -> String {
        guard let text = ISO8601DateCoding.string(from: date) else {
            throw problem(path(), "cannot write the date \(date.timeIntervalSinceReferenceDate) (seconds since 2001; "
                          + "ISO 8601 text holds finite dates within ±\(ISO8601DateCoding.maximumSeconds) of it)")
        }
        return text
    }

    private static func numberJSON(_ n: AttributeNumber, path: @autoclosure () -> String) throws(InterchangeError) -> JSONValue {
        switch n {
        case .int(let i): return .int(i)
        case .bool(let b): return .bool(b)
        case .double(let d):
            guard d.isFinite else { throw problem(path(), "cannot write the non-finite number \(d)") }
            return .double(d)
        }
    }

    private static func personJSON(_ p: PersonValue) -> JSONValue {
        var members: [JSONMember] = []
        if let name = p.displayName { members.append(JSONMember("displayName", .string(name))) }
        members.append(JSONMember("handles", .array(p.handles.map(JSONValue.string))))
        members.append(JSONMember("handleIdentifier", .string(p.handleIdentifier)))
        if let contact = p.contactIdentifier { members.append(JSONMember("contactIdentifier", .string(contact))) }
        return .object(members)
    }

    private static func person(_ json: JSONValue, path: @autoclosure () -> String) throws(InterchangeError) -> PersonValue {
        guard case .object(let members) = json else { throw problem(path(), "expected a person object but found \(json.typeName)") }
        var p = PersonValue(displayName: nil, handles: [], handleIdentifier: "")
        for m in members {
            switch m.key {
            case "displayName": if m.value != .null { p.displayName = try string(m.value, path: path() + ".displayName") }
            case "handleIdentifier": p.handleIdentifier = try string(m.value, path: path() + ".handleIdentifier")
            case "contactIdentifier": if m.value != .null { p.contactIdentifier = try string(m.value, path: path() + ".contactIdentifier") }
            case "handles":
                guard case .array(let hs) = m.value else { throw problem(path() + ".handles", "expected an array of strings") }
                var out: [String] = []
                for (i, h) in hs.enumerated() { out.append(try string(h, path: "\(path()).handles[\(i)]")) }
                p.handles = out
            default: throw problem(path() + "." + m.key, "unknown person member")
            }
        }
        return p
    }

    private static func keyInfo(_ json: JSONValue, name: String, path: @autoclosure () -> String) throws(InterchangeError) -> CustomAttributeKeyInfo {
        guard case .object(let members) = json else { throw problem(path(), "expected an object of flags") }
        if let reason = CustomAttributeKeyInfo.problem(withKeyName: name) { throw problem(path(), reason) }
        var info = CustomAttributeKeyInfo(keyName: name)
        for m in members {
            guard case .bool(let b) = m.value else { throw problem(path() + "." + m.key, "expected true or false") }
            switch m.key {
            case "searchable": info.isSearchable = b
            case "searchableByDefault": info.isSearchableByDefault = b
            case "unique": info.isUnique = b
            case "multiValued": info.isMultiValued = b
            default: throw problem(path() + "." + m.key, "unknown custom key flag")
            }
        }
        return info
    }

    private static func string(_ json: JSONValue, path: @autoclosure () -> String) throws(InterchangeError) -> String {
        guard case .string(let s) = json else { throw problem(path(), "expected a string but found \(json.typeName)") }
        return s
    }

    private static func number(_ json: JSONValue, path: @autoclosure () -> String) throws(InterchangeError) -> AttributeNumber {
        switch json {
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .bool(let b): return .bool(b)
        default: throw problem(path(), "expected a number but found \(json.typeName)")
        }
    }

    private static func date(_ json: JSONValue, path: @autoclosure () -> String) throws(InterchangeError) -> Date {
        let s = try string(json, path: path())
        guard let d = ISO8601DateCoding.date(from: s) else {
            throw problem(path(), "expected an ISO 8601 date-time like 2026-11-21T23:05:57Z but found \"\(s)\"")
        }
        return d
    }

    private static func url(_ json: JSONValue, path: @autoclosure () -> String) throws(InterchangeError) -> URL {
        let s = try string(json, path: path())
        guard let u = URL(string: s) else { throw problem(path(), "\"\(s)\" is not a valid URL") }
        return u
    }

    private static func data(_ json: JSONValue, path: @autoclosure () -> String) throws(InterchangeError) -> Data {
        let s = try string(json, path: path())
        guard let d = Data(base64Encoded: s) else { throw problem(path(), "expected base64 data") }
        return d
    }

    private static func problem(_ path: @autoclosure () -> String, _ message: String) -> InterchangeError {
        InterchangeError(message: "\(path()): \(message)")
    }
}
