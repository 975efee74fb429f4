/// A numeric literal: its value and the text it was written as (`0xff`, `9.2e-5`, `-3`).
///
/// Dates compared with numbers use seconds since 2001-01-01T00:00:00Z, so `value` is a Double; an integer
/// literal beyond 2^53 also has its exact `integerValue`, since a Double cannot hold every such integer.
public struct QueryNumber: Sendable, Hashable, CustomStringConvertible {
    public var value: Double
    /// The original spelling, kept for the printer and error messages.
    public var text: String

    public init(value: Double, text: String) {
        self.value = value
        self.text = text
    }

    /// A number built in code; its text is Swift's shortest round-tripping description.
    public init(_ value: Double) {
        self.value = value
        self.text = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// The literal exactly when its text is an integer (decimal or `0x` hex, optionally signed) that fits
    /// `Int64`; nil for fractions, exponents and larger integers, which only `value` holds.
    public var integerValue: Int64? {
        var digits = Substring(text)
        var sign = ""
        if let first = digits.first, first == "-" || first == "+" {
            sign = String(first)
            digits = digits.dropFirst()
        }
        guard digits.hasPrefix("0x") || digits.hasPrefix("0X") else { return Int64(text) }
        let hex = digits.dropFirst(2)
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        return Int64(sign + hex, radix: 16)
    }

    public var description: String { text }
}
