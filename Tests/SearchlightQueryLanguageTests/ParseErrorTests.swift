import XCTest
@testable import SearchlightQueryLanguage

final class ParseErrorTests: XCTestCase {
    /// Asserts the query fails with `kind` at `offset` and that the description starts with `prefix`.
    private func expect(_ query: String, _ kind: QueryParseError.Kind, at offset: Int, _ prefix: String,
                        found: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        guard let error = parseError(query, file: file, line: line) else { return }
        XCTAssertEqual(error.kind, kind, "\(query): \(error)", file: file, line: line)
        XCTAssertEqual(error.offset, offset, "\(query): \(error)", file: file, line: line)
        XCTAssertTrue(error.description.hasPrefix(prefix), "\(query): got «\(error)»", file: file, line: line)
        if let found { XCTAssertEqual(error.found, found, "\(query)", file: file, line: line) }
    }

    func testEmptyQuery() {
        expect("", .emptyQuery, at: 0, "empty query")
        expect(" \n\t ", .emptyQuery, at: 0, "empty query")
    }

    func testMissingValue() {
        expect("title == ", .unexpectedToken, at: 9, "expected a value after '==' at offset 9 (found end of query)")
        expect("title == && b == 1", .unexpectedToken, at: 9, "expected a value after '==' at offset 9 (found '&&')")
        expect("title != )", .unexpectedToken, at: 9, "expected a value after '!=' at offset 9")
        expect("title == Paris", .unexpectedToken, at: 9, "expected a value after '==' at offset 9 (found 'Paris')")
        XCTAssertEqual(parseError("title == Paris")?.hint, "strings must be quoted, e.g. \"Paris\"")
    }

