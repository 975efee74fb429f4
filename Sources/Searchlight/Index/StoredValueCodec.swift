import Foundation

/// A compact binary encoding of `AttributeValue`s, used for the parts of an item the engine's text and numeric
/// fields cannot hold exactly (numbers keep their int/double/bool flavour, data, persons, headers, custom key
/// flags). Decoding never traps: a malformed buffer yields `nil`.
package struct StoredValueWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func byte(_ b: UInt8) { bytes.append(b) }

    package mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    package mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    package mutating func string(_ value: String) {
        let utf8 = value.utf8
        varint(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    package mutating func optionalString(_ value: String?) {
        if let value { byte(1); string(value) } else { byte(0) }
    }

    package mutating func value(_ value: AttributeValue) {
        switch value {
        case .string(let s): byte(1); string(s)
        case .strings(let list): byte(2); varint(UInt64(list.count)); list.forEach { string($0) }
        case .number(.int(let v)): byte(3); varint(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
        case .number(.double(let v)): byte(4); double(v)
        case .number(.bool(let v)): byte(5); byte(v ? 1 : 0)
        case .date(let d): byte(6); double(d.timeIntervalSinceReferenceDate)
        case .dates(let list): byte(7); varint(UInt64(list.count)); list.forEach { double($0.timeIntervalSinceReferenceDate) }
        case .url(let u): byte(8); string(u.absoluteString)
        case .data(let d): byte(9); varint(UInt64(d.count)); bytes.append(contentsOf: d)
        case .person(let p): byte(10); person(p)
        case .persons(let list): byte(11); varint(UInt64(list.count)); list.forEach { person($0) }
        case .headers(let h):
            byte(12)
            varint(UInt64(h.count))
            for (name, values) in h.sorted(by: { $0.key < $1.key }) {
                string(name)
                varint(UInt64(values.count))
                values.forEach { self.value($0) }
            }
        case .null: byte(13)
        case .array(let list): byte(14); varint(UInt64(list.count)); list.forEach { self.value($0) }
        case .unsupported(let name): byte(15); string(name)
        }
    }

    private mutating func person(_ p: PersonValue) {
        optionalString(p.displayName)
        varint(UInt64(p.handles.count))
        p.handles.forEach { string($0) }
        string(p.handleIdentifier)
        optionalString(p.contactIdentifier)
    }
}

/// Reads what `StoredValueWriter` wrote; every read returns `nil` on truncated or malformed input.
package struct StoredValueReader {
    private let bytes: [UInt8]
    private var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package var isAtEnd: Bool { offset >= bytes.count }

    package mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    package mutating func varint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while let b = byte() {
            guard shift < 64 else { return nil }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
        }
        return nil
    }

    /// A count that cannot exceed the bytes left (each element takes at least one byte).
    private mutating func count() -> Int? {
        guard let n = varint(), n <= UInt64(bytes.count - offset) else { return nil }
        return Int(n)
    }

    package mutating func double() -> Double? {
        guard offset + 8 <= bytes.count else { return nil }
        var bits: UInt64 = 0
        for i in 0..<8 { bits |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return Double(bitPattern: bits)
    }

    package mutating func string() -> String? {
        guard let n = count(), offset + n <= bytes.count else { return nil }
        defer { offset += n }
        return String(decoding: bytes[offset..<offset + n], as: UTF8.self)
    }

    package mutating func optionalString() -> String?? {
        guard let flag = byte() else { return nil }
        if flag == 0 { return .some(nil) }
        guard let s = string() else { return nil }
        return .some(s)
    }

    package mutating func value(depth: Int = 0) -> AttributeValue? {
        guard depth <= AttributeValue.maximumBuiltDepth, let tag = byte() else { return nil }
        switch tag {
        case 1: return string().map(AttributeValue.string)
        case 2: return list { $0.string() }.map(AttributeValue.strings)
        case 3:
            guard let z = varint() else { return nil }
            return .number(.int(Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))))
        case 4: return double().map { .number(.double($0)) }
        case 5: return byte().map { .number(.bool($0 != 0)) }
        case 6: return double().map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case 7: return list { $0.double() }.map { .dates($0.map(Date.init(timeIntervalSinceReferenceDate:))) }
        case 8: return string().flatMap(URL.init(string:)).map(AttributeValue.url)
        case 9:
            guard let n = count(), offset + n <= bytes.count else { return nil }
            defer { offset += n }
            return .data(Data(bytes[offset..<offset + n]))
        case 10: return person().map(AttributeValue.person)
        case 11: return list { $0.person() }.map(AttributeValue.persons)
        case 12:
            guard let n = count() else { return nil }
            var headers: [String: [AttributeValue]] = [:]
            for _ in 0..<n {
                guard let name = string(), let values = list({ $0.value(depth: depth + 1) }) else { return nil }
                headers[name] = values
            }
            return .headers(headers)
        case 13: return .null
        case 14: return list { $0.value(depth: depth + 1) }.map(AttributeValue.array)
        case 15: return string().map { .unsupported(typeName: $0) }
        default: return nil
        }
    }

    private mutating func person() -> PersonValue? {
        guard let displayName = optionalString(), let handles = list({ $0.string() }),
              let handleIdentifier = string(), let contact = optionalString() else { return nil }
        return PersonValue(displayName: displayName, handles: handles, handleIdentifier: handleIdentifier,
                           contactIdentifier: contact)
    }

    private mutating func list<T>(_ element: (inout StoredValueReader) -> T?) -> [T]? {
        guard let n = count() else { return nil }
        var result: [T] = []
        result.reserveCapacity(n)
        for _ in 0..<n {
            guard let e = element(&self) else { return nil }
            result.append(e)
        }
        return result
    }
}

