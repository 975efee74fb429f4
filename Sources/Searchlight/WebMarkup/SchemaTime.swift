import Foundation

/// Dates and durations as schema.org pages write them (ISO 8601 subsets), parsed without Foundation formatters.
public enum SchemaTime {
    /// `2026-12-05`, `2026-12-05T19:30`, `2026-12-05T19:30:00`, `…:00.5Z`, `…+01:00`, `…+0100`, `…-05`; a space may
    /// replace the `T`. Without a zone the time is read as UTC (pages rarely say; documented in the README).
    /// Nil for anything else, including impossible dates such as `2026-02-30`.
    public static func date(_ text: String) -> Date? {
        let b = Array(text.trimmingASCIIWhitespace().utf8)
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var v = 0
            for k in 0..<count {
                let c = b[i + k]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            i += count
            return v
        }
        func take(_ c: Character) -> Bool {
            guard i < b.count, b[i] == c.asciiValue else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), take("-"), let month = digits(2), take("-"), let day = digits(2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        var seconds = Double(daysFromCivil(year, month, day)) * 86_400
        if i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: " ") {
            i += 1
            guard let hour = digits(2), take(":"), let minute = digits(2), hour < 24, minute < 60 else { return nil }
            seconds += Double(hour * 3600 + minute * 60)
            if take(":") {
                guard let second = digits(2), second < 61 else { return nil }
                seconds += Double(second)
                if take(".") || take(",") {
                    var scale = 0.1
                    let start = i
                    while i < b.count, b[i] >= 48 && b[i] <= 57 {
                        seconds += Double(b[i] - 48) * scale
                        scale /= 10
                        i += 1
                    }
                    if i == start { return nil }
                }
            }
            if take("Z") || take("z") {
            } else if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                let sign: Double = b[i] == UInt8(ascii: "+") ? 1 : -1
                i += 1
                guard let oh = digits(2), oh < 24 else { return nil }
                var om = 0
                if take(":") { guard let m = digits(2) else { return nil }; om = m }
                else if i < b.count { guard let m = digits(2) else { return nil }; om = m }
                guard om < 60 else { return nil }
                seconds -= sign * Double(oh * 3600 + om * 60)
            }
        }
        guard i == b.count else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// An ISO 8601 duration such as `PT1H30M`, `P1DT2H`, `PT45M`, `PT0.5S`, `P2W` in seconds (a year counts 365
    /// days and a month 30); nil when the text is not a duration.
    public static func duration(_ text: String) -> TimeInterval? {
        let b = Array(text.trimmingASCIIWhitespace().utf8)
        guard b.count >= 3, b[0] == UInt8(ascii: "P") else { return nil }
        var i = 1, total = 0.0, inTime = false, sawComponent = false
        while i < b.count {
            if b[i] == UInt8(ascii: "T") {
                if inTime { return nil }
                inTime = true
                i += 1
                continue
            }
            let start = i
            while i < b.count, (b[i] >= 48 && b[i] <= 57) || b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") { i += 1 }
            guard i > start, i < b.count, i - start <= 12,
                  let value = Double(String(decoding: b[start..<i], as: UTF8.self).replacingOccurrences(of: ",", with: "."))
            else { return nil }
            let unit: Double
            switch (b[i], inTime) {
            case (UInt8(ascii: "Y"), false): unit = 365 * 86_400
            case (UInt8(ascii: "M"), false): unit = 30 * 86_400
            case (UInt8(ascii: "W"), false): unit = 7 * 86_400
            case (UInt8(ascii: "D"), false): unit = 86_400
            case (UInt8(ascii: "H"), true): unit = 3600
            case (UInt8(ascii: "M"), true): unit = 60
            case (UInt8(ascii: "S"), true): unit = 1
            default: return nil
            }
            total += value * unit
            sawComponent = true
            i += 1
        }
        return sawComponent ? total : nil
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
