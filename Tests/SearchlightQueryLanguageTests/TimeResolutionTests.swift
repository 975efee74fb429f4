import Foundation
import XCTest
@testable import SearchlightQueryLanguage

final class TimeResolutionTests: XCTestCase {
    /// Gregorian calendar in a fixed +02:00 zone, weeks starting on `firstWeekday`.
    private func calendar(firstWeekday: Int = 1, zone: TimeZone? = TimeZone(secondsFromGMT: 7_200)) throws -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try XCTUnwrap(zone)
        calendar.firstWeekday = firstWeekday
        return calendar
    }

    private func date(_ calendar: Calendar, _ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) throws -> Date {
        try XCTUnwrap(calendar.date(from: DateComponents(year: y, month: m, day: d, hour: h, minute: mi)))
    }

    private func resolved(_ query: String, now: Date, _ calendar: Calendar,
                          file: StaticString = #filePath, line: UInt = #line) -> Date? {
        guard case .time(let time)? = comparison("d >= \(query)", file: file, line: line)?.value else {
            XCTFail("\(query) is not a time", file: file, line: line)
            return nil
        }
        return resolve(time, now: now, calendar: calendar)
    }

    func testDaysAroundNewYear() throws {
        let cal = try calendar()
        let now = try date(cal, 2026, 1, 2, 15, 30) // a Friday
        XCTAssertEqual(resolved("$time.now", now: now, cal), now)
        XCTAssertEqual(resolved("$time.now(-3600)", now: now, cal), try date(cal, 2026, 1, 2, 14, 30))
        XCTAssertEqual(resolved("$time.today", now: now, cal), try date(cal, 2026, 1, 2))
        XCTAssertEqual(resolved("$time.today(-7)", now: now, cal), try date(cal, 2025, 12, 26))
        XCTAssertEqual(resolved("$time.today(30)", now: now, cal), try date(cal, 2026, 2, 1))
        XCTAssertEqual(resolved("$time.yesterday", now: now, cal), try date(cal, 2026, 1, 1))
        XCTAssertEqual(resolved("$time.yesterday(-1)", now: now, cal), try date(cal, 2025, 12, 31))
    }

    func testWeekStartsFollowFirstWeekday() throws {
        let sunday = try calendar(firstWeekday: 1)
        let monday = try calendar(firstWeekday: 2)
        let friday = try date(sunday, 2026, 1, 2, 15, 30)
        XCTAssertEqual(resolved("$time.this_week", now: friday, sunday), try date(sunday, 2025, 12, 28))
        XCTAssertEqual(resolved("$time.this_week", now: friday, monday), try date(monday, 2025, 12, 29))
        XCTAssertEqual(resolved("$time.this_week(1)", now: friday, sunday), try date(sunday, 2026, 1, 4))
        XCTAssertEqual(resolved("$time.this_week(-1)", now: friday, monday), try date(monday, 2025, 12, 22))
        // On the first day of the week itself, the week starts today; a Sunday is the end of a Monday week.
        let sundayNow = try date(sunday, 2026, 1, 4, 9)
        XCTAssertEqual(resolved("$time.this_week", now: sundayNow, sunday), try date(sunday, 2026, 1, 4))
        XCTAssertEqual(resolved("$time.this_week", now: sundayNow, monday), try date(monday, 2025, 12, 29))
        // Saturday (weekday 7) as first day, now on a Friday: six days back.
        let saturday = try calendar(firstWeekday: 7)
        XCTAssertEqual(resolved("$time.this_week", now: friday, saturday), try date(saturday, 2025, 12, 27))
    }

    func testMonthAndYearOffsetsAcrossYearBoundaries() throws {
        let cal = try calendar()
        let now = try date(cal, 2026, 1, 31, 23, 59)
        XCTAssertEqual(resolved("$time.this_month", now: now, cal), try date(cal, 2026, 1, 1))
        XCTAssertEqual(resolved("$time.this_month(-1)", now: now, cal), try date(cal, 2025, 12, 1))
        XCTAssertEqual(resolved("$time.this_month(-13)", now: now, cal), try date(cal, 2024, 12, 1))
        XCTAssertEqual(resolved("$time.this_month(1)", now: now, cal), try date(cal, 2026, 2, 1))
        XCTAssertEqual(resolved("$time.this_month(12)", now: now, cal), try date(cal, 2027, 1, 1))
        XCTAssertEqual(resolved("$time.this_year", now: now, cal), try date(cal, 2026, 1, 1))
        XCTAssertEqual(resolved("$time.this_year(-1)", now: now, cal), try date(cal, 2025, 1, 1))
        XCTAssertEqual(resolved("$time.this_year(2)", now: now, cal), try date(cal, 2028, 1, 1))
        let december = try date(cal, 2025, 12, 15, 8)
        XCTAssertEqual(resolved("$time.this_month(1)", now: december, cal), try date(cal, 2026, 1, 1))
        XCTAssertEqual(resolved("$time.this_year(1)", now: december, cal), try date(cal, 2026, 1, 1))
    }

    func testLocalMidnightIsInTheCalendarsZone() throws {
        // 2026-01-01T23:30Z is already Jan 2 in +02:00, still Jan 1 in -05:00.
        let now = Date(timeIntervalSince1970: 1_767_310_200)
        let east = try calendar(zone: TimeZone(secondsFromGMT: 7_200))
        let west = try calendar(zone: TimeZone(secondsFromGMT: -18_000))
        XCTAssertEqual(resolved("$time.today", now: now, east), Date(timeIntervalSince1970: 1_767_304_800))
        XCTAssertEqual(resolved("$time.today", now: now, west), Date(timeIntervalSince1970: 1_767_243_600))
    }

    func testDayOffsetsAcrossDaylightSavingUseCalendarDays() throws {
        let newYork = try calendar(zone: TimeZone(identifier: "America/New_York"))
        let now = try date(newYork, 2026, 3, 9, 12) // the day after clocks sprang forward
        let today = try XCTUnwrap(resolved("$time.today", now: now, newYork))
        let yesterday = try XCTUnwrap(resolved("$time.today(-1)", now: now, newYork))
        XCTAssertEqual(yesterday, try date(newYork, 2026, 3, 8))
        XCTAssertEqual(today.timeIntervalSince(yesterday), 23 * 3600, "the DST day is 23 hours long")
    }

    /// A day whose midnight does not exist (São Paulo sprang forward at 00:00 on 2018-11-04) starts at 01:00, and
    /// the days around it still start at their own midnight: `$time.today(1)` is not 01:00 the next day.
    func testDayOffsetsFromADayWithoutMidnightStartAtMidnight() throws {
        let saoPaulo = try calendar(zone: TimeZone(identifier: "America/Sao_Paulo"))
        let now = try date(saoPaulo, 2018, 11, 4, 12)
        let today = try XCTUnwrap(resolved("$time.today", now: now, saoPaulo))
        XCTAssertEqual(saoPaulo.component(.hour, from: today), 1, "the day starts at 01:00")
        let midnight = try date(saoPaulo, 2018, 11, 5)
        XCTAssertEqual(saoPaulo.component(.hour, from: midnight), 0)
        XCTAssertEqual(resolved("$time.today(1)", now: now, saoPaulo), midnight)
        XCTAssertEqual(resolved("$time.yesterday(2)", now: now, saoPaulo), midnight)
        XCTAssertEqual(resolved("$time.today(-1)", now: now, saoPaulo), try date(saoPaulo, 2018, 11, 3))
        // Sunday is the first weekday: the week began that day, at 01:00, and the next one at midnight.
        XCTAssertEqual(resolved("$time.this_week", now: now, saoPaulo), today)
        XCTAssertEqual(resolved("$time.this_week(1)", now: now, saoPaulo), try date(saoPaulo, 2018, 11, 11))
        let period = try XCTUnwrap(resolvePeriod(TimeExpression(.today), now: now, calendar: saoPaulo))
        XCTAssertEqual(period, today..<midnight, "today is 23 hours long")
    }

    func testAbsoluteAndISO() throws {
        let cal = try calendar()
        let now = try date(cal, 2026, 1, 2)
        XCTAssertEqual(resolved("$time.absolute(519771600)", now: now, cal)?.timeIntervalSinceReferenceDate, 519_771_600)
        XCTAssertEqual(resolved("$time.absolute(0)", now: now, cal), Date(timeIntervalSince1970: 978_307_200))
        XCTAssertEqual(resolved("$time.iso(2024-01-01T00:00:00Z)", now: now, cal),
                       Date(timeIntervalSince1970: 1_704_067_200))
        XCTAssertEqual(resolved("$time.iso(2024-01-01T00:00:00+02:00)", now: now, cal),
                       Date(timeIntervalSince1970: 1_704_067_200 - 7_200))
        // Without a zone the text is local time in the calendar's zone (+02:00 here).
        XCTAssertEqual(resolved("$time.iso(2024-06-01T12:00)", now: now, cal), try date(cal, 2024, 6, 1, 12))
        XCTAssertEqual(resolved("$time.iso(2024-06-01)", now: now, cal), try date(cal, 2024, 6, 1))
        let fractional = try XCTUnwrap(resolved("$time.iso(\"2024-06-01 12:00:00.5\")", now: now, cal))
        XCTAssertEqual(fractional.timeIntervalSince(try date(cal, 2024, 6, 1, 12)), 0.5, accuracy: 1e-6)
        XCTAssertEqual(ISODateTime(parsing: "2000-03-01T00:00:00Z")?.secondsSinceReferenceDate,
                       Date(timeIntervalSince1970: 951_868_800).timeIntervalSinceReferenceDate, "leap-year February")
    }

    /// ISO 8601 is proleptic Gregorian: a date before the 1582 switch (Foundation's Gregorian calendar is Julian
    /// there) resolves the same with a zone as without one in a calendar of that zone.
    func testISODateBeforeTheGregorianSwitchIsProlepticWithoutAZone() throws {
        let now = Date(timeIntervalSinceReferenceDate: 800_000_000)
        for zone in [0, 7_200, -18_000] {
            let cal = try calendar(zone: TimeZone(secondsFromGMT: zone))
            for text in ["1500-03-01T00:00:00", "0001-01-01T00:00:00", "1582-10-14T12:30:00", "1582-10-15T00:00:00"] {
                let offset = String(format: "%@%02d:00", zone < 0 ? "-" : "+", abs(zone) / 3600)
                XCTAssertEqual(resolved("$time.iso(\(text))", now: now, cal),
                               resolved("$time.iso(\(text)\(offset))", now: now, cal), "\(text) in \(offset)")
            }
        }
        XCTAssertEqual(resolved("$time.iso(1500-03-01)", now: now, try calendar(zone: TimeZone(secondsFromGMT: 0))),
                       Date(timeIntervalSinceReferenceDate: -15_804_979_200))
    }

    /// Local times a daylight-saving change skips or repeats read as Foundation's calendar reads them: in the
    /// offset in effect before the change.
    func testISOLocalTimeAroundDaylightSavingChanges() throws {
        let newYork = try calendar(zone: TimeZone(identifier: "America/New_York"))
        let now = try date(newYork, 2026, 1, 2)
        for text in ["2026-03-08T01:59", "2026-03-08T02:30", "2026-03-08T03:00", "2026-11-01T00:59", "2026-11-01T01:30",
                     "2026-11-01T02:00", "2026-11-01T02:30", "1883-11-18T12:00", "1850-06-01T00:00"] {
            let parsed = try XCTUnwrap(ISODateTime(parsing: text))
            let components = DateComponents(year: parsed.year, month: parsed.month, day: parsed.day,
                                            hour: parsed.hour, minute: parsed.minute)
            XCTAssertEqual(resolved("$time.iso(\(text))", now: now, newYork), newYork.date(from: components), text)
        }
    }

    /// `$time.last_week` is in Apple's `$time` table ("Searching for information in your app": a date from the
    /// week before the current week): the start of the previous week, `this_week(-1)`; an offset counts weeks.
    func testLastWeekIsTheStartOfThePreviousWeek() throws {
        let sunday = try calendar(firstWeekday: 1)
        let monday = try calendar(firstWeekday: 2)
        let friday = try date(sunday, 2026, 1, 2, 15, 30)
        XCTAssertEqual(resolved("$time.last_week", now: friday, sunday), try date(sunday, 2025, 12, 21))
        XCTAssertEqual(resolved("$time.last_week", now: friday, monday), try date(monday, 2025, 12, 22))
        XCTAssertEqual(resolved("$time.last_week(1)", now: friday, sunday), try date(sunday, 2025, 12, 28))
        XCTAssertEqual(resolved("$time.last_week(-1)", now: friday, sunday), try date(sunday, 2025, 12, 14))
        XCTAssertEqual(TimeExpression(.lastWeek).description, "$time.last_week")
        XCTAssertEqual(TimeExpression(.lastWeek, offset: 2).description, "$time.last_week(2)")
    }

    func testOffsetsBuiltInCodeAreClampedNotTrapped() throws {
        let cal = try calendar()
        let now = try date(cal, 2026, 1, 2)
        for anchor in [TimeExpression.Anchor.now, .today, .yesterday, .thisWeek, .lastWeek, .thisMonth, .thisYear] {
            let far = resolve(TimeExpression(anchor, offset: Int.max), now: now, calendar: cal)
            let farBack = resolve(TimeExpression(anchor, offset: Int.min), now: now, calendar: cal)
            XCTAssertGreaterThan(far, now, anchor.name)
            XCTAssertLessThan(farBack, now, anchor.name)
        }
    }
}

final class NumericValueTests: XCTestCase {
    func testNumericValues() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try XCTUnwrap(TimeZone(secondsFromGMT: 0))
        let now = Date(timeIntervalSinceReferenceDate: 800_000_000)
        XCTAssertEqual(comparison("a == 0xff")?.value.numericValue(now: now, calendar: calendar), 255)
        XCTAssertEqual(comparison("a == true")?.value.numericValue(now: now, calendar: calendar), 1)
        XCTAssertEqual(comparison("a == false")?.value.numericValue(now: now, calendar: calendar), 0)
        XCTAssertEqual(comparison("a == $time.now(-100)")?.value.numericValue(now: now, calendar: calendar), 799_999_900)
        XCTAssertEqual(comparison("a == $time.absolute(519771600)")?.value.numericValue(now: now, calendar: calendar),
                       519_771_600)
        XCTAssertNil(comparison(#"a == "5""#)?.value.numericValue(now: now, calendar: calendar))
    }
}
