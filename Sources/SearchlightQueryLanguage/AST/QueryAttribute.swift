/// The left-hand side of a comparison: a named attribute or "any attribute".
public enum QueryAttribute: Sendable, Hashable, CustomStringConvertible {
    /// A property name (`title`), a Spotlight key (`kMDItemTitle`) or a custom key name, exactly as written;
    /// mapping aliases to attributes is the evaluator's job (reference §1.17).
    case named(String)
    /// `*`: any attribute (not the full text, per Finder's usage).
    case any
    /// `**`: mdfind's spelling of "any attribute"; kept distinct so the evaluator may decide to include the
    /// full text. Treated like `*` unless the evaluator says otherwise.
    case anyIncludingContent

    public var description: String {
        switch self {
        case .named(let name): name
        case .any: "*"
        case .anyIncludingContent: "**"
        }
    }
}
