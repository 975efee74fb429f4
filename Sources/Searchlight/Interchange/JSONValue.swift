/// A parsed JSON document: the intermediate form between bytes and items. Objects keep member order.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// An integer literal (no fraction or exponent) that fits in `Int64`.
    case int(Int64)
    /// Any other number.
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The value of the first member named `key` when this is an object.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    /// A short name of the value's JSON type, for error messages.
    package var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// One `"key": value` member of a JSON object.
package struct JSONMember: Sendable, Equatable {
    package var key: String
    package var value: JSONValue

    package init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    package init(from decoder: any Decoder) throws {
        // Decoding recurses once per level, like `JSONParser`, so it keeps the parser's limit.
        guard decoder.codingPath.count <= JSONParser.maximumDepth else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "nesting deeper than \(JSONParser.maximumDepth) levels"))
        }
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: Key.self) {
            self = .object(try object.allKeys.map { JSONMember($0.stringValue, try object.decode(JSONValue.self, forKey: $0)) })
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let b = try? single.decode(Bool.self) { self = .bool(b) }
        else if let i = try? single.decode(Int64.self) { self = .int(i) }
        else if let d = try? single.decode(Double.self) { self = .double(d) }
        else { self = .string(try single.decode(String.self)) }
    }

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer(); try c.encode(b)
        case .int(let i):
            var c = encoder.singleValueContainer(); try c.encode(i)
        case .double(let d):
            var c = encoder.singleValueContainer(); try c.encode(d)
        case .string(let s):
            var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let elements):
            var c = encoder.unkeyedContainer()
            for e in elements { try c.encode(e) }
        case .object(let members):
            var c = encoder.container(keyedBy: Key.self)
            for m in members { try c.encode(m.value, forKey: Key(stringValue: m.key)) }
        }
    }
}
