import SearchlightEngine
import SearchlightQueryLanguage

/// The bounds of a numeric comparison or `InRange`, exact as written, tested on the engine's numeric columns.
///
/// Columns hold Doubles, which round integers beyond 2^53 (stored `Int64` values and literals alike). Rounding
/// is monotone, so a column value decides every bound of smaller magnitude, and every bound whose rounded value
/// it does not equal; only a column value equal to the rounded value of a bound of magnitude 2^53 or more can
/// stand for an exact number on either side of it. For such bounds the engine range includes the rounded value,
/// and the documents at it are checked on their exact stored numbers (`contains(exactly:)`).
struct NumericRange {
    struct Bound {
        var value: AttributeNumber
        var inclusive: Bool
    }

    let lower: Bound?
    let upper: Bound?
    /// The bounds for the engine's `.range`: as written where a Double decides them, else including the
    /// rounded value.
    let engineLower: NumericBound?
    let engineUpper: NumericBound?
    /// Rounded bounds a column value may equal without deciding them.
    private let undecided: [Double]

    /// Doubles hold every integer of smaller magnitude than this (2^53).
    static let exactMagnitude: Double = 0x1p53

    /// Any value (presence).
    static let any = NumericRange(lower: nil, upper: nil)

    init(lower: Bound?, upper: Bound?) {
        self.lower = lower
        self.upper = upper
        var undecided: [Double] = []
        func engineBound(_ bound: Bound?) -> NumericBound? {
            guard let bound else { return nil }
            let rounded = bound.value.doubleValue
            if abs(rounded) >= Self.exactMagnitude {
                undecided.append(rounded)
                return .inclusive(rounded)
            }
            return bound.inclusive ? .inclusive(rounded) : .exclusive(rounded)
        }
        engineLower = engineBound(lower)
        engineUpper = engineBound(upper)
        self.undecided = undecided
    }

    /// `==` (inclusive at both ends), `<`, `<=`, `>`, `>=` against `value`; nil for `!=`, a complement.
    init?(_ op: ComparisonOperator, _ value: AttributeNumber) {
        switch op {
        case .equal:
            self.init(lower: Bound(value: value, inclusive: true), upper: Bound(value: value, inclusive: true))
        case .less: self.init(lower: nil, upper: Bound(value: value, inclusive: false))
        case .lessOrEqual: self.init(lower: nil, upper: Bound(value: value, inclusive: true))
        case .greater: self.init(lower: Bound(value: value, inclusive: false), upper: nil)
        case .greaterOrEqual: self.init(lower: Bound(value: value, inclusive: true), upper: nil)
        case .notEqual: return nil
        }
    }

    /// Whether the engine range (the column values) decides every document exactly.
    var isExact: Bool { undecided.isEmpty }

    /// Whether one of a field's column values lies within the bounds; nil when only the exact stored numbers
    /// can tell.
    func contains(columns: [Double]) -> Bool? {
        var open = false
        for value in columns where NumericBound.contains(value, lower: engineLower, upper: engineUpper) {
            if !undecided.contains(value) { return true }
            open = true
        }
        return open ? nil : false
    }

    /// Whether an exact stored number lies within the bounds.
    func contains(exactly number: AttributeNumber) -> Bool {
        if let lower {
            guard let order = AttributeNumber.compare(number, lower.value),
                  order == .orderedDescending || (lower.inclusive && order == .orderedSame) else { return false }
        }
        if let upper {
            guard let order = AttributeNumber.compare(number, upper.value),
                  order == .orderedAscending || (upper.inclusive && order == .orderedSame) else { return false }
        }
        return true
    }
}
