import Foundation
import XCTest
@testable import Searchlight

/// A ProductGroup (Google's product-variant markup) carries its offers on its variants.
final class ProductGroupTests: XCTestCase {
    /// Google's variant markup puts the offers on each `hasVariant` Product, not on the group: the page's product
    /// had no price, currency or availability. The first variant's offer stands for the group.
    func testAGroupsPriceComesFromItsFirstVariantWithAnOffer() throws {
        let page = try extractHTML(##"<script type="application/ld+json">{"@context":"https://schema.org/","##
            + ##""@type":"ProductGroup","name":"Wool winter coat","brand":{"@type":"Brand","name":"Good brand"},"##
            + ##""productGroupID":"44E01","variesBy":["https://schema.org/size"],"hasVariant":["##
            + ##"{"@type":"Product","sku":"44E01-S","name":"Small coat"},"##
            + ##"{"@type":"Product","sku":"44E01-M","name":"Medium coat","offers":{"@type":"Offer","price":39.99,"##
            + ##""priceCurrency":"USD","availability":"https://schema.org/InStock"}}]}</script>"##)
        XCTAssertEqual(page.product?.name, "Wool winter coat")
        XCTAssertEqual(page.product?.brand, "Good brand")
        XCTAssertEqual(page.product?.price, 39.99)
        XCTAssertEqual(page.product?.priceCurrency, "USD")
        XCTAssertEqual(page.product?.availability, "InStock")
        // A group's own offer wins.
        let own = try extractHTML(##"<script type="application/ld+json">{"@type":"ProductGroup","name":"G","##
            + ##""offers":{"@type":"Offer","price":"10"},"hasVariant":{"@type":"Product","offers":{"price":"20"}}}</script>"##)
        XCTAssertEqual(own.product?.price, 10)
    }
}
