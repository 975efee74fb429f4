import Foundation

/// One attribute's value as the index layer sees it: a closed, `Sendable`, `Hashable` set of shapes covering
/// every property type of `CSSearchableItemAttributeSet` and every value Apple allows for custom attributes.
package indirect enum AttributeValue: Sendable, Hashable {
    case string(String)
    case strings([String])
    case number(AttributeNumber)
    case date(Date)
    case dates([Date])
    case url(URL)
    case data(Data)
    case person(PersonValue)
    case persons([PersonValue])
    /// `emailHeaders`: header name → values.
    case headers([String: [AttributeValue]])
    /// `NSNull` given as a custom attribute value (a value, unlike a cleared slot).
    case null
    /// A custom attribute array mixing element kinds (homogeneous arrays use the plural cases).
    case array([AttributeValue])
    /// A custom value of a type Apple does not allow; kept (never crash) so `validate()` can name it.
    case unsupported(typeName: String)

    /// Builds the value of a custom attribute (or an `emailHeaders` element) from what a caller passed:
    /// String, NSNumber or Swift numbers, Date, Data, URL, CSPerson, CSLocalizedString, NSNull, or arrays of those.
    /// Anything else becomes `.unsupported`, which validation rejects with a clear error.
    package static func fromCustom(_ value: Any) -> AttributeValue {
        switch value {
        case let v as String: return .string(v)
        case let v as NSString: return .string(v as String)
        case let v as CSLocalizedString: return .string(v.localizedString())
        case let v as Date: return .date(v)
        case let v as NSDate: return .date(v as Date)
        case let v as Data: return .data(v)
        case let v as NSData: return .data(v as Data)
        case let v as URL: return .url(v)
        case let v as CSPerson: return .person(v.value)
        case is NSNull: return .null
        case let v as AttributeValue: return v
        case let v as [Any]: return .normalizedArray(v.map(fromCustom))
        case let v as NSArray: return .normalizedArray(v.map(fromCustom))
        default:
            if let n = AttributeNumber(any: value) { return .number(n) }
            return .unsupported(typeName: String(describing: type(of: value)))
        }
    }

    /// Collapses homogeneous arrays into the plural cases so equal arrays have one representation.
    package static func normalizedArray(_ elements: [AttributeValue]) -> AttributeValue {
        if elements.isEmpty { return .strings([]) }
        var strings: [String] = [], dates: [Date] = [], persons: [PersonValue] = []
        for element in elements {
            switch element {
            case .string(let s): strings.append(s)
            case .date(let d): dates.append(d)
            case .person(let p): persons.append(p)
            default: break
            }
        }
        if strings.count == elements.count { return .strings(strings) }
        if dates.count == elements.count { return .dates(dates) }
        if persons.count == elements.count { return .persons(persons) }
        return .array(elements)
    }

    /// The Foundation object Apple's `value(forCustomKey:)` would return.
    package var foundationValue: Any {
        switch self {
        case .string(let v): return v
        case .strings(let v): return v
        case .number(let v): return v.nsNumber
        case .date(let v): return v
        case .dates(let v): return v
        case .url(let v): return v
        case .data(let v): return v
        case .person(let v): return CSPerson(v)
        case .persons(let v): return v.map(CSPerson.init)
        case .headers(let v): return v.mapValues { $0.map(\.foundationValue) }
        case .null: return NSNull()
        case .array(let v): return v.map(\.foundationValue)
        case .unsupported(let name): return "<unsupported \(name)>"
        }
    }

    /// Every number inside the value (for finiteness checks).
    package var numbers: [AttributeNumber] {
        switch self {
        case .number(let n): return [n]
        case .array(let a): return a.flatMap(\.numbers)
        case .headers(let h): return h.values.flatMap { $0.flatMap(\.numbers) }
        default: return []
        }
    }

    /// Every date inside the value (for finiteness checks).
    package var dates: [Date] {
        switch self {
        case .date(let d): return [d]
        case .dates(let d): return d
        case .array(let a): return a.flatMap(\.dates)
        case .headers(let h): return h.values.flatMap { $0.flatMap(\.dates) }
        default: return []
        }
    }

    /// How deep mixed arrays nest inside the value: 0 for a plain value, an empty array or a homogeneous one;
    /// one more than the deepest element for an array (or `emailHeaders`) holding elements.
    package var nestingDepth: Int {
        switch self {
        case .array(let a): return a.isEmpty ? 0 : 1 + a.reduce(0) { max($0, $1.nestingDepth) }
        case .headers(let h):
            let deepest = h.values.joined().reduce(-1) { max($0, $1.nestingDepth) }
            return deepest < 0 ? 0 : 1 + deepest
        default: return 0
        }
    }

    /// The deepest nesting a stored value keeps (`StoredValueReader` reads no element deeper).
    package static let maximumNestingDepth = 31

    /// Names of unsupported types anywhere inside the value.
    package var unsupportedTypeNames: [String] {
        switch self {
        case .unsupported(let name): return [name]
        case .array(let a): return a.flatMap(\.unsupportedTypeNames)
        case .headers(let h): return h.values.flatMap { $0.flatMap(\.unsupportedTypeNames) }
        default: return []
        }
    }

    /// The text a search would see in this value (strings, person names and handles, URLs).
    package var textValues: [String] {
        switch self {
        case .string(let s): return [s]
        case .strings(let s): return s
        case .url(let u): return [u.absoluteString]
        case .person(let p): return ([p.displayName].compactMap { $0 }) + p.handles
        case .persons(let ps): return ps.flatMap { ([$0.displayName].compactMap { $0 }) + $0.handles }
        case .array(let a): return a.flatMap(\.textValues)
        case .headers(let h): return h.values.flatMap { $0.flatMap(\.textValues) }
        default: return []
        }
    }
}

/// One attribute slot of an attribute set. Absence from the storage dictionary means "unset"; `.cleared`
/// records that the caller assigned `nil`, which an `isUpdate` merge turns into a removal.
package enum AttributeSlot: Sendable, Hashable {
    case cleared
    case value(AttributeValue)

    package var value: AttributeValue? {
        if case .value(let v) = self { return v }
        return nil
    }
}
