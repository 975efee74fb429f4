/// A schema.org `PostalAddress` (or an address given as plain text, which fills only `formatted`).
public struct WebPostalAddress: Sendable, Hashable {
    public var street: String?
    public var city: String?
    public var region: String?
    public var postalCode: String?
    public var country: String?
    /// The parts joined as one line (`1 Main St, Springfield, IL 62701, US`), or the page's own text.
    public var formatted: String

    /// Reads `value` as a PostalAddress node or a text address; nil when it holds nothing.
    init?(_ value: SchemaValue?) {
        switch value {
        case .text(let text)?:
            let t = text.trimmingASCIIWhitespace()
            guard !t.isEmpty else { return nil }
            formatted = t
        case .node(let node)?:
            street = node.string("streetAddress")
            city = node.string("addressLocality")
            region = node.string("addressRegion")
            postalCode = node.string("postalCode")
            country = node.string("addressCountry")
            let regionLine = [region, postalCode].compactMap { $0 }.joined(separator: " ")
            let parts = [street, city, regionLine.isEmpty ? nil : regionLine, country].compactMap { $0 }
            guard !parts.isEmpty else { return nil }
            formatted = parts.joined(separator: ", ")
        case nil:
            return nil
        }
    }
}
