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

    /// Yoast and similar plugins define an entity inside another's property (the WebSite's publisher with its logo)
    /// and refer to it by `@id` elsewhere: only top-level entities were found, so the reference stayed empty.
    func testAReferenceToAnEntityDefinedInsideAnotherResolves() throws {
        let page = try page(##"{"@context":"https://schema.org","@graph":["##
            + ##"{"@type":"WebSite","@id":"#site","publisher":{"@type":"Organization","@id":"#org","name":"Summit Co","##
            + ##""logo":{"@type":"ImageObject","@id":"#logo","url":"/logo.png"}}},"##
            + ##"{"@type":"Article","headline":"Care for boots","publisher":{"@id":"#org"},"image":{"@id":"#logo"},"##
            + ##""author":{"@id":"#ann"}},"##
            + ##"{"@type":"WebPage","author":{"@type":"Person","@id":"#ann","name":"Ann"}}]}"##)
        XCTAssertEqual(page.article?.publisher, "Summit Co")
        XCTAssertEqual(page.article?.images, [URL(string: "https://shop.example.com/logo.png")!])
        XCTAssertEqual(page.article?.authors, ["Ann"])
    }

    /// Nested definitions that refer to each other in a cycle must not loop, and a bare reference is no definition.
    func testNestedReferenceCyclesEnd() throws {
        let page = try page(##"[{"@type":"Person","@id":"#a","name":"A","knows":{"@type":"Person","@id":"#b","##
            + ##""name":"B","knows":{"@id":"#a"}}},{"@type":"Article","headline":"H","author":[{"@id":"#b"},{"@id":"#a"}],"##
            + ##""publisher":{"@id":"#x"}},{"@type":"Thing","about":{"@id":"#x"}}]"##)
        XCTAssertEqual(page.article?.authors, ["B", "A"])
        XCTAssertNil(page.article?.publisher)
    }

    /// A subject written inline inside another entity (an ItemPage's `mainEntity`, an Offer's `itemOffered` that
    /// names the page) refers to its brand and offer by `@id` like a top-level one: only top-level entities'
    /// own properties were resolved, so such a Product lost its brand and price.
    func testReferencesInsideAnInlineSubjectResolve() throws {
        let product = ##"{"@type":"Product","name":"Ridge Boot","brand":{"@id":"#b"},"offers":{"@id":"#o"}"##
        for jsonLD in [##"{"@type":"ItemPage","mainEntity":"## + product + "}}",
                       ##"{"@type":"Offer","itemOffered":"## + product
                        + ##","mainEntityOfPage":"https://shop.example.com/p/7"}}"##] {
            let page = try page(##"{"@graph":["## + jsonLD + ##",{"@type":"Brand","@id":"#b","name":"Summit"},"##
                + ##"{"@type":"Offer","@id":"#o","price":"89.00"}]}"##)
            XCTAssertEqual(page.product?.name, "Ridge Boot", jsonLD)
            XCTAssertEqual(page.product?.brand, "Summit", jsonLD)
            XCTAssertEqual(page.product?.price, 89, jsonLD)
        }
    }

    /// An `@id` is an IRI relative to the page (JSON-LD resolves it against the document's base): a template that
    /// writes `{"@id":"#p"}` for an entity another block defines as `https://…/p/7#p` names the same entity, but
    /// the texts were compared as written, so the reference stayed empty. Blank node ids (`_:b0`) match as written.
    func testRelativeAndAbsoluteIDsNameTheSameEntity() throws {
        let page = try page(##"{"@graph":[{"@type":"ItemPage","mainEntity":{"@id":"#p"}},"##
            + ##"{"@type":"Product","@id":"https://shop.example.com/p/7#p","name":"Ridge Boot","brand":{"@id":"/#brand"},"##
            + ##""offers":{"@id":"_:o"}},{"@type":"Brand","@id":"https://shop.example.com/#brand","name":"Summit"},"##
            + ##"{"@type":"Offer","@id":"_:o","price":"89.00"}]}"##)
        XCTAssertEqual(page.product?.name, "Ridge Boot")
        XCTAssertEqual(page.product?.brand, "Summit")
        XCTAssertEqual(page.product?.price, 89)
        let based = try extractHTML(##"<base href="https://shop.example.com/catalog/"><script type="application/ld+json">"##
            + ##"[{"@type":"Article","headline":"H","publisher":{"@id":"org"}},"##
            + ##"{"@type":"Organization","@id":"https://shop.example.com/catalog/org","name":"Summit Co"}]</script>"##,
            url: "https://shop.example.com/p/7")
        XCTAssertEqual(based.article?.publisher, "Summit Co")
    }

    /// A WebPage naming its Event as `mainEntity` by `@id`, the Event's inline Place naming its address by `@id`:
    /// the subject was the Event as the reference reached it, whose inline entities' references are not resolved,
    /// though the same top-level Event's are, so the page lost its city.
    func testAMainEntityByIDIsTheTopLevelEntityWithItsInlineReferences() throws {
        let page = try page(##"{"@graph":[{"@type":"WebPage","mainEntity":{"@id":"#e"}},"##
            + ##"{"@type":"MusicEvent","@id":"#e","name":"Gig","startDate":"2026-12-05","##
            + ##""location":{"@type":"Place","name":"Hall","address":{"@id":"#addr"}}},"##
            + ##"{"@type":"PostalAddress","@id":"#addr","addressLocality":"Springfield"}]}"##)
        XCTAssertEqual(page.event?.name, "Gig")
        XCTAssertEqual(page.event?.locationName, "Hall")
        XCTAssertEqual(page.event?.address?.city, "Springfield")
    }

    /// The same, the page's Event written inline with a relative `@id` and defined at top level under its absolute
    /// form: one node in JSON-LD (references already resolve across the two spellings), but the claimed entity was
    /// looked up by its `@id` as written, so the page kept the inline copy, without its place or city.
    func testAClaimedEntityIsItsTopLevelDefinitionWhateverItsIDSpelling() throws {
        let page = try page(##"{"@graph":[{"@type":"WebPage","mainEntity":{"@type":"MusicEvent","@id":"#e","name":"Gig"}},"##
            + ##"{"@type":"MusicEvent","@id":"https://shop.example.com/p/7#e","name":"Gig","startDate":"2026-12-05","##
            + ##""location":{"@type":"Place","name":"Hall","address":{"@id":"#addr"}}},"##
            + ##"{"@type":"PostalAddress","@id":"#addr","addressLocality":"Springfield"}]}"##)
        XCTAssertEqual(page.event?.locationName, "Hall")
        XCTAssertEqual(page.event?.address?.city, "Springfield")
    }
}
