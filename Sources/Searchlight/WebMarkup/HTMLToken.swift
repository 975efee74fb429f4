/// One attribute of a start tag: lowercased name, value with character references decoded (empty when valueless).
struct HTMLAttribute: Sendable, Hashable {
    var name: String
    var value: String

    init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// What the tokenizer reads from a page, in document order. Offsets are byte offsets into the decoded UTF-8 page.
enum HTMLToken {
    /// `<name attr=value ...>`; `attributes` holds the first occurrence of each name, at most
    /// `HTMLTokenizer.maximumAttributes` of them.
    case startTag(name: String, attributes: [HTMLAttribute], selfClosing: Bool, offset: Int)
    case endTag(name: String, offset: Int)
    /// Character data with references decoded (including the contents of `<title>` and `<textarea>`).
    case text(String)
    /// The raw contents of `<script>`, `<style>` and similar elements, as a byte range (not decoded).
    case rawText(element: String, range: Range<Int>)
    case comment
    case doctype
}

extension [HTMLAttribute] {
    /// The value of the first attribute named `name` (lowercase).
    func value(_ name: String) -> String? {
        first(where: { $0.name == name })?.value
    }
}
