import XCTest
@testable import SearchlightQueryLanguage

/// Deterministic generator so fuzz tests replay exactly (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Parses or fails the test with the error's description.
func parse(_ query: String, file: StaticString = #filePath, line: UInt = #line) -> QueryExpression? {
    do {
        return try QueryParser.parse(query)
    } catch {
        XCTFail("\(query) did not parse: \(error)", file: file, line: line)
        return nil
    }
}

/// The single comparison a query parses to, or a test failure.
func comparison(_ query: String, file: StaticString = #filePath, line: UInt = #line) -> Comparison? {
    guard let expression = parse(query, file: file, line: line) else { return nil }
    guard case .comparison(let comparison) = expression else {
        XCTFail("\(query) is not a single comparison: \(expression)", file: file, line: line)
        return nil
    }
    return comparison
}

/// The error a query fails with, or a test failure if it parses.
func parseError(_ query: String, file: StaticString = #filePath, line: UInt = #line) -> QueryParseError? {
    do {
        let expression = try QueryParser.parse(query)
        XCTFail("\(query) unexpectedly parsed as \(expression)", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// A comparison node built in code (positions stripped), for structural expectations.
func cmp(_ attribute: String, _ op: ComparisonOperator, _ value: QueryValue,
         _ modifiers: StringModifiers = []) -> QueryExpression {
    .comparison(Comparison(attribute: attribute == "*" ? .any : .named(attribute), op: op, value: value,
                           modifiers: modifiers))
}

func string(_ wildcardText: String) -> QueryValue { .string(StringPattern(wildcardText: wildcardText)) }
func number(_ text: String, _ value: Double) -> QueryValue { .number(QueryNumber(value: value, text: text)) }
