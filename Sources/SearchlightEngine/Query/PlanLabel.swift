/// What a term group's explanation calls it. Made into text only when an explanation is asked for: a search builds
/// its plan and iterators every time, and joining a phrase's words into its label was about 1% of a median
/// phrase search that never explains.
enum PlanLabel: Sendable, CustomStringConvertible {
    /// A label already made: a word, a prefix (`net*`), a fuzzy word (`wireshrak~1`).
    case text(String)
    /// A phrase: its words, quoted (`"file creation"`).
    case phrase([[UInt8]])

    var description: String {
        switch self {
        case .text(let text): return text
        case .phrase(let words): return "\"" + words.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ") + "\""
        }
    }
}
