import SearchlightEngine
import SearchlightQueryLanguage

/// The engine fields behind a query attribute, resolved once per snapshot schema.
///
/// - A catalogue name or its `kMDItem…` alias (`AttributeCatalog.descriptor(forQueryName:)`) is the field of the
///   same name: text for strings, string arrays, URLs, type identifiers and persons; numeric for numbers and dates.
/// - `textContent` (`kMDItemTextContent`) also covers `transcribedTextContent`: the reference (§2.6) queries a
///   transcript as the body.
/// - Any other name is a custom key: text fields `$name` and `$name#d` (values searched by default), numeric
///   field `$name#n` (any may be missing).
/// - `*` is every text field except the full-text bodies (`textContent`, `transcribedTextContent`), as in
///   Finder's `(* == "x"cdw || kMDItemTextContent == "x"cdw)`; `**` adds the bodies. Both also cover every
///   attribute's numeric column for numeric comparisons. Internal fields (`_item`, `_expiration`, `_kind`) are
///   never included.
/// - An attribute no item ever had has no fields: `==` never matches, `!=` matches everything.
package struct AttributeFields: Sendable, Equatable {
    package var text: [FieldID] = []
    package var numeric: [FieldID] = []

    /// Full-text bodies that `*` leaves out.
    package static let bodyAttributes: Set<String> = ["textContent", "transcribedTextContent"]

    package init(text: [FieldID] = [], numeric: [FieldID] = []) {
        self.text = text
        self.numeric = numeric
    }

    package init(_ attribute: QueryAttribute, schema: Schema) {
        switch attribute {
        case .named(let name):
            let names: [String]
            if let descriptor = AttributeCatalog.descriptor(forQueryName: name) {
                names = descriptor.name == "textContent" ? ["textContent", "transcribedTextContent"] : [descriptor.name]
            } else {
                names = ItemDocumentCodec.customTextFields(name) + [ItemDocumentCodec.customNumericField(name)]
            }
            for fieldName in names {
                guard let id = schema.field(named: fieldName), let info = schema.info(id) else { continue }
                switch info.options.kind {
                case .text: text.append(id)
                case .numeric: numeric.append(id)
                case .stored: break
                }
            }
        case .any, .anyIncludingContent:
            for info in schema.fields where !info.name.hasPrefix("_") {
                if attribute == .any, Self.bodyAttributes.contains(info.name) { continue }
                switch info.options.kind {
                case .text: text.append(info.id)
                case .numeric: numeric.append(info.id)
                case .stored: break
                }
            }
        }
    }

    /// The name a query uses for `attribute` when it fetches or sorts (property name, or the custom key name).
    package static func storageName(forQueryName name: String) -> String {
        AttributeCatalog.descriptor(forQueryName: name)?.name ?? name
    }
}
