import Foundation
import SearchlightEngine
import XCTest
@testable import Searchlight

/// `ResultOrder.page` (cursor dropped first, the first `offset + limit` selected) against the full sort it replaced:
/// every match keyed, sorted, then cursor, offset and limit applied.
final class SortedPagingDifferentialTests: XCTestCase {
    /// Random items: titles, ratings (some beyond 2^53), a custom key holding text, numbers or both, several values
    /// or none, domains and dates; any of them may be missing. Values repeat so keys tie often.
    private func randomItems(_ count: Int, using random: inout SeededGenerator) -> [CSSearchableItem] {
        let words = ["apple", "Apple", "banana", "café", "cafe\u{301}", "zebra", "", "10", "9"]
        return (0..<count).map { i in
            let set = CSSearchableItemAttributeSet(contentType: .text)
            if Int.random(in: 0..<4, using: &random) > 0 { set.title = words.randomElement(using: &random) }
            switch Int.random(in: 0..<4, using: &random) {
            case 0: set.rating = NSNumber(value: Int.random(in: 0..<4, using: &random))
            case 1: set.rating = NSNumber(value: Int64(1) << 60 + Int64.random(in: 0..<3, using: &random))
            case 2: set.rating = NSNumber(value: Double(Int.random(in: -2..<3, using: &random)) / 2)
            default: break
            }
            var mixed: [NSObject] = []
            for _ in 0..<Int.random(in: 0..<3, using: &random) {
                mixed.append(Bool.random(using: &random) ? (words.randomElement(using: &random) ?? "") as NSString
                             : NSNumber(value: Int.random(in: 0..<5, using: &random)))
            }
            if mixed.count == 1, let text = mixed[0] as? NSString {
                set.setValue(text, forCustomKey: customKey("mixed"))
            } else if mixed.count == 1, let number = mixed[0] as? NSNumber {
                set.setValue(number, forCustomKey: customKey("mixed"))
            } else if !mixed.isEmpty {
                set.setValue(mixed as NSArray, forCustomKey: customKey("mixed"))
            }
            if Bool.random(using: &random) {
                set.contentCreationDate = Date(timeIntervalSince1970: Double(Int.random(in: 0..<3, using: &random)))
            }
            let domain = ["a", "b", nil].randomElement(using: &random) ?? nil
            return CSSearchableItem(uniqueIdentifier: "i\(i % 7 == 0 ? "é" : "")\(i)", domainIdentifier: domain,
                                    attributeSet: set)
        }
    }

    /// The order before `TopSelection`: a stable full sort of every match, then cursor, offset and limit.
    private func fullSortPage(_ order: ResultOrder, _ addresses: [DocAddress], cursor: CSSearchQueryCursor?,
                              offset: Int, limit: Int) -> [ResultOrder.Entry] {
        var entries = addresses.map { address in
            ResultOrder.Entry(address: address, identifier: order.snapshot.engine.id(of: address) ?? "",
                              key: order.key(of: address))
        }
        entries.sort { order.precedes(($0.key, $0.identifier), ($1.key, $1.identifier)) }
        if let cursor {
            entries.removeAll { !order.precedes((cursor.key, cursor.identifier), ($0.key, $0.identifier)) }
        }
        if offset > 0 { entries.removeFirst(min(offset, entries.count)) }
        if limit > 0, entries.count > limit { entries.removeLast(entries.count - limit) }
        return entries
    }

    func testSelectedPagesEqualTheFullSortForRandomItemsSortsCursorsOffsetsAndLimits() throws {
        var random = SeededGenerator(seed: 0x5EED_50_27)
        let attributes = ["title", "rating", "mixed", "contentCreationDate", "domainIdentifier", "absent_key",
                          "kMDItemTitle"]
        for round in 0..<4 {
            let container = makeContainer(randomItems(150 + round * 40, using: &random))
            let snapshot = container.snapshot()
            var evaluator = QueryEvaluator(snapshot: snapshot, calendar: utcCalendar)
            let matches = evaluator.matches(try QueryEvaluator.parse(round % 2 == 0 ? "true" : "rating >= 0"))
            for _ in 0..<25 {
                let sorts = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    CSSearchQueryContext.SortAttribute(attributes.randomElement(using: &random) ?? "title",
                                                       ascending: Bool.random(using: &random))
                }
                let order = try ResultOrder(snapshot: snapshot, sortAttributes: sorts)
                let all = fullSortPage(order, matches, cursor: nil, offset: 0, limit: 0)
                let unlimited = order.page(matches, cursor: nil, offset: 0, limit: 0)
                XCTAssertEqual(all.map(\.identifier), unlimited.map(\.identifier))
                for _ in 0..<8 {
                    let cursor = Bool.random(using: &random) ? nil
                        : all.randomElement(using: &random).map { order.cursor(after: $0, query: ["true"]) }
                    let offset = [0, 0, 1, 3, 17, all.count, Int.max].randomElement(using: &random) ?? 0
                    let limit = [0, 1, 2, 10, 50, all.count + 1, Int.max].randomElement(using: &random) ?? 0
                    let expected = fullSortPage(order, matches, cursor: cursor, offset: offset, limit: limit)
                    let page = order.page(matches, cursor: cursor, offset: offset, limit: limit)
                    XCTAssertEqual(page.map(\.identifier), expected.map(\.identifier),
                                   "sorts \(sorts) offset \(offset) limit \(limit) cursor \(cursor != nil)")
                    XCTAssertEqual(page.map(\.address), expected.map(\.address))
                    XCTAssertEqual(page.map(\.key), expected.map(\.key))
                }
            }
        }
    }

    /// Walking sorted pages with cursors through CSSearchQuery delivers every match once, in the full sort's order.
    func testCursorWalkDeliversTheFullSortOrder() throws {
        var random = SeededGenerator(seed: 77)
        let container = makeContainer(randomItems(300, using: &random))
        let sorts = [CSSearchQueryContext.SortAttribute("mixed", ascending: false),
                     CSSearchQueryContext.SortAttribute("title")]
        let order = try ResultOrder(snapshot: container.snapshot(), sortAttributes: sorts)
        var evaluator = QueryEvaluator(snapshot: container.snapshot(), calendar: utcCalendar)
        let expected = fullSortPage(order, evaluator.matches(try QueryEvaluator.parse("true")), cursor: nil,
                                    offset: 0, limit: 0).map(\.identifier)
        var walked: [String] = [], cursor: CSSearchQueryCursor?
        for _ in 0..<100 {
            let context = CSSearchQueryContext()
            context.sortAttributes = sorts
            context.limit = 7
            context.cursor = cursor
            let query = CSSearchQuery(queryString: "true", queryContext: context, container: container)
            let run = runQuery(query)
            XCTAssertNil(run.error)
            let page = run.batches.flatMap { $0 }.map(\.uniqueIdentifier)
            if page.isEmpty { break }
            walked += page
            cursor = query.cursor
        }
        XCTAssertEqual(walked, expected)
    }
}
