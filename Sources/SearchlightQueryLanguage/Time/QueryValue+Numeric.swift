import Foundation

extension QueryValue {
    /// The value as a number for numeric and date comparisons: numbers as written (as a Double, which rounds
    /// integers beyond 2^53; `QueryNumber.integerValue` keeps them exact), `$time.*` resolved to seconds since
    /// 2001 (how dates compare), `true`/`false` as 1/0 (bool-like attributes are NSNumber 0/1); nil for strings.
    /// Resolve with the same `now` for every comparison of one query.
    public func numericValue(now: Date, calendar: Calendar) -> Double? {
        switch self {
        case .number(let number): number.value
        case .time(let time): resolve(time, now: now, calendar: calendar).timeIntervalSinceReferenceDate
        case .bool(let value): value ? 1 : 0
        case .string: nil
        }
    }
}
