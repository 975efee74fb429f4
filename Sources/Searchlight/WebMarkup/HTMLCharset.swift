/// The character encodings the web reader understands, and how bytes in them become UTF-8.
///
/// Follows the WHATWG Encoding Standard where it matters for real pages: the labels `iso-8859-1`, `latin1` and
/// `us-ascii` decode as Windows-1252 (browsers do the same, so a "Latin-1" page with curly quotes at 0x93/0x94
/// reads as the author saw it), and invalid UTF-8 becomes U+FFFD instead of failing.
public enum HTMLCharset: String, Sendable, Hashable, CaseIterable {
    case utf8 = "UTF-8"
    /// ISO-8859-1 as declared; decoded with the Windows-1252 table like browsers do (identical for 0xA0–0xFF).
    case latin1 = "ISO-8859-1"
    case windows1252 = "windows-1252"

    /// The charset named by an HTML or HTTP label (`utf-8`, `UTF8`, `iso-8859-1`, `latin1`, `cp1252`...);
    /// nil for labels Searchlight does not decode.
    public init?(label: String) {
        let name = label.trimmingASCIIWhitespace().lowercased()
        switch name {
        case "utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8":
            self = .utf8
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "iso88591", "iso_8859-1:1987", "latin1", "l1", "cp819",
             "ibm819", "csisolatin1", "iso-ir-100":
            self = .latin1
        case "windows-1252", "cp1252", "x-cp1252", "us-ascii", "ascii", "ansi_x3.4-1968", "iso-8859-15-broken":
            self = .windows1252
        default:
            return nil
        }
    }

    /// The WHATWG labels of UTF-16 (LE and BE), which Searchlight does not decode.
    static let utf16Labels: Set<String> = [
        "utf-16", "utf-16le", "utf-16be", "unicode", "unicodefeff", "unicodefffe", "ucs-2", "iso-10646-ucs-2", "csunicode",
    ]

    /// The WHATWG labels (https://encoding.spec.whatwg.org/#names-and-labels) of the other encodings Searchlight
    /// does not decode, one encoding a line.
    static let undecodedLabels: Set<String> = [
        "866", "cp866", "csibm866", "ibm866",
        "csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592", "iso_8859-2", "iso_8859-2:1987", "l2", "latin2",
        "csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593", "iso_8859-3", "iso_8859-3:1988", "l3", "latin3",
        "csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594", "iso_8859-4", "iso_8859-4:1988", "l4", "latin4",
        "csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5", "iso88595", "iso_8859-5", "iso_8859-5:1988",
        "arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic", "ecma-114", "iso-8859-6", "iso-8859-6-e",
        "iso-8859-6-i", "iso-ir-127", "iso8859-6", "iso88596", "iso_8859-6", "iso_8859-6:1987",
        "csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-8859-7", "iso-ir-126", "iso8859-7", "iso88597",
        "iso_8859-7", "iso_8859-7:1987", "sun_eu_greek",
        "csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e", "iso-ir-138", "iso8859-8", "iso88598",
        "iso_8859-8", "iso_8859-8:1988", "visual",
        "csiso88598i", "iso-8859-8-i", "logical",
        "csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910", "l6", "latin6",
        "iso-8859-13", "iso8859-13", "iso885913",
        "iso-8859-14", "iso8859-14", "iso885914",
        "csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15", "l9",
        "iso-8859-16",
        "cskoi8r", "koi", "koi8", "koi8-r", "koi8_r",
        "koi8-ru", "koi8-u",
        "csmacintosh", "mac", "macintosh", "x-mac-roman",
        "dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620", "windows-874",
        "cp1250", "windows-1250", "x-cp1250",
        "cp1251", "windows-1251", "x-cp1251",
        "cp1253", "windows-1253", "x-cp1253",
        "cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9", "iso88599", "iso_8859-9", "iso_8859-9:1989", "l5",
        "latin5", "windows-1254", "x-cp1254",
        "cp1255", "windows-1255", "x-cp1255",
        "cp1256", "windows-1256", "x-cp1256",
        "cp1257", "windows-1257", "x-cp1257",
        "cp1258", "windows-1258", "x-cp1258",
        "x-mac-cyrillic", "x-mac-ukrainian",
        "chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk", "iso-ir-58", "x-gbk",
        "gb18030",
        "big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5",
        "cseucpkdfmtjapanese", "euc-jp", "x-euc-jp",
        "csiso2022jp", "iso-2022-jp",
        "csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j", "x-sjis",
        "cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987", "ks_c_5601-1989", "ksc5601",
        "ksc_5601", "windows-949",
        "csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext", "iso-2022-kr", "replacement",
        "x-user-defined",
    ]

