import XCTest
@testable import SearchlightQueryLanguage

final class WildcardMatcherTests: XCTestCase {
    private func matches(_ pattern: String, _ text: String) -> Bool {
        StringPattern(wildcardText: pattern).compile().matches(text)
    }

    /// Steps the matcher takes on `text` (byte comparisons plus scalar steps).
    private func steps(_ pattern: StringPattern, _ text: String) -> (Bool, Int) {
        var count = 0
        let matcher = pattern.compile()
        let result = Array(text.utf8).withUnsafeBufferPointer { matcher.matches(utf8: $0, steps: &count) }
        return (result, count)
    }

    func testWithoutWildcardsIsWholeValueEquality() {
        XCTAssertTrue(matches("Paris", "Paris"))
        XCTAssertFalse(matches("Paris", "Paris "))
        XCTAssertFalse(matches("Paris", "Pari"))
        XCTAssertFalse(matches("Paris", "paris"), "no folding in the matcher")
        XCTAssertTrue(matches("", ""))
        XCTAssertFalse(matches("", "a"))
    }

    func testStar() {
        XCTAssertTrue(matches("*", ""))
        XCTAssertTrue(matches("*", "anything at all"))
        XCTAssertTrue(matches("Par*", "Paris"))
        XCTAssertTrue(matches("Par*", "Par"))
        XCTAssertFalse(matches("Par*", "Pa"))
        XCTAssertTrue(matches("*ris", "Paris"))
        XCTAssertFalse(matches("*ris", "Parisian"))
        XCTAssertTrue(matches("*ari*", "Paris"))
        XCTAssertTrue(matches("*ari*", "ari"))
        XCTAssertFalse(matches("*ari*", "Pars"))
        XCTAssertTrue(matches("a*b*c", "abc"))
        XCTAssertTrue(matches("a*b*c", "aXXbYYc"))
        XCTAssertFalse(matches("a*b*c", "acb"))
        XCTAssertFalse(matches("ab*ba", "aba"), "anchored ends may not overlap")
        XCTAssertTrue(matches("ab*ba", "abba"))
        XCTAssertTrue(matches("*a*", "bab"))
        XCTAssertTrue(matches("a**b", "ab"))
    }

    func testQuestionMarkIsOneUnicodeScalar() {
        XCTAssertTrue(matches("P?ris", "Paris"))
        XCTAssertTrue(matches("P?ris", "Pàris"), "precomposed à is one scalar")
        XCTAssertFalse(matches("P?ris", "Pris"))
        XCTAssertFalse(matches("P?ris", "Paaris"))
        XCTAssertTrue(matches("?", "👍"))
        XCTAssertFalse(matches("?", "🇫🇷"), "a flag is two scalars")
        XCTAssertTrue(matches("??", "🇫🇷"))
        XCTAssertTrue(matches("?*?", "ab"))
        XCTAssertFalse(matches("?*?", "a"))
        XCTAssertTrue(matches("*?é", "xxé"))
        XCTAssertTrue(matches("*é?", "xéz"))
        XCTAssertFalse(matches("*é?", "xé"))
        XCTAssertTrue(matches("*?é?*", "日本é語"))
    }

    /// With boundaries (the ends of the source characters' folds), `?` matches up to the next one: ß folded to ss
    /// is one unit, forwards, backwards and between stars.
    func testQuestionMarkStepsToTheNextBoundary() {
        func matches(_ pattern: String) -> Bool {
            StringPattern(wildcardText: pattern).compile().matches("grosse", boundaries: [1, 2, 3, 5, 6])
        }
        XCTAssertTrue(matches("gro?e"))
        XCTAssertTrue(matches("*o?e"))
        XCTAssertTrue(matches("*o?e*"))
        XCTAssertTrue(matches("?r*"))
        XCTAssertFalse(matches("gro??e"))
        XCTAssertFalse(StringPattern(wildcardText: "gro?e").compile().matches("grosse"))
    }

