import Foundation

/// A number held by an attribute, keeping what kind of number the caller gave (integer, floating point or
/// Boolean) so that a round trip through storage or JSON gives back the same `NSNumber` flavour.
package enum AttributeNumber: Sendable, Hashable {
    case int(Int64)
    case double(Double)
    case bool(Bool)

    /// The number as a `Double`, what the index's numeric columns hold (integers beyond 2^53 round; `compare`
    /// orders numbers exactly).
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

    /// Orders two numbers exactly: an `Int64` is never rounded to a `Double`, which holds every integer only up
    /// to 2^53 (a Boolean is 0 or 1). Nil when either is NaN.
    package static func compare(_ a: AttributeNumber, _ b: AttributeNumber) -> ComparisonResult? {
        switch (a.integer, b.integer) {
        case let (x?, y?): return x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
        case let (x?, nil): return compare(x, b.doubleValue)
        case let (nil, y?):
            return compare(y, a.doubleValue).map { $0 == .orderedAscending ? .orderedDescending
                : $0 == .orderedDescending ? .orderedAscending : .orderedSame }
        case (nil, nil):
            let x = a.doubleValue, y = b.doubleValue
            return x < y ? .orderedAscending : x > y ? .orderedDescending : x == y ? .orderedSame : nil
        }
    }

    /// The number as an integer, unless it is a `Double`.
    private var integer: Int64? {
        switch self {
        case .int(let v): return v
        case .double: return nil
        case .bool(let v): return v ? 1 : 0
        }
    }

    /// Orders an integer and a Double exactly: by the Double's integer part (which fits `Int64` inside
    /// [-2^63, 2^63)), then by its fraction.
    private static func compare(_ x: Int64, _ y: Double) -> ComparisonResult? {
        if y.isNaN { return nil }
        if y >= 0x1p63 { return .orderedAscending }
        if y < -0x1p63 { return .orderedDescending }
        let whole = y.rounded(.towardZero)
        let integer = Int64(whole)
        if x != integer { return x < integer ? .orderedAscending : .orderedDescending }
        let fraction = y - whole
        return fraction > 0 ? .orderedAscending : fraction < 0 ? .orderedDescending : .orderedSame
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
        // Foundation's `CGFloat`, bridged to a double NSNumber on Apple platforms.
        if type == CGFloat.self, let v = value as? CGFloat { self = .double(Double(v)); return }
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
        // A Swift `Decimal` bridges to `NSDecimalNumber`, an `NSNumber`, wherever Apple takes one (custom
        // attribute values, `userInfo`); a Decimal NaN becomes a Double NaN, which validation refuses.
        if type == Decimal.self, let v = value as? Decimal { self.init(NSDecimalNumber(decimal: v)); return }
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
