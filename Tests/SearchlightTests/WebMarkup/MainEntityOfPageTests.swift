import Foundation
import XCTest
@testable import Searchlight

/// An entity that names the page through `mainEntityOfPage` is what the page is about, wherever it is written.
final class MainEntityOfPageTests: XCTestCase {
    private func page(_ jsonLD: String, head: String = "") throws -> WebPageExtraction {
        try extractHTML("<head>\(head)<title>Shop</title></head><script type=\"application/ld+json\">\(jsonLD)</script>",
                        url: "https://shop.example.com/p/7?ref=mail")
    }

    private static let names = [
        #""https://shop.example.com/p/7?ref=mail""#,
        ##"{"@id":"https://shop.example.com/p/7?ref=mail"}"##,
        ##"{"@type":"WebPage","@id":"https://shop.example.com/p/7?ref=mail#webpage"}"##,
        ##"{"@type":"ItemPage","url":"/p/7?ref=mail"}"##,
    ]

    /// A Product nested in an Offer's `itemOffered`, a Review's `itemReviewed` or a list, naming this page as the
    /// page it is the main entity of, was not a subject (only top-level entities and a page object's `mainEntity`
    /// were), so the page lost its product.
    func testANestedEntityNamingThePageIsItsSubject() throws {
        for name in Self.names {
            let product = ##"{"@type":"Product","name":"Ridge Boot","mainEntityOfPage":"## + name + "}"
            for jsonLD in [##"{"@type":"Offer","price":"89","itemOffered":"## + product + "}",
                           ##"{"@type":"Review","itemReviewed":"## + product + "}",
                           ##"{"@graph":[{"@type":"ItemList","itemListElement":[{"@type":"ListItem","item":"## + product + "}]}]}"] {
                XCTAssertEqual(try page(jsonLD).product?.name, "Ridge Boot", jsonLD)
            }
        }
        let article = try page(##"{"@type":"WebSite","hasPart":{"@type":"BlogPosting","headline":"Care for boots","##
            + ##""mainEntityOfPage":{"@id":"https://shop.example.com/p/7?ref=mail"}}}"##)
        XCTAssertEqual(article.article?.headline, "Care for boots")
    }

    /// The canonical URL names the page as well as the address it was read from.
    func testTheCanonicalURLNamesThePage() throws {
        let page = try page(##"{"@type":"Offer","itemOffered":{"@type":"Recipe","name":"Stew","##
            + ##""mainEntityOfPage":"https://shop.example.com/recipes/stew"}}"##,
            head: #"<link rel="canonical" href="/recipes/stew">"#)
        XCTAssertEqual(page.recipe?.name, "Stew")
    }

    /// A nested entity that is the main entity of another page, or names none, stays a property.
    func testANestedEntityOfAnotherPageStaysAProperty() throws {
        for name in [#""https://shop.example.com/p/8""#, ##"{"@id":"https://other.example.com/p/7?ref=mail"}"##, "null"] {
            let jsonLD = ##"{"@type":"Offer","itemOffered":{"@type":"Product","name":"Ridge Boot","mainEntityOfPage":"##
                + name + "}}"
            XCTAssertNil(try page(jsonLD).product, jsonLD)
        }
    }

    /// Thousands of entities referring to one entity with thousands of nested ones: the search for a nested main
    /// entity walks that entity once, not once per reference.
    func testTheSearchStaysLinearThroughSharedReferences() throws {
        let n = 3_000
        let refs = Array(repeating: ##"{"@type":"Thing","x":{"@id":"#b"}}"##, count: n).joined(separator: ",")
        let nested = Array(repeating: ##"{"@type":"Thing","y":{"z":1}}"##, count: n).joined(separator: ",")
        let start = Date()
        let page = try page(##"{"@graph":["## + refs + ##",{"@id":"#b","@type":"Thing","part":["## + nested
            + ##",{"@type":"Product","name":"Deep","mainEntityOfPage":"/p/7?ref=mail"}]}]}"##)
        XCTAssertEqual(page.product?.name, "Deep")
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
    }

    /// A business's home page whose WebSite names the business as its publisher (Yoast's `@graph`), where the
    /// business says the page is its own through `mainEntityOfPage`: the publisher link made it sitewide markup, so
    /// the home page lost its phone and address. The same markup on an inner page still says nothing of it.
    func testABusinessNamingThePageIsItsSubjectThoughItPublishesTheSite() throws {
        func item(_ jsonLD: String, _ url: String) throws -> CSSearchableItem {
            let html = "<title>Luigi's</title><script type=\"application/ld+json\">\(jsonLD)</script><p>Menu</p>"
            return try WebMarkupIndexer().item(fromHTML: Data(html.utf8), url: URL(string: url)!)
        }
        let restaurant = ##"{"@type":"Restaurant","@id":"https://luigis.example.com/#org","name":"Luigi's Trattoria","##
            + ##""telephone":"+1-555-0199","mainEntityOfPage":{"@id":"https://luigis.example.com/"}}"##
        let byID = ##"{"@graph":[{"@type":"WebSite","@id":"https://luigis.example.com/#site","##
            + ##""publisher":{"@id":"https://luigis.example.com/#org"}},"## + restaurant + "]}"
        let inline = ##"{"@type":"WebSite","publisher":"## + restaurant + "}"
        for jsonLD in [byID, inline] {
            XCTAssertEqual(try item(jsonLD, "https://luigis.example.com/").attributeSet.phoneNumbers, ["+1-555-0199"], jsonLD)
            XCTAssertNil(try item(jsonLD, "https://luigis.example.com/menu").attributeSet.phoneNumbers, jsonLD)
        }
    }

    /// A page that says which entity it is about (its WebPage's `mainEntity`, or an entity's `mainEntityOfPage`) is
    /// about that one, though another entity of its kind comes first (a sitewide promotion, a related product that
    /// is another page's main entity): the first of each kind in page order won.
    func testTheEntityThePageNamesWinsOverAnEarlierOneOfItsKind() throws {
        let promo = ##"{"@type":"Product","name":"Gift Card"}"##
        let related = ##"{"@type":"Product","name":"Trail Sock","mainEntityOfPage":"https://shop.example.com/p/8"}"##
        for jsonLD in ["[" + promo + ##",{"@type":"ItemPage","mainEntity":{"@type":"Product","name":"Ridge Boot"}}]"##,
                       "[" + related + ##",{"@type":"Product","name":"Ridge Boot","mainEntityOfPage":"/p/7?ref=mail"}]"##,
                       "[" + promo + ##",{"@type":"Offer","itemOffered":{"@type":"Product","name":"Ridge Boot","##
                        + ##""mainEntityOfPage":{"@id":"https://shop.example.com/p/7?ref=mail"}}}]"##] {
            XCTAssertEqual(try page(jsonLD).product?.name, "Ridge Boot", jsonLD)
        }
        // Without a claim, the first of its kind still counts.
        XCTAssertEqual(try page("[" + promo + ##",{"@type":"Product","name":"Ridge Boot"}]"##).product?.name, "Gift Card")
    }
}
