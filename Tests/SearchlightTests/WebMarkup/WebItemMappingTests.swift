import Foundation
import XCTest
@testable import Searchlight

/// How each fixture becomes a `CSSearchableItem`.
final class WebItemMappingTests: XCTestCase {
    private func custom(_ item: CSSearchableItem, _ key: CSCustomAttributeKey) -> Any? {
        item.attributeSet.value(forCustomKey: key)
    }

    func testProductItem() throws {
        let pageURL = "https://www.summit-outfitters.example/boots/trailblazer-2?utm_source=mail"
        let item = try itemForFixture("product.html", url: pageURL)
        let set = item.attributeSet
        XCTAssertEqual(item.uniqueIdentifier, "https://www.summit-outfitters.example/boots/trailblazer-2", "canonical URL")
        XCTAssertEqual(item.domainIdentifier, "www.summit-outfitters.example")
        XCTAssertEqual(set.contentType, "public.html")
        XCTAssertEqual(set.title, "Trailblazer 2 Waterproof Hiking Boot", "og:title wins")
        XCTAssertEqual(set.displayName, set.title)
        XCTAssertEqual(set.contentDescription, "Our best-selling boot, now lighter & fully waterproof.")
        XCTAssertEqual(set.thumbnailURL?.absoluteString, "https://www.summit-outfitters.example/img/trailblazer-2.jpg")
        XCTAssertEqual(set.contentURL?.absoluteString, pageURL)
        XCTAssertEqual(set.url?.absoluteString, item.uniqueIdentifier)
        XCTAssertEqual(set.keywords, ["hiking boots", "waterproof", "leather", "Footwear", "Boots",
                                      "Trailblazer 2 Waterproof Hiking Boot"])
        XCTAssertEqual(set.containerTitle, "Footwear › Boots", "the trail without the page's own crumb")
        XCTAssertEqual(set.containerDisplayName, "Summit Outfitters", "og:site_name")
        XCTAssertEqual(set.rating?.doubleValue ?? -1, 4.4, accuracy: 1e-9)
        XCTAssertEqual(set.ratingDescription, "4.4 out of 5 (89 ratings)")
        XCTAssertEqual(set.organizations, ["Summit"])
        XCTAssertEqual((custom(item, WebMarkupAttributeKeys.price) as? NSNumber)?.doubleValue, 149.95)
        XCTAssertEqual(custom(item, WebMarkupAttributeKeys.priceCurrency) as? String, "EUR")
        XCTAssertEqual(custom(item, WebMarkupAttributeKeys.availability) as? String, "InStock")
        XCTAssertEqual(custom(item, WebMarkupAttributeKeys.source) as? String, pageURL)
        XCTAssertEqual(custom(item, WebMarkupAttributeKeys.markup) as? [String], ["title", "meta", "open-graph", "json-ld"])
        XCTAssertNil(custom(item, WebMarkupAttributeKeys.deepLink))
        XCTAssertNil(set.supportsPhoneCall)
        XCTAssertTrue(item.validationProblems().isEmpty, "\(item.validationProblems())")
    }

    func testRecipeItem() throws {
        let item = try itemForFixture("recipe.html", url: "https://greenkitchen.example/recipes/pesto")
        let set = item.attributeSet
        XCTAssertEqual(item.uniqueIdentifier, "https://greenkitchen.example/recipes/pesto")
        XCTAssertEqual(set.title, "Grandma's Basil Pesto", "the entity name beats <title>")
        XCTAssertEqual(set.contentDescription, "A classic Genovese pesto in ten minutes.")
        XCTAssertEqual(set.authorNames, ["Giulia Rossi"])
        XCTAssertEqual(set.duration?.doubleValue, 4200)
        XCTAssertEqual(set.rating?.doubleValue ?? -1, 4.5, accuracy: 1e-9)
        XCTAssertEqual(set.thumbnailURL?.absoluteString, "https://greenkitchen.example/photos/pesto.jpg")
        XCTAssertEqual(custom(item, WebMarkupAttributeKeys.ingredients) as? [String],
                       ["2 cups fresh basil leaves", "1/2 cup Parmigiano-Reggiano", "1/3 cup pine nuts", "2 cloves garlic"])
        XCTAssertEqual(custom(item, WebMarkupAttributeKeys.recipeYield) as? String, "4 servings")
        XCTAssertEqual(custom(item, WebMarkupAttributeKeys.markup) as? [String], ["title", "meta", "microdata"])
    }

