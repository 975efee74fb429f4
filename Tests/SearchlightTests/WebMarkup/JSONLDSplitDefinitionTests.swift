import Foundation
import XCTest
@testable import Searchlight

/// One entity written in several top-level JSON-LD objects with the same `@id`: in JSON-LD they are one node.
final class JSONLDSplitDefinitionTests: XCTestCase {
    /// A shop's theme writes its Product, and a reviews app adds its rating in another block under the same `@id`
    /// (as such apps do, for Google to merge): only the first object counted, so the page lost the rating, or,
    /// with the app's block first, the product's name and price.
    func testObjectsWithOneIDAreOneEntity() throws {
        let theme = ##"{"@context":"https://schema.org","@type":"Product","@id":"https://shop.example.com/p/7#product","##
            + ##""name":"Ridge Boot","offers":{"@type":"Offer","price":"89.00","priceCurrency":"USD"}}"##
        let reviews = ##"{"@context":"https://schema.org","@type":"Product","@id":"#product","##
            + ##""aggregateRating":{"@type":"AggregateRating","ratingValue":"4.5","reviewCount":"12"}}"##
        for blocks in [[theme, reviews], [reviews, theme]] {
            let html = blocks.map { "<script type=\"application/ld+json\">\($0)</script>" }.joined()
                + ##"<script type="application/ld+json">{"@type":"ItemPage","mainEntity":{"@id":"#product"}}</script>"##
            let page = try extractHTML(html, url: "https://shop.example.com/p/7")
            XCTAssertEqual(page.product?.name, "Ridge Boot")
            XCTAssertEqual(page.product?.price, 89)
            XCTAssertEqual(page.product?.rating?.value, 4.5)
            XCTAssertEqual(page.product?.rating?.count, 12)
            XCTAssertEqual(page.jsonLD.filter { $0.isA(["Product"]) }.count, 1, "one entity")
        }
    }

    /// Thousands of objects with one `@id` merge in linear time.
    func testManyObjectsWithOneIDMergeLinearly() throws {
        let n = 5_000
        let objects = (0..<n).map { ##"{"@id":"#x","@type":"Product","name":"N\##($0)","a":{"@id":"#x"}}"## }
        let start = Date()
        let page = try extractHTML(##"<script type="application/ld+json">["## + objects.joined(separator: ",") + "]</script>")
        XCTAssertEqual(page.product?.name, "N0")
        XCTAssertEqual(page.jsonLD.count, 1)
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
    }

    /// A blank node id (`_:b0`) names a node within its own JSON-LD document only: two blocks' `_:b0` are two
    /// entities (generators number each block's blank nodes from zero), not one merged entity.
    func testBlankNodeIDsOfTwoBlocksAreTwoEntities() throws {
        let html = ##"<script type="application/ld+json">{"@context":"https://schema.org","@id":"_:b0","##
            + ##""@type":"Product","name":"Ridge Boot"}</script>"##
            + ##"<script type="application/ld+json">{"@context":"https://schema.org","@id":"_:b0","##
            + ##""@type":"Organization","name":"Ridge Outfitters"}</script>"##
        let page = try extractHTML(html, url: "https://shop.example.com/p/7")
        XCTAssertEqual(page.jsonLD.count, 2)
        XCTAssertEqual(page.product?.name, "Ridge Boot")
        XCTAssertEqual(page.jsonLD.first { $0.isA(["Product"]) }?.types, ["Product"])
    }

    /// A reference to a blank node id (`_:b0`) names the node of that id in its own block: another block's `_:b0`
    /// (generators number each block's from zero) became the Article's author.
    func testABlankNodeReferenceDoesNotReachAnotherBlock() throws {
        let html = ##"<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","##
            + ##""headline":"Care for boots","author":{"@id":"_:b0"},"publisher":{"@id":"_:b1"}}</script>"##
            + ##"<script type="application/ld+json">{"@context":"https://schema.org","@graph":["##
            + ##"{"@id":"_:b0","@type":"Person","name":"Someone Else"},{"@id":"_:b1","@type":"Organization","name":"Other"}]}</script>"##
            + ##"<script type="application/ld+json">{"@graph":[{"@type":"Recipe","name":"Stew","author":{"@id":"_:b0"}},"##
            + ##"{"@id":"_:b0","@type":"Person","name":"Ann"}]}</script>"##
        let page = try extractHTML(html, url: "https://shop.example.com/p/7")
        XCTAssertEqual(page.article?.headline, "Care for boots")
        XCTAssertEqual(page.article?.authors, [])
        XCTAssertNil(page.article?.publisher)
        XCTAssertEqual(page.recipe?.authors, ["Ann"], "within its block a blank node id still resolves")
    }
}
