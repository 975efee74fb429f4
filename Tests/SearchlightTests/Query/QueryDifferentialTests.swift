import Foundation
import SearchlightQueryLanguage
import XCTest
@testable import Searchlight


/// Random items and thousands of random queries: the indexed evaluator must agree with the reference.
final class QueryDifferentialTests: XCTestCase {
    static let vocabulary = ["paris", "Paris", "PARIS", "Páris", "café", "Cafe", "CAFÉ", "naïve", "Naive", "über",
                             "Uber", "myWindow", "MyWindowController", "report.numbers", "Report", "tower",
                             "Tower", "straße", "STRASSE", "x", "a-b", "中文", "日本語"]

    /// Words longer than `Analyzer.maxTermBytes` (129–150 bytes): a run of letters, a compound with an overlong
    /// part, an overlong part after a capitalized one, and a compound of short parts too long as a whole. The index keeps no term for them, so the postings
    /// must still hand such values to verification.
    static let overlong = [String(repeating: "thequickbrownfox", count: 9),
                           "Long_" + String(repeating: "zephyr", count: 22) + "_tail",
                           "Tower" + String(repeating: "Ab", count: 1) + String(repeating: "walrus", count: 23),
                           "ab_cd_" + String(repeating: "wxyz_", count: 26) + "end"]

    /// The words items and patterns are drawn from.
    var vocabulary = QueryDifferentialTests.vocabulary

    func testIndexedEvaluatorAgreesWithReference() throws {
        try agreeWithReference(seed: 0x5EA2C41, rounds: 1500, selective: 450)
    }

    /// Values whose only match lies inside a word too long to index (a review found `"*needle*"` missing them).
    func testOverlongWordsAgreeWithReference() throws {
        vocabulary = Self.vocabulary + Self.overlong + Self.overlong
        try agreeWithReference(seed: 0x10F6, rounds: 800, selective: 200)
    }

    /// A compound of short parts whose whole is over 128 bytes (a long slug): patterns across its connectors
    /// (a review found all three missing it).
    func testLongCompoundOfShortParts() throws {
        let slug = "ab_cd_" + String(repeating: "wxyz_", count: 26) + "end"
        let items = [slug, "unrelated words", "ab cd"].enumerated().map { i, text in
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.textContent = text
            return CSSearchableItem(uniqueIdentifier: "item\(i)", domainIdentifier: nil, attributeSet: set)
        }
        let container = makeContainer(items)
        for query in ["textContent == \"*b_c*\"", "textContent == \"ab_cd*\"", "textContent == \"*z_w*\""] {
            XCTAssertEqual(try evaluate(query, in: container), ["item0"], query)
        }
    }

    private func agreeWithReference(seed: UInt64, rounds: Int, selective: Int) throws {
        var rng = SeededGenerator(seed: seed)
        let clock = TestClock()
        let tag = customKey("tag")
        let size = customKey("size")
        var items: [CSSearchableItem] = []
        for i in 0..<120 {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            if Int.random(in: 0..<6, using: &rng) > 0 { set.title = phrase(&rng, maxWords: 3) }
            if Bool.random(using: &rng) {
                set.keywords = (0..<Int.random(in: 0...3, using: &rng)).map { _ in word(&rng) }
            }
            if Bool.random(using: &rng) { set.rating = NSNumber(value: Double(Int.random(in: 0...10, using: &rng)) / 2) }
            if Int.random(in: 0..<3, using: &rng) == 0 { set.textContent = phrase(&rng, maxWords: 5) }
            if Int.random(in: 0..<3, using: &rng) == 0 { set.setValue(word(&rng), forCustomKey: tag) }
            if Int.random(in: 0..<4, using: &rng) == 0 {
                set.setValue(NSNumber(value: Int.random(in: 0...3, using: &rng)), forCustomKey: size)
            }
            if Bool.random(using: &rng) {
                set.contentCreationDate = clock.now.addingTimeInterval(Double(Int.random(in: -40...5, using: &rng)) * 86_400)
            }
            items.append(CSSearchableItem(uniqueIdentifier: "item\(i)", domainIdentifier: nil, attributeSet: set))
        }
        let container = makeContainer(items, clock: clock)
        let reference = ReferenceEvaluator(now: clock.now, calendar: utcCalendar)
        var nonEmpty = 0
        let storages = items.map(\.attributeSet.snapshot)
        for round in 0..<rounds {
            let query = randomQuery(&rng, depth: 2)
            let expression = try QueryEvaluator.parse(query)
            let expected = zip(items, storages).filter { reference.matches(expression, $0.1) }
                .map(\.0.uniqueIdentifier).sorted()
            let actual = try evaluate(query, in: container)
            if !expected.isEmpty && expected.count < items.count { nonEmpty += 1 }
            XCTAssertEqual(actual, expected, "round \(round): \(query)")
            if actual != expected { break }
        }
        // The generator must produce selective queries, or the comparison proves little.
        XCTAssertGreaterThan(nonEmpty, selective)
    }