    func testEventItemIsACalendarEvent() throws {
        let item = try itemForFixture("event.html", url: "https://concerts.example.org/2026/strings")
        let set = item.attributeSet
        XCTAssertEqual(set.contentType, "public.calendar-event")
        XCTAssertEqual(set.title, "Night of Strings 2026")
        XCTAssertEqual(set.startDate, ISO8601DateCoding.date(from: "2026-12-05T18:30:00Z"))
        XCTAssertEqual(set.endDate, ISO8601DateCoding.date(from: "2026-12-05T21:00:00Z"))
        XCTAssertEqual(set.namedLocation, "City Concert Hall")
        XCTAssertEqual(set.thoroughfare, "12 Harbour Road")
        XCTAssertEqual(set.city, "Hamburg")
        XCTAssertEqual(set.stateOrProvince, "HH")
        XCTAssertEqual(set.postalCode, "20457")
        XCTAssertEqual(set.country, "DE")
        XCTAssertEqual(set.fullyFormattedAddress, "12 Harbour Road, Hamburg, HH 20457, DE")
        XCTAssertEqual(set.contentDescription, "The Aurora Quartet plays Haydn, Bartók and Ravel.")
    }

    func testLocalBusinessTurnsOnCallAndNavigation() throws {
        let item = try itemForFixture("local-business.html", url: "https://luigis.example.com/about")
        let set = item.attributeSet
        XCTAssertEqual(item.uniqueIdentifier, "https://luigis.example.com/")
        XCTAssertEqual(set.phoneNumbers, ["+1-217-555-0123"])
        XCTAssertEqual(set.supportsPhoneCall, NSNumber(value: true))
        XCTAssertEqual(set.latitude?.doubleValue, 39.7817)
        XCTAssertEqual(set.longitude?.doubleValue, -89.6501)
        XCTAssertEqual(set.supportsNavigation, NSNumber(value: true))
        XCTAssertEqual(set.namedLocation, "Luigi's Trattoria")
        XCTAssertEqual(set.city, "Springfield")
        XCTAssertEqual(set.postalCode, "62704")
        XCTAssertEqual(set.fullyFormattedAddress, "742 Evergreen Terrace, Springfield, IL 62704, US")
        XCTAssertEqual(set.ratingDescription, "4.5 out of 5 (1024 ratings)")
    }

    func testArticleItem() throws {
        let item = try itemForFixture("article.html", url: "https://dailyorbit.example.com/2026/11/night-sky?src=rss")
        let set = item.attributeSet
        XCTAssertEqual(item.uniqueIdentifier, "https://dailyorbit.example.com/2026/11/night-sky")
        XCTAssertEqual(item.domainIdentifier, "dailyorbit.example.com")
        XCTAssertEqual(set.title, "Why the Night Sky Is Dark")
        XCTAssertEqual(set.headline, "Why the Night Sky Is Dark")
        XCTAssertEqual(set.authorNames, ["Ada Lin", "Sam Okafor"])
        XCTAssertEqual(set.contentCreationDate, ISO8601DateCoding.date(from: "2026-11-20T08:00:00Z"))
        XCTAssertEqual(set.contentModificationDate, ISO8601DateCoding.date(from: "2026-11-21T09:15:00Z"))
        XCTAssertEqual(set.publishers, ["The Daily Orbit Media"])
        XCTAssertEqual(set.keywords, ["astronomy", "cosmology", "Olbers' paradox", "Olbers", "expanding universe", "Science", "Home"])
        XCTAssertEqual(set.containerTitle, "Home › Science")
        XCTAssertEqual(set.thumbnailURL?.absoluteString, "https://dailyorbit.example.com/img/night-sky.png", "twitter:image")
        // The graph's Organization is the publisher, not the page's subject: no phone action.
        XCTAssertNil(set.supportsPhoneCall)
        XCTAssertNil(set.phoneNumbers)
    }

