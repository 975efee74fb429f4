import XCTest
@testable import SearchlightQueryLanguage

/// Seeded fuzzing: the parser must never trap, and whatever it accepts must print and re-parse to itself.
final class FuzzTests: XCTestCase {
    /// Parses `query`; on success checks the round trip.
    private func check(_ query: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        guard let tree = try? QueryParser.parse(query) else { return false }
        let printed = tree.canonicalQuery
        do {
            let reparsed = try QueryParser.parse(printed)
            XCTAssertEqual(reparsed.strippingPositions(), tree.strippingPositions(),
                           "«\(query)» printed as «\(printed)»", file: file, line: line)
            XCTAssertEqual(reparsed.canonicalQuery, printed, file: file, line: line)
        } catch {
            XCTFail("«\(query)» printed as «\(printed)» which fails: \(error)", file: file, line: line)
        }
        return true
    }

    func testRandomBytesNeverCrash() {
        var rng = SeededGenerator(seed: 0xC0FFEE)
        let interesting: [UInt8] = Array(#" "'\*?()!&|=<>,$.-+0123456789abcdewtxInRange_:"#.utf8) + [0, 0xC3, 0xA9, 0xFF, 0x80]
        for round in 0..<6_000 {
            let length = Int.random(in: 0...48, using: &rng)
            let bytes: [UInt8] = (0..<length).map { _ in
                round % 2 == 0 ? UInt8.random(in: 0...255, using: &rng) : interesting.randomElement(using: &rng)!
            }
            let query = String(decoding: bytes, as: UTF8.self)
            if !check(query) {
                // Errors point inside (or at the end of) the query and describe themselves.
                do {
                    _ = try QueryParser.parse(query)
                } catch {
                    XCTAssertLessThanOrEqual(error.range.end, query.utf8.count, query)
                    XCTAssertFalse(error.description.isEmpty)
                }
            }
        }
    }

    /// Valid queries with a few random edits: near-misses reach deeper into the parser than pure noise.
    func testMutatedValidQueriesNeverCrash() {
        var rng = SeededGenerator(seed: 99)
        let inserts = ["(", ")", "\"", "'", "\\", "&&", "||", "!", "==", ",", "$time.", "*", "?", "c", "x", " ", "0x",
                       "-", "InRange(", "é"]
        var parsed = 0
        for _ in 0..<3_000 {
            var scalars = Array(Self.randomExpression(depth: 2, using: &rng).canonicalQuery.unicodeScalars)
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let at = Int.random(in: 0...scalars.count, using: &rng)
                switch Int.random(in: 0...2, using: &rng) {
                case 0 where at < scalars.count:
                    scalars.removeSubrange(at..<min(scalars.count, at + Int.random(in: 1...4, using: &rng)))
                case 1:
                    scalars.insert(contentsOf: inserts.randomElement(using: &rng)!.unicodeScalars, at: at)
                default:
                    if !scalars.isEmpty { scalars.swapAt(at == scalars.count ? at - 1 : at, Int.random(in: 0..<scalars.count, using: &rng)) }
                }
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            if check(String(text)) { parsed += 1 }
        }
        XCTAssertGreaterThan(parsed, 100, "some edits keep the query valid")
        XCTAssertLessThan(parsed, 2_900, "most edits break it")
    }

    func testTokenSoupNeverCrashesAndRoundTrips() {
        var rng = SeededGenerator(seed: 42)
        let vocabulary = [
            "title", "kMDItemTitle", "com_my_app.key", "*", "**", "==", "=", "!=", "<", ">", "<=", ">=", "&&", "||",
            "!", "(", ")", ",", #""Par*"cd"#, #"'it\'s'"#, #""a\*b?""#, #""é👍""#, "\"", "'", "\"x\"q", "1", "-2.5e3",
            "0xff", ".5", "$time.today(-7)", "$time.now", "$time.this_week(1)", "$time.iso(2024-01-01T00:00:00Z)",
            "$time.iso(\"2024-01-01 10:00\")", "$time.absolute(519771600)", "$time.", "$time.iso(", "$x", "InRange",
            "inrange", "true", "false", "TRUEPREDICATE", "c", "\\", "@", "&", "|", "\n",
        ]
        var parsed = 0
        for _ in 0..<8_000 {
            let count = Int.random(in: 1...14, using: &rng)
            var query = ""
            for _ in 0..<count {
                query += vocabulary.randomElement(using: &rng)!
                if Bool.random(using: &rng) { query += " " }
            }
            if check(query) { parsed += 1 }
        }
        XCTAssertGreaterThan(parsed, 10, "the soup should produce some valid queries too")
    }

    /// Random well-formed trees print to queries that parse back to the same tree.
    func testGeneratedTreesRoundTrip() {
        var rng = SeededGenerator(seed: 2001)
        for _ in 0..<2_000 {
            let tree = Self.randomExpression(depth: 3, using: &rng)
            let printed = tree.canonicalQuery
            do {
                let parsed = try QueryParser.parse(printed)
                XCTAssertEqual(parsed.strippingPositions(), tree, printed)
            } catch {
                XCTFail("«\(printed)» does not parse: \(error)")
            }
        }
    }

    static func randomExpression(depth: Int, using rng: inout SeededGenerator) -> QueryExpression {
        let pick = depth == 0 ? Int.random(in: 3...5, using: &rng) : Int.random(in: 0...5, using: &rng)
        switch pick {
        case 0, 1:
            let operands = (0..<Int.random(in: 2...3, using: &rng)).map { _ in
                randomExpression(depth: depth - 1, using: &rng)
            }
            return pick == 0 ? .and(operands, range: .none) : .or(operands, range: .none)
        case 2:
            return .not(randomExpression(depth: depth - 1, using: &rng), range: .none)
        case 3:
            let bound = { (rng: inout SeededGenerator) -> QueryValue in
                switch Int.random(in: 0...2, using: &rng) {
                case 0: return randomNumber(using: &rng)
                case 1: return .string(randomPattern(using: &rng))
                default: return .time(randomTime(using: &rng))
                }
            }
            return .inRange(InRangeTest(attribute: randomAttribute(using: &rng), lower: bound(&rng), upper: bound(&rng)))
        case 4:
            return .constant(Bool.random(using: &rng), range: .none)
        default:
            let value: QueryValue
            var modifiers = StringModifiers()
            switch Int.random(in: 0...3, using: &rng) {
            case 0:
                value = .string(randomPattern(using: &rng))
                modifiers = StringModifiers(rawValue: UInt8.random(in: 0...15, using: &rng))
            case 1: value = randomNumber(using: &rng)
            case 2: value = .time(randomTime(using: &rng))
            default: value = .bool(Bool.random(using: &rng))
            }
            return .comparison(Comparison(attribute: randomAttribute(using: &rng),
                                          op: ComparisonOperator.allCases.randomElement(using: &rng)!,
                                          value: value, modifiers: modifiers))
        }
    }

    static func randomAttribute(using rng: inout SeededGenerator) -> QueryAttribute {
        [.any, .anyIncludingContent, .named("title"), .named("kMDItemFSName"), .named("com_x.y:z"),
         .named("true"), .named("InRange"), .named("título")].randomElement(using: &rng)!
    }

    static func randomNumber(using rng: inout SeededGenerator) -> QueryValue {
        let numbers: [(String, Double)] = [("0", 0), ("-7", -7), ("3.25", 3.25), ("9.2e-5", 9.2e-5), ("0xff", 255),
                                           ("519771600", 519_771_600), ("+4", 4)]
        let (text, value) = numbers.randomElement(using: &rng)!
        return .number(QueryNumber(value: value, text: text))
    }

    static func randomPattern(using rng: inout SeededGenerator) -> StringPattern {
        let pieces: [StringPattern.Segment] = [
            .anyRun, .anyOne, .literal("a"), .literal("Paris"), .literal("\""), .literal("'"), .literal("\\"),
            .literal("*"), .literal("?"), .literal("é👍"), .literal(" "), .literal("\n"), .literal("\u{301}"),
        ]
        return StringPattern(segments: (0..<Int.random(in: 0...5, using: &rng)).map { _ in
            pieces.randomElement(using: &rng)!
        })
    }

    static func randomTime(using rng: inout SeededGenerator) -> TimeExpression {
        let offset: Int? = Bool.random(using: &rng) ? Int.random(in: -400...400, using: &rng) : nil
        switch Int.random(in: 0...7, using: &rng) {
        case 0: return TimeExpression(.now, offset: offset)
        case 1: return TimeExpression(.today, offset: offset)
        case 2: return TimeExpression(.yesterday, offset: offset)
        case 3: return TimeExpression(.thisWeek, offset: offset)
        case 4: return TimeExpression(.thisMonth, offset: offset)
        case 5: return TimeExpression(.thisYear, offset: offset)
        case 6:
            let text = ["2024-01-01T00:00:00Z", "2024-02-29", "2024-01-01 10:00:00.5+02:00"].randomElement(using: &rng)!
            return TimeExpression(.iso(ISODateTime(parsing: text)!))
        default: return TimeExpression(.absolute(QueryNumber(value: -1.5, text: "-1.5")))
        }
    }
}
