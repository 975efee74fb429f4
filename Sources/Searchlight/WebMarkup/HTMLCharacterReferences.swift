/// Decodes character references (`&amp;`, `&#x4E2D;`, `&#20013;`, `&eacute`) in text and attribute values the way
/// browsers do: numeric references map 0x80–0x9F through Windows-1252 and invalid code points to U+FFFD; named
/// references need their `;` except the legacy Latin-1 names, which in attribute values are left alone when
/// followed by a letter, digit or `=` (so `?a=1&copy=2` keeps its query). Anything unrecognised stays literal.
enum HTMLCharacterReferences {
    /// The UTF-8 text of `bytes[range]` with references decoded. Linear: each `&` looks at most a few dozen bytes ahead.
    /// `replacingNUL` turns each U+0000 into U+FFFD, as the tokenizer does in attribute values and RCDATA (`<title>`);
    /// body text keeps its NULs here for the reader to drop.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, inAttribute: Bool = false,
                       replacingNUL: Bool = false) -> String {
        let first = replacingNUL
            ? bytes[range].firstIndex(where: { $0 == UInt8(ascii: "&") || $0 == 0 })
            : bytes[range].firstIndex(of: UInt8(ascii: "&"))
        guard let firstAmpersand = first else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        out.append(contentsOf: bytes[range.lowerBound..<firstAmpersand])
        var i = firstAmpersand
        let end = range.upperBound
        while i < end {
            let b = bytes[i]
            if b == 0, replacingNUL {
                appendUTF8(0xFFFD, to: &out)
                i += 1
                continue
            }
            if b != UInt8(ascii: "&") {
                out.append(b)
                i += 1
                continue
            }
            if let (scalar, length) = reference(in: bytes, at: i, end: end, inAttribute: inAttribute) {
                appendUTF8(scalar, to: &out)
                i += length
            } else {
                out.append(b)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The reference starting at the `&` at `start`: its scalar and byte length, or nil when it is not one.
    static func reference(in bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int,
                          inAttribute: Bool) -> (UInt32, Int)? {
        var i = start + 1
        guard i < end else { return nil }
        if bytes[i] == UInt8(ascii: "#") {
            i += 1
            var hex = false
            if i < end, bytes[i] | 0x20 == UInt8(ascii: "x") { hex = true; i += 1 }
            let digitsStart = i
            var value: UInt32 = 0
            while i < end, let d = digitValue(bytes[i], hex: hex) {
                if value <= 0x10FFFF { value = value * (hex ? 16 : 10) + d }  // saturates past the range
                i += 1
            }
            guard i > digitsStart else { return nil }
            if i < end, bytes[i] == UInt8(ascii: ";") { i += 1 }
            return (numericScalar(value), i - start)
        }
        // Named: the longest run of letters and digits, bounded by the longest known name.
        let nameStart = i
        while i < end, i - nameStart < HTMLEntityTable.longestName, isAlphanumeric(bytes[i]) { i += 1 }
        guard i > nameStart else { return nil }
        if i < end, bytes[i] == UInt8(ascii: ";") {
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<i]), as: UTF8.self)
            if let scalar = HTMLEntityTable.scalars[name] { return (scalar, i + 1 - start) }
        }
        // Legacy names without a semicolon: the longest matching prefix.
        var length = i - nameStart
        while length >= 2 {
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<nameStart + length]), as: UTF8.self)
            if HTMLEntityTable.legacyWithoutSemicolon.contains(name), let scalar = HTMLEntityTable.scalars[name] {
                let after = nameStart + length
                if inAttribute, after < end, isAlphanumeric(bytes[after]) || bytes[after] == UInt8(ascii: "=") {
                    return nil
                }
                return (scalar, after - start)
            }
            length -= 1
        }
        return nil
    }

    /// The scalar a numeric reference stands for, with the HTML replacements applied.
    static func numericScalar(_ value: UInt32) -> UInt32 {
        if value == 0 || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) { return 0xFFFD }
        if value >= 0x80 && value <= 0x9F { return HTMLCharset.windows1252Scalar(UInt8(value)) }
        return value
    }

    @inline(__always) static func digitValue(_ b: UInt8, hex: Bool) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    @inline(__always) static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A)
    }
}
