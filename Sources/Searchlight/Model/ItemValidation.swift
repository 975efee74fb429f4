import Foundation

/// Checks an item before it is indexed, the way Core Spotlight rejects items with `CSIndexError.invalidItemError`.
/// Every message names the item identifier and, where relevant, the attribute.
extension CSSearchableItem {
    /// Throws the first problem found (see `validationProblems()`).
    package func validate() throws(CSIndexError) {
        if hasValidationProblems, let first = validationProblems().first { throw first }
    }

    /// Every problem of this item: empty identifier, malformed domain identifiers, an unkeepable expiration, non-finite numbers,
    /// `rankingHint` outside 0…100, custom values of types Apple does not allow, invalid custom key names, and a
    /// type identifier listed in more than one item-provider array.
    package func validationProblems() -> [CSIndexError] {
        let id = uniqueIdentifier
        var problems: [CSIndexError] = []
        if id.isEmpty {
            problems.append(.invalidItem("item has an empty uniqueIdentifier"))
        }
        let label = id.isEmpty ? "item with empty uniqueIdentifier" : "item '\(id)'"
        if ActivityIdentity.isReserved(id) {
            // Activity records live under such identifiers (Sources/Searchlight/Activities/ActivityIdentity.swift).
            problems.append(.invalidItem("\(label): uniqueIdentifier starts with U+0000, which is reserved for "
                                         + "Searchlight's activity records"))
        }
        if let domain = domainIdentifier, let problem = Self.domainProblem(domain) {
            problems.append(.invalidItem("\(label): domainIdentifier '\(domain)' \(problem)"))
        }
        if hasInvalidExpiration, let expirationDate = explicitExpirationDate {
            problems.append(AttributeValue.unkeepableExpiration(expirationDate, label: label))
        }
        problems += attributeSet.validationProblems(itemLabel: label)
        return problems
    }

    /// An expiration must be a date the index can keep: a NaN one compares false with every time (the item
    /// would be neither expired nor purged reliably), and one beyond the keepable range could not be exported.
    /// Only a date the app set is checked (the one stored, `effectiveExpirationDate`): the default always keeps,
    /// and reading it through `expirationDate` would work one out for every item indexed.
    private var hasInvalidExpiration: Bool { explicitExpirationDate.map { !AttributeValue.isKeepable($0) } ?? false }

    /// A conservative, cheap pre-check of `validationProblems()`: false only when it is certainly empty, found
    /// without building a message, sorting a key or splitting a string. Indexing checks every item, and valid
    /// items (nearly all) then cost one pass over their attribute values; only an item this flags (every invalid
    /// one, and a few valid ones such as two provider-type arrays) gets the full, message-building check.
    package var hasValidationProblems: Bool {
        let id = uniqueIdentifier
        if id.isEmpty || ActivityIdentity.isReserved(id) { return true }
        if let domain = domainIdentifier, !Self.isPlainlyWellFormed(domain: domain) { return true }
        if hasInvalidExpiration { return true }
        return attributeSet.hasValidationProblems
    }

    /// True when `domain` certainly has no `domainProblem`: non-empty, and no `.` byte at either end or next to
    /// another. (A `.` byte inside a larger grapheme is not a separator to `domainProblem`, so a false result is
    /// only "look closer".)
    package static func isPlainlyWellFormed(domain: String) -> Bool {
        var previous: UInt8 = UInt8(ascii: ".")
        var count = 0
        for byte in domain.utf8 {
            if byte == UInt8(ascii: "."), previous == UInt8(ascii: ".") { return false }
            previous = byte
            count += 1
        }
        return count > 0 && previous != UInt8(ascii: ".")
    }

    /// Why a dotted domain identifier is malformed, or nil: it must be non-empty and have no empty components.
    package static func domainProblem(_ domain: String) -> String? {
        if isPlainlyWellFormed(domain: domain) { return nil }
        if domain.isEmpty { return "is empty (use nil for no domain)" }
        if domain.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            return "has an empty component (leading, trailing or doubled '.')"
        }
        return nil
    }
}

extension CSSearchableItemAttributeSet {
    private static let providerArrayNames = ["providerDataTypeIdentifiers", "providerFileTypeIdentifiers",
                                             "providerInPlaceFileTypeIdentifiers"]

    /// False only when `validationProblems(itemLabel:)` is certainly empty (see `CSSearchableItem.hasValidationProblems`).
    package var hasValidationProblems: Bool {
        let s = snapshot
        // Values only (no key copies); the few attributes with rules of their own are looked up by name.
        for slot in s.named.values {
            if case .value(let value) = slot, !value.isValidAttributeValue { return true }
        }
        if case .string(let domain)? = s.named["domainIdentifier"]?.value,
           !CSSearchableItem.isPlainlyWellFormed(domain: domain) { return true }
        if case .number(let n)? = s.named["rankingHint"]?.value, n.isFinite, !(0...100).contains(n.doubleValue) {
            return true
        }
        // A type listed in two provider-type arrays is a problem; with one array there is nothing to compare.
        var providerArrays = 0
        for name in Self.providerArrayNames {
            if case .strings? = s.named[name]?.value { providerArrays += 1 }
        }
        if providerArrays > 1 { return true }
        for (name, entry) in s.custom {
            if CustomAttributeKeyInfo.problem(withKeyName: name) != nil { return true }
            if let value = entry.slot.value, !value.isValidAttributeValue { return true }
        }
        return false
    }

