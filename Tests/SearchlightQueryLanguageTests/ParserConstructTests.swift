import Foundation
import XCTest
@testable import SearchlightQueryLanguage

final class ParserConstructTests: XCTestCase {
    func testOperatorsIncludingSingleEquals() {
        let expected: [(String, ComparisonOperator)] = [
            ("==", .equal), ("=", .equal), ("!=", .notEqual), ("<", .less), (">", .greater),
            ("<=", .lessOrEqual), (">=", .greaterOrEqual),
        ]
        for (symbol, op) in expected {
            XCTAssertEqual(comparison("rating \(symbol) 4")?.op, op, symbol)
            XCTAssertEqual(comparison("rating\(symbol)4")?.op, op, "no spaces: \(symbol)")
        }
    }

    func testDoubleAndSingleQuotedStringsWithEscapes() {
        XCTAssertEqual(comparison(#"title == "it's""#)?.value, .string(StringPattern(literal: "it's")))
        XCTAssertEqual(comparison(#"title == 'say "hi"'"#)?.value, .string(StringPattern(literal: "say \"hi\"")))
        XCTAssertEqual(comparison(#"title == "a \"q\" b""#)?.value, .string(StringPattern(literal: "a \"q\" b")))
        XCTAssertEqual(comparison(#"title == 'it\'s'"#)?.value, .string(StringPattern(literal: "it's")))
        XCTAssertEqual(comparison(#"title == "back\\slash""#)?.value, .string(StringPattern(literal: #"back\slash"#)))
        XCTAssertEqual(comparison(#"title == "Grüße ✓""#)?.value, .string(StringPattern(literal: "Grüße ✓")))
    }

    func testEscapedWildcardsAreLiteralsButBareOnesAreWildcards() {
        let value = comparison(#"title == "a\*b*c\?d?""#)?.value
        XCTAssertEqual(value, .string(StringPattern(segments: [
            .literal("a*b"), .anyRun, .literal("c?d"), .anyOne,
        ])))
        guard case .string(let pattern)? = value else { return XCTFail() }
        XCTAssertTrue(pattern.matches("a*bXXc?dZ"))
        XCTAssertFalse(pattern.matches("aXbXXc?dZ"), "escaped * must not act as a wildcard")
    }

    func testModifiersInAnyOrder() {
        XCTAssertEqual(comparison(#"title == "x"cd"#)?.modifiers, [.caseInsensitive, .diacriticInsensitive])
        XCTAssertEqual(comparison(#"title == "x"dc"#)?.modifiers, [.caseInsensitive, .diacriticInsensitive])
        XCTAssertEqual(comparison(#"title == "x"tdwc"#)?.modifiers,
                       [.caseInsensitive, .diacriticInsensitive, .wordBased, .tokenized])
        XCTAssertEqual(comparison(#"title == 'x'w"#)?.modifiers, [.wordBased])
        XCTAssertEqual(comparison(#"title == "x""#)?.modifiers, [])
        // A space ends the string: the letters would be a stray identifier.
        XCTAssertEqual(parseError(#"title == "x" cd"#)?.hint, "modifiers must follow the closing quote without a space")
        XCTAssertEqual(parseError(#"(title == "x" dc)"#)?.hint, "modifiers must follow the closing quote without a space")
        XCTAssertNil(parseError(#"title == "x" b"#)?.hint)
    }

    func testAndBindsTighterThanOr() {
        let tree = parse("a == 1 || b == 2 && c == 3")?.strippingPositions()
        XCTAssertEqual(tree, .or([
            cmp("a", .equal, number("1", 1)),
            .and([cmp("b", .equal, number("2", 2)), cmp("c", .equal, number("3", 3))], range: .none),
        ], range: .none))
        let left = parse("a == 1 && b == 2 || c == 3")?.strippingPositions()
        XCTAssertEqual(left, .or([
            .and([cmp("a", .equal, number("1", 1)), cmp("b", .equal, number("2", 2))], range: .none),
            cmp("c", .equal, number("3", 3)),
        ], range: .none))
    }

    func testChainsAreFlatAndParenthesesNest() {
        guard case .and(let operands, _)? = parse("a == 1 && b == 2 && c == 3 && d == 4") else { return XCTFail() }
        XCTAssertEqual(operands.count, 4)
        let grouped = parse("(a == 1 || b == 2) && c == 3")?.strippingPositions()
        XCTAssertEqual(grouped, .and([
            .or([cmp("a", .equal, number("1", 1)), cmp("b", .equal, number("2", 2))], range: .none),
            cmp("c", .equal, number("3", 3)),
        ], range: .none))
        XCTAssertEqual(parse("((((a == 1))))")?.strippingPositions(), cmp("a", .equal, number("1", 1)))
    }

    func testUnaryNot() {
        XCTAssertEqual(parse("!(a == 1)")?.strippingPositions(), .not(cmp("a", .equal, number("1", 1)), range: .none))
        XCTAssertEqual(parse("!a == 1")?.strippingPositions(), .not(cmp("a", .equal, number("1", 1)), range: .none))
        XCTAssertEqual(parse("!!true")?.strippingPositions(),
                       .not(.not(.constant(true, range: .none), range: .none), range: .none))
        // `!` binds tighter than &&.
        XCTAssertEqual(parse("!a == 1 && b == 2")?.strippingPositions(), .and([
            .not(cmp("a", .equal, number("1", 1)), range: .none), cmp("b", .equal, number("2", 2)),
        ], range: .none))
        XCTAssertEqual(comparison("a != 1")?.op, .notEqual, "'!=' is an operator, not '!' then '='")
    }

    func testBooleanConstantsAndValues() {
        XCTAssertEqual(parse("true"), .constant(true, range: SourceRange(start: 0, end: 4)))
        XCTAssertEqual(parse("  false ")?.strippingPositions(), .constant(false, range: .none))
        XCTAssertEqual(parse("TRUEPREDICATE")?.strippingPositions(), .constant(true, range: .none))
        XCTAssertEqual(parse("FALSEPREDICATE")?.strippingPositions(), .constant(false, range: .none))
        XCTAssertEqual(parse("true && a == 1")?.strippingPositions(),
                       .and([.constant(true, range: .none), cmp("a", .equal, number("1", 1))], range: .none))
        XCTAssertEqual(comparison("allDay == true")?.value, .bool(true))
        XCTAssertEqual(comparison("allDay != false")?.value, .bool(false))
    }

    func testInRange() {
        guard case .inRange(let test)? = parse("InRange(duration, 60, 300)") else { return XCTFail() }
        XCTAssertEqual(test.attribute, .named("duration"))
        XCTAssertEqual(test.lower, number("60", 60))
        XCTAssertEqual(test.upper, number("300", 300))
        XCTAssertEqual(test.range, SourceRange(start: 0, end: 26))
        XCTAssertEqual(test.lowerRange, SourceRange(start: 18, end: 20))
        guard case .inRange(let strings)? = parse(#"InRange( title , "a" , 'm' )"#) else { return XCTFail() }
        XCTAssertEqual(strings.lower, string("a"))
        XCTAssertEqual(strings.upper, string("m"))
        guard case .inRange(let times)? = parse("InRange(d, $time.today(-10), $time.iso(2024-01-01))") else {
            return XCTFail()
        }
        XCTAssertEqual(times.lower, .time(TimeExpression(.today, offset: -10)))
        guard case .time(let upper) = times.upper, case .iso(let iso) = upper.anchor else { return XCTFail() }
        XCTAssertEqual([iso.year, iso.month, iso.day], [2024, 1, 1])
        guard case .inRange(let any)? = parse("InRange(*, 1, 2)") else { return XCTFail() }
        XCTAssertEqual(any.attribute, .any)
    }

    func testTimeValues() {
        let cases: [(String, TimeExpression)] = [
            ("$time.now", TimeExpression(.now)),
            ("$time.now(-3600)", TimeExpression(.now, offset: -3600)),
            ("$time.now(+60)", TimeExpression(.now, offset: 60)),
            ("$time.today", TimeExpression(.today)),
            ("$time.today(-7)", TimeExpression(.today, offset: -7)),
            ("$time.today( 7 )", TimeExpression(.today, offset: 7)),
            ("$time.yesterday", TimeExpression(.yesterday)),
            ("$time.last_week", TimeExpression(.lastWeek)),
            ("$time.last_week(-2)", TimeExpression(.lastWeek, offset: -2)),
            ("$time.this_week", TimeExpression(.thisWeek)),
            ("$time.this_week(1)", TimeExpression(.thisWeek, offset: 1)),
            ("$time.this_month(-2)", TimeExpression(.thisMonth, offset: -2)),
            ("$time.this_year(-1)", TimeExpression(.thisYear, offset: -1)),
            ("$time.absolute(519771600)",
             TimeExpression(.absolute(QueryNumber(value: 519_771_600, text: "519771600")))),
            ("$time.absolute(-1.5)", TimeExpression(.absolute(QueryNumber(value: -1.5, text: "-1.5")))),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(comparison("d >= \(text)")?.value, .time(expected), text)
        }
    }

    func testISODatesQuotedAndUnquoted() throws {
        let forms = [
            "$time.iso(2024-01-01T00:00:00Z)", "$time.iso(\"2024-01-01T00:00:00Z\")", "$time.iso('2024-01-01T00:00:00Z')",
            "$time.iso(2024-01-01T00:00:00.000Z)", "$time.iso(2024-01-01T02:00:00+02:00)",
            "$time.iso(2024-01-01T02:00:00+0200)", "$time.iso(2023-12-31T19:00:00-05)",
            "$time.iso(\"2024-01-01 00:00:00Z\")",
        ]
        for form in forms {
            guard case .time(let time)? = comparison("d > \(form)")?.value, case .iso(let iso) = time.anchor else {
                XCTFail(form)
                continue
            }
            XCTAssertEqual(iso.secondsSinceReferenceDate, Date(timeIntervalSince1970: 1_704_067_200).timeIntervalSinceReferenceDate, form)
        }
        guard case .time(let fractional)? = comparison("d > $time.iso(2024-01-01T00:00:00.25Z)")?.value,
              case .iso(let iso) = fractional.anchor else { return XCTFail() }
        XCTAssertEqual(try XCTUnwrap(iso.secondsSinceReferenceDate), 725_760_000.25, accuracy: 1e-6)
        guard case .time(let local)? = comparison("d > $time.iso(2024-01-01T08:30)")?.value,
              case .iso(let localISO) = local.anchor else { return XCTFail() }
        XCTAssertNil(localISO.utcOffset, "no zone: resolved in the calendar's time zone")
        XCTAssertEqual(localISO.hour, 8)
        XCTAssertEqual(localISO.minute, 30)
    }

    func testNumbers() {
        let cases: [(String, Double)] = [
            ("0", 0), ("42", 42), ("-3", -3), ("+3", 3), ("3.25", 3.25), ("-0.5", -0.5), (".5", 0.5),
            ("9.2e-5", 9.2e-5), ("1E10", 1e10), ("2e+3", 2000), ("0xff", 255), ("0XFF", 255), ("-0x10", -16),
            ("519771600", 519_771_600),
        ]
        for (text, value) in cases {
            XCTAssertEqual(comparison("n == \(text)")?.value, number(text, value), text)
        }
    }

    /// Integer literals keep their exact value beside the Double, which rounds beyond 2^53.
    func testIntegerLiteralsAreExact() {
        let cases: [(String, Int64?)] = [
            ("42", 42), ("-3", -3), ("+3", 3), ("9007199254740993", 9_007_199_254_740_993),
            ("9223372036854775807", .max), ("-9223372036854775808", .min), ("0x7fffffffffffffff", .max),
            ("-0x8000000000000000", .min), ("-0x10", -16), ("0XFF", 255),
            ("9223372036854775808", nil), ("0x8000000000000000", nil), ("3.0", nil), ("1e3", nil), (".5", nil),
        ]
        for (text, integer) in cases {
            guard case .number(let number)? = comparison("n == \(text)")?.value else {
                XCTFail(text)
                continue
            }
            XCTAssertEqual(number.integerValue, integer, text)
        }
    }

    /// A hex literal beyond `Int64` has only its Double, which must be the nearest one, as a decimal literal's is:
    /// 0x20000000000001800 is 2^65 + 6144, nearer 2^65 + 8192 than 2^65 (the Doubles there are 8192 apart), but
    /// adding its digits one by one rounded 0x20000000000001 down to 2^53 first and gave 2^65.
    func testHexLiteralsBeyondInt64RoundToTheNearestDouble() {
        let cases: [(hex: String, decimal: String)] = [
            ("0x20000000000001800", "36893488147419109376"), ("-0x20000000000001800", "-36893488147419109376"),
            ("0x1000000000000000000000000001", "324518553658426726783156020576257"),
            ("0xFFFFFFFFFFFFFFFFF", "295147905179352825855"),
        ]
        for (hex, decimal) in cases {
            guard case .number(let number)? = comparison("n == \(hex)")?.value else {
                XCTFail(hex)
                continue
            }
            XCTAssertEqual(number.value, Double(decimal), hex)
        }
    }

    func testAttributes() {
        XCTAssertEqual(comparison(#"* == "x""#)?.attribute, .any)
        XCTAssertEqual(comparison(#"** == "x""#)?.attribute, .anyIncludingContent)
        for name in ["kMDItemTitle", "com_mycompany_myapp_status", "_private", "a.b.c", "ns:key", "x1", "título"] {
            XCTAssertEqual(comparison(#"\#(name) == "x""#)?.attribute, .named(name), name)
        }
    }

    func testPresenceAndAbsence() {
        XCTAssertEqual(comparison("thumbnailURL == *")?.value, .string(.anything))
        XCTAssertEqual(comparison(#"thumbnailURL == "*""#)?.value, .string(.anything))
        let absent = comparison(#"contentDescription != "*""#)
        XCTAssertEqual(absent?.op, .notEqual)
        guard case .string(let pattern)? = absent?.value else { return XCTFail() }
        XCTAssertEqual(pattern.shape, .presence)
    }

    func testSourcePositions() {
        let query = #"title == "Paris"cd && rating >= 4"#
        guard case .and(let operands, let range)? = parse(query),
              case .comparison(let first) = operands[0], case .comparison(let second) = operands[1] else {
            return XCTFail()
        }
        XCTAssertEqual(range, SourceRange(start: 0, end: 33))
        XCTAssertEqual(first.range, SourceRange(start: 0, end: 18))
        XCTAssertEqual(first.attributeRange.text(in: query), "title")
        XCTAssertEqual(first.operatorRange.text(in: query), "==")
        XCTAssertEqual(first.valueRange.text(in: query), #""Paris"cd"#)
        XCTAssertEqual(second.range.text(in: query), "rating >= 4")
        let multiline = "a == 1 &&\n  é == 2"
        guard case .and(let lines, _)? = parse(multiline) else { return XCTFail() }
        XCTAssertEqual(lines[1].range.location(in: multiline), SourceLocation(utf8Offset: 12, line: 2, column: 3))
    }

    func testWhitespaceIsInsignificant() {
        XCTAssertEqual(parse("\n\ta==1\t&&\r\n( b=='x'c )  ")?.strippingPositions(),
                       parse("a == 1 && b == \"x\"c")?.strippingPositions())
    }

    /// Unicode's other white space (an input method's ideographic space, a pasted no-break space) separates tokens
    /// as U+0020 does; before, it lexed as part of a name (`\u{3000}kind` a custom key no item has, silently).
    func testUnicodeWhiteSpaceSeparatesTokens() {
        let plain = parse("title == \"a b\"cd && kind == 2 || date > $time.today(-1)")?.strippingPositions()
        let spaces = ["\u{A0}", "\u{3000}", "\u{2003}", "\u{202F}", "\u{205F}", "\u{1680}", "\u{2028}", "\u{85}", "\u{0B}"]
        for space in spaces {
            let spaced = "title\(space)==\(space)\"a b\"cd\(space)&&\(space)kind\(space)==\(space)2\(space)||"
                + "\(space)date\(space)>\(space)$time.today(\(space)-1\(space))\(space)"
            let code = String(space.unicodeScalars.first!.value, radix: 16)
            XCTAssertEqual(parse(spaced)?.strippingPositions(), plain, "separated by U+\(code)")
        }
        // Inside a quoted string it is text, kept as written.
        XCTAssertEqual(comparison("title == \"a\u{3000}b\"")?.value, string("a\u{3000}b"))
        // Other non-ASCII still spells names; a name followed by a space and more is an error, not a longer name.
        XCTAssertEqual(comparison("titré == 1")?.attribute, .named("titré"))
        XCTAssertNotNil(parseError("title\u{3000}x == 1"))
    }
}

final class SourceRangeTests: XCTestCase {
    func testTextLocationAndUnion() {
        let source = "ab\ncdé\nf"
        let range = SourceRange(start: 3, end: 7)
        XCTAssertEqual(range.text(in: source), "cdé")
        XCTAssertEqual(range.length, 4)
        XCTAssertEqual(range.location(in: source), SourceLocation(utf8Offset: 3, line: 2, column: 1))
        XCTAssertEqual(SourceLocation(utf8Offset: 8, in: source), SourceLocation(utf8Offset: 8, line: 3, column: 1))
        XCTAssertEqual(SourceLocation(utf8Offset: 9, in: source).column, 2, "the end of the text")
        XCTAssertEqual(SourceLocation(utf8Offset: 6, in: source).column, 3, "inside é: that character's column")
        XCTAssertEqual(SourceRange(start: 1, end: 2).union(SourceRange(start: 5, end: 6)), SourceRange(start: 1, end: 6))
        XCTAssertEqual(SourceRange(start: 5, end: 2).end, 5, "never runs backwards")
        XCTAssertEqual(SourceRange(start: 50, end: 60).text(in: source), "", "out of bounds is empty, not a trap")
        XCTAssertEqual(SourceLocation(utf8Offset: -3, in: source).line, 1)
    }

    func testTreeDescriptionOfNotAndConstants() {
        XCTAssertEqual(parse(#"!(a == "x*") || true"#)?.treeDescription(), """
            or 0..<20
              not 0..<11
                comparison 2..<11 a == "x*" shape=prefix
              constant 16..<20 true
            """)
        XCTAssertEqual(parse("!(a == 1) || !true")?.canonicalQuery, "!(a == 1) || !true")
    }
}
