import Foundation
import XCTest
@testable import Searchlight

/// Every extractor, on the hand-written fixtures.
final class WebExtractionTests: XCTestCase {
    func testProductJSONLDOpenGraphAndBreadcrumbs() throws {
        let page = try extractFixture("product.html", url: "https://www.summit-outfitters.example/boots/trailblazer-2?utm_source=mail")
        XCTAssertEqual(page.title, "Trailblazer 2 Hiking Boot | Summit Outfitters")
        XCTAssertEqual(page.metaDescription, "Waterproof leather hiking boot with a Vibram sole.")
        XCTAssertEqual(page.metaKeywords, ["hiking boots", "waterproof", "leather"])
        XCTAssertEqual(page.canonicalURL?.absoluteString, "https://www.summit-outfitters.example/boots/trailblazer-2")
        XCTAssertEqual(page.openGraph["og:type"], "product")
        XCTAssertEqual(page.openGraph["og:site_name"], "Summit Outfitters")
        XCTAssertEqual(page.openGraph["og:description"], "Our best-selling boot, now lighter & fully waterproof.")
        // A relative og:image resolves against the page.
        XCTAssertEqual(page.bestImage?.absoluteString, "https://www.summit-outfitters.example/img/trailblazer-2.jpg")
        let product = try XCTUnwrap(page.product)
        XCTAssertEqual(product.name, "Trailblazer 2 Hiking Boot")
        XCTAssertEqual(product.brand, "Summit")
        XCTAssertEqual(product.price, 149.95)
        XCTAssertEqual(product.priceCurrency, "EUR")
        XCTAssertEqual(product.availability, "InStock")
        XCTAssertEqual(product.images.count, 2)
        let rating = try XCTUnwrap(product.rating)
        XCTAssertEqual(rating.value, 4.4)
        XCTAssertEqual(rating.count, 89)
        XCTAssertEqual(rating.best, 5)
        // Breadcrumbs follow `position`, not page order.
        XCTAssertEqual(page.breadcrumbs, ["Footwear", "Boots", "Trailblazer 2 Waterproof Hiking Boot"])
        XCTAssertEqual(page.jsonLD.count, 2)
        XCTAssertNil(page.recipe)
        XCTAssertNil(page.event)
    }

    func testVisibleTextSkipsScriptsStylesAndChrome() throws {
        let page = try extractFixture("product.html", url: "https://www.summit-outfitters.example/boots/trailblazer-2")
        XCTAssertEqual(page.textContent, "Trailblazer 2 Hiking Boot €149.95 – free shipping Full-grain leather upper, "
            + "Vibram® sole and a breathable membrane keep your feet dry.")
        for hidden in ["dataLayer", "never shown", "font-family", "not text", "Imprint", "Footwear"] {
            XCTAssertFalse(page.textContent.contains(hidden), hidden)
        }
    }

    func testRecipeMicrodataWithNestedScopes() throws {
        let page = try extractFixture("recipe.html", url: "https://greenkitchen.example/recipes/pesto")
        XCTAssertEqual(page.microdata.count, 1, "nested Person and AggregateRating belong to the recipe")
        let recipe = try XCTUnwrap(page.recipe)
        XCTAssertEqual(recipe.name, "Grandma's Basil Pesto")
        XCTAssertEqual(recipe.description, "Bright, nutty and very green.")
        XCTAssertEqual(recipe.authors, ["Giulia Rossi"])
        XCTAssertEqual(recipe.ingredients, ["2 cups fresh basil leaves", "1/2 cup Parmigiano-Reggiano", "1/3 cup pine nuts",
                                            "2 cloves garlic"])
        XCTAssertEqual(recipe.totalTime, 4200)
        XCTAssertEqual(recipe.prepTime, 600)
        XCTAssertEqual(recipe.cookTime, 0)
        XCTAssertEqual(recipe.yield, "4 servings")
        XCTAssertEqual(recipe.images.map(\.absoluteString), ["https://greenkitchen.example/photos/pesto.jpg"])
        let rating = try XCTUnwrap(recipe.rating)
        XCTAssertEqual(rating.best, 10)
        XCTAssertEqual(rating.normalized, 4.5, accuracy: 1e-9)
        XCTAssertEqual(rating.count, 212)
        XCTAssertEqual(page.microdata.first?.string("recipeInstructions"),
                       "Pound the garlic and pine nuts. Add basil, then cheese and oil.")
    }

