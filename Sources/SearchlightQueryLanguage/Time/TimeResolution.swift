import Foundation

/// Turns a `$time.*` expression into an instant, with local-calendar semantics.
///
/// - `now(n)`: `now` plus n seconds.
/// - `today(n)`: the start of the local day containing `now`, moved n days (calendar days, so DST-safe).
/// - `yesterday(n)`: `today(n - 1)`.
/// - `this_week(n)`: the start of the local week containing `now` (per `calendar.firstWeekday`) plus n weeks.
/// - `last_week(n)`: `this_week(n - 1)`.
/// - `this_month(n)`, `this_year(n)`: the start of the month/year containing `now`, moved n months/years.
/// - `iso`: absolute when the text has a zone, otherwise read in `calendar.timeZone`; proleptic Gregorian either
///   way (ISO 8601), whatever `calendar`'s identifier.
/// - `absolute(s)`: s seconds after 2001-01-01T00:00:00Z.
///
/// Day, week, month and year values are the start of their day: the arithmetic keeps the wall-clock time it starts
/// from, which is 01:00 when the current day began then (its midnight skipped by daylight saving).
///
/// Offsets beyond `TimeExpression.maximumOffset(for:)` are clamped so calendar arithmetic stays in range.
/// Dates compare as `Date.timeIntervalSinceReferenceDate` (seconds since 2001).
public func resolve(_ time: TimeExpression, now: Date, calendar: Calendar) -> Date {
    let limit = TimeExpression.maximumOffset(for: time.anchor)
    let offset = Swift.max(-limit, Swift.min(limit, time.offset ?? 0))
    func adding(_ component: Calendar.Component, _ value: Int, to date: Date, approximateSeconds: Double) -> Date {
        if value == 0 { return date }
        let moved = calendar.date(byAdding: component, value: value, to: date)
            ?? date.addingTimeInterval(Double(value) * approximateSeconds)
        return calendar.startOfDay(for: moved)
    }
    switch time.anchor {
    case .now:
        return now.addingTimeInterval(Double(offset))
    case .today:
        return adding(.day, offset, to: calendar.startOfDay(for: now), approximateSeconds: 86_400)
    case .yesterday:
        return adding(.day, offset - 1, to: calendar.startOfDay(for: now), approximateSeconds: 86_400)
    case .thisWeek, .lastWeek:
        let weeks = time.anchor == .lastWeek ? offset - 1 : offset
        let today = calendar.startOfDay(for: now)
        let weekday = calendar.component(.weekday, from: today)
        let daysBack = ((weekday - calendar.firstWeekday) % 7 + 7) % 7
        let weekStart = adding(.day, -daysBack, to: today, approximateSeconds: 86_400)
        return adding(.day, weeks * 7, to: weekStart, approximateSeconds: 86_400)
    case .thisMonth:
        let monthStart = calendar.dateInterval(of: .month, for: now)?.start ?? calendar.startOfDay(for: now)
        return adding(.month, offset, to: monthStart, approximateSeconds: 30.436_875 * 86_400)
    case .thisYear:
        let yearStart = calendar.dateInterval(of: .year, for: now)?.start ?? calendar.startOfDay(for: now)
        return adding(.year, offset, to: yearStart, approximateSeconds: 365.2425 * 86_400)
    case .iso(let date):
        if let seconds = date.secondsSinceReferenceDate { return Date(timeIntervalSinceReferenceDate: seconds) }
        return localInstant(wallClock: date.localSecondsSinceReferenceDate, in: calendar.timeZone)
    case .absolute(let seconds):
        return Date(timeIntervalSinceReferenceDate: seconds.value)
    }
}

/// The instant a wall-clock reading (seconds since 2001 as if it were UTC; proleptic Gregorian, as ISO 8601 is,
/// where Foundation's Gregorian calendar is Julian before 1582-10-15) names in `zone`. A reading a daylight-saving
/// change skips or repeats is read in the offset in effect before the change, as Foundation's calendar reads it.
func localInstant(wallClock: Double, in zone: TimeZone) -> Date {
    func offset(at seconds: Double) -> Double {
        Double(zone.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: seconds)))
    }
    // The offset a day before is the one before any change near the reading; a change since moves to the later one.
    let before = wallClock - offset(at: wallClock - 86_400)
    let after = wallClock - offset(at: before)
    let instant = after != before && wallClock - offset(at: after) == after ? after : before
    return Date(timeIntervalSinceReferenceDate: instant)
}

extension TimeExpression {
    /// `resolve(self, now:calendar:)`.
    public func resolve(now: Date, calendar: Calendar) -> Date {
        SearchlightQueryLanguage.resolve(self, now: now, calendar: calendar)
    }
}
