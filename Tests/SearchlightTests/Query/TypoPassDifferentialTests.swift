import Foundation
import XCTest
@testable import Searchlight
import SearchlightEngine

/// The typo pass of `CSUserQuery` (typos in every word, inside the word being typed too) and its suggestions
/// against a naive model, seeded.
final class TypoPassDifferentialTests: XCTestCase {
    struct Model {
        var title: String
        var description: String
        var domain: String
        var expires: Bool
    }

    static func characters(_ s: String) -> [Unicode.Scalar] { Array(s.unicodeScalars) }

    /// Levenshtein, or optimal string alignment (a swap one edit) when `swaps`.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], swaps: Bool) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if swaps, i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    static func budget(_ w: String) -> Int { w.unicodeScalars.count >= 9 ? 2 : w.unicodeScalars.count >= 5 ? 1 : 0 }

    /// Within the budget of query word `w`: optimal string alignment (a swap of adjacent characters one edit).
    static func within(_ t: [Unicode.Scalar], _ w: [Unicode.Scalar], budget b: Int) -> Bool {
        distance(t, w, swaps: true) <= b
    }

    static func within(_ t: String, _ w: String) -> Bool {
        within(characters(t), characters(w), budget: budget(w))
    }

    static func prefixWithin(_ t: String, _ w: String) -> Bool {
        if t.hasPrefix(w) { return true }
        let b = budget(w)
        let tc = characters(t), wc = characters(w)
        return (0...tc.count).contains { within(Array(tc[..<$0]), wc, budget: b) }
    }

    static func words(_ m: Model) -> [String] {
        (m.title + " " + m.description).split(separator: " ").map { String($0).lowercased() }
    }

    static func matches(_ m: Model, typed: [String], typing: Bool) -> Bool {
        let held = words(m)
        for (i, w) in typed.enumerated() {
            let last = i == typed.count - 1 && typing
            let ok = held.contains { last ? prefixWithin($0, w) : ($0 == w || within($0, w)) }
            if !ok { return false }
        }
        return true
    }

    func index(_ index: CSSearchableIndex, _ items: [CSSearchableItem]) {
        XCTAssertNil(index.completion { index.indexSearchableItems(items, completionHandler: $0) })
    }

    /// The typo pass's matches (a typo inside the word being typed, the other words typo tolerant) against a
    /// naive model, over several index calls (segments), deletions and replacements, expired items and a
    /// domain filter; queried between index calls while merges may run. Suggestions' counts too.
    func testTypoPassAndSuggestionsAgreeWithANaiveModelRandomized() throws {
        for (seed, letters, limit) in [(UInt64(0x5EED), "aeiklmnorst", 0), (7, "абвгдклмнопрст", 0), (11, "aeklmnoαβγδ", 0),
                                       (13, "aeiklmnorst", 3), (17, "абвгдклмнопрст", 2)] {
            try typoPass(seed: seed, letters: letters, limit: limit)
        }
    }

