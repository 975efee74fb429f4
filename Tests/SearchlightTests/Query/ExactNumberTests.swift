import Foundation
import XCTest
@testable import Searchlight

/// Numbers compare and sort exactly: the engine's columns hold Doubles, which round integers beyond 2^53
/// (64-bit ids such as snowflakes), yet stored `Int64` values and integer literals keep their exact order.
final class ExactNumberTests: XCTestCase {
    /// An audio item with `playCount`.
    func item(_ id: String, playCountNumber playCount: NSNumber) -> CSSearchableItem {
        let set = CSSearchableItemAttributeSet(itemContentType: "public.audio")
        set.playCount = playCount
        return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: nil, attributeSet: set)
    }

    func item(_ id: String, playCount: Int64) -> CSSearchableItem {
        item(id, playCountNumber: NSNumber(value: playCount))
    }

    /// The identifiers of a sorted query, in delivery order, and the query (for its cursor).
    func sorted(_ container: SearchlightContainer, ascending: Bool = true, limit: Int = 0,
                cursor: CSSearchQueryCursor? = nil) -> (ids: [String], query: CSSearchQuery) {
        let context = CSSearchQueryContext()
        context.sortAttributes = [.init("playCount", ascending: ascending)]
        context.limit = limit
        context.cursor = cursor
        let query = CSSearchQuery(queryString: "playCount == *", queryContext: context, container: container)
        let run = runQuery(query)
        XCTAssertNil(run.error)
        return (run.batches.flatMap { $0 }.map(\.uniqueIdentifier), query)
    }

    func testLargeIntegerNumbersCompareExactly() throws {
        // 2^53 + 1 and 2^53: distinct Int64 values, one Double.
        let container = makeContainer([item("a", playCount: 9_007_199_254_740_993),
                                       item("b", playCount: 9_007_199_254_740_992)])
        XCTAssertEqual(try evaluate("playCount == 9007199254740993", in: container), ["a"])
        XCTAssertEqual(try evaluate("playCount > 9007199254740992", in: container), ["a"])
        XCTAssertEqual(try evaluate("playCount != 9007199254740992", in: container), ["a"])
        XCTAssertEqual(try evaluate("playCount <= 9007199254740992", in: container), ["b"])
        XCTAssertEqual(try evaluate(#"playCount == "9007199254740993""#, in: container), ["a"])
        XCTAssertEqual(try evaluate("InRange(playCount, 9007199254740993, 9007199254740999)", in: container), ["a"])
        XCTAssertEqual(sorted(container).ids, ["b", "a"])
    }

    /// 64-bit ids in a custom key: 1.8e18 is a Double, the next 255 integers round to it.
    func testCustomKeyHoldingSnowflakeIdsComparesExactly() throws {
        let key = customKey("snowflake")
        func item(_ id: String, _ snowflake: Int64) -> CSSearchableItem {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.setValue(NSNumber(value: snowflake), forCustomKey: key)
            return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: nil, attributeSet: set)
        }
        let container = makeContainer([item("s0", 1_800_000_000_000_000_000), item("s1", 1_800_000_000_000_000_001),
                                       item("s2", 1_800_000_000_000_000_002), item("s300", 1_800_000_000_000_000_300)])
        XCTAssertEqual(try evaluate("snowflake == 1800000000000000001", in: container), ["s1"])
        XCTAssertEqual(try evaluate("snowflake == 0x18FAE27693B40001", in: container), ["s1"])
        XCTAssertEqual(try evaluate(#"snowflake == "1800000000000000002""#, in: container), ["s2"])
        XCTAssertEqual(try evaluate("snowflake < 1800000000000000002", in: container), ["s0", "s1"])
        XCTAssertEqual(try evaluate("snowflake >= 1800000000000000002", in: container), ["s2", "s300"])
        XCTAssertEqual(try evaluate("InRange(snowflake, 1800000000000000001, 1800000000000000300)", in: container),
                       ["s1", "s2", "s300"])
        XCTAssertEqual(try evaluate("InRange(snowflake, 1800000000000000002, 1800000000000000299)", in: container),
                       ["s2"])
    }

    /// The same checks where an `&&` leaves few documents (their values are read directly), and on a key
    /// holding several numbers, any of which may match.
    func testFewDocumentsAndMultipleValuesCompareExactly() throws {
        let key = customKey("snowflake")
        func item(_ id: String, _ value: Any) -> CSSearchableItem {
            let set = CSSearchableItemAttributeSet(itemContentType: "public.text")
            set.title = id.hasPrefix("filler") ? "filler" : "snowflake"
            set.setValue(value, forCustomKey: key)
            return CSSearchableItem(uniqueIdentifier: id, domainIdentifier: nil, attributeSet: set)
        }
        let fillers = (0..<40).map { item("filler\($0)", NSNumber(value: $0)) }
        let container = makeContainer(fillers + [
            item("s1", NSNumber(value: Int64(1_800_000_000_000_000_001))),
            item("pair", [NSNumber(value: Int64(1_800_000_000_000_000_000)),
                          NSNumber(value: Int64(1_800_000_000_000_000_002))]),
        ])
        XCTAssertEqual(try evaluate("snowflake == 1800000000000000001", in: container), ["s1"])
        XCTAssertEqual(try evaluate("snowflake == 1800000000000000002", in: container), ["pair"])
        func amongFew(_ comparison: String) throws -> [String] {
            try evaluate(#"title == "snowflake" && "# + comparison, in: container)
        }
        XCTAssertEqual(try amongFew("snowflake == 1800000000000000001"), ["s1"])
        XCTAssertEqual(try amongFew("snowflake > 1800000000000000001"), ["pair"])
        XCTAssertEqual(try amongFew("snowflake != 1800000000000000002"), ["s1"])
        XCTAssertEqual(try amongFew("InRange(snowflake, 1800000000000000001, 1800000000000000001)"), ["s1"])
    }

    /// A stored Double against an integer literal, and a stored integer against a Double literal.
    func testDoublesAndIntegersCompareExactlyAcrossKinds() throws {
        let container = makeContainer([item("double", playCountNumber: NSNumber(value: 9_007_199_254_740_992.0)),
                                       item("int", playCount: 9_007_199_254_740_993)])
        XCTAssertEqual(try evaluate("playCount < 9007199254740993", in: container), ["double"])
        XCTAssertEqual(try evaluate("playCount == 9007199254740993", in: container), ["int"])
        XCTAssertEqual(try evaluate("playCount == 9007199254740992", in: container), ["double"])
        XCTAssertEqual(try evaluate("playCount > 9007199254740992.0", in: container), ["int"])
        XCTAssertEqual(try evaluate("playCount == 9007199254740992.0", in: container), ["double"])
    }

    func testInt64ExtremesAndLiteralsBeyondInt64() throws {
        let container = makeContainer([item("max", playCount: .max), item("belowMax", playCount: .max - 1),
                                       item("min", playCount: .min), item("aboveMin", playCount: .min + 1)])
        XCTAssertEqual(try evaluate("playCount == 9223372036854775807", in: container), ["max"])
        XCTAssertEqual(try evaluate("playCount == 0x7fffffffffffffff", in: container), ["max"])
        XCTAssertEqual(try evaluate("playCount < 9223372036854775807", in: container), ["aboveMin", "belowMax", "min"])
        XCTAssertEqual(try evaluate("playCount >= 9223372036854775806", in: container), ["belowMax", "max"])
        XCTAssertEqual(try evaluate("playCount == -9223372036854775808", in: container), ["min"])
        XCTAssertEqual(try evaluate("playCount == -0x8000000000000000", in: container), ["min"])
        XCTAssertEqual(try evaluate("playCount > -9223372036854775808", in: container),
                       ["aboveMin", "belowMax", "max"])
        // Beyond Int64 a literal is a Double: 2^63 is above every Int64, 1e19 further still.
        XCTAssertEqual(try evaluate("playCount == 9223372036854775808", in: container), [])
        XCTAssertEqual(try evaluate("playCount < 9223372036854775808", in: container),
                       ["aboveMin", "belowMax", "max", "min"])
        XCTAssertEqual(try evaluate("playCount > -1e19", in: container), ["aboveMin", "belowMax", "max", "min"])
        XCTAssertEqual(try evaluate("playCount < 1e19", in: container), ["aboveMin", "belowMax", "max", "min"])
        XCTAssertEqual(try evaluate("playCount > 10000000000000000000", in: container), [])
    }

    /// Sorting and cursors order integers beyond 2^53 exactly, also against a Double.
    func testLargeIntegersSortAndPageExactly() throws {
        let container = makeContainer([item("a", playCount: 9_007_199_254_740_993),
                                       item("b", playCount: 9_007_199_254_740_992),
                                       item("c", playCountNumber: NSNumber(value: 9_007_199_254_740_994.0)),
                                       item("d", playCount: 9_007_199_254_740_995)])
        XCTAssertEqual(sorted(container).ids, ["b", "a", "c", "d"])
        XCTAssertEqual(sorted(container, ascending: false).ids, ["d", "c", "a", "b"])
        var pages: [String] = []
        var cursor: CSSearchQueryCursor?
        for _ in 0..<4 {
            let page = sorted(container, limit: 1, cursor: cursor)
            pages += page.ids
            cursor = try XCTUnwrap(page.query.cursor)
        }
        XCTAssertEqual(pages, ["b", "a", "c", "d"])
    }
}
