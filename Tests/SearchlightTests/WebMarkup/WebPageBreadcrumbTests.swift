import Foundation
import XCTest
@testable import Searchlight

/// A page's breadcrumb trail, wherever its markup puts the BreadcrumbList.
final class WebPageBreadcrumbTests: XCTestCase {
    /// schema.org's own WebPage example writes the BreadcrumbList inline as the page's `breadcrumb`: only
    /// top-level lists were read, so such a page had no trail (no container title, no breadcrumb keywords).
    func testABreadcrumbWrittenInsideTheWebPageIsRead() throws {
        let list = ##"{"@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":2,"name":"Boots"},"##
            + ##"{"@type":"ListItem","position":1,"item":{"@id":"https://shop.example.com/f","name":"Footwear"}}]}"##
        for jsonLD in [##"{"@context":"https://schema.org","@type":"WebPage","name":"Ridge Boot","breadcrumb":"## + list + "}",
                       ##"{"@graph":[{"@type":"WebPage","breadcrumb":{"@id":"#bc"}},{"@type":"Thing","x":"##
                        + list.replacingOccurrences(of: ##"{"@type":"BreadcrumbList","##, with: ##"{"@type":"BreadcrumbList","@id":"#bc","##)
                        + "}]}"] {
            let page = try extractHTML("<title>Ridge Boot</title><script type=\"application/ld+json\">\(jsonLD)</script>")
            XCTAssertEqual(page.breadcrumbs, ["Footwear", "Boots"], jsonLD)
        }
        let item = try WebMarkupIndexer().item(fromHTML: Data(("<title>Ridge Boot</title><script type=\"application/ld+json\">"
            + ##"{"@type":"ItemPage","breadcrumb":"## + list + "}</script>").utf8), url: URL(string: "https://shop.example.com/p")!)
        XCTAssertEqual(item.attributeSet.containerTitle, "Footwear › Boots")
    }
}