    func typoPass(seed start: UInt64, letters: String, limit: Int) throws {
        var seed = start
        func next(_ n: Int) -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int((seed >> 33) % UInt64(n)) }
        let alphabet = Array(letters)
        var vocabulary: [String] = []
        for _ in 0..<45 { vocabulary.append(String((0..<(5 + next(6))).map { _ in alphabet[next(alphabet.count)] })) }
        let clock = TestClock()
        let container = SearchlightContainer(clock: clock.function)
        let index = CSSearchableIndex(name: "typo-pass", container: container)
        var model: [String: Model] = [:]
        var failures: [String] = []
        var checked = 0, typoOnly = 0
        for batch in 0..<10 {
            var items: [CSSearchableItem] = []
            for _ in 0..<(5 + next(25)) {
                let id = "i\(next(150))"
                let m = Model(title: (0..<(1 + next(2))).map { _ in vocabulary[next(vocabulary.count)] }.joined(separator: " "),
                              description: next(2) == 0 ? vocabulary[next(vocabulary.count)] : "",
                              domain: next(2) == 0 ? "one" : "two", expires: next(6) == 0)
                let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
                set.title = m.title
                if !m.description.isEmpty { set.contentDescription = m.description }
                let item = CSSearchableItem(uniqueIdentifier: id, domainIdentifier: m.domain, attributeSet: set)
                if m.expires { item.expirationDate = clock.now.addingTimeInterval(10) }
                items.append(item)
                model[id] = m
            }
            self.index(index, items)
            if next(2) == 0 {
                let gone = (0..<(1 + next(6))).map { _ in "i\(next(150))" }
                XCTAssertNil(index.completion { index.deleteSearchableItems(withIdentifiers: gone, completionHandler: $0) })
                for id in gone { model[id] = nil }
            }
            if batch == 9 { container.waitForBackgroundMerges() }
            // Expire the expiring ones now (they stay indexed).
            clock.advance(by: 20)
            for (id, m) in model where m.expires { model[id] = nil }
            let snapshot = container.snapshot()
            for _ in 0..<25 {
                var chars = Array(vocabulary[next(vocabulary.count)])
                chars = Array(chars.prefix(5 + next(chars.count - 4)))
                switch next(4) {
                case 0: chars[next(chars.count)] = alphabet[next(alphabet.count)]
                case 1: let i = next(chars.count - 1); chars.swapAt(i, i + 1)
                case 2: chars.remove(at: 1 + next(chars.count - 1)); if chars.count < 5 { chars.append("a") }
                default: break
                }
                let last = String(chars)
                if snapshot.engine.fuzzyPrefixes(last).count >= IndexSnapshot.maxNearPrefixes { continue }
                var typed = [last]
                if next(3) == 0 { typed.insert(vocabulary[next(vocabulary.count)], at: 0) }
                let filtered = next(3) == 0
                let text = typed.joined(separator: " ")
                let expected = Set(model.filter { (!filtered || $0.value.domain == "one") && Self.matches($0.value, typed: typed, typing: true) }.keys)
                let exact = Set(model.filter { m in
                    (!filtered || m.value.domain == "one") && typed.enumerated().allSatisfy { i, w in
                        Self.words(m.value).contains { i == typed.count - 1 ? $0.hasPrefix(w) : $0 == w }
                    }
                }.keys)
                if expected.count > exact.count { typoOnly += 1 }
                let run = runUserQuery(text, in: container) {
                    $0.enableRankedResults = true
                    $0.maxResultCount = limit
                    if filtered { $0.filterQueries = [#"domainIdentifier == "one""#] }
                }
                XCTAssertNil(run.error)
                let found = Set(run.items.map(\.uniqueIdentifier))
                checked += 1
                if limit > 0 {
                    if !found.isSubset(of: expected) || found.count != min(limit, expected.count) {
                        failures.append("limit \(limit) batch \(batch) '\(text)' filtered \(filtered): found \(found.sorted()) expected \(expected.count) \(expected.sorted().prefix(8)) extra \(found.subtracting(expected).sorted())")
                    }
                } else if found != expected {
                    failures.append("batch \(batch) '\(text)' filtered \(filtered): missing \(expected.subtracting(found).sorted().map { "\($0)=\(model[$0]!.title)/\(model[$0]!.description)" }) extra \(found.subtracting(expected).sorted())")
                }
                // Suggestions of the last word, typed as an exact prefix: each count is what choosing it finds.
                let stem = String(last.prefix(2 + next(3)))
                let head = typed.dropLast().map { $0 + " " }.joined()
                let suggestions = runUserQuery(head + stem, in: container, configure: {
                    if filtered { $0.filterQueries = [#"domainIdentifier == "one""#] }
                }, suggestions: true).suggestions
                for suggestion in suggestions {
                    let words = suggestion.suggestionText.split(separator: " ").map(String.init)
                    guard let completion = words.last else { continue }
                    let count = model.values.filter { m in
                        (!filtered || m.domain == "one") && Self.words(m).contains(completion.lowercased())
                            && Self.matches(m, typed: Array(words.dropLast()), typing: false)
                    }.count
                    if count != suggestion.resultCount {
                        failures.append("batch \(batch) suggestion '\(suggestion.suggestionText)' for '\(head + stem)' filtered \(filtered): count \(suggestion.resultCount) vs \(count)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 100)
        XCTAssertGreaterThan(typoOnly, 20)
        XCTAssertTrue(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(8).joined(separator: "\n"))")
    }
}
