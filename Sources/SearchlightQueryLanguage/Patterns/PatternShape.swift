/// The structure of a `StringPattern`, telling an evaluator which access path fits it.
///
/// Only `*` counts for the simple shapes; any `?` makes a pattern `.general`.
public enum PatternShape: Sendable, Hashable {
    /// No wildcards: whole-value equality (look the term up directly).
    case exact(String)
    /// Just `*`: any value at all, the presence test.
    case presence
    /// `abc*`: values starting with the text (a postings range scan).
    case prefix(String)
    /// `*abc`: values ending with the text.
    case suffix(String)
    /// `*abc*`: values containing the text (a term-dictionary scan).
    case infix(String)
    /// Anything else: several literal runs, `?`, or a mix; run the `WildcardMatcher`.
    case general
}