    func testEscapedWildcardsAreLiterals() {
        XCTAssertEqual(StringPattern(wildcardText: #"a\*"#).shape, .exact("a*"))
        XCTAssertTrue(matches(#"a\*"#, "a*"))
        XCTAssertFalse(matches(#"a\*"#, "ab"))
        XCTAssertTrue(matches(#"\?\\"#, #"?\"#))
        XCTAssertFalse(matches(#"\?"#, "x"))
        XCTAssertTrue(matches(#"*\**"#, "2*3"))
        XCTAssertFalse(matches(#"*\**"#, "23"))
    }

    func testShapes() {
        XCTAssertEqual(StringPattern(wildcardText: "abc").shape, .exact("abc"))
        XCTAssertEqual(StringPattern(wildcardText: "").shape, .exact(""))
        XCTAssertEqual(StringPattern(wildcardText: "*").shape, .presence)
        XCTAssertEqual(StringPattern(wildcardText: "***").shape, .presence)
        XCTAssertEqual(StringPattern(wildcardText: "abc*").shape, .prefix("abc"))
        XCTAssertEqual(StringPattern(wildcardText: "*abc").shape, .suffix("abc"))
        XCTAssertEqual(StringPattern(wildcardText: "*abc*").shape, .infix("abc"))
        XCTAssertEqual(StringPattern(wildcardText: "a*c").shape, .general)
        XCTAssertEqual(StringPattern(wildcardText: "ab?").shape, .general)
        XCTAssertEqual(StringPattern(wildcardText: "?").shape, .general)
        XCTAssertEqual(StringPattern(wildcardText: "a*b?c").literalPrefix, "a")
        XCTAssertEqual(StringPattern(wildcardText: "*b").literalPrefix, "")
        XCTAssertEqual(StringPattern(wildcardText: "a*b?c").literals, ["a", "b", "c"])
        XCTAssertEqual(StringPattern(wildcardText: "ab").exactText, "ab")
        XCTAssertNil(StringPattern(wildcardText: "ab*").exactText)
        XCTAssertFalse(StringPattern(wildcardText: #"a\*"#).hasWildcards)
        XCTAssertTrue(StringPattern(wildcardText: "a?").hasWildcards)
    }

    func testNormalization() {
        XCTAssertEqual(StringPattern(wildcardText: "a**b"), StringPattern(wildcardText: "a*b"))
        XCTAssertEqual(StringPattern(wildcardText: "*?"), StringPattern(wildcardText: "?*"))
        XCTAssertEqual(StringPattern(wildcardText: "*?*?*"), StringPattern(wildcardText: "??*"))
        XCTAssertEqual(StringPattern(segments: [.literal("a"), .literal(""), .literal("b")]),
                       StringPattern(literal: "ab"))
        XCTAssertEqual(StringPattern(segments: []).shape, .exact(""))
    }

    func testMapLiteralsFoldsOnlyLiterals() {
        let pattern = StringPattern(wildcardText: #"Ab*C?D\*"#)
        let folded = pattern.mapLiterals { $0.lowercased() }
        XCTAssertEqual(folded, StringPattern(segments: [.literal("ab"), .anyRun, .literal("c"), .anyOne,
                                                       .literal("d*")]))
        XCTAssertTrue(folded.compile().matches("abXYcZd*"))
        XCTAssertFalse(folded.compile().matches("abXYcZdQ"))
        // A transform that empties a literal simply removes it.
        XCTAssertEqual(StringPattern(wildcardText: "x*y").mapLiterals { $0 == "x" ? "" : $0 },
                       StringPattern(wildcardText: "*y"))
    }

    func testEscapedTextRoundTrips() {
        for text in [#"a\*b"#, #"q\"uote"#, #"back\\slash"#, "plain", "*mid?dle*", "é👍"] {
            let pattern = StringPattern(wildcardText: text)
            XCTAssertEqual(StringPattern(wildcardText: pattern.escapedText()), pattern, text)
        }
        XCTAssertEqual(StringPattern(literal: "a\"b").escapedText(), #"a\"b"#)
        XCTAssertEqual(StringPattern(literal: "a'b").escapedText(quote: "'"), #"a\'b"#)
    }

    func testSubstringAndByteEntryPoints() {
        let matcher = StringPattern(wildcardText: "b*").compile()
        let text = "abc"
        XCTAssertTrue(matcher.matches(text.dropFirst()))
        XCTAssertFalse(matcher.matches(text.dropLast()))
        XCTAssertTrue(Array("bz".utf8).withUnsafeBufferPointer { matcher.matches(utf8: $0) })
    }

    func testPathologicalPatternsStayLinear() {
        let n = 100_000
        let text = String(repeating: "a", count: n)
        let pattern = StringPattern(wildcardText: "*a*a*a*a*b")
        let (miss, missSteps) = steps(pattern, text)
        XCTAssertFalse(miss)
        XCTAssertLessThan(missSteps, 4 * n, "no backtracking: a few passes over the text at most")
        let (hit, hitSteps) = steps(pattern, text + "b")
        XCTAssertTrue(hit)
        XCTAssertLessThan(hitSteps, 4 * n)
        // A long middle segment that almost matches everywhere: O(n × segment length), still linear in n.
        let almost = StringPattern(wildcardText: "*aaaaaaaaab*")
        let (found, almostSteps) = steps(almost, text)
        XCTAssertFalse(found)
        XCTAssertLessThan(almostSteps, 12 * n)
        // `?` segments and many stars.
        let questions = StringPattern(wildcardText: "*?a?*?a?*?a?*?b?*")
        let (qFound, qSteps) = steps(questions, text)
        XCTAssertFalse(qFound)
        XCTAssertLessThan(qSteps, 30 * n)
        // Doubling the text roughly doubles the work (linear, not quadratic).
        let (_, doubleSteps) = steps(almost, text + text)
        XCTAssertLessThan(Double(doubleSteps), 2.2 * Double(almostSteps))
    }

    /// The matcher agrees with a naive backtracking reference on every small case over scalars.
    func testAgreesWithReferenceMatcher() {
        var rng = SeededGenerator(seed: 7)
        let patternAlphabet: [String] = ["a", "b", "é", "👍", "*", "?", "\\*"]
        let textAlphabet: [Unicode.Scalar] = ["a", "b", "é", "👍", "*"]
        for _ in 0..<4_000 {
            let patternText = (0..<Int.random(in: 0...6, using: &rng))
                .map { _ in patternAlphabet.randomElement(using: &rng)! }.joined()
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...8, using: &rng) { text.append(textAlphabet.randomElement(using: &rng)!) }
            let pattern = StringPattern(wildcardText: patternText)
            XCTAssertEqual(pattern.compile().matches(String(text)),
                           Self.reference(pattern.segments[...], Array(text)[...]),
                           "pattern «\(patternText)» text «\(String(text))»")
        }
    }

    /// Exponential-time textbook matcher over Unicode scalars, used only as an oracle on tiny inputs.
    static func reference(_ pattern: ArraySlice<StringPattern.Segment>, _ text: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        let rest = pattern.dropFirst()
        switch first {
        case .anyRun:
            for split in text.startIndex...text.endIndex where reference(rest, text[split...]) { return true }
            return false
        case .anyOne:
            return !text.isEmpty && reference(rest, text.dropFirst())
        case .literal(let literal):
            let scalars = Array(literal.unicodeScalars)
            guard text.count >= scalars.count, Array(text.prefix(scalars.count)) == scalars else { return false }
            return reference(rest, text.dropFirst(scalars.count))
        }
    }
}
