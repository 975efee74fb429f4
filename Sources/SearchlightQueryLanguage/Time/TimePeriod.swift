import Foundation

/// The calendar period a `$time.*` value names when compared with `==`, or nil for an instant.
///
/// Apple's `$time` table describes `today`, `yesterday`, `this_week`, `last_week`, `this_month` and `this_year`
/// (with their offsets) as matching "a date from" that day, week, month or year, and the Spotlight query guide
/// finds files changed last week with `kMDItemFSContentChangeDate == $time.this_week(-1)`. So `==` (and `!=`)
/// against them tests the half-open period from the resolved start to the start of the next one; `now`, `iso`
/// and `absolute` are instants. Orderings and `InRange` use the start (`resolve(_:now:calendar:)`).
public func resolvePeriod(_ time: TimeExpression, now: Date, calendar: Calendar) -> Range<Date>? {
    switch time.anchor {
    case .today, .yesterday, .thisWeek, .lastWeek, .thisMonth, .thisYear:
        let start = resolve(time, now: now, calendar: calendar)
        let offset = time.offset ?? 0
        let next = offset < TimeExpression.maximumOffset(for: time.anchor)
            ? resolve(TimeExpression(time.anchor, offset: offset + 1), now: now, calendar: calendar) : start
        return start < next ? start..<next : nil
    case .now, .iso, .absolute:
        return nil
    }
}