    func word(_ rng: inout SeededGenerator) -> String { vocabulary.randomElement(using: &rng) ?? "x" }

    func phrase(_ rng: inout SeededGenerator, maxWords: Int) -> String {
        let separators = [" ", " ", "", "-", "_"]
        var text = word(&rng)
        for _ in 0..<Int.random(in: 0..<maxWords, using: &rng) {
            text += (separators.randomElement(using: &rng) ?? " ") + word(&rng)
        }
        return text
    }

    /// A pattern derived from a vocabulary word: exact, prefix, suffix, infix, `?`, or a case variant.
    func pattern(_ rng: inout SeededGenerator) -> String {
        var source = Array(word(&rng))
        if Int.random(in: 0..<4, using: &rng) == 0 { source = Array(String(source).uppercased()) }
        let cut = { (n: Int) in max(1, min(source.count, n)) }
        let k = cut(Int.random(in: 1...4, using: &rng))
        let escaped = { (chars: ArraySlice<Character>) in
            String(chars).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        }
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: return escaped(source[...])
        case 1: return escaped(source.prefix(k)) + "*"
        case 2: return "*" + escaped(source.suffix(k))
        case 3:
            let start = Int.random(in: 0..<source.count, using: &rng)
            return "*" + escaped(source[start..<min(source.count, start + k)]) + "*"
        case 4:
            var chars = source
            chars[Int.random(in: 0..<chars.count, using: &rng)] = "?"
            return String(chars)
        case 5: return "*"
        case 6: return escaped(source.prefix(k)) + "*" + escaped(source.suffix(1))
        default: return phrase(&rng, maxWords: 2).replacingOccurrences(of: "\"", with: "")
        }
    }

    func randomQuery(_ rng: inout SeededGenerator, depth: Int) -> String {
        if depth > 0, Int.random(in: 0..<3, using: &rng) == 0 {
            let a = randomQuery(&rng, depth: depth - 1), b = randomQuery(&rng, depth: depth - 1)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return "(\(a)) && (\(b))"
            case 1: return "(\(a)) || (\(b))"
            default: return "!(\(a))"
            }
        }
        let textAttributes = ["title", "keywords", "tag", "*", "**", "textContent", "kMDItemTitle", "missing"]
        let numericAttributes = ["rating", "size", "contentCreationDate", "*", "missing"]
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<6:
            let attribute = textAttributes.randomElement(using: &rng) ?? "title"
            let op = Bool.random(using: &rng) ? "==" : (Int.random(in: 0..<3, using: &rng) == 0 ? "!=" : "==")
            let modifiers = ["", "", "c", "d", "cd", "w", "cw", "cdw", "t", "cdt"].randomElement(using: &rng) ?? ""
            return "\(attribute) \(op) \"\(pattern(&rng))\"\(modifiers)"
        case 6..<9:
            let attribute = numericAttributes.randomElement(using: &rng) ?? "rating"
            let op = ["==", "!=", "<", ">", "<=", ">="].randomElement(using: &rng) ?? "=="
            if attribute == "contentCreationDate" {
                return "\(attribute) \(op) $time.today(\(Int.random(in: -40...5, using: &rng)))"
            }
            let value = Double(Int.random(in: 0...10, using: &rng)) / 2
            return Bool.random(using: &rng) ? "\(attribute) \(op) \(value)" : "\(attribute) \(op) \"\(value)\""
        default:
            let lower = Double(Int.random(in: 0...10, using: &rng)) / 2
            let upper = lower + Double(Int.random(in: 0...4, using: &rng)) / 2
            let attribute = ["rating", "size", "missing"].randomElement(using: &rng) ?? "rating"
            return "InRange(\(attribute), \(lower), \(upper))"
        }
    }
}
