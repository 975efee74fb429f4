/// Case and diacritic folding shared by the analyzer and the query layer (the `c` and `d` modifiers of
/// the query language), so an indexed term and a query value are always folded by the same tables.
public enum Folding {
    /// Which foldings to apply.
    public struct Options: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Unicode full case folding, as Foundation's `.caseInsensitive` (ß → ss, ς → σ, ﬁ → fi, ſ → s; Cherokee to
        /// its small letters).
        public static let caseInsensitive = Options(rawValue: 1)
        /// Combining marks removed (é → e, Greek tonos, Vietnamese marks, Hebrew points, Arabic harakat), special letters folded
        /// (ø → o, ł → l, æ → ae, đ → d, þ → th), full-width forms mapped to ASCII and half-width katakana to
        /// full-width ones.
        public static let diacriticInsensitive = Options(rawValue: 2)
        /// Both foldings: what the index uses.
        public static let all: Options = [.caseInsensitive, .diacriticInsensitive]
    }

    /// Folds case only.
    public static func foldCase(_ text: String) -> String { fold(text, options: .caseInsensitive) }

    /// Folds diacritics (and full-width forms) only.
    public static func foldDiacritics(_ text: String) -> String { fold(text, options: .diacriticInsensitive) }

    /// Folds a string with the given options, using the analyzer's tables.
    public static func fold(_ text: String, options: Options = .all) -> String {
        if options.isEmpty { return text }
        return foldASCII(text, options: options) ?? foldScalars(text, options: options)
    }

    /// `fold`, scalar by scalar (any text).
    static func foldScalars(_ text: String, options: Options) -> String {
        var scalars = String.UnicodeScalarView()
        var buffer: (UInt32, UInt32, UInt32) = (0, 0, 0)
        for scalar in text.unicodeScalars {
            let count = foldScalar(scalar.value, options: options, into: &buffer)
            if count > 0, let s = Unicode.Scalar(buffer.0) { scalars.append(s) }
            if count > 1, let s = Unicode.Scalar(buffer.1) { scalars.append(s) }
            if count > 2, let s = Unicode.Scalar(buffer.2) { scalars.append(s) }
        }
        return String(scalars)
    }

    /// What case folding does to an ASCII byte (A–Z to a–z; every other byte stays): all folding changes in ASCII.
    @inlinable @inline(__always)
    package static func lowercasedASCII(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// `fold` of ASCII text (nil when the text is not ASCII): only case folding changes it, so text without
    /// capitals is returned as it is and other text is lowered byte by byte, without decoding scalars.
    @inline(__always)
    static func foldASCII(_ text: String, options: Options) -> String? {
        let result: String?? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var capitals = false
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte >= 0x41 && byte <= 0x5A { capitals = true }
            }
            guard capitals, options.contains(.caseInsensitive) else { return text }
            return String(unsafeUninitializedCapacity: bytes.count) { out in
                for (i, byte) in bytes.enumerated() { out[i] = lowercasedASCII(byte) }
                return bytes.count
            }
        }
        return result ?? nil
    }

    /// The bits of an entry's third scalar: 20, not 21, since bit 62 is the count's low bit (a 21-bit mask turned
    /// ﬃ's "i" into U+100069). No fold's third scalar lies above U+FFFFF.
    static let thirdScalarMask: UInt64 = 0xF_FFFF

    /// Folds one scalar into up to three scalars; returns how many were written.
    @inline(__always)
    static func foldScalar(_ value: UInt32, options: Options, into out: inout (UInt32, UInt32, UInt32)) -> Int {
        if value < 0x80 {
            if options.contains(.caseInsensitive), value >= 0x41, value <= 0x5A {
                out.0 = value | 0x20
            } else {
                out.0 = value
            }
            return 1
        }
        if value < FoldingTable.tableLimit {
            let table = FoldingTable.shared
            let packed: UInt64
            switch options {
            case .all: packed = table.bothMap[Int(value)]
            case .caseInsensitive: packed = table.caseMap[Int(value)]
            default: packed = table.diacriticMap[Int(value)]
            }
            let count = Int(packed >> 62)
            out.0 = UInt32(truncatingIfNeeded: packed & 0x1F_FFFF)
            out.1 = UInt32(truncatingIfNeeded: (packed >> 21) & 0x1F_FFFF)
            out.2 = UInt32(truncatingIfNeeded: (packed >> 42) & thirdScalarMask)
            return count
        }
        // From U+2000 up: the pages (a separate branch keeps the flat maps' path as short as it was).
        let column = options == .all ? 2 : options == .caseInsensitive ? 0 : 1
        let packed = FoldingTable.shared.pages.entry(value, column: column)
        out.0 = UInt32(truncatingIfNeeded: packed & 0x1F_FFFF)
        out.1 = UInt32(truncatingIfNeeded: (packed >> 21) & 0x1F_FFFF)
        out.2 = UInt32(truncatingIfNeeded: (packed >> 42) & thirdScalarMask)
        return Int(packed >> 62)
    }
}
