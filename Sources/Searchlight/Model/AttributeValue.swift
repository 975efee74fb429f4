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
    /// String, NSNumber or Swift numbers, Date, Data, URL, CSPerson, CSLocalizedString, NSNull, or arrays of those
    /// (a nil element of an array of optionals is NSNull, as it bridges).
    /// Anything else becomes `.unsupported`, which validation rejects with a clear error. Arrays nested past
    /// what is kept are not converted (see `fromCustom(_:enclosingArrays:)`).
    package static func fromCustom(_ value: Any) -> AttributeValue { fromCustom(value, enclosingArrays: 0) }

    /// `fromCustom` of a value inside `enclosingArrays` arrays. Swift arrays and dictionaries are told by their
    /// type first: a Foundation cast tried on one (`as NSString`, `as Date`...) bridges it to an NSArray or
    /// NSDictionary, every element and level of it, so each level of a nested value paid for everything below
    /// (quadratic) and a deep one overflowed the stack. Inside `maximumNestingDepth + 1` arrays the value is too
    /// deep to keep whatever lies below (each enclosing array holds an array, so none is homogeneous): an array
    /// there becomes a one-level placeholder instead of being converted, and validation refuses the value
    /// (`nestingDepth` is then `maximumNestingDepth + 2`, which it reports as nesting more than is kept).
    private static func fromCustom(_ value: Any, enclosingArrays: Int) -> AttributeValue {
        // An optional (an element of `[String?]`, `[Int?]`) bridges as its value, or as NSNull when nil.
        if let optional = value as? any CustomValueOptional {
            guard let wrapped = optional.customWrapped else { return .null }
            return fromCustom(wrapped, enclosingArrays: enclosingArrays)
        }
        if let array = value as? any CustomValueArray {
            if enclosingArrays > maximumNestingDepth { return tooDeepPlaceholder }
            return .normalizedArray(array.customElements.map { fromCustom($0, enclosingArrays: enclosingArrays + 1) })
        }
        if value is any CustomValueDictionary { return .unsupported(typeName: String(describing: type(of: value))) }
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
        case let v as NSArray:
            if enclosingArrays > maximumNestingDepth { return tooDeepPlaceholder }
            return .normalizedArray(v.map { fromCustom($0, enclosingArrays: enclosingArrays + 1) })
        default:
            if let n = AttributeNumber(any: value) { return .number(n) }
            return .unsupported(typeName: String(describing: type(of: value)))
        }
    }

    /// What an array nested past the kept depth becomes: one level of mixed array, holding nothing invalid (the
    /// interchange reader stops at it too).
    package static let tooDeepPlaceholder = AttributeValue.array([.null])

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

    /// The value as Swift and Foundation types (String, NSNumber, Date, URL, CSPerson, arrays), as `emailHeaders`
    /// hands its values back; `secureCodingValue` is the form `value(forCustomKey:)` returns.
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

    /// The object Apple's `value(forCustomKey:)` returns: the Foundation class of `foundationValue` (NSString,
    /// NSNumber, NSDate, NSURL, NSData, CSPerson, NSNull, or an NSArray / NSDictionary of those).
    package var secureCodingValue: any NSSecureCoding {
        switch self {
        case .string(let v): return NSString(string: v)
        case .strings(let v): return NSArray(array: v.map(NSString.init(string:)))
        case .number(let v): return v.nsNumber
        case .date(let v): return v as NSDate
        case .dates(let v): return NSArray(array: v.map { $0 as NSDate })
        case .url(let v): return v as NSURL
        case .data(let v): return v as NSData
        case .person(let v): return CSPerson(v)
        case .persons(let v): return NSArray(array: v.map(CSPerson.init))
        case .headers(let v): return NSDictionary(dictionary: v.mapValues { NSArray(array: $0.map(\.secureCodingValue)) })
        case .null: return NSNull()
        case .array(let v): return NSArray(array: v.map(\.secureCodingValue))
        case .unsupported(let name): return NSString(string: "<unsupported \(name)>")
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

    /// The deepest nesting a stored value keeps (validation refuses a deeper value).
    package static let maximumNestingDepth = 31

    /// How deep an element can sit in a value the API builds: past the kept depth, `fromCustom` stops with a
    /// placeholder whose element is two levels deeper, one more inside `emailHeaders`. `StoredValueReader` reads no
    /// element deeper, so whatever an attribute set holds archives and unarchives (and validation then refuses it).
    package static let maximumBuiltDepth = maximumNestingDepth + 3

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

/// Any Swift array, found by a dynamic cast that never bridges to Foundation (`AttributeValue.fromCustom`).
private protocol CustomValueArray {
    var customElements: [Any] { get }
}

extension Array: CustomValueArray {
    fileprivate var customElements: [Any] { map { $0 } }
}

/// Any Swift optional, found by a dynamic cast so that its value (or its nil) is converted rather than its type.
private protocol CustomValueOptional {
    var customWrapped: Any? { get }
}

extension Optional: CustomValueOptional {
    fileprivate var customWrapped: Any? { self.map { $0 } }
}

/// Any Swift dictionary (not an allowed custom value), found without bridging it to an NSDictionary.
private protocol CustomValueDictionary {}

extension Dictionary: CustomValueDictionary {}