// MARK: - Whole attribute sets

extension StoredValueWriter {
    /// An attribute set's whole storage: every catalogue slot and custom entry (cleared ones too) with its key's
    /// flags, in name order. `CSSearchableItemAttributeSet` archives this for `NSSecureCoding`.
    package mutating func storage(_ storage: AttributeStorage) {
        varint(UInt64(storage.named.count))
        for (name, slot) in storage.named.sorted(by: { $0.key < $1.key }) {
            string(name)
            self.slot(slot)
        }
        varint(UInt64(storage.custom.count))
        for (name, entry) in storage.custom.sorted(by: { $0.key < $1.key }) {
            let key = entry.key
            string(name)
            byte((key.isSearchable ? 1 : 0) | (key.isSearchableByDefault ? 2 : 0) | (key.isUnique ? 4 : 0)
                 | (key.isMultiValued ? 8 : 0))
            self.slot(entry.slot)
        }
    }

    private mutating func slot(_ slot: AttributeSlot) {
        if case .value(let v) = slot { byte(1); value(v) } else { byte(0) }
    }
}

extension StoredValueReader {
    /// Reads what `StoredValueWriter.storage(_:)` wrote; nil unless every catalogue name is known and holds a value
    /// of its kind, every custom key name is valid, the flags are known and every custom value has a shape
    /// `AttributeValue.fromCustom` builds (a hostile archive cannot smuggle in what the API could not have set).
    package mutating func storage() -> AttributeStorage? {
        guard let namedCount = varint() else { return nil }
        var storage = AttributeStorage()
        for _ in 0..<namedCount {
            guard let name = string(), let descriptor = AttributeCatalog.descriptor(named: name),
                  let slot = slot(), slot.value.map({ $0.fits(descriptor.kind) }) ?? true else { return nil }
            storage.named[name] = slot
        }
        guard storage.named.count == namedCount, let customCount = varint() else { return nil }
        for _ in 0..<customCount {
            guard let name = string(), CustomAttributeKeyInfo.problem(withKeyName: name) == nil,
                  let flags = byte(), flags < 16, let slot = slot(),
                  slot.value.map(\.isCustomShape) ?? true else { return nil }
            let key = CustomAttributeKeyInfo(keyName: name, isSearchable: flags & 1 != 0,
                                             isSearchableByDefault: flags & 2 != 0, isUnique: flags & 4 != 0,
                                             isMultiValued: flags & 8 != 0)
            storage.custom[name] = CustomAttributeEntry(key: key, slot: slot)
        }
        return storage.custom.count == customCount ? storage : nil
    }

    private mutating func slot() -> AttributeSlot? {
        switch byte() {
        case 0: return .cleared
        case 1: return value().map(AttributeSlot.value)
        default: return nil
        }
    }
}

extension AttributeValue {
    /// Whether this is the shape a catalogue attribute of `kind` holds (what its typed setter stores): header
    /// values are built by `fromCustom`, so each has a custom value's shape.
    fileprivate func fits(_ kind: AttributeKind) -> Bool {
        switch (kind, self) {
        case (.string, .string), (.uniformType, .string), (.strings, .strings), (.number, .number), (.date, .date),
             (.dates, .dates), (.url, .url), (.data, .data), (.persons, .persons): return true
        case (.headers, .headers(let h)): return h.values.allSatisfy { $0.allSatisfy(\.isCustomShape) }
        default: return false
        }
    }

    /// Whether this is a shape `fromCustom` builds for a custom attribute: never `.headers` (only `emailHeaders`
    /// holds one), and every array in the one form `normalizedArray` gives it. Any other shape passed validation
    /// but could not be exported and read back.
    fileprivate var isCustomShape: Bool {
        switch self {
        case .headers: return false
        case .dates(let d): return !d.isEmpty
        case .persons(let p): return !p.isEmpty
        case .array(let a): return a.allSatisfy(\.isCustomShape) && Self.normalizedArray(a) == self
        default: return true
        }
    }
}
