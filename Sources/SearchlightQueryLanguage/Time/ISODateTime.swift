/// An ISO-8601 date-time as written in `$time.iso(…)`, validated but not yet placed on the time line.
///
/// Accepted: `YYYY-MM-DD`, optionally followed by `T` (or `t` or a space) and `HH:MM`, `HH:MM:SS` or
/// `HH:MM:SS.fraction`, optionally followed by `Z` or a UTC offset `±HH`, `±HHMM`, `±HH:MM`. Without a zone the
/// time is local to the calendar used for resolution; with one it is absolute.
public struct ISODateTime: Sendable, Hashable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// The fractional second, in 0..<1.
    public var fraction: Double
    /// Seconds east of UTC, or nil for local time.
    public var utcOffset: Int?
    /// The text as written (without quotes).
    public var text: String

    /// Parses `text`; nil if it is not one of the accepted forms or names an impossible date.
    public init?(parsing text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for i in index..<(index + count) {
                let b = bytes[i]
                guard b >= 0x30, b <= 0x39 else { return nil }
                value = value * 10 + Int(b - 0x30)
            }
            index += count
            return value
        }
        func expect(_ scalar: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == scalar else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect(UInt8(ascii: "-")), let month = digits(2), expect(UInt8(ascii: "-")),
              let day = digits(2) else { return nil }
        var hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var utcOffset: Int? = nil
        if index < bytes.count, bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: "t")
            || bytes[index] == UInt8(ascii: " ") {
            index += 1
            guard let h = digits(2), expect(UInt8(ascii: ":")), let m = digits(2) else { return nil }
            hour = h
            minute = m
            if expect(UInt8(ascii: ":")) {
                guard let s = digits(2) else { return nil }
                second = s
                if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    var scale = 0.1
                    let fractionStart = index
                    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                        fraction += Double(bytes[index] - 0x30) * scale
                        scale /= 10
                        index += 1
                    }
                    guard index > fractionStart else { return nil }
                }
            }
            if index < bytes.count {
                let sign = bytes[index]
                if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
                    index += 1
                    utcOffset = 0
                } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                    index += 1
                    guard let oh = digits(2), oh <= 23 else { return nil }
                    var om = 0
                    if index < bytes.count {
                        _ = expect(UInt8(ascii: ":"))
                        guard let m = digits(2), m <= 59 else { return nil }
                        om = m
                    }
                    let magnitude = oh * 3600 + om * 60
                    utcOffset = sign == UInt8(ascii: "-") ? -magnitude : magnitude
                }
            }
        }
        guard index == bytes.count, (1...12).contains(month), day >= 1,
              day <= ISODateTime.daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.fraction = Swift.min(fraction, 0.999_999_999)
        self.utcOffset = utcOffset
        self.text = text
    }

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the proleptic Gregorian date (H. Hinnant's days_from_civil).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Seconds since 2001-01-01T00:00:00Z if this date-time carries a zone, else nil (needs a calendar).
    public var secondsSinceReferenceDate: Double? {
        guard let utcOffset else { return nil }
        return localSecondsSinceReferenceDate - Double(utcOffset)
    }

    /// The wall-clock reading as if it were UTC, in seconds since 2001.
    var localSecondsSinceReferenceDate: Double {
        let days = ISODateTime.daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Double(seconds - 978_307_200) + fraction
    }

    /// How the printer writes it: the original text, quoted if it holds characters the unquoted form forbids.
    public var queryText: String {
        if text.utf8.allSatisfy({ ($0 < 0x80 && Lexer.isIdentifierContinue($0)) || $0 == UInt8(ascii: "-")
            || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: ",") }) {
            return text
        }
        return "\"" + StringPattern(literal: text).escapedText() + "\""
    }

    public var description: String { text }
}
