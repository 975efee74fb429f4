import Foundation
import SearchlightQueryLanguage
import XCTest
@testable import Searchlight

/// `date == $time.today` (and `yesterday`, `this_week`, `last_week`, `this_month`, `this_year`, with offsets)
/// matches a date anywhere in that day, week, month or year, as Apple documents the `$time` table: "`$time.this_week`
/// matches an attribute set to a date from this week" ("Searching for information in your app"), and the
/// Spotlight query guide finds files "changed in the last week" with `kMDItemFSContentChangeDate ==
/// $time.this_week(-1)`. `$time.now`, `iso` and `absolute` stay instants; `<`, `>` and `InRange` compare with the
/// period's start.
final class TimePeriodEqualityTests: XCTestCase {
    static let clock = TestClock()

    static let dates: [String: Date] = {
        let day = utcCalendar.startOfDay(for: clock.now)
        return ["early": day.addingTimeInterval(60), "late": day.addingTimeInterval(86_399),
                "yesterday": day.addingTimeInterval(-1), "tomorrow": day.addingTimeInterval(86_400),
                "lastMonth": utcCalendar.date(byAdding: .month, value: -1, to: day) ?? day,
                "lastYear": utcCalendar.date(byAdding: .year, value: -1, to: day) ?? day,
                "weekAgo": day.addingTimeInterval(-7 * 86_400), "now": clock.now]
    }()

    static let items: [CSSearchableItem] = {
        var items = dates.map { id, date in
            let item = makeItem(id, title: id)
            item.attributeSet.contentCreationDate = date
            return item
        }
        items.append(makeItem("undated", title: "undated"))
        return items
    }()

    static let container = makeContainer(items, clock: clock)

    /// The dated items whose date lies in the calendar `component` containing `now` moved by `offset`.
    func within(_ component: Calendar.Component, offset: Int = 0) throws -> [String] {
        let now = try XCTUnwrap(utcCalendar.date(byAdding: component == .weekOfYear ? .day : component,
                                                 value: component == .weekOfYear ? 7 * offset : offset,
                                                 to: Self.clock.now))
        let period = try XCTUnwrap(utcCalendar.dateInterval(of: component, for: now))
        return Self.dates.filter { period.start <= $0.value && $0.value < period.end }.keys.sorted()
    }

    func check(_ query: String, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try evaluate(query, in: Self.container), expected.sorted(), query, file: file, line: line)
        let reference = ReferenceEvaluator(now: Self.clock.now, calendar: utcCalendar)
        let expression = try QueryEvaluator.parse(query)
        let referenced = Self.items.filter { reference.matches(expression, $0) }.map(\.uniqueIdentifier).sorted()
        XCTAssertEqual(referenced, expected.sorted(), "reference: \(query)", file: file, line: line)
    }

    func testEqualityMatchesTheWholeDay() throws {
        try check("contentCreationDate == $time.today", try within(.day))
        try check("contentCreationDate == $time.yesterday", ["yesterday"])
        try check("contentCreationDate == $time.today(-1)", ["yesterday"])
        try check("contentCreationDate == $time.today(1)", ["tomorrow"])
        try check("contentCreationDate != $time.today",
                  ["lastMonth", "lastYear", "tomorrow", "undated", "weekAgo", "yesterday"])
    }

    func testEqualityMatchesTheWholeWeekMonthAndYear() throws {
        try check("contentCreationDate == $time.this_week", try within(.weekOfYear))
        try check("contentCreationDate == $time.this_week(-1)", try within(.weekOfYear, offset: -1))
        try check("contentCreationDate == $time.last_week", try within(.weekOfYear, offset: -1))
        try check("contentCreationDate == $time.this_month", try within(.month))
        try check("contentCreationDate == $time.this_month(-1)", try within(.month, offset: -1))
        try check("contentCreationDate == $time.this_year", try within(.year))
        try check("contentCreationDate == $time.this_year(-1)", try within(.year, offset: -1))
    }

    func testInstantsAndOrderingsAreUnchanged() throws {
        try check("contentCreationDate == $time.now", ["now"])
        try check("contentCreationDate < $time.today", ["lastMonth", "lastYear", "weekAgo", "yesterday"])
        try check("contentCreationDate <= $time.today(-1)", ["lastMonth", "lastYear", "weekAgo"])
        try check("InRange(contentCreationDate, $time.today(-1), $time.today)", ["yesterday"])
    }
}
