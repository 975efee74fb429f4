import Foundation
import SearchlightEngine
import SearchlightQueryLanguage
@testable import Searchlight

/// A deliberately plain evaluator for the differential test: it walks the AST over each item's own attribute
/// values (no index, no candidates), following the documented semantics of the query layer.
struct ReferenceEvaluator {
    let now: Date
    let calendar: Calendar

    func matches(_ expression: QueryExpression, _ item: CSSearchableItem) -> Bool {
        matches(expression, item.attributeSet.snapshot)
    }

    func matches(_ expression: QueryExpression, _ item: AttributeStorage) -> Bool {
        switch expression {
        case .constant(let value, _): return value
        case .and(let operands, _): return operands.allSatisfy { matches($0, item) }
        case .or(let operands, _): return operands.contains { matches($0, item) }
        case .not(let operand, _): return !matches(operand, item)
        case .inRange(let test):
            guard let lower = number(test.lower), let upper = number(test.upper) else { return false }
            return values(test.attribute, item).numbers.contains { lower <= $0 && $0 <= upper }
        case .comparison(let c):
            if c.op == .notEqual {
                var positive = c
                positive.op = .equal
                return !matches(.comparison(positive), item)
            }
            let (texts, numbers) = values(c.attribute, item)
            if case .string(let pattern) = c.value, c.op == .equal {
                if textMatches(pattern, c.modifiers, texts) { return true }
                if pattern.segments == [.anyRun] { return !numbers.isEmpty }
                if let x = number(c.value) { return numbers.contains(x) }
                return false
            }
            guard let x = number(c.value) else { return false }
            return numbers.contains { n in
                switch c.op {
                case .equal, .notEqual: return n == x
                case .less: return n < x
                case .lessOrEqual: return n <= x
                case .greater: return n > x
                case .greaterOrEqual: return n >= x
                }
            }
        }
    }

    func number(_ value: QueryValue) -> Double? {
        if case .string(let pattern) = value {
            guard !pattern.hasWildcards else { return nil }
            let text = pattern.segments.isEmpty ? "" : pattern.literals.joined()
            return Double(text.trimmingCharacters(in: .whitespaces))
        }
        return value.numericValue(now: now, calendar: calendar)
    }

    /// Whether any value matches the pattern under the modifiers.
    func textMatches(_ pattern: StringPattern, _ modifiers: StringModifiers, _ values: [String]) -> Bool {
        guard !values.isEmpty else { return false }
        if modifiers.contains(.tokenized) {
            let folded = pattern.mapLiterals { Folding.fold($0) }.compile()
            return values.contains { value in Analyzer().tokens(value, mode: .index).contains { folded.matches($0.term) } }
        }
        var options: Folding.Options = []
        if modifiers.contains(.caseInsensitive) { options.insert(.caseInsensitive) }
        if modifiers.contains(.diacriticInsensitive) { options.insert(.diacriticInsensitive) }
        let folded = pattern.mapLiterals { Folding.fold($0, options: options) }.compile()
        return values.contains { value in
            if modifiers.contains(.wordBased) {
                return Analyzer().words(in: value).contains { folded.matches(Folding.fold($0, options: options)) }
            }
            return folded.matches(Folding.fold(value, options: options))
        }
    }

    /// Text and numeric values of an attribute of an item.
    func values(_ attribute: QueryAttribute, _ storage: AttributeStorage) -> (texts: [String], numbers: [Double]) {
        var texts: [String] = [], numbers: [Double] = []
        func add(_ value: AttributeValue) {
            texts += value.textValues
            numbers += value.numbers.map(\.doubleValue)
            switch value {
            case .date(let d): numbers.append(d.timeIntervalSinceReferenceDate)
            case .dates(let ds): numbers += ds.map(\.timeIntervalSinceReferenceDate)
            default: break
            }
        }
        switch attribute {
        case .named(let name):
            if let descriptor = AttributeCatalog.descriptor(forQueryName: name) {
                if let value = storage.named[descriptor.name]?.value { add(value) }
            } else if let value = storage.custom[name]?.slot.value {
                add(value)
            }
        case .any, .anyIncludingContent:
            for (name, slot) in storage.named {
                if attribute == .any, name == "textContent" || name == "transcribedTextContent" { continue }
                if let value = slot.value { add(value) }
            }
            for entry in storage.custom.values { if let value = entry.slot.value { add(value) } }
        }
        return (texts, numbers)
    }
}