    func testEventJSONLDArrayWithPlace() throws {
        let page = try extractFixture("event.html", url: "https://concerts.example.org/2026/strings")
        let event = try XCTUnwrap(page.event)
        XCTAssertEqual(event.name, "Night of Strings 2026")
        XCTAssertEqual(event.description, "The Aurora Quartet plays Haydn, Bartók and Ravel.")
        XCTAssertEqual(event.startDate, ISO8601DateCoding.date(from: "2026-12-05T18:30:00Z"))
        XCTAssertEqual(event.endDate, ISO8601DateCoding.date(from: "2026-12-05T21:00:00Z"))
        XCTAssertEqual(event.locationName, "City Concert Hall")
        XCTAssertEqual(event.address?.street, "12 Harbour Road")
        XCTAssertEqual(event.address?.city, "Hamburg")
        XCTAssertEqual(event.address?.region, "HH")
        XCTAssertEqual(event.address?.postalCode, "20457")
        XCTAssertEqual(event.address?.country, "DE")
        XCTAssertEqual(event.address?.formatted, "12 Harbour Road, Hamburg, HH 20457, DE")
        XCTAssertEqual(event.images.map(\.absoluteString), ["https://concerts.example.org/img/strings.jpg"])
        XCTAssertNil(page.business, "the nested Place is not a top-level entity")
    }

    func testLocalBusinessMicrodata() throws {
        let page = try extractFixture("local-business.html", url: "https://luigis.example.com/about")
        let business = try XCTUnwrap(page.business)
        XCTAssertEqual(business.types, ["Restaurant"])
        XCTAssertEqual(business.name, "Luigi's Trattoria")
        XCTAssertEqual(business.telephone, "+1-217-555-0123", "the content attribute wins over href")
        XCTAssertEqual(business.latitude, 39.7817)
        XCTAssertEqual(business.longitude, -89.6501)
        XCTAssertEqual(business.address?.street, "742 Evergreen Terrace")
        XCTAssertEqual(business.address?.city, "Springfield")
        XCTAssertEqual(business.address?.region, "IL")
        XCTAssertEqual(business.address?.postalCode, "62704")
        XCTAssertEqual(business.address?.country, "US")
        XCTAssertEqual(business.rating?.count, 1024)
        XCTAssertEqual(page.microdata.first?.string("openingHours"), "Tu-Su 11:00-22:00")
        // `<link rel=canonical href="/">` resolves against the page.
        XCTAssertEqual(page.canonicalURL?.absoluteString, "https://luigis.example.com/")
    }

    func testArticleGraphTwitterCardAndTags() throws {
        let page = try extractFixture("article.html", url: "https://dailyorbit.example.com/2026/11/night-sky")
        let article = try XCTUnwrap(page.article)
        XCTAssertEqual(article.types, ["NewsArticle"])
        XCTAssertEqual(article.headline, "Why the Night Sky Is Dark")
        XCTAssertEqual(article.authors, ["Ada Lin", "Sam Okafor"])
        XCTAssertEqual(article.datePublished, ISO8601DateCoding.date(from: "2026-11-20T08:00:00Z"))
        XCTAssertEqual(article.dateModified, ISO8601DateCoding.date(from: "2026-11-21T09:15:00Z"))
        XCTAssertEqual(article.publisher, "The Daily Orbit Media")
        XCTAssertEqual(article.keywords, ["cosmology", "Olbers", "expanding universe", "Science"])
        XCTAssertEqual(page.articleTags, ["Olbers' paradox", "astronomy"])
        XCTAssertEqual(page.twitterCard["twitter:card"], "summary_large_image")
        XCTAssertEqual(page.twitterCard["twitter:title"], "Why is the night sky dark?")
        XCTAssertEqual(page.breadcrumbs, ["Home", "Science"])
        XCTAssertEqual(page.canonicalURL?.absoluteString, "https://dailyorbit.example.com/2026/11/night-sky",
                       "the fragment is dropped")
        XCTAssertEqual(page.jsonLD.map(\.types), [["WebSite"], ["Organization"], ["NewsArticle"], ["BreadcrumbList"]])
        // A header inside <article> is content; the page's nav, aside and footer are not.
        XCTAssertEqual(page.textContent, "Why the Night Sky Is Dark Ada Lin and Sam Okafor If the universe were infinite "
            + "and unchanging, every line of sight would end on a star. The darkness tells us the universe had a beginning.")
    }

