import Foundation

/// ISO 8601 date-times for the interchange format, in UTC: `2026-11-21T23:05:57Z`, with a fraction of a second
/// (nanoseconds, or finer near 2001 when the date holds it; trailing zeros trimmed) when the date has one.
/// Reading also accepts `±hh:mm` offsets.
/// Years outside 0000…9999 take ISO 8601's expanded form, a sign and at least four digits (`+17845-05-16…`,
/// `-1168-02-16…`), in the proleptic Gregorian calendar as Foundation counts.
/// Hand-written because `ISO8601DateFormatter` is slow and drops sub-millisecond precision.
package enum ISO8601DateCoding {
    /// The farthest from 2001 a written date may be (about three million years): its seconds stay exact integers.
    /// The same bound as the dates an item may hold, so every indexed item can be written out.
    package static let maximumSeconds = AttributeValue.maximumDateSeconds

    /// The text of `date`; nil when no text holds it (not finite, or beyond `maximumSeconds`).
    package static func string(from date: Date) -> String? {
        // Work from the reference-date seconds Date stores, so whole seconds and the fraction split exactly.
        let t = date.timeIntervalSinceReferenceDate
        guard t.isFinite, abs(t) < maximumSeconds else { return nil }
        var seconds = t.rounded(.down)
        // Within a second before 2001, -1 + fraction would drop bits of t: there the digits are those of -t,
        // written complemented (the reader complements them back, see `beforeReference`).
        let beforeReference = seconds == -1
        let fraction = beforeReference ? -t : t - seconds  // exact for doubles
        func readsBack(_ value: Double) -> Bool { beforeReference ? value == fraction : seconds + value == t }
        // The fewest fraction digits (up to 9) that read back to exactly this date.
        var digits = 0, scaled: Int64 = 0
        // Near 2001 a date holds finer than nanoseconds: then the fewest of up to 40 digits that read back exactly.
        var fine: String?
        if t > seconds {
            for d in 1...9 {
                let scale = pow(10, Double(d))
                scaled = Int64((fraction * scale).rounded())
                digits = d
                if readsBack(Double(scaled) / scale) { break }
            }
            if !readsBack(Double(scaled) / pow(10, Double(digits))) {
                fine = (10...40).lazy.map { String(format: "%.\($0)f", fraction) }
                    .first { $0.hasPrefix("0.") && readsBack(Double($0) ?? -1) }.map { String($0.dropFirst(2)) }
            }
            if fine == nil, scaled == Int64(pow(10, Double(digits))) {
                if !beforeReference { seconds += 1 }
                scaled = 0; digits = 0
            } else if beforeReference, fine == nil, scaled == 0 {
                seconds = 0
            }
        }
        let total = Int64(seconds) + unixToReference
        var days = total / 86_400
        var secondOfDay = total % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let (y, m, d) = civil(fromDays: days)
        let year = (0...9999).contains(y) ? pad(y, 4) : (y < 0 ? "-" : "+") + pad(abs(y), 4)
        var s = year + "-" + pad(m, 2) + "-" + pad(d, 2) + "T"
        s += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if scaled > 0 || fine != nil {
            var text = fine ?? pad(scaled, digits)
            while text.hasSuffix("0") { text.removeLast() }
            if !text.isEmpty { s += "." + (beforeReference ? complement(text.utf8) : text) }
        }
        return s + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±hh:mm)` (or an expanded `±YYYYY…` year outside 0000…9999); nil
    /// when the text is not such a date-time, or names a day its month does not have.
    package static func date(from text: String) -> Date? {
        let b = Array(text.utf8)
        var i = 0
        func number(_ digits: Int) -> Int64? {
            guard i + digits <= b.count else { return nil }
            var v: Int64 = 0
            for _ in 0..<digits {
                let c = b[i]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int64(c - 48)
                i += 1
            }
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        // An expanded year: a sign, then four digits or more (up to nine), and outside 0000…9999 (one form each).
        var y: Int64
        if i < b.count, b[i] == 43 || b[i] == 45 {
            let negative = b[i] == 45
            i += 1
            var digits = 0
            while i + digits < b.count, b[i + digits] >= 48, b[i + digits] <= 57 { digits += 1 }
            guard (4...9).contains(digits), let magnitude = number(digits) else { return nil }
            y = negative ? -magnitude : magnitude
            guard !(0...9999).contains(y) else { return nil }
        } else {
            guard let year = number(4) else { return nil }
            y = year
        }
        guard expect(45), let mo = number(2), expect(45), let d = number(2),
              i < b.count, b[i] == 84 || b[i] == 116 else { return nil }
        i += 1
        guard let h = number(2), expect(58), let mi = number(2), expect(58), let s = number(2) else { return nil }
        guard (1...12).contains(mo), d >= 1, d <= daysIn(month: mo, of: y), h < 24, mi < 60, s < 61 else { return nil }
        var fraction = 0.0
        var fractionDigits: ArraySlice<UInt8> = []
        if expect(46) {
            let start = i
            var scale = 0.1
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                fraction += Double(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            if i == start { return nil }
            fractionDigits = b[start..<i]
            // Re-read exactly what was written (nanosecond digits) to avoid accumulated rounding.
            let digits = String(decoding: b[start..<i], as: UTF8.self)
            if digits.count <= 9, let n = Int64(digits) {
                fraction = Double(n) / pow(10, Double(digits.count))
            } else if let exact = Double("0." + digits) {
                fraction = exact  // correctly rounded, as the writer checked its finer digits
            }
        }
        var offset: Int64 = 0
        if expect(90) || expect(122) {
        } else if i < b.count, b[i] == 43 || b[i] == 45 {
            let sign: Int64 = b[i] == 45 ? -1 : 1
            i += 1
            guard let oh = number(2), expect(58), let om = number(2), oh < 24, om < 60 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(y, mo, d)
        let seconds = days * 86_400 + h * 3600 + mi * 60 + s - offset - unixToReference
        if seconds == -1, fractionDigits.contains(where: { $0 != 48 }) {
            // A second before 2001: -1 + fraction drops the bits a date so near 2001 holds, so read it as the
            // decimal -(1 - 0.digits), rounded once.
            return Date(timeIntervalSinceReferenceDate: -(Double("0." + complement(fractionDigits)) ?? 0))
        }
        return Date(timeIntervalSinceReferenceDate: Double(seconds) + fraction)
    }

    /// The digits of 1 - 0.`digits` (trailing zeros of `digits` ignored; at least one other digit).
    private static func complement<S: Sequence<UInt8>>(_ digits: S) -> String {
        var d = Array(digits)
        while d.last == 48 { d.removeLast() }
        for i in d.indices { d[i] = 48 + 57 - d[i] }
        if !d.isEmpty { d[d.count - 1] += 1 }
        return String(decoding: d, as: UTF8.self)
    }

    /// The days of month `m` (1…12) of year `y` (proleptic Gregorian: a leap year divides by 4, not by 100 unless
    /// by 400).
    private static func daysIn(month m: Int64, of y: Int64) -> Int64 {
        switch m {
        case 2: return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Seconds from 1970-01-01 to 2001-01-01 (Foundation's reference date).
    private static let unixToReference: Int64 = 978_307_200

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// Days since 1970-01-01 → (year, month, day) in the proleptic Gregorian calendar (H. Hinnant's algorithm).
    private static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    private static func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
