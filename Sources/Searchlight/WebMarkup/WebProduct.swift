import Foundation

/// A schema.org `Product`: what a shop page says about the thing it sells.
public struct WebProduct: Sendable, Hashable {
    public var name: String?
    public var description: String?
    public var images: [URL]
    public var brand: String?
    /// `offers.price`, else an AggregateOffer's `lowPrice`, else the offer's `priceSpecification.price` (which
    /// Google accepts in place of `price`); a ProductGroup without offers takes its first variant's offer.
    public var price: Double?
    public var priceCurrency: String?
    /// The availability's short name, e.g. `InStock` for `https://schema.org/InStock`.
    public var availability: String?
    public var rating: WebRating?

    static let types: Set<String> = ["Product", "ProductGroup", "IndividualProduct", "ProductModel", "Vehicle", "Car"]

    init(_ node: SchemaNode, base: URL?) {
        name = node.string("name")
        description = node.string("description")
        images = WebMarkupURLs.images(of: node, base: base)
        brand = node.string("brand")
        // A ProductGroup (Google's variant markup) carries its offers on its `hasVariant` Products.
        let offer = node.node("offers") ?? node.nodes("hasVariant").lazy.compactMap { $0.node("offers") }.first
        let specification = offer?.node("priceSpecification")
        price = offer?.number("price") ?? offer?.number("lowPrice") ?? specification?.number("price")
        priceCurrency = offer?.string("priceCurrency") ?? specification?.string("priceCurrency")
        availability = offer?.string("availability").map(SchemaNode.shortTypeName)
        rating = WebRating(of: node)
    }
}