    func testUnterminatedString() {
        expect(#"title == "Paris"#, .unterminatedString, at: 9, "unterminated string starting at offset 9")
        expect("title == 'it", .unterminatedString, at: 9, "unterminated string starting at offset 9")
        expect(#"title == "ends with backslash\"#, .unterminatedString, at: 9, "unterminated string")
        expect(#"title == "a" && b == "c"#, .unterminatedString, at: 21, "unterminated string starting at offset 21")
    }

    func testUnknownModifier() {
        expect(#"title == "a"cx"#, .unknownModifier, at: 13, "unknown modifier 'x' at offset 13", found: "x")
        expect(#"title == "a"x"#, .unknownModifier, at: 12, "unknown modifier 'x' at offset 12")
        expect(#"title == "a"C"#, .unknownModifier, at: 12, "unknown modifier 'C'")
        expect(#"title == "a"c1"#, .unknownModifier, at: 13, "unknown modifier '1'")
        expect(#"title == "a"cé"#, .unknownModifier, at: 13, "unknown modifier 'é'")
        XCTAssertEqual(parseError(#"title == "a"q"#)?.hint, "expected a modifier: c, d, w or t")
    }

    func testUnbalancedParentheses() {
        expect("(a == 1) && b == 2)", .unbalancedParenthesis, at: 18, "unbalanced ')' at offset 18")
        expect("a == 1)", .unbalancedParenthesis, at: 6, "unbalanced ')' at offset 6")
        expect("(a == 1 && b == 2", .unbalancedParenthesis, at: 0, "unbalanced '(' at offset 0")
        expect("((a == 1)", .unbalancedParenthesis, at: 0, "unbalanced '(' at offset 0")
        expect("(a == 1 b == 2)", .unexpectedToken, at: 8, "expected ')', '&&' or '||' at offset 8")
        expect("()", .unexpectedToken, at: 1, "expected an expression after '(' at offset 1 (found ')')")
    }

    func testOperatorsAndExpressions() {
        expect("title Paris", .unexpectedToken, at: 6, "expected a comparison operator after 'title' at offset 6")
        expect("title", .unexpectedToken, at: 5, "expected a comparison operator after 'title' at offset 5")
        expect("a == 1 &", .unexpectedCharacter, at: 7, "unexpected '&' at offset 7")
        expect("a == 1 | b == 2", .unexpectedCharacter, at: 7, "unexpected '|' at offset 7")
        expect("a == 1 &&", .unexpectedToken, at: 9, "expected an expression after '&&' at offset 9")
        expect("a == 1 || ", .unexpectedToken, at: 10, "expected an expression after '||' at offset 10")
        expect("!", .unexpectedToken, at: 1, "expected an expression after '!' at offset 1")
        expect("a == 1 b == 2", .unexpectedToken, at: 7, "expected '&&', '||' or the end of the query at offset 7")
        expect(#""Paris""#, .unexpectedToken, at: 0, "expected an attribute name before a value at offset 0")
        expect("== 1", .unexpectedToken, at: 0, "expected an expression at offset 0")
        expect("a == \"x\" @", .unexpectedCharacter, at: 9, "unexpected character '@' at offset 9")
        expect("a == \"x\" ☃", .unexpectedToken, at: 9, "expected '&&', '||' or the end of the query at offset 9 (found '☃')")
        expect("a == -", .unexpectedCharacter, at: 5, "unexpected '-' at offset 5")
        expect("a === 1", .unexpectedToken, at: 4, "expected a value after '==' at offset 4")
        expect("a == 1 && , b", .unexpectedToken, at: 10, "expected an expression after '&&'")
    }

    func testNumbers() {
        expect("a == 12abc", .invalidNumber, at: 5, "invalid number '12abc' at offset 5")
        expect("a == 0x", .invalidNumber, at: 5, "expected hex digits after '0x' at offset 5")
        expect("a == 0xfg", .invalidNumber, at: 5, "invalid number '0xfg'")
        expect("a == 1.2.3", .invalidNumber, at: 5, "invalid number '1.2.3'")
        expect("a == 1e", .invalidNumber, at: 5, "invalid number '1e'")
    }

    func testTimeErrors() {
        expect("a == $time.tomorrow", .unknownFunction, at: 5, "unknown time function '$time.tomorrow' at offset 5")
        expect("a == $time.next_week", .unknownFunction, at: 5, "unknown time function '$time.next_week'")
        expect("a == $foo", .unknownFunction, at: 5, "unknown variable '$foo' at offset 5")
        expect("a == $time.today(x)", .invalidTime, at: 17, "expected an integer offset for '$time.today' at offset 17")
        expect("a == $time.today(1.5)", .invalidTime, at: 17, "expected an integer offset")
        expect("a == $time.today()", .invalidTime, at: 17, "expected an integer offset")
        expect("a == $time.today(99999999)", .invalidTime, at: 17, "offset 99999999 of '$time.today' is out of range")
        expect("a == $time.today(-7", .unbalancedParenthesis, at: 16, "unbalanced '(' of '$time.today('")
        expect("a == $time.today(-7 8)", .invalidTime, at: 20, "expected ')' after the argument of '$time.today'")
        expect("a == $time.iso", .invalidTime, at: 5, "'$time.iso' needs a date in parentheses")
        expect("a == $time.iso(2024-13-01)", .invalidTime, at: 15, "invalid ISO-8601 date '2024-13-01' at offset 15")
        expect("a == $time.iso(2023-02-29)", .invalidTime, at: 15, "invalid ISO-8601 date")
        expect("a == $time.iso(2024-01-01T25:00:00Z)", .invalidTime, at: 15, "invalid ISO-8601 date")
        expect("a == $time.iso(2024-01-01T00:00:00Q)", .invalidTime, at: 15, "invalid ISO-8601 date")
        expect("a == $time.iso(\"2024-01-01", .unterminatedString, at: 15, "unterminated string starting at offset 15")
        expect("a == $time.absolute(soon)", .invalidTime, at: 20, "invalid number of seconds 'soon'")
        expect("a == $time.absolute(nan)", .invalidTime, at: 20, "invalid number of seconds")
        expect("a == $time.absolute", .invalidTime, at: 5, "'$time.absolute' needs seconds")
        // Accepted forms, for contrast.
        XCTAssertNotNil(parse("a == $time.iso(2024-02-29)"))
        XCTAssertNotNil(parse("a == $time.today(-1100000)"))
    }

    func testInRangeErrors() {
        expect("inrange(a, 1, 2)", .unknownFunction, at: 0, "unknown function 'inrange' at offset 0")
        XCTAssertEqual(parseError("INRANGE(a, 1, 2)")?.hint, "expected 'InRange' (the name is case-sensitive)")
        expect("Between(a, 1, 2)", .unknownFunction, at: 0, "unknown function 'Between'")
        expect("InRange(a, 1)", .unexpectedToken, at: 12, "expected ',' after the lower bound in InRange at offset 12")
        expect("InRange(a 1, 2)", .unexpectedToken, at: 10, "expected ',' after the attribute in InRange")
        expect("InRange(a, 1, 2", .unbalancedParenthesis, at: 7, "unbalanced '(' of 'InRange(' at offset 7")
        expect("InRange(a, 1, 2, 3)", .unexpectedToken, at: 15, "expected ')' after the upper bound of InRange")
        expect(#"InRange(a, "x"c, "y")"#, .misplacedModifiers, at: 11, "modifiers are not allowed on InRange bounds")
        expect("InRange(1, 2, 3)", .unexpectedToken, at: 8, "expected an attribute name after 'InRange('")
        expect("InRange(a, true, 3)", .unexpectedToken, at: 11, "expected a number, string or time as the lower bound")
        expect("InRange(a, , 3)", .unexpectedToken, at: 11, "expected a number, string or time as the lower bound")
    }

    func testNestingLimitIsAnErrorNotACrash() {
        let deep = String(repeating: "(", count: 5_000) + "a == 1" + String(repeating: ")", count: 5_000)
        expect(deep, .nestingTooDeep, at: QueryParser.maximumNestingDepth, "nesting deeper than")
        let nots = String(repeating: "!", count: 5_000) + "true"
        expect(nots, .nestingTooDeep, at: QueryParser.maximumNestingDepth, "nesting deeper than")
        let allowed = String(repeating: "(", count: QueryParser.maximumNestingDepth) + "a == 1"
            + String(repeating: ")", count: QueryParser.maximumNestingDepth)
        XCTAssertNotNil(parse(allowed))
    }

    func testLineAndColumnInMultilineQueries() {
        let query = "a == 1 &&\n  bé == "
        guard let error = parseError(query) else { return }
        XCTAssertEqual(error.offset, 19)
        XCTAssertEqual(error.line, 2)
        XCTAssertEqual(error.column, 9, "columns count characters, not bytes")
        XCTAssertTrue(error.description.contains("(line 2, column 9)"), error.description)
    }

    func testErrorIsSendableAndAnError() {
        let error: any Error & Sendable = parseError("a ==") ?? QueryParseError(
            kind: .emptyQuery, message: "", range: .none, found: "")
        XCTAssertTrue(error is QueryParseError)
    }
}