    /// Sitewide Organization markup (Yoast's `WebSite.publisher`, a publisher `@id` reference) is not the subject of
    /// every page: the page keeps its `<title>` and gets no phone or location. An organization is the subject
    /// only when the page's WebPage says so (`mainEntity`/`about`), or when nothing else on the page refers to it
    /// and there is no WebPage or WebSite markup.
    func testSitewideOrganizationIsNotEveryPagesSubject() throws {
        func item(_ jsonLD: String) throws -> CSSearchableItem {
            let html = "<title>Pricing plans</title><script type=\"application/ld+json\">\(jsonLD)</script><p>Plans</p>"
            return try WebMarkupIndexer().item(fromHTML: Data(html.utf8), url: URL(string: "https://www.example.com/pricing")!)
        }
        let organization = ##"{"@type":"Organization","@id":"#org","name":"Acme Inc","telephone":"+1-555-0100"}"##
        let sitewide = try item(##"{"@graph":[{"@type":"WebPage","@id":"#page","isPartOf":{"@id":"#site"}},"##
            + ##"{"@type":"WebSite","@id":"#site","name":"Acme","publisher":{"@id":"#org"}},"## + organization + "]}")
        XCTAssertEqual(sitewide.attributeSet.title, "Pricing plans")
        XCTAssertNil(sitewide.attributeSet.phoneNumbers)
        XCTAssertNil(sitewide.attributeSet.namedLocation)
        let publisher = try item(##"[{"@type":"SoftwareApplication","name":"Acme App","publisher":{"@id":"#org"}},"## + organization + "]")
        XCTAssertEqual(publisher.attributeSet.title, "Pricing plans")
        XCTAssertNil(publisher.attributeSet.phoneNumbers, "a publisher is not the page's subject")

        let about = try item(##"{"@graph":[{"@type":"AboutPage","mainEntity":{"@id":"#org"}},"## + organization + "]}")
        XCTAssertEqual(about.attributeSet.phoneNumbers, ["+1-555-0100"])
        XCTAssertEqual(about.attributeSet.namedLocation, "Acme Inc")
        let inline = try item(##"{"@type":"ContactPage","about":{"@type":"LocalBusiness","name":"Acme Shop","telephone":"1"}}"##)
        XCTAssertEqual(inline.attributeSet.namedLocation, "Acme Shop")
        XCTAssertEqual(try item(organization).attributeSet.phoneNumbers, ["+1-555-0100"], "alone, it is the subject")
    }

    /// A business's home page with the WebSite markup Google recommends for home pages is about the business:
    /// any WebSite markup kept the business from being the subject, dropping its phone and address.
    func testBusinessHomePageWithWebSiteMarkupIsAboutTheBusiness() throws {
        func item(_ jsonLD: String) throws -> CSSearchableItem {
            let html = "<title>Luigi's Trattoria</title><script type=\"application/ld+json\">\(jsonLD)</script><p>Menu</p>"
            return try WebMarkupIndexer().item(fromHTML: Data(html.utf8), url: URL(string: "https://luigis.example.com/")!)
        }
        let website = ##"{"@type":"WebSite","@id":"#site","name":"Luigi's","url":"https://luigis.example.com/"}"##
        let restaurant = ##"{"@type":"Restaurant","@id":"#luigis","name":"Luigi's Trattoria","telephone":"+1-555-0199","##
            + ##""address":{"@type":"PostalAddress","streetAddress":"1 Main St","addressLocality":"Springfield"}}"##
        let home = try item("[" + website + "," + restaurant + "]")
        XCTAssertEqual(home.attributeSet.phoneNumbers, ["+1-555-0199"])
        XCTAssertEqual(home.attributeSet.namedLocation, "Luigi's Trattoria")
        XCTAssertEqual(home.attributeSet.city, "Springfield")
        // A WebPage naming something else as its main entity is not about the business.
        let menu = try item(##"{"@graph":[{"@type":"WebPage","mainEntity":{"@id":"#menu"}},{"@type":"Menu","@id":"#menu","##
            + ##""name":"Dinner"},"## + website + "," + restaurant + "]}")
        XCTAssertNil(menu.attributeSet.phoneNumbers)
    }

    /// A business reviewed on its own page stays its subject: a Review's (or AggregateRating's) `itemReviewed`
    /// reference to it was taken for a publisher-like reference, dropping its phone.
    func testBusinessReviewedOnItsOwnPageIsItsSubject() throws {
        func item(_ jsonLD: String) throws -> CSSearchableItem {
            let html = "<title>Luigi's Trattoria</title><script type=\"application/ld+json\">\(jsonLD)</script><p>Menu</p>"
            return try WebMarkupIndexer().item(fromHTML: Data(html.utf8), url: URL(string: "https://luigis.example.com/")!)
        }
        let restaurant = ##"{"@type":"Restaurant","@id":"#luigis","name":"Luigi's Trattoria","telephone":"+1-555-0199"}"##
        let review = try item("[" + restaurant + ##",{"@type":"Review","itemReviewed":{"@id":"#luigis"},"##
            + ##""reviewRating":{"@type":"Rating","ratingValue":5},"author":{"@type":"Person","name":"Ann"}}]"##)
        XCTAssertEqual(review.attributeSet.phoneNumbers, ["+1-555-0199"])
        let rating = try item("[" + restaurant + ##",{"@type":"AggregateRating","itemReviewed":{"@id":"#luigis"},"##
            + ##""ratingValue":4.5,"reviewCount":12}]"##)
        XCTAssertEqual(rating.attributeSet.phoneNumbers, ["+1-555-0199"])
        // An author or brand reference still marks an attribution, not the subject.
        let brand = try item("[" + restaurant + ##",{"@type":"Thing","name":"Sauce","brand":{"@id":"#luigis"}}]"##)
        XCTAssertNil(brand.attributeSet.phoneNumbers)
    }

    /// A sitewide Organization block without `@id` next to a WebSite naming the same organization inline as its
    /// publisher (a common template, on every page) is not the subject of the site's inner pages: with no `@id`
    /// link, every page was "about" the organization and took its phone.
    func testSitewideOrganizationWithoutIDIsNotTheSubjectOfAnInnerPage() throws {
        func item(_ jsonLD: String) throws -> CSSearchableItem {
            let html = "<title>Blog archive</title><script type=\"application/ld+json\">\(jsonLD)</script><p>Posts</p>"
            return try WebMarkupIndexer().item(fromHTML: Data(html.utf8), url: URL(string: "https://acme.example.com/blog/")!)
        }
        let organization = ##"{"@type":"Organization","name":"Acme","url":"https://acme.example.com/","telephone":"+1-555-0100"}"##
        let byName = try item(##"[{"@type":"WebSite","name":"Acme","publisher":{"@type":"Organization","name":"Acme"}},"##
            + organization + "]")
        XCTAssertEqual(byName.attributeSet.title, "Blog archive")
        XCTAssertNil(byName.attributeSet.phoneNumbers, "the WebSite's publisher is not this page's subject")
        let byURL = try item(##"[{"@type":"WebSite","publisher":{"@type":"Organization","name":"Acme Inc.","##
            + ##""url":"https://acme.example.com/"}},"## + organization + "]")
        XCTAssertNil(byURL.attributeSet.phoneNumbers, "the same organization by its URL")
        let other = try item(##"[{"@type":"WebSite","publisher":{"@type":"Organization","name":"Hosting Co"}},"##
            + organization + "]")
        XCTAssertEqual(other.attributeSet.phoneNumbers, ["+1-555-0100"], "another organization's publishing says nothing")
    }

    /// A page's author picks its deep link: one that would run script or read local data when the app opens it
    /// (`javascript:`, `data:`, `file:`...) is not a deep link; continuation opens the page instead.
    func testScriptingAndLocalDeepLinksAreNotFollowed() throws {
        let page = "https://trails.example.org/t/17"
        for link in ["javascript:alert(document.cookie)", "JavaScript:void(0)", "data:text/html,<script>x</script>",
                     "vbscript:msgbox", "file:///etc/passwd", "blob:https://trails.example.org/1", "about:blank"] {
            let html = "<meta property=\"al:ios:url\" content=\"\(link)\"><title>Trail</title>"
            let item = try WebMarkupIndexer().item(fromHTML: Data(html.utf8), url: URL(string: page)!)
            XCTAssertEqual(WebMarkupIndexer.continuationURL(for: item)?.absoluteString, page, link)
        }
        let html = "<meta property=\"al:ios:url\" content=\"trailapp://trails/17\"><title>Trail</title>"
        let app = try WebMarkupIndexer().item(fromHTML: Data(html.utf8), url: URL(string: page)!)
        XCTAssertEqual(WebMarkupIndexer.continuationURL(for: app)?.absoluteString, "trailapp://trails/17")
    }

    /// An unfollowable deep link (`javascript:`) is skipped, not the end of the search: the page's next source of
    /// a deep link (the Smart App Banner's `app-argument`, then Twitter's app card) still opens the content.
    func testAnUnfollowableAppLinkFallsBackToTheBannersLink() throws {
        let page = "https://trails.example.org/t/17"
        let html = "<meta property=\"al:ios:url\" content=\"javascript:alert(1)\">"
            + "<meta name=\"apple-itunes-app\" content=\"app-id=987654321, app-argument=trailapp://trails/17\">"
            + "<meta name=\"twitter:app:url:iphone\" content=\"trailapp://twitter/17\"><title>Trail</title>"
        let item = try WebMarkupIndexer().item(fromHTML: Data(html.utf8), url: URL(string: page)!)
        XCTAssertEqual(custom(item, WebMarkupAttributeKeys.deepLink) as? String, "trailapp://trails/17")
        XCTAssertEqual(WebMarkupIndexer.continuationURL(for: item)?.absoluteString, "trailapp://trails/17")

        let twitter = "<meta property=\"al:ios:url\" content=\"file:///etc/passwd\">"
            + "<meta name=\"twitter:app:url:iphone\" content=\"trailapp://twitter/17\"><title>Trail</title>"
        let byTwitter = try WebMarkupIndexer().item(fromHTML: Data(twitter.utf8), url: URL(string: page)!)
        XCTAssertEqual(custom(byTwitter, WebMarkupAttributeKeys.deepLink) as? String, "trailapp://twitter/17")
    }

    /// Within App Links and Twitter's app card too: an unfollowable `al:ios:url` does not hide `al:iphone:url`,
    /// nor an unfollowable `twitter:app:url:iphone` the `:ipad` one.
    func testAnUnfollowableLinkDoesNotHideTheNextDevicesLink() throws {
        let page = URL(string: "https://trails.example.org/t/17")!
        let appLinks = "<meta property=\"al:ios:url\" content=\"javascript:void(0)\">"
            + "<meta property=\"al:iphone:url\" content=\"trailapp://iphone/17\"><title>Trail</title>"
        let byAppLinks = try WebMarkupIndexer().item(fromHTML: Data(appLinks.utf8), url: page)
        XCTAssertEqual(custom(byAppLinks, WebMarkupAttributeKeys.deepLink) as? String, "trailapp://iphone/17")

        let twitter = "<meta name=\"twitter:app:url:iphone\" content=\"data:text/html,x\">"
            + "<meta name=\"twitter:app:url:ipad\" content=\"trailapp://ipad/17\"><title>Trail</title>"
        let byTwitter = try WebMarkupIndexer().item(fromHTML: Data(twitter.utf8), url: page)
        XCTAssertEqual(custom(byTwitter, WebMarkupAttributeKeys.deepLink) as? String, "trailapp://ipad/17")
    }

    func testDeepLinksFromAppLinksAndBanner() throws {
        let trail = try itemForFixture("app-links.html", url: "https://trails.example.org/t/17")
        XCTAssertEqual(custom(trail, WebMarkupAttributeKeys.deepLink) as? String, "trailapp://trails/17")
        XCTAssertEqual(custom(trail, WebMarkupAttributeKeys.appStoreID) as? String, "987654321")
        XCTAssertEqual(custom(trail, WebMarkupAttributeKeys.appName) as? String, "TrailApp")
        XCTAssertEqual(WebMarkupIndexer.continuationURL(for: trail)?.absoluteString, "trailapp://trails/17")

        let note = try itemForFixture("smart-app-banner.html", url: "https://notes.example.com/lists/42")
        XCTAssertEqual(custom(note, WebMarkupAttributeKeys.deepLink) as? String,
                       "https://notes.example.com/open?note=42&from=web,banner")
        XCTAssertEqual(custom(note, WebMarkupAttributeKeys.appStoreID) as? String, "1234567890")
        XCTAssertEqual(note.attributeSet.contentDescription, "Milk, eggs, flour.", "description falls back to the text")

        // Without a deep link, continuation opens the page.
        let photo = try itemForFixture("opengraph-only.html", url: "https://photos.example.net/albums/dolomites/seceda")
        XCTAssertEqual(WebMarkupIndexer.continuationURL(for: photo)?.absoluteString,
                       "https://photos.example.net/albums/dolomites/seceda?ref=share")
        XCTAssertEqual(photo.uniqueIdentifier, "https://photos.example.net/albums/dolomites/seceda?ref=share", "og:url")
        XCTAssertNil(photo.attributeSet.textContent)
    }

    func testEncodedPagesMapToo() throws {
        let item = try itemForFixture("latin1.html", url: "https://patisserie.example.fr/creme-brulee")
        XCTAssertEqual(item.attributeSet.title, "Crème brûlée à l'ancienne")
        XCTAssertEqual(item.domainIdentifier, "patisserie.example.fr")
    }

    func testAllDayEventAndOpenGraphArticleMetadata() throws {
        let event = try WebMarkupIndexer().item(fromHTML: Data("""
            <script type="application/ld+json">{"@type":"Festival","name":"Harvest Fair","startDate":"2027-09-18",
            "endDate":"2027-09-19","location":"Town square"}</script>
            """.utf8), url: URL(string: "https://fair.example.org/")!)
        XCTAssertEqual(event.attributeSet.contentType, "public.calendar-event")
        XCTAssertEqual(event.attributeSet.allDay, NSNumber(value: true))
        XCTAssertEqual(event.attributeSet.namedLocation, "Town square")
        XCTAssertEqual(event.attributeSet.startDate, ISO8601DateCoding.date(from: "2027-09-18T00:00:00Z"))

        let concert = try itemForFixture("event.html", url: "https://concerts.example.org/2026/strings")
        XCTAssertNil(concert.attributeSet.allDay)

        let post = try WebMarkupIndexer().item(fromHTML: Data("""
            <meta property="og:type" content="article">
            <meta property="article:published_time" content="2026-05-01T10:00:00+02:00">
            <meta property="article:modified_time" content="2026-05-02">
            <meta property="article:author" content="Rosa Diaz">
            <title>Post</title>
            """.utf8), url: URL(string: "https://blog.example.org/post")!)
        XCTAssertEqual(post.attributeSet.contentCreationDate, ISO8601DateCoding.date(from: "2026-05-01T08:00:00Z"))
        XCTAssertEqual(post.attributeSet.contentModificationDate, ISO8601DateCoding.date(from: "2026-05-02T00:00:00Z"))
        XCTAssertEqual(post.attributeSet.authorNames, ["Rosa Diaz"])
        let linked = try WebMarkupIndexer().item(fromHTML: Data("<meta property=article:author content=https://x.example/rosa>".utf8),
                                                 url: URL(string: "https://blog.example.org/p2")!)
        XCTAssertNil(linked.attributeSet.authorNames, "a profile URL is not a name")
    }

    func testHostileSizesAreClipped() throws {
        let long = String(repeating: "é", count: 100_000)
        let keywords = (0..<1_000).map { "k\($0)" }.joined(separator: ",")
        let item = try WebMarkupIndexer().item(fromHTML: Data("""
            <title>\(long)</title><meta name=description content="\(long)"><meta name=keywords content="\(keywords)">
            """.utf8), url: URL(string: "https://www.example.com/")!)
        let title = try XCTUnwrap(item.attributeSet.title)
        XCTAssertLessThanOrEqual(title.utf8.count, 1024)
        XCTAssertEqual(title, String(repeating: "é", count: 512), "cut on a character boundary")
        XCTAssertLessThanOrEqual(item.attributeSet.contentDescription?.utf8.count ?? 0, 4096)
        XCTAssertEqual(item.attributeSet.keywords?.count, 100)
        XCTAssertEqual(item.attributeSet.keywords?.first, "k0")
    }

    /// Only the title, headline, description, keywords and authors were bounded: a hostile page's site name,
    /// breadcrumbs, ingredients, deep link, app name or brand went into the item whole (megabytes per item).
    func testEveryMappedTextIsBounded() throws {
        let long = String(repeating: "é", count: 100_000)
        let crumbs = (0..<1_000).map { ##"{"@type":"ListItem","position":\##($0),"name":"c\##($0)"}"## }.joined(separator: ",")
        let ingredients = (0..<1_000).map { "\"i\($0)\"" }.joined(separator: ",")
        let html = """
            <meta property="og:site_name" content="\(long)"><meta property="al:ios:url" content="app://\(long)">
            <meta property="al:ios:app_name" content="\(long)"><meta property="al:ios:app_store_id" content="\(long)">
            <script type="application/ld+json">[{"@type":"BreadcrumbList","itemListElement":[\(crumbs)]},
            {"@type":"Recipe","name":"Stew","recipeIngredient":[\(ingredients),"\(long)"],"recipeYield":"\(long)"}]</script>
            """
        let item = try WebMarkupIndexer().item(fromHTML: Data(html.utf8), url: URL(string: "https://www.example.com/")!)
        let set = item.attributeSet
        XCTAssertEqual(set.containerDisplayName, String(repeating: "é", count: 512))
        XCTAssertLessThanOrEqual(set.containerTitle?.utf8.count ?? 0, 4096)
        XCTAssertEqual(set.containerTitle?.hasPrefix("c0 › c1 › "), true)
        XCTAssertNil(custom(item, WebMarkupAttributeKeys.deepLink), "a link cut short is no link")
        XCTAssertLessThanOrEqual((custom(item, WebMarkupAttributeKeys.appName) as? String)?.utf8.count ?? 0, 1024)
        XCTAssertLessThanOrEqual((custom(item, WebMarkupAttributeKeys.appStoreID) as? String)?.utf8.count ?? 0, 1024)
        XCTAssertLessThanOrEqual((custom(item, WebMarkupAttributeKeys.recipeYield) as? String)?.utf8.count ?? 0, 1024)
        let mapped = try XCTUnwrap(custom(item, WebMarkupAttributeKeys.ingredients) as? [String])
        XCTAssertEqual(mapped.count, 100)
        XCTAssertEqual(mapped.first, "i0")
    }

    func testOutOfRangeOptionsDoNotTrap() throws {
        var options = WebMarkupIndexer.Options()
        options.maximumTextBytes = -5
        options.descriptionFallbackLength = -1
        let item = try WebMarkupIndexer(options: options).item(fromHTML: Data("<p>some words here</p>".utf8),
                                                               url: URL(string: "https://www.example.com/")!)
        XCTAssertNil(item.attributeSet.textContent)
        options.maximumPageBytes = -1
        XCTAssertThrowsError(try WebMarkupIndexer(options: options).item(fromHTML: Data("<p>x".utf8),
                                                                         url: URL(string: "https://www.example.com/")!))
    }

    /// `Int.max` reads as "no limit": the text bound's `+ 1` overflowed and trapped.
    func testUnboundedOptionsDoNotTrap() throws {
        var options = WebMarkupIndexer.Options()
        options.maximumTextBytes = .max
        options.descriptionFallbackLength = .max
        options.maximumPageBytes = .max
        let item = try WebMarkupIndexer(options: options).item(fromHTML: Data("<p>some words here</p>".utf8),
                                                               url: URL(string: "https://www.example.com/")!)
        XCTAssertEqual(item.attributeSet.textContent, "some words here")
        XCTAssertEqual(item.attributeSet.contentDescription, "some words here")
    }

    func testDomainIdentifierIsTheLowercasedHost() throws {
        let item = try WebMarkupIndexer().item(fromHTML: Data("<title>x</title>".utf8), url: URL(string: "HTTPS://WWW.Example.COM./a")!)
        XCTAssertEqual(item.domainIdentifier, "www.example.com")
        XCTAssertEqual(item.uniqueIdentifier, "https://www.example.com./a", "scheme and host lowercased, path kept")
        XCTAssertTrue(item.validationProblems().isEmpty)
        let mixed = try WebMarkupIndexer().item(fromHTML: Data("<link rel=canonical href='HTTP://Shop.Example.com/P?Q=1#F'>".utf8),
                                                url: URL(string: "http://shop.example.com/p")!)
        XCTAssertEqual(mixed.uniqueIdentifier, "http://shop.example.com/P?Q=1")
        let ip = try WebMarkupIndexer().item(fromHTML: Data("<title>x</title>".utf8), url: URL(string: "http://127.0.0.1:8080/a")!)
        XCTAssertEqual(ip.domainIdentifier, "127.0.0.1")
    }

    func testLongTextIsTruncatedOnAWordBoundary() throws {
        var options = WebMarkupIndexer.Options()
        options.maximumTextBytes = 100
        let words = (0..<100).map { "wörd\($0)" }.joined(separator: " ")
        let page = try WebMarkupIndexer(options: options).extract(html: Data("<p>\(words)</p>".utf8),
                                                                  url: URL(string: "https://www.example.com/")!)
        XCTAssertTrue(page.textTruncated)
        XCTAssertLessThanOrEqual(page.textContent.utf8.count, 100)
        XCTAssertTrue(words.hasPrefix(page.textContent), page.textContent)
        XCTAssertTrue(words.hasPrefix(page.textContent + " "), "cut at a word boundary")
        XCTAssertTrue(page.issues.contains { $0.kind == .textTruncated })
        // Without a description, a short text is the description; a long one gives a snippet ending in `…`.
        XCTAssertEqual(WebMarkupIndexer(options: options).item(from: page).attributeSet.contentDescription, page.textContent)
        let long = try WebMarkupIndexer().item(fromHTML: Data("<p>\(words)</p>".utf8), url: URL(string: "https://www.example.com/")!)
        let description = try XCTUnwrap(long.attributeSet.contentDescription)
        XCTAssertLessThanOrEqual(description.count, 241)
        XCTAssertTrue(description.hasSuffix("…"), description)
        XCTAssertTrue(words.hasPrefix(String(description.dropLast()) + " "), description)
    }

    /// Apple's web-markup guide names Twitter's app card (`twitter:app:url:iphone`...) as a deep-link source beside
    /// App Links and the Smart App Banner; a page with only the card lost its link and app.
    func testTwitterAppCardGivesTheDeepLinkAndApp() throws {
        let html = """
            <title>Trail 17</title><meta name="twitter:card" content="app">
            <meta name="twitter:app:name:iphone" content="TrailApp"><meta name="twitter:app:id:iphone" content="987654321">
            <meta name="twitter:app:url:iphone" content="trailapp://trails/17">
            """
        let item = try WebMarkupIndexer().item(fromHTML: Data(html.utf8), url: URL(string: "https://trails.example.org/t/17")!)
        XCTAssertEqual(WebMarkupIndexer.continuationURL(for: item)?.absoluteString, "trailapp://trails/17")
        XCTAssertEqual(item.attributeSet.value(forCustomKey: WebMarkupAttributeKeys.appStoreID) as? NSString, "987654321")
        XCTAssertEqual(item.attributeSet.value(forCustomKey: WebMarkupAttributeKeys.appName) as? NSString, "TrailApp")
    }

    /// Shops ship their product as the `mainEntity` of an ItemPage (inline, inside `@graph`, or by `@id`): nested
    /// entities were never subjects, so such a page lost its product's name, price and brand. Other nested
    /// entities (offers, brands, a review's `itemReviewed`) stay attributes.
    func testAPageObjectsMainEntityIsTheSubject() throws {
        func item(_ jsonLD: String) throws -> CSSearchableItem {
            let html = "<title>Shop</title><script type=\"application/ld+json\">\(jsonLD)</script><p>Boots</p>"
            return try WebMarkupIndexer().item(fromHTML: Data(html.utf8), url: URL(string: "https://shop.example.com/p/7")!)
        }
        let product = ##"{"@type":"Product","name":"Ridge Boot","brand":{"@type":"Brand","name":"Summit"},"##
            + ##""offers":{"@type":"Offer","price":"89.00","priceCurrency":"USD"}}"##
        for jsonLD in [##"{"@type":"ItemPage","mainEntity":"## + product + "}",
                       ##"{"@graph":[{"@type":"WebSite","name":"Shop"},{"@type":"ItemPage","mainEntity":"## + product + "}]}",
                       ##"[{"@type":"WebPage","mainEntity":"## + product + ##"},{"@type":"WebSite","name":"Shop"}]"##] {
            let set = try item(jsonLD).attributeSet
            XCTAssertEqual(set.title, "Ridge Boot", jsonLD)
            XCTAssertEqual(set.organizations, ["Summit"], jsonLD)
            XCTAssertEqual((set.value(forCustomKey: WebMarkupAttributeKeys.price) as? NSNumber)?.doubleValue, 89, jsonLD)
        }
        let referenced = try item(##"{"@graph":[{"@type":"ItemPage","mainEntity":{"@id":"#p"}},"##
            + ##"{"@type":"Organization","name":"Summit Co"},{"@id":"#p","@type":"Product","name":"Ridge Boot"}]}"##)
        XCTAssertEqual(referenced.attributeSet.title, "Ridge Boot")
        let article = try item(##"{"@type":"WebPage","mainEntity":{"@type":"Article","headline":"Care for boots","##
            + ##""author":{"@type":"Person","name":"Ann"}}}"##)
        XCTAssertEqual(article.attributeSet.headline, "Care for boots")
        XCTAssertEqual(article.attributeSet.authorNames, ["Ann"])
        // Not a page's main entity: a review's item, an event's offer, stay properties.
        let review = try item(##"{"@type":"Review","itemReviewed":"## + product + "}")
        XCTAssertEqual(review.attributeSet.title, "Shop")
        XCTAssertNil(review.attributeSet.organizations)
        let nested = try item(##"{"@type":"WebPage","about":{"@type":"Thing","name":"x"},"hasPart":"## + product + "}")
        XCTAssertEqual(nested.attributeSet.title, "Shop")
    }

    /// Open Graph: `og:image:secure_url` is the https form of `og:image`; an `http://` image yields to it.
    func testTheSecureImageURLWinsOverAnHTTPImage() throws {
        let data = Data("""
            <meta property="og:image" content="http://cdn.example.com/boot.jpg">
            <meta property="og:image:secure_url" content="https://cdn.example.com/boot.jpg"><p>x</p>
            """.utf8)
        let item = try WebMarkupIndexer().item(fromHTML: data, url: URL(string: "https://www.example.com/p")!)
        XCTAssertEqual(item.attributeSet.thumbnailURL?.absoluteString, "https://cdn.example.com/boot.jpg")
        let https = try extractHTML("""
            <meta property="og:image" content="https://cdn.example.com/a.jpg">
            <meta property="og:image:secure_url" content="https://cdn.example.com/b.jpg"><p>x</p>
            """)
        XCTAssertEqual(https.bestImage?.absoluteString, "https://cdn.example.com/a.jpg")
    }
}
