import Foundation
import SearchlightEngine
import SearchlightQueryLanguage
@testable import Searchlight

/// A deliberately plain evaluator for the differential test: it walks the AST over each item's own attribute
/// values (no index, no candidates), following the documented semantics of the query layer.
/// Memoizes the analyzer and folding per distinct value (the random items reuse a small vocabulary), which
/// keeps the test fast without changing what is computed.
final class ReferenceEvaluator {
    let now: Date
    let calendar: Calendar
    private var folded: [String: [UInt8: String]] = [:]
    private var wordCache: [String: [String]] = [:]
    private var tokenCache: [String: [String]] = [:]
    private var numberCache: [QueryValue: Double?] = [:]

    init(now: Date, calendar: Calendar) {
        self.now = now
        self.calendar = calendar
    }

    func fold(_ text: String, _ options: Folding.Options) -> String {
        if let hit = folded[text]?[options.rawValue] { return hit }
        // Compared in canonical composition (NFC), as TextMatch does, after folding too (a half-width voicing
        // mark folds to U+3099, which composes with the kana before it; ΐ's case fold is decomposed).
        let result = Folding.fold(text.precomposedStringWithCanonicalMapping, options: options)
            .precomposedStringWithCanonicalMapping
        folded[text, default: [:]][options.rawValue] = result
        return result
    }

    func words(_ text: String) -> [String] {
        if let hit = wordCache[text] { return hit }
        // Apple's `w` splits case changes only from lowercase to uppercase: the analyzer's NS|Window and
        // Base64|Encoder (touching words, a capital after a capital or digit) are one word.
        var result: [String] = []
        var rest = Substring(text)
        var touching = false
        for word in Analyzer().words(in: text) {
            guard let found = rest.range(of: word) else { result.append(word); continue }
            touching = found.lowerBound == rest.startIndex && !result.isEmpty
            rest = rest[found.upperBound...]
            if touching, let previous = result.last?.last, let next = word.first, next.isUppercase,
               previous.isUppercase || previous.unicodeScalars.last?.properties.numericType == .decimal {
                result[result.count - 1] += word
            } else {
                result.append(word)
            }
        }
        wordCache[text] = result
        return result
    }

    func tokens(_ text: String) -> [String] {
        if let hit = tokenCache[text] { return hit }
        let result = Analyzer().tokens(text, mode: .index).map(\.term)
        tokenCache[text] = result
        return result
    }

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
            if c.op == .equal, case .time(let time) = c.value,
               let period = resolvePeriod(time, now: now, calendar: calendar) {
                // Apple's `$time` table: `== $time.this_week` is a date from this week.
                let start = period.lowerBound.timeIntervalSinceReferenceDate
                let end = period.upperBound.timeIntervalSinceReferenceDate
                return numbers.contains { start <= $0 && $0 < end }
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
        if let hit = numberCache[value] { return hit }
        let result = computeNumber(value)
        numberCache[value] = result
        return result
    }

    private func computeNumber(_ value: QueryValue) -> Double? {
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
            // Tokens hold no format characters (soft hyphen, word joiner; ZWNJ after a virama), so a `t` pattern's are
            // dropped too, each judged after the scalar before it as the analyzer does.
            let matcher = pattern.mapLiterals { literal in
                String(String.UnicodeScalarView(Analyzer.droppingFormatCharacters(fold(literal, .all).unicodeScalars)))
            }.compile()
            return values.contains { value in tokens(value).contains { matcher.matches($0) } }
        }
        var options: Folding.Options = []
        if modifiers.contains(.caseInsensitive) { options.insert(.caseInsensitive) }
        if modifiers.contains(.diacriticInsensitive) { options.insert(.diacriticInsensitive) }
        let matcher = pattern.mapLiterals { fold($0, options) }.compile()
        // `?` is one character: under folding also one whose fold is several scalars (ß → ss, Œ → oe).
        func matches(_ text: String) -> Bool {
            if matcher.matches(fold(text, options)) { return true }
            guard !options.isEmpty, pattern.segments.contains(.anyOne) else { return false }
            var folded = "", ends: [Int] = []
            for character in text.precomposedStringWithCanonicalMapping {
                folded += fold(String(character), options)
                ends.append(folded.utf8.count)
            }
            return matcher.matches(folded, boundaries: ends)
        }
        return values.contains { value in
            if modifiers.contains(.wordBased) {
                return words(value.precomposedStringWithCanonicalMapping).contains(where: matches)
            }
            return matches(value)
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
                if descriptor.name == "textContent", let value = storage.named["transcribedTextContent"]?.value {
                    add(value)
                }
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
