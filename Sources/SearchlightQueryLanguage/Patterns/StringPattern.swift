/// The value of a quoted query string: literal text interleaved with the wildcards `*` and `?`.
///
/// Escapes are resolved by the lexer, so `"a\*b"` is the literal text `a*b` while `"a*b"` holds a wildcard;
/// the segments keep that distinction. Segments are normalized on construction (adjacent literals merged,
/// empty literals dropped, a run of wildcards written as its `?`s followed by at most one `*`), so two
/// patterns that match the same strings by construction compare equal.
public struct StringPattern: Sendable, Hashable, CustomStringConvertible {
    /// One piece of a pattern.
    public enum Segment: Sendable, Hashable {
        /// Text that must appear exactly (after the caller's folding).
        case literal(String)
        /// `*`: zero or more Unicode scalars.
        case anyRun
        /// `?`: exactly one Unicode scalar.
        case anyOne
    }

    /// The normalized segments.
    public private(set) var segments: [Segment]

    /// Builds a pattern from segments, normalizing them.
    public init(segments: [Segment]) {
        if Self.isNormalized(segments) {
            self.segments = segments
            return
        }
        var out: [Segment] = []
        out.reserveCapacity(segments.count)
        var pendingOnes = 0
        var pendingRun = false
        func flush() {
            for _ in 0..<pendingOnes { out.append(.anyOne) }
            if pendingRun { out.append(.anyRun) }
            pendingOnes = 0
            pendingRun = false
        }
        for segment in segments {
            switch segment {
            case .literal(let text):
                if text.isEmpty { continue }
                flush()
                if case .literal(let previous)? = out.last {
                    out[out.count - 1] = .literal(previous + text)
                } else {
                    out.append(.literal(text))
                }
            case .anyRun: pendingRun = true
            case .anyOne: pendingOnes += 1
            }
        }
        flush()
        self.segments = out
    }

    /// True when `segments` already has the normalized form (the common case for parsed strings).
    private static func isNormalized(_ segments: [Segment]) -> Bool {
        var previousIsLiteral = false
        var previousIsRun = false
        for segment in segments {
            switch segment {
            case .literal(let text):
                if text.isEmpty || previousIsLiteral { return false }
                previousIsLiteral = true
                previousIsRun = false
            case .anyOne:
                if previousIsRun { return false }
                previousIsLiteral = false
            case .anyRun:
                if previousIsRun { return false }
                previousIsLiteral = false
                previousIsRun = true
            }
        }
        return true
    }

    /// A pattern without wildcards: whole-value equality with `text`.
    public init(literal text: String) {
        self.init(segments: [.literal(text)])
    }

    /// Parses the inside of a query string (what sits between the quotes): `*` and `?` are wildcards and a
    /// backslash makes the next character literal. A trailing lone backslash is kept as a literal backslash.
    public init(wildcardText text: String) {
        var segments: [Segment] = []
        var literal = ""
        var escaped = false
        for scalar in text.unicodeScalars {
            if escaped {
                literal.unicodeScalars.append(scalar)
                escaped = false
                continue
            }
            switch scalar {
            case "\\": escaped = true
            case "*", "?":
                segments.append(.literal(literal))
                literal = ""
                segments.append(scalar == "*" ? .anyRun : .anyOne)
            default: literal.unicodeScalars.append(scalar)
            }
        }
        if escaped { literal.append("\\") }
        segments.append(.literal(literal))
        self.init(segments: segments)
    }

    /// `*`: matches every value, the presence test of `attr == "*"`.
    public static let anything = StringPattern(segments: [.anyRun])

    /// True when the pattern has a `*` or `?`.
    public var hasWildcards: Bool {
        segments.contains { if case .literal = $0 { return false } else { return true } }
    }

    /// The whole literal text when the pattern has no wildcards, else nil.
    public var exactText: String? {
        switch segments.count {
        case 0: return ""
        case 1: if case .literal(let text) = segments[0] { return text } else { return nil }
        default: return nil
        }
    }

    /// The literal text before the first wildcard ("" if the pattern starts with one); postings for a general
    /// pattern can be narrowed to terms with this prefix.
    public var literalPrefix: String {
        if case .literal(let text)? = segments.first { return text }
        return ""
    }

    /// The literal runs of the pattern, in order (what a term-dictionary scan can look for).
    public var literals: [String] {
        segments.compactMap { if case .literal(let text) = $0 { return text } else { return nil } }
    }

    /// How the pattern is built, so an evaluator can choose an access path.
    public var shape: PatternShape {
        if segments.contains(.anyOne) { return .general }
        switch segments.count {
        case 0: return .exact("")
        case 1:
            switch segments[0] {
            case .literal(let text): return .exact(text)
            case .anyRun: return .presence
            case .anyOne: return .general
            }
        case 2:
            switch (segments[0], segments[1]) {
            case (.literal(let text), .anyRun): return .prefix(text)
            case (.anyRun, .literal(let text)): return .suffix(text)
            default: return .general
            }
        case 3:
            if case .anyRun = segments[0], case .literal(let text) = segments[1], case .anyRun = segments[2] {
                return .infix(text)
            }
            return .general
        default: return .general
        }
    }

    /// The same pattern with every literal segment transformed, e.g. `pattern.mapLiterals { fold($0) }` so the
    /// literals are folded exactly like the values they will be compared with. Wildcards are untouched.
    public func mapLiterals(_ transform: (String) throws -> String) rethrows -> StringPattern {
        StringPattern(segments: try segments.map { segment in
            if case .literal(let text) = segment { return .literal(try transform(text)) }
            return segment
        })
    }

    /// Compiles the pattern into a matcher (do this once per query, not per value).
    public func compile() -> WildcardMatcher { WildcardMatcher(self) }

    /// Convenience: compiles and matches once.
    public func matches(_ text: String) -> Bool { WildcardMatcher(self).matches(text) }

    /// The pattern written as query-string text without the quotes: wildcards bare, and `\`, `*`, `?` and
    /// the quote character escaped inside literals.
    public func escapedText(quote: Unicode.Scalar = "\"") -> String {
        var out = String.UnicodeScalarView()
        for segment in segments {
            switch segment {
            case .anyRun: out.append("*")
            case .anyOne: out.append("?")
            case .literal(let text):
                // Scalars, not Characters: a quote followed by a combining mark must still be escaped.
                for scalar in text.unicodeScalars {
                    if scalar == "\\" || scalar == "*" || scalar == "?" || scalar == quote { out.append("\\") }
                    out.append(scalar)
                }
            }
        }
        return String(out)
    }

    public var description: String { "\"" + escapedText() + "\"" }
}