    /// Whether `label` names an encoding at all. One that does not (a template placeholder, MySQL's `utf8mb4`) is
    /// ignored as browsers ignore it, while a real encoding Searchlight does not decode is an error.
    static func namesAnEncoding(_ label: String) -> Bool {
        let name = label.trimmingASCIIWhitespace().lowercased()
        return HTMLCharset(label: name) != nil || utf16Labels.contains(name) || undecodedLabels.contains(name)
    }

    /// Windows-1252's 0x80–0x9F block (0 marks the five unassigned bytes, which map to the C1 control of the
    /// same value as WHATWG specifies).
    static let windows1252High: [UInt16] = [
        0x20AC, 0x0000, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x0000,
        0x017D, 0x0000, 0x0000, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x0000, 0x017E, 0x0178,
    ]

    /// The scalar a single byte stands for in Windows-1252.
    static func windows1252Scalar(_ byte: UInt8) -> UInt32 {
        if byte >= 0x80 && byte <= 0x9F {
            let mapped = windows1252High[Int(byte - 0x80)]
            return mapped == 0 ? UInt32(byte) : UInt32(mapped)
        }
        return UInt32(byte)
    }

    /// `bytes` (without any byte-order mark) converted to valid UTF-8; linear in the input.
    func decodeToUTF8(_ bytes: UnsafeBufferPointer<UInt8>, knownValid: Bool = false) -> [UInt8] {
        switch self {
        case .utf8:
            if knownValid || Self.isValidUTF8(bytes) { return Array(bytes) }
            // The standard library's decoder replaces each maximal invalid subsequence with U+FFFD.
            return Array(String(decoding: bytes, as: UTF8.self).utf8)
        case .latin1, .windows1252:
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + bytes.count / 8)
            for byte in bytes {
                if byte < 0x80 { out.append(byte); continue }
                appendUTF8(Self.windows1252Scalar(byte), to: &out)
            }
            return out
        }
    }

    /// Whether `bytes` are well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let length: Int, minimum: UInt32
            var scalar: UInt32
            switch b {
            case 0xC2...0xDF: length = 2; minimum = 0x80; scalar = UInt32(b & 0x1F)
            case 0xE0...0xEF: length = 3; minimum = 0x800; scalar = UInt32(b & 0x0F)
            case 0xF0...0xF4: length = 4; minimum = 0x10000; scalar = UInt32(b & 0x07)
            default: return false
            }
            guard i + length <= n else { return false }
            for k in 1..<length {
                let c = bytes[i + k]
                guard c & 0xC0 == 0x80 else { return false }
                scalar = scalar << 6 | UInt32(c & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return false }
            i += length
        }
        return true
    }
}

/// Appends the UTF-8 form of `scalar` (U+FFFD for surrogates and values past U+10FFFF).
func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
    var v = scalar
    if v > 0x10FFFF || (0xD800...0xDFFF).contains(v) { v = 0xFFFD }
    switch v {
    case 0..<0x80:
        out.append(UInt8(v))
    case 0x80..<0x800:
        out.append(UInt8(0xC0 | (v >> 6)))
        out.append(UInt8(0x80 | (v & 0x3F)))
    case 0x800..<0x10000:
        out.append(UInt8(0xE0 | (v >> 12)))
        out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (v & 0x3F)))
    default:
        out.append(UInt8(0xF0 | (v >> 18)))
        out.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
        out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (v & 0x3F)))
    }
}

extension String {
    /// The string without leading and trailing ASCII whitespace (space, tab, CR, LF, FF).
    func trimmingASCIIWhitespace() -> String {
        let u = Array(utf8)
        var start = 0, end = u.count
        while start < end, isASCIIWhitespace(u[start]) { start += 1 }
        while end > start, isASCIIWhitespace(u[end - 1]) { end -= 1 }
        if start == 0 && end == u.count { return self }
        return String(decoding: u[start..<end], as: UTF8.self)
    }
}

/// HTML's whitespace: space, tab, line feed, form feed, carriage return.
@inline(__always) func isASCIIWhitespace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D
}