    /// The attribute-level problems of this set; `itemLabel` (e.g. `item 'abc'`) starts each message.
    package func validationProblems(itemLabel: String) -> [CSIndexError] {
        let s = snapshot
        var problems: [CSIndexError] = []
        for name in s.named.keys.sorted() {
            guard let value = s.named[name]?.value else { continue }
            problems += Self.valueProblems(value, where: "\(itemLabel): attribute '\(name)'")
            if name == "domainIdentifier", case .string(let domain) = value,
               let problem = CSSearchableItem.domainProblem(domain) {
                problems.append(.invalidItem("\(itemLabel): attribute 'domainIdentifier' '\(domain)' \(problem)"))
            }
            if name == "rankingHint", case .number(let n) = value, n.isFinite,
               !(0...100).contains(n.doubleValue) {
                problems.append(.invalidItem("\(itemLabel): attribute 'rankingHint' is \(n), outside 0...100"))
            }
        }
        for name in s.custom.keys.sorted() {
            guard let entry = s.custom[name] else { continue }
            if let problem = CustomAttributeKeyInfo.problem(withKeyName: name) {
                problems.append(.invalidItem("\(itemLabel): \(problem)"))
            }
            if let value = entry.slot.value {
                problems += Self.valueProblems(value, where: "\(itemLabel): custom attribute '\(name)'")
            }
        }
        let providerArrays = ["providerDataTypeIdentifiers", "providerFileTypeIdentifiers",
                              "providerInPlaceFileTypeIdentifiers"]
        var owner: [String: String] = [:]
        for array in providerArrays {
            guard case .strings(let types)? = s.named[array]?.value else { continue }
            for type in Set(types) {
                if let first = owner[type] {
                    problems.append(.invalidItem(
                        "\(itemLabel): type '\(type)' appears in both '\(first)' and '\(array)'; it may be in only one"))
                } else {
                    owner[type] = array
                }
            }
        }
        return problems
    }

    private static func valueProblems(_ value: AttributeValue, where place: String) -> [CSIndexError] {
        var problems: [CSIndexError] = []
        for typeName in value.unsupportedTypeNames {
            problems.append(.invalidItem("\(place) holds a value of type \(typeName); allowed are String, NSNumber, "
                + "Date, Data, CSPerson, NSNull and arrays of those"))
        }
        for number in value.numbers where !number.isFinite {
            problems.append(.invalidItem("\(place) holds the non-finite number \(number)"))
        }
        for date in value.dates where !AttributeValue.isKeepable(date) {
            problems.append(.invalidItem("\(place) holds a date of \(date.timeIntervalSinceReferenceDate) seconds "
                                         + "since 2001, \(AttributeValue.unkeepableDateReason)"))
        }
        let depth = value.nestingDepth, kept = AttributeValue.maximumNestingDepth
        if depth > kept {
            // Conversion stops past the limit (`AttributeValue.fromCustom`): a cut value shows as more than kept.
            let shown = depth > kept + 1 ? "more than \(kept)" : "\(depth)"
            problems.append(.invalidItem("\(place) nests arrays \(shown) deep; at most \(kept) are kept"))
        }
        return problems
    }
}

extension AttributeValue {
    /// The farthest from 2001 a date may be (about three million years), so that every stored date can be
    /// written out again (`searchlight export`, the interchange format) with exact whole seconds.
    package static let maximumDateSeconds = 1e14

    /// Whether a date is a time the index can keep and write out: finite and within `maximumDateSeconds`.
    package static func isKeepable(_ date: Date) -> Bool {
        abs(date.timeIntervalSinceReferenceDate) < maximumDateSeconds  // false for NaN and the infinities too
    }

    /// What is wrong with a date `isKeepable` refuses, for messages.
    package static let unkeepableDateReason = "which is no time (dates must be finite and within about three "
        + "million years of 2001, ±1e14 seconds)"

    /// The problem of an item's or an activity's (`label`) `expirationDate` that `isKeepable` refuses: one message
    /// for both validations.
    package static func unkeepableExpiration(_ date: Date, label: String) -> CSIndexError {
        .invalidItem("\(label): expirationDate is \(date.timeIntervalSinceReferenceDate) seconds since 2001, "
                     + unkeepableDateReason)
    }

    /// No unsupported type, non-finite number or date, or nesting too deep to keep anywhere inside (what
    /// `valueProblems` reports), checked without allocating.
    package var isValidAttributeValue: Bool {
        switch self {
        case .array, .headers: return hasValidElements && nestingDepth <= Self.maximumNestingDepth
        default: return hasValidElements
        }
    }

    private var hasValidElements: Bool {
        switch self {
        case .unsupported: return false
        case .number(let n): return n.isFinite
        case .date(let d): return Self.isKeepable(d)
        case .dates(let ds): return ds.allSatisfy(Self.isKeepable)
        case .array(let elements): return elements.allSatisfy(\.hasValidElements)
        case .headers(let headers): return headers.values.allSatisfy { $0.allSatisfy(\.hasValidElements) }
        default: return true
        }
    }
}
