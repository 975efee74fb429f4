/// A score breakdown: a value, what it is, and the values it was computed from.
public struct Explanation: Sendable, Equatable, CustomStringConvertible {
    public var value: Float
    public var summary: String
    public var details: [Explanation]

    public init(value: Float, summary: String, details: [Explanation] = []) {
        self.value = value
        self.summary = summary
        self.details = details
    }

    public var description: String { render(indent: 0) }

    private func render(indent: Int) -> String {
        let line = String(repeating: "  ", count: indent) + "\(value) = \(summary)"
        return ([line] + details.map { $0.render(indent: indent + 1) }).joined(separator: "\n")
    }
}

/// Ranking constants: BM25F saturation and length normalisation, and the primary-field boosts.
public struct RankingParameters: Sendable, Equatable {
    public var k1: Float = 1.2
    public var b: Float = 0.75
    /// Multiplier added when a primary field starts with the query (prefix match on the title).
    public var primaryPrefixBoost: Float = 0.5
    /// Multiplier added when a primary field equals the query exactly.
    public var primaryExactBoost: Float = 1.0

    public init() {}

    /// Inverse document frequency (BM25, always positive).
    @inline(__always)
    func idf(documentFrequency: Int, documentCount: Int) -> Float {
        let df = Float(documentFrequency), n = Float(documentCount)
        return logf(1 + (n - df + 0.5) / (df + 0.5))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