    func testBlogPostingMicrodataWithTimes() throws {
        let page = try extractFixture("blog-posting.html", url: "https://blog.example.com/hanzi")
        let article = try XCTUnwrap(page.article)
        XCTAssertEqual(article.types, ["BlogPosting"])
        XCTAssertEqual(article.headline, "中文 Notes: Learning Chinese Characters")
        XCTAssertEqual(article.authors, ["Mei Chen"])
        XCTAssertEqual(article.datePublished, ISO8601DateCoding.date(from: "2026-03-14T00:00:00Z"))
        XCTAssertEqual(article.dateModified, ISO8601DateCoding.date(from: "2026-03-15T15:00:00Z"))
        XCTAssertEqual(article.publisher, "Mei's Notebook")
        XCTAssertEqual(article.keywords, ["chinese", "hanzi", "language learning"])
        XCTAssertTrue(page.textContent.hasSuffix("中文 means “Chinese language”; 汉字 are the characters."), page.textContent)
    }

    func testOpenGraphOnlyPage() throws {
        let page = try extractFixture("opengraph-only.html", url: "https://photos.example.net/albums/dolomites/seceda")
        XCTAssertNil(page.title)
        XCTAssertEqual(page.bestTitle, "Sunset over the Dolomites")
        XCTAssertEqual(page.bestDescription, "A time-lapse from Seceda, 2,519 m.")
        XCTAssertEqual(page.openGraph["og:type"], "video.other")
        XCTAssertEqual(page.openGraphURL?.absoluteString, "https://photos.example.net/albums/dolomites/seceda?ref=share")
        XCTAssertEqual(page.identifierURL, page.openGraphURL)
        XCTAssertEqual(page.textContent, "")
        XCTAssertTrue(page.jsonLD.isEmpty && page.microdata.isEmpty)
    }

    func testSmartAppBannerOnly() throws {
        let page = try extractFixture("smart-app-banner.html", url: "https://notes.example.com/lists/42")
        let banner = try XCTUnwrap(page.smartAppBanner)
        XCTAssertEqual(banner.appID, "1234567890")
        XCTAssertEqual(banner.appArgument, "https://notes.example.com/open?note=42&from=web,banner")
        XCTAssertNil(page.appLinks)
        XCTAssertEqual(page.deepLink, banner.appArgument)
        XCTAssertEqual(page.title, "Shopping list — Notely")
    }

    func testSmartAppBannerVariants() {
        XCTAssertEqual(WebSmartAppBanner(content: "app-id=1")?.appArgument, nil)
        let argumentFirst = WebSmartAppBanner(content: " App-Argument=x://a,b , app-id=7")
        XCTAssertEqual(argumentFirst?.appID, "7", "a banner key after a comma ends the argument")
        XCTAssertEqual(argumentFirst?.appArgument, "x://a,b")
        let clip = WebSmartAppBanner(content: "app-argument=myapp://item/42, app-id=123456789, app-clip-display=card")
        XCTAssertEqual(clip?.appID, "123456789")
        XCTAssertEqual(clip?.appArgument, "myapp://item/42")
        XCTAssertEqual(WebSmartAppBanner(content: "app-id=1, app-argument=x://a?q=b, c=d")?.appArgument, "x://a?q=b, c=d",
                       "a comma before anything but a banner key is the argument's")
        XCTAssertEqual(WebSmartAppBanner(content: "app-id=7, affiliate-data=at=1, APP-ARGUMENT=x://a,b")?.appArgument, "x://a,b")
        XCTAssertNil(WebSmartAppBanner(content: "app-argument=x://y"))
        XCTAssertNil(WebSmartAppBanner(content: ""))
        // Many commas: linear, not quadratic (this would take minutes if each part re-scanned the rest).
        let long = String(repeating: "k=v,", count: 100_000) + "app-id=9"
        XCTAssertEqual(WebSmartAppBanner(content: long)?.appID, "9")
    }

