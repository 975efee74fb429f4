import Foundation

/// A number held by an attribute, keeping what kind of number the caller gave (integer, floating point or
/// Boolean) so that a round trip through storage or JSON gives back the same `NSNumber` flavour.
package enum AttributeNumber: Sendable, Hashable {
    case int(Int64)
    case double(Double)
    case bool(Bool)

    /// The number as a `Double` (what comparisons and range queries use).
    package var doubleValue: Double {
        switch self {
        case .int(let v): return Double(v)
        case .double(let v): return v
        case .bool(let v): return v ? 1 : 0
        }
    }

    /// False for NaN and ±infinity, which Core Spotlight attributes cannot hold meaningfully.
    package var isFinite: Bool {
        if case .double(let v) = self { return v.isFinite }
        return true
    }

    /// The `NSNumber` Apple's API hands out.
    package var nsNumber: NSNumber {
        switch self {
        case .int(let v): return NSNumber(value: v)
        case .double(let v): return NSNumber(value: v)
        case .bool(let v): return NSNumber(value: v)
        }
    }

    /// Classifies an `NSNumber`: the Boolean singletons are `.bool`, `d`/`f` encodings are `.double`, everything
    /// else integral (unsigned values beyond `Int64.max` fall back to `.double`).
    package init(_ number: NSNumber) {
        if number === NSNumber(value: true) { self = .bool(true); return }
        if number === NSNumber(value: false) { self = .bool(false); return }
        let type = String(cString: number.objCType)
        switch type {
        case "d", "f":
            self = .double(number.doubleValue)
        case "Q", "L":
            let u = number.uint64Value
            self = u <= UInt64(Int64.max) ? .int(Int64(u)) : .double(number.doubleValue)
        default:
            self = .int(number.int64Value)
        }
    }

    /// Converts a Swift or Foundation number given as `Any`; nil if `value` is not a number.
    package init?(any value: Any) {
        // Exact dynamic types first: Foundation's bridging would let an NSNumber 1 cast to `Bool` and a Swift
        // `Int` cast to `NSNumber`, which would blur the int / double / bool distinction.
        let type = Swift.type(of: value)
        if type is NSNumber.Type, let v = value as? NSNumber { self.init(v); return }
        if type == Bool.self, let v = value as? Bool { self = .bool(v); return }
        if type == Double.self, let v = value as? Double { self = .double(v); return }
        if type == Float.self, let v = value as? Float { self = .double(Double(v)); return }
        if type == Int.self, let v = value as? Int { self = .int(Int64(v)); return }
        if type == Int64.self, let v = value as? Int64 { self = .int(v); return }
        if type == Int32.self, let v = value as? Int32 { self = .int(Int64(v)); return }
        if type == Int16.self, let v = value as? Int16 { self = .int(Int64(v)); return }
        if type == Int8.self, let v = value as? Int8 { self = .int(Int64(v)); return }
        if type == UInt8.self, let v = value as? UInt8 { self = .int(Int64(v)); return }
        if type == UInt16.self, let v = value as? UInt16 { self = .int(Int64(v)); return }
        if type == UInt32.self, let v = value as? UInt32 { self = .int(Int64(v)); return }
        if type == UInt.self, let v = value as? UInt {
            self = v <= UInt(Int64.max) ? .int(Int64(v)) : .double(Double(v)); return
        }
        if type == UInt64.self, let v = value as? UInt64 {
            self = v <= UInt64(Int64.max) ? .int(Int64(v)) : .double(Double(v)); return
        }
        return nil
    }
}

extension AttributeNumber: CustomStringConvertible {
    package var description: String {
        switch self {
        case .int(let v): return String(v)
        case .double(let v): return String(v)
        case .bool(let v): return v ? "true" : "false"
        }
    }
}
