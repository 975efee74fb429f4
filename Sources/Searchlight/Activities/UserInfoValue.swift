import Foundation

/// One value of an activity's `userInfo`, as stored in the index: the property-list types Apple allows
/// (String, numbers, Bool, Data, Date, URL, UUID, arrays, dictionaries with String keys). A closed, `Sendable`
/// shape, so a donation can cross threads and be written into an engine document and read back exactly.
package indirect enum UserInfoValue: Sendable, Hashable {
    case string(String)
    case number(AttributeNumber)
    case data(Data)
    case date(Date)
    case url(URL)
    case uuid(UUID)
    case array([UserInfoValue])
    case dictionary([String: UserInfoValue])

    /// Dictionaries and arrays deeper than this are refused (a stored blob is read back recursively).
    package static let maximumDepth = 32

    /// Why a caller's value is not storable, with the path to it (e.g. `userInfo["a"][2]`).
    package struct Problem: Error, Sendable, Equatable {
        package let message: String
    }

    /// Converts what an app put into `userInfo`; throws a problem naming the offending key path.
    package static func from(_ value: Any, path: String, depth: Int = 0) throws(Problem) -> UserInfoValue {
        guard depth <= maximumDepth else {
            throw Problem(message: "\(path) nests deeper than \(maximumDepth) levels")
        }
        switch value {
        case let v as String: return .string(v)
        case let v as NSString: return .string(v as String)
        case let v as Date: return .date(v)
        case let v as NSDate: return .date(v as Date)
        case let v as Data: return .data(v)
        case let v as NSData: return .data(v as Data)
        case let v as URL: return .url(v)
        case let v as UUID: return .uuid(v)
        case let v as [String: Any]:
            var result: [String: UserInfoValue] = [:]
            for (key, element) in v { result[key] = try from(element, path: "\(path)[\"\(key)\"]", depth: depth + 1) }
            return .dictionary(result)
        case let v as [AnyHashable: Any]:
            return .dictionary(try dictionary(v, path: path, depth: depth + 1))
        case let v as [Any]:
            var result: [UserInfoValue] = []
            for (index, element) in v.enumerated() {
                result.append(try from(element, path: "\(path)[\(index)]", depth: depth + 1))
            }
            return .array(result)
        default:
            if let n = AttributeNumber(any: value) {
                guard n.isFinite else { throw Problem(message: "\(path) is a non-finite number (\(n))") }
                return .number(n)
            }
            throw Problem(message: "\(path) holds a \(Swift.type(of: value)), which is not a property-list type "
                          + "(String, number, Bool, Data, Date, URL, UUID, array or dictionary)")
        }
    }

    /// Converts a whole `userInfo` dictionary; every key must be a String.
    package static func dictionary(_ info: [AnyHashable: Any], path: String = "userInfo",
                                   depth: Int = 0) throws(Problem) -> [String: UserInfoValue] {
        var result: [String: UserInfoValue] = [:]
        for (key, element) in info {
            guard let name = key.base as? String else {
                throw Problem(message: "\(path) has a key of type \(Swift.type(of: key.base)) (\(key)); keys must be Strings")
            }
            result[name] = try from(element, path: "\(path)[\"\(name)\"]", depth: depth)
        }
        return result
    }

    /// The value an app reads back from a continued activity's `userInfo`. Numbers are `NSNumber`s, as Apple
    /// restores them, so `as?` any numeric type that holds the value exactly succeeds (an `Int64` id, an `Int`
    /// literal read as `Double`), not only the Swift type it was stored as.
    package var anyValue: Any {
        switch self {
        case .string(let s): return s
        case .number(let n):
            switch n {
            case .int(let v): return NSNumber(value: v)
            case .double(let v): return NSNumber(value: v)
            case .bool(let v): return NSNumber(value: v)
            }
        case .data(let d): return d
        case .date(let d): return d
        case .url(let u): return u
        case .uuid(let u): return u
        case .array(let list): return list.map(\.anyValue)
        case .dictionary(let dict): return dict.mapValues(\.anyValue)
        }
    }

    /// Text worth nothing to search but useful to identify a donation: a canonical, order-independent rendering.
    package var canonicalText: String {
        switch self {
        case .string(let s): return "s" + Self.quoted(s)
        case .number(let n): return "n\(n)"
        case .data(let d): return "d" + d.base64EncodedString()
        case .date(let d): return "t\(d.timeIntervalSinceReferenceDate)"
        case .url(let u): return "u" + Self.quoted(u.absoluteString)
        case .uuid(let u): return "i" + u.uuidString
        case .array(let list): return "[" + list.map(\.canonicalText).joined(separator: ",") + "]"
        case .dictionary(let dict): return Self.canonicalText(dict)
        }
    }

    /// The canonical rendering of a dictionary (keys sorted).
    package static func canonicalText(_ dict: [String: UserInfoValue]) -> String {
        "{" + dict.keys.sorted().map { quoted($0) + ":" + (dict[$0]?.canonicalText ?? "") }.joined(separator: ",") + "}"
    }

    private static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

// MARK: Stored form

extension StoredValueWriter {
    /// Writes a userInfo value (tagged, recursive).
    package mutating func userInfo(_ value: UserInfoValue) {
        switch value {
        case .string(let s): byte(1); string(s)
        case .number(.int(let v)): byte(2); varint(UInt64(bitPattern: v))
        case .number(.double(let v)): byte(3); double(v)
        case .number(.bool(let v)): byte(4); byte(v ? 1 : 0)
        case .data(let d): byte(5); string(d.base64EncodedString())
        case .date(let d): byte(6); double(d.timeIntervalSinceReferenceDate)
        case .url(let u): byte(7); string(u.absoluteString)
        case .uuid(let u): byte(8); string(u.uuidString)
        case .array(let list):
            byte(9); varint(UInt64(list.count))
            for element in list { userInfo(element) }
        case .dictionary(let dict):
            byte(10); userInfoDictionary(dict)
        }
    }

    /// Writes a dictionary of userInfo values, keys sorted (so equal dictionaries give equal bytes).
    package mutating func userInfoDictionary(_ dict: [String: UserInfoValue]) {
        varint(UInt64(dict.count))
        for key in dict.keys.sorted() {
            string(key)
            if let value = dict[key] { userInfo(value) }
        }
    }
}

extension StoredValueReader {
    /// Reads a userInfo value; nil if the bytes are malformed.
    package mutating func userInfo(depth: Int = 0) -> UserInfoValue? {
        guard depth <= UserInfoValue.maximumDepth, let tag = byte() else { return nil }
        switch tag {
        case 1: return string().map(UserInfoValue.string)
        case 2: return varint().map { .number(.int(Int64(bitPattern: $0))) }
        case 3: return double().map { .number(.double($0)) }
        case 4: return byte().map { .number(.bool($0 != 0)) }
        case 5: return string().flatMap { Data(base64Encoded: $0) }.map(UserInfoValue.data)
        case 6: return double().map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case 7: return string().flatMap { URL(string: $0) }.map(UserInfoValue.url)
        case 8: return string().flatMap { UUID(uuidString: $0) }.map(UserInfoValue.uuid)
        case 9:
            guard let count = varint() else { return nil }
            var list: [UserInfoValue] = []
            // A malformed count ends at the first missing element (each takes at least one byte).
            for _ in 0..<count {
                guard let element = userInfo(depth: depth + 1) else { return nil }
                list.append(element)
            }
            return .array(list)
        case 10: return userInfoDictionary(depth: depth + 1).map(UserInfoValue.dictionary)
        default: return nil
        }
    }

    /// Reads a dictionary written by `userInfoDictionary(_:)`.
    package mutating func userInfoDictionary(depth: Int = 0) -> [String: UserInfoValue]? {
        guard let count = varint() else { return nil }
        var dict: [String: UserInfoValue] = [:]
        for _ in 0..<count {
            guard let key = string(), let value = userInfo(depth: depth) else { return nil }
            dict[key] = value
        }
        return dict
    }
}