    /// A banner written over several lines keeps its keys: they were trimmed of spaces and tabs only, so a key
    /// after a newline was not one, and a leading newline lost the whole banner.
    func testSmartAppBannerWrittenOverSeveralLines() throws {
        let banner = try XCTUnwrap(WebSmartAppBanner(content: "app-id=123456789,\n  app-argument=myapp://items/7\r\n"))
        XCTAssertEqual(banner.appID, "123456789")
        XCTAssertEqual(banner.appArgument, "myapp://items/7")
        XCTAssertEqual(WebSmartAppBanner(content: "\n  app-id=123456789\n")?.appID, "123456789")
        XCTAssertEqual(WebSmartAppBanner(content: "\tapp-argument=x://a,\n\tapp-id=\n7\n")?.appID, "7")
    }

    func testAppLinks() throws {
        let page = try extractFixture("app-links.html", url: "https://trails.example.org/t/17")
        XCTAssertEqual(page.appLinks, WebAppLinks(iosURL: "trailapp://trails/17", appStoreID: "987654321", appName: "TrailApp"))
        XCTAssertEqual(page.deepLink, "trailapp://trails/17")
        XCTAssertEqual(page.bestTitle, "Lakeside Loop (Trail 17)")
    }

    /// App Links name the iOS app per device too (`al:iphone:*`, `al:ipad:*`); `al:ios:*` wins when present.
    func testAppLinksForIPhoneAndIPad() throws {
        let iphone = try extractHTML("""
            <meta property="al:ipad:url" content="trailapp-hd://trails/17"><meta property="al:iphone:url" content="trailapp://trails/17">
            <meta property="al:iphone:app_store_id" content="987654321"><meta property="al:iphone:app_name" content="TrailApp">
            """)
        XCTAssertEqual(iphone.appLinks, WebAppLinks(iosURL: "trailapp://trails/17", appStoreID: "987654321", appName: "TrailApp"))
        XCTAssertEqual(iphone.deepLink, "trailapp://trails/17")
        let ipad = try extractHTML(#"<meta property="al:ipad:url" content="trailapp-hd://trails/17">"#)
        XCTAssertEqual(ipad.deepLink, "trailapp-hd://trails/17")
        let ios = try extractHTML(#"<meta property="al:iphone:url" content="a://x"><meta property="al:ios:url" content="b://x">"#)
        XCTAssertEqual(ios.deepLink, "b://x")
    }

    func testBrokenPageStillYieldsWhatItCan() throws {
        let page = try extractFixture("broken.html", url: "https://broken.example.com/")
        XCTAssertEqual(page.title, "Broken & Beautiful &bogus; &#xZZ; \u{FFFD} © 2026")
        // `&nbsp` followed by a letter inside an attribute stays literal, as in browsers.
        XCTAssertEqual(page.metaDescription, "Unquoted&nbspdescription")
        // The og:title tag lacks its `>` and swallows the next tag, as in browsers.
        XCTAssertEqual(page.openGraph["og:title"], "Single \"quoted\" title")
        XCTAssertEqual(page.issues.map(\.kind), [.invalidJSONLD])
        XCTAssertEqual(page.issues.first?.line, 9)
        XCTAssertEqual(page.product?.name, "Wrapped Widget", "JSON-LD inside an HTML comment wrapper is read")
        XCTAssertEqual(page.microdata.first?.string("name"), "Microdata Mug", "an unclosed scope closes at the end")
        // `<![CDATA[ cdata text ]]>` in HTML content is a bogus comment, shown by no browser.
        XCTAssertEqual(page.textContent, "First bold both italic? after. Second paragraph with a stray end tag and an element. "
            + "cell one cell two AT&T <rocks> &amp; x < y ¬it; ∉ 😀 Microdata Mug Unclosed until the end")
    }

    func testMetaAndLinkVariants() throws {
        let page = try extractHTML("""
            <html><head>
            <META NAME="Description" CONTENT="  spaced   out  ">
            <meta name="keywords" content="a, b,, A ,c">
            <link rel="alternate canonical" href="https://www.example.com/c#x">
            <base href="https://cdn.example.com/assets/">
            <meta property="og:image" content="img/1.png">
            </head></html>
            """)
        XCTAssertEqual(page.metaDescription, "spaced out")
        XCTAssertEqual(page.metaKeywords, ["a", "b", "c"])
        XCTAssertEqual(page.canonicalURL?.absoluteString, "https://www.example.com/c")
        XCTAssertEqual(page.bestImage?.absoluteString, "https://cdn.example.com/assets/img/1.png")
    }

    func testOffSiteCanonicalAndOpenGraphURLAreIgnored() throws {
        let page = try extractHTML("""
            <link rel=canonical href="https://evil.example.net/x"><meta property="og:url" content="https://other.example.org/y">
            <link rel=canonical href="https://www.example.com/second">
            """, url: "https://example.com/page")
        XCTAssertNil(page.canonicalURL, "the first canonical link counts, and it is off-site")
        XCTAssertNil(page.openGraphURL)
        XCTAssertEqual(page.identifierURL.absoluteString, "https://example.com/page")
        XCTAssertEqual(page.issues.map(\.kind), [.ignoredURL])
        // `www.` does not make a different site.
        let same = try extractHTML("<link rel=canonical href='https://www.example.com/x'>", url: "https://example.com/x?y")
        XCTAssertEqual(same.canonicalURL?.absoluteString, "https://www.example.com/x")
    }

    func testJSONLDShapesAndTypeNames() throws {
        let page = try extractHTML("""
            <script type="application/ld+json">{"@context":"http://schema.org","@type":["Product","Thing"],"name":"A",
              "offers":[{"@type":"AggregateOffer","lowPrice":"1,299.00","priceCurrency":"USD"}]}</script>
            <script type="Application/LD+JSON ">{"@graph":[{"@type":"schema:Recipe","name":"B","recipeIngredient":["x","y"]}]}</script>
            <script type="application/json">{"@type":"Event","name":"not JSON-LD"}</script>
            <script type="application/ld+json"></script>
            """)
        XCTAssertEqual(page.jsonLD.map(\.types), [["Product", "Thing"], ["Recipe"]])
        XCTAssertEqual(page.product?.price, 1299)
        XCTAssertEqual(page.product?.priceCurrency, "USD")
        XCTAssertEqual(page.recipe?.ingredients, ["x", "y"])
        XCTAssertNil(page.event)
        XCTAssertTrue(page.issues.isEmpty, "\(page.issues)")
    }

    func testGraphReferencesByID() throws {
        let page = try extractHTML("""
            <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
              {"@type":"BlogPosting","@id":"#post","headline":"H","author":{"@id":"#ann"},
               "publisher":{"@id":"#org"},"isPartOf":{"@id":"#post"},"mainEntityOfPage":{"@id":"#missing"}},
              {"@type":"Person","@id":"#ann","name":"Ann Author","worksFor":{"@id":"#org"}},
              {"@type":"Organization","@id":"#org","name":"Org Name","member":{"@id":"#ann"}}]}</script>
            """)
        XCTAssertEqual(page.article?.authors, ["Ann Author"])
        XCTAssertEqual(page.article?.publisher, "Org Name")
        // A self-reference and a reference to an unknown id stay as they are; nothing loops.
        XCTAssertEqual(page.jsonLD.first?.node("isPartOf")?.string("headline"), "H")
        XCTAssertEqual(page.jsonLD.first?.node("mainEntityOfPage")?.string("@id"), "#missing")
    }

    /// Sites often write their Organization in one JSON-LD block and refer to it by `@id` from another.
    func testGraphReferencesAcrossJSONLDBlocks() throws {
        let page = try extractHTML("""
            <script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization",
              "@id":"https://www.example.com/#org","name":"Example Shop"}</script>
            <script type="application/ld+json">{"@context":"https://schema.org","@type":["Product","Thing"],
              "name":"Widget","brand":{"@id":"https://www.example.com/#org"}}</script>
            <script type="application/ld+json">{"@type":"Article","headline":"H","author":{"@id":"#ann"},
              "publisher":{"@id":"https://www.example.com/#org"}}</script>
            <script type="application/ld+json">{"@type":"Person","@id":"#ann","name":"Ann Author"}</script>
            """)
        XCTAssertEqual(page.product?.brand, "Example Shop")
        XCTAssertEqual(page.article?.publisher, "Example Shop")
        XCTAssertEqual(page.article?.authors, ["Ann Author"])
    }

    /// Templates emit an empty `<meta>` a plugin then repeats with a value: the empty one must not win.
    func testAnEmptyMetaDoesNotHideALaterOne() throws {
        let page = try extractHTML("""
            <head><meta property="og:image" content=""><meta name="description" content=" ">
            <meta name="twitter:title" content=""><title>T</title>
            <meta property="og:image" content="/img/real.jpg"><meta name="description" content="Real description">
            <meta name="twitter:title" content="Card title"></head>
            """)
        XCTAssertEqual(page.bestImage?.absoluteString, "https://www.example.com/img/real.jpg")
        XCTAssertEqual(page.metaDescription, "Real description")
        XCTAssertEqual(page.twitterCard["twitter:title"], "Card title")
    }

    /// Google accepts an Offer's price in `priceSpecification` (a UnitPriceSpecification) instead of `price`.
    func testOfferPriceFromPriceSpecification() throws {
        let page = try extractHTML("""
            <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Coffee",
              "offers":{"@type":"Offer","availability":"https://schema.org/InStock","priceSpecification":[
                {"@type":"UnitPriceSpecification","price":"12.50","priceCurrency":"EUR"}]}}</script>
            """)
        XCTAssertEqual(page.product?.price, 12.5)
        XCTAssertEqual(page.product?.priceCurrency, "EUR")
    }

    /// CMSs write `application/ld+json; charset=UTF-8` (or a `profile` parameter): the block is JSON-LD all the same.
    func testJSONLDScriptTypeWithParameters() throws {
        for type in ["application/ld+json; charset=UTF-8", " Application/LD+JSON;profile=\"https://schema.org\""] {
            let page = try extractHTML(#"<script type='\#(type)'>{"@type":"Product","name":"Typed"}</script>"#)
            XCTAssertEqual(page.product?.name, "Typed", type)
        }
        let other = try extractHTML(#"<script type="application/ld+jsonx">{"@type":"Product","name":"No"}</script>"#)
        XCTAssertNil(other.product)
    }

    func testRatingNormalization() throws {
        func rating(_ json: String) throws -> WebRating? {
            try extractHTML("<script type='application/ld+json'>{\"@type\":\"Product\",\"aggregateRating\":\(json)}</script>").product?.rating
        }
        XCTAssertEqual(try rating(#"{"ratingValue": 4.2}"#)?.normalized ?? -1, 4.2, accuracy: 1e-9)
        XCTAssertEqual(try rating(#"{"ratingValue": "80", "bestRating": "100"}"#)?.normalized ?? -1, 4, accuracy: 1e-9)
        XCTAssertEqual(try rating(#"{"ratingValue": 3, "bestRating": 5, "worstRating": 1}"#)?.normalized ?? -1, 2.5, accuracy: 1e-9)
        XCTAssertEqual(try rating(#"{"ratingValue": 11, "bestRating": 10}"#)?.normalized, 5, "clamped")
        XCTAssertEqual(try rating(#"{"ratingValue": 9, "bestRating": 10, "ratingCount": 1}"#)?.summary, "4.5 out of 5 (1 rating)")
        XCTAssertNil(try rating(#"{"ratingValue": "n/a"}"#))
    }

    func testBusinessGeoOutOfRangeIsIgnored() throws {
        let page = try extractHTML("""
            <script type="application/ld+json">{"@type":"LocalBusiness","name":"X","telephone":"tel:+49 30 1234",
            "geo":{"@type":"GeoCoordinates","latitude":"123","longitude":"13.4"},"address":"Unter den Linden 1, Berlin"}</script>
            """)
        XCTAssertEqual(page.business?.telephone, "+49 30 1234")
        XCTAssertNil(page.business?.latitude)
        XCTAssertEqual(page.business?.address?.formatted, "Unter den Linden 1, Berlin")
        XCTAssertNil(page.business?.address?.city)
    }

    func testMicrodataValuesFromAttributes() throws {
        let page = try extractHTML("""
            <div itemscope itemtype="https://schema.org/Event">
              <a itemprop="url" href="/e/1">link</a><img itemprop="image" src="i.png">
              <time itemprop="startDate" datetime="2027-01-02T20:00">Jan 2</time>
              <data itemprop="eventStatus" value="EventScheduled">on</data>
              <span itemprop="name description">Both</span>
              <div itemprop="location" itemscope itemtype="https://schema.org/Place"><span itemprop="name">Hall</span></div>
            </div>
            <span itemprop="name">orphan property</span>
            """, url: "https://www.example.com/events/")
        let node = try XCTUnwrap(page.microdata.first)
        XCTAssertEqual(page.microdata.count, 1)
        XCTAssertEqual(node.string("url"), "/e/1")
        XCTAssertEqual(node.string("eventStatus"), "EventScheduled")
        XCTAssertEqual(node.string("name"), "Both")
        XCTAssertEqual(node.string("description"), "Both")
        XCTAssertEqual(page.event?.startDate, ISO8601DateCoding.date(from: "2027-01-02T20:00:00Z"))
        XCTAssertEqual(page.event?.locationName, "Hall")
        XCTAssertEqual(page.event?.images.map(\.absoluteString), ["https://www.example.com/events/i.png"])
    }
    /// Only the page's own header and footer are chrome: inside an `<article>` or `<main>` both are content (a
    /// byline, "Posted by").
    /// Themes write one tag for two readers (`<meta name="description" property="og:description">`): Google reads
    /// its `name`, Facebook its `property`. Only `property` was read, so the page had no meta description or
    /// Twitter title from such tags.
    func testAMetaWithNameAndPropertyCountsForBoth() throws {
        let page = try extractHTML(##"<meta name="description" property="og:description" content="Boots that last">"##
            + ##"<meta property="og:title" name="twitter:title" content="Ridge Boot"><meta property="og:url" name="" content="/x">"##)
        XCTAssertEqual(page.metaDescription, "Boots that last")
        XCTAssertEqual(page.openGraph["og:description"], "Boots that last")
        XCTAssertEqual(page.openGraph["og:title"], "Ridge Boot")
        XCTAssertEqual(page.twitterCard["twitter:title"], "Ridge Boot")
        XCTAssertEqual(page.openGraph["og:url"], "/x")
    }

    func testAHeaderOrFooterInsideAnArticleIsContent() throws {
        let page = try extractHTML("""
            <html><head></head><body><header>Site header</header><article><header>Article header</header>
            <p>Body</p><footer>Posted by Alice</footer></article><footer>Site footer</footer></body></html>
            """)
        XCTAssertEqual(page.textContent, "Article header Body Posted by Alice")
    }

    /// A self-closing `<svg/>` or `<math/>` is already closed (HTML honours `/>` on foreign elements): the text and
    /// `<title>` after it are the page's, not hidden inside it.
    func testASelfClosingSVGOrMathEndsAtOnce() throws {
        let svg = try extractHTML("<body><svg width=\"0\" aria-hidden=\"true\"/><p>Handmade walnut boards</p></body>")
        XCTAssertEqual(svg.textContent, "Handmade walnut boards")
        let math = try extractHTML("<body><div><math/><p>Pythagoras proof</p></div><p>Second</p></body>")
        XCTAssertEqual(math.textContent, "Pythagoras proof Second")
        let title = try extractHTML("<svg/><title>Real title</title><p>Body</p>")
        XCTAssertEqual(title.title, "Real title")
        let nested = try extractHTML("<svg><title>Icon</title><path/></svg><p>After</p>")
        XCTAssertEqual(nested.textContent, "After")
        XCTAssertNil(nested.title, "an SVG <title> is not the page's")
    }

    /// An `ImageObject` is its `url` or `contentUrl`, never its `name` (which is a caption).
    func testAnImageObjectIsItsURLNotItsName() throws {
        let page = try extractHTML("""
            <script type="application/ld+json">{"@type":"Product","name":"P",
             "image":[{"@type":"ImageObject","name":"Front view","url":"https://cdn.example.com/a.jpg"},
                      {"@type":"ImageObject","name":"Cover","contentUrl":"/img/c.jpg"},
                      {"@type":"ImageObject","name":"No address"}, "https://cdn.example.com/d.jpg"]}</script>
            """)
        XCTAssertEqual(page.product?.images.map(\.absoluteString),
                       ["https://cdn.example.com/a.jpg", "https://www.example.com/img/c.jpg", "https://cdn.example.com/d.jpg"])
        XCTAssertEqual(page.bestImage?.absoluteString, "https://cdn.example.com/a.jpg")
    }

    /// An empty (or blank) App Links value is absent: the Smart App Banner's link and app then apply.
    func testEmptyAppLinksLeaveTheBannersLinkAndApp() throws {
        let html = """
            <meta property="al:ios:url" content="  "><meta property="al:ios:app_store_id" content="">
            <meta name="apple-itunes-app" content="app-id=456, app-argument=myapp://banner/1">
            """
        let page = try extractHTML(html)
        XCTAssertEqual(page.deepLink, "myapp://banner/1")
        let item = try WebMarkupIndexer().item(fromHTML: Data(html.utf8), url: URL(string: "https://www.example.com/p")!)
        XCTAssertEqual(item.attributeSet.value(forCustomKey: WebMarkupAttributeKeys.deepLink) as Any? as? String, "myapp://banner/1")
        XCTAssertEqual(WebMarkupIndexer.continuationURL(for: item)?.absoluteString, "myapp://banner/1")
        XCTAssertEqual(item.attributeSet.value(forCustomKey: WebMarkupAttributeKeys.appStoreID) as Any? as? String, "456")
    }

    /// A `<template>`'s contents are not part of the document (browsers keep them in an inert fragment): its
    /// `<meta>`, `<title>`, `<base>`, canonical link, JSON-LD and microdata described the page.
    func testTemplateContentsAreNotThePagesMarkup() throws {
        let page = try extractHTML(##"<head><template><div>Card</div><title>Row</title><meta property="og:title" content="Row title">"##
            + ##"<base href="https://cdn.example.net/"><link rel="canonical" href="/other">"##
            + ##"<script type="application/ld+json">{"@type":"Product","name":"Card"}</script></template>"##
            + ##"<title>Real page</title></head><body><template><div itemscope itemtype="https://schema.org/Event">"##
            + ##"<span itemprop="name">Slot</span></div></template><p>Body</p></body>"##)
        XCTAssertEqual(page.title, "Real page")
        XCTAssertNil(page.openGraph["og:title"])
        XCTAssertEqual(page.baseURL, URL(string: "https://www.example.com/page"))
        XCTAssertNil(page.canonicalURL)
        XCTAssertEqual(page.jsonLD.count, 0)
        XCTAssertEqual(page.microdata.count, 0)
        XCTAssertEqual(page.textContent, "Body")
    }

    /// Outside SVG and MathML, `<![CDATA[` starts a bogus comment that ends at the first `>` (WHATWG
    /// "markup declaration open"): browsers show none of `<![CDATA[hidden]]>`, which was indexed as visible text.
    func testCDATAInHTMLContentIsAComment() throws {
        let page = try extractHTML("<body><p>a<![CDATA[hidden]]>b <![CDATA[x > y]]> c</p></body>")
        XCTAssertEqual(page.textContent, "ab y]]> c")
    }
}
