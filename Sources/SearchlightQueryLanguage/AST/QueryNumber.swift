/// A numeric literal: its value and the text it was written as (`0xff`, `9.2e-5`, `-3`).
///
/// Dates compared with numbers use seconds since 2001-01-01T00:00:00Z, so `value` is a Double.
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

    public var description: String { text }
}
