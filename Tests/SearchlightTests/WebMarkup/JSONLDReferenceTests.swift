import Foundation
import XCTest
@testable import Searchlight

/// How `{"@id": …}` references in a page's JSON-LD reach the entities they name.
final class JSONLDReferenceTests: XCTestCase {
    private func page(_ jsonLD: String) throws -> WebPageExtraction {
        try extractHTML("<script type=\"application/ld+json\">\(jsonLD)</script>", url: "https://shop.example.com/p/7")
    }

    /// A shop's `@graph` names its Product as the ItemPage's `mainEntity` by `@id`, and the Product names its
    /// brand and offer by `@id` too: the subject reached through the page lost its brand and price.
    func testAMainEntityByIDKeepsItsOwnReferences() throws {
        let page = try page(##"{"@context":"https://schema.org","@graph":["##
            + ##"{"@type":"ItemPage","@id":"https://shop.example.com/p/7","mainEntity":{"@id":"#p"}},"##
            + ##"{"@type":"Product","@id":"#p","name":"Ridge Boot","brand":{"@id":"#b"},"offers":{"@id":"#o"}},"##
            + ##"{"@type":"Brand","@id":"#b","name":"Summit"},"##
            + ##"{"@type":"Offer","@id":"#o","price":"89.00","priceCurrency":"USD"}]}"##)
        XCTAssertEqual(page.product?.name, "Ridge Boot")
        XCTAssertEqual(page.product?.brand, "Summit")
        XCTAssertEqual(page.product?.price, 89)
        XCTAssertEqual(page.product?.priceCurrency, "USD")
    }
}
