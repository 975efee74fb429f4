/// The `c d w t` letters glued to a string's closing quote, in any order.
public struct StringModifiers: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `c`: case-insensitive.
    public static let caseInsensitive = StringModifiers(rawValue: 1 << 0)
    /// `d`: diacritic-insensitive.
    public static let diacriticInsensitive = StringModifiers(rawValue: 1 << 1)
    /// `w`: word-based (camelCase transitions count as word boundaries).
    public static let wordBased = StringModifiers(rawValue: 1 << 2)
    /// `t`: tokenized full-text matching.
    public static let tokenized = StringModifiers(rawValue: 1 << 3)

    /// The modifier for one letter, or nil if the letter is not a modifier.
    public init?(letter: Unicode.Scalar) {
        switch letter {
        case "c": self = .caseInsensitive
        case "d": self = .diacriticInsensitive
        case "w": self = .wordBased
        case "t": self = .tokenized
        default: return nil
        }
    }

    /// Canonical letters in `cdwt` order, e.g. `"cd"`.
    public var letters: String {
        var out = ""
        if contains(.caseInsensitive) { out.append("c") }
        if contains(.diacriticInsensitive) { out.append("d") }
        if contains(.wordBased) { out.append("w") }
        if contains(.tokenized) { out.append("t") }
        return out
    }

    public var description: String { letters }
}
