/// A `$time.*` value as written, not yet turned into a date.
///
/// Resolution needs "now" and a calendar (`resolve(_:now:calendar:)`), which the evaluator supplies once
/// per query so every comparison in it sees the same instant.
public struct TimeExpression: Sendable, Hashable, CustomStringConvertible {
    /// The moment the expression starts from; `offset` is counted in this anchor's unit.
    public enum Anchor: Sendable, Hashable {
        /// `$time.now(seconds)`
        case now
        /// `$time.today(days)`: the start of the local day.
        case today
        /// `$time.yesterday(days)`: the start of the previous local day.
        case yesterday
        /// `$time.this_week(weeks)`: the start of the week (the calendar's `firstWeekday`).
        case thisWeek
        /// `$time.last_week(weeks)`: the start of the previous week, `this_week(weeks - 1)`; in Apple's `$time`
        /// table ("a date from the week before the current week").
        case lastWeek
        /// `$time.this_month(months)`: the start of the month.
        case thisMonth
        /// `$time.this_year(years)`: the start of the year.
        case thisYear
        /// `$time.iso(…)`: an ISO-8601 date-time (takes no offset).
        case iso(ISODateTime)
        /// `$time.absolute(seconds)`: seconds since 2001-01-01T00:00:00Z (takes no offset).
        case absolute(QueryNumber)

        /// The name after `$time.`.
        public var name: String {
            switch self {
            case .now: "now"
            case .today: "today"
            case .yesterday: "yesterday"
            case .thisWeek: "this_week"
            case .lastWeek: "last_week"
            case .thisMonth: "this_month"
            case .thisYear: "this_year"
            case .iso: "iso"
            case .absolute: "absolute"
            }
        }

        /// The anchor that takes an integer offset with this name, if any.
        static func relative(named name: String) -> Anchor? {
            switch name {
            case "now": .now
            case "today": .today
            case "yesterday": .yesterday
            case "this_week": .thisWeek
            case "last_week": .lastWeek
            case "this_month": .thisMonth
            case "this_year": .thisYear
            default: nil
            }
        }
    }

    public var anchor: Anchor
    /// The integer in parentheses (seconds, days, weeks, months or years); nil when none was written.
    public var offset: Int?

    public init(_ anchor: Anchor, offset: Int? = nil) {
        self.anchor = anchor
        self.offset = offset
    }

    /// The largest offset magnitude accepted for each anchor: big enough for any real query, small enough
    /// that calendar arithmetic cannot overflow (about ±3000 years in every unit).
    public static func maximumOffset(for anchor: Anchor) -> Int {
        switch anchor {
        case .now: 100_000_000_000
        case .today, .yesterday: 1_100_000
        case .thisWeek, .lastWeek: 160_000
        case .thisMonth: 36_000
        case .thisYear: 3_000
        case .iso, .absolute: 0
        }
    }

    /// The canonical spelling, e.g. `$time.today(-7)`.
    public var description: String {
        switch anchor {
        case .iso(let date): return "$time.iso(\(date.queryText))"
        case .absolute(let seconds): return "$time.absolute(\(seconds.text))"
        default:
            guard let offset else { return "$time.\(anchor.name)" }
            return "$time.\(anchor.name)(\(offset))"
        }
    }
}
