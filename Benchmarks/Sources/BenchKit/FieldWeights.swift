/// The indexed text fields and their BM25(F) weights, shared by both engines so the ranking is comparable.
///
/// Keep these in one place: BENCHMARKS.md states them, the FTS5 `rank` and the Searchlight adapter read them.
public enum BenchField: String, CaseIterable, Sendable {
    case title, displayName, keywords, contentDescription

    /// title 4, displayName 2, keywords 2, contentDescription 1.
    public var weight: Double {
        switch self {
        case .title: return 4
        case .displayName: return 2
        case .keywords: return 2
        case .contentDescription: return 1
        }
    }

    /// The item's text for this field (keywords joined by a space; both engines tokenize it).
    public func text(of item: CorpusItem) -> String {
        switch self {
        case .title: return item.title
        case .displayName: return item.displayName
        case .keywords: return item.keywords.joined(separator: " ")
        case .contentDescription: return item.contentDescription
        }
    }
}
