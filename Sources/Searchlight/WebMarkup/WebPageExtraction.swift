import Foundation

/// Everything Searchlight read from one page, before it becomes an item: the raw markup facts (title, meta tags,
/// Open Graph, Twitter cards, App Links, the Smart App Banner, JSON-LD and microdata entities, visible text) and
/// the typed schema.org entities found among them. `WebMarkupIndexer` maps it to a `CSSearchableItem`.
public struct WebPageExtraction: Sendable {
    /// The URL the caller gave for the page.
    public var pageURL: URL
    public var charset: HTMLCharset
    /// How the charset was found: `byteOrderMark`, `transport`, `metaTag`, `validUTF8` or `fallback`.
    public var charsetSource: String

    /// `<title>`, whitespace collapsed.
    public var title: String?
    public var metaDescription: String?
    public var metaKeywords: [String]
    /// `<link rel="canonical">`, resolved; only kept when on the page's own site (see `issues` otherwise).
    public var canonicalURL: URL?
    /// Open Graph properties by full name (`og:title`, `og:image`, ...); the first occurrence of each.
    public var openGraph: [String: String]
    /// Twitter card properties by full name (`twitter:title`, ...); the first occurrence of each.
    public var twitterCard: [String: String]
    /// `article:tag` values.
    public var articleTags: [String]
    /// Other Open Graph article properties (`article:published_time`, `article:modified_time`, `article:author`,
    /// `article:section`); the first occurrence of each.
    public var articleMeta: [String: String]
    public var appLinks: WebAppLinks?
    public var smartAppBanner: WebSmartAppBanner?

    /// Top-level JSON-LD entities (arrays and `@graph` flattened), in page order.
    public var jsonLD: [SchemaNode]
    /// Top-level microdata items, in page order.
    public var microdata: [SchemaNode]

    /// The first entity of each kind among the top-level entities (JSON-LD before microdata).
    public var product: WebProduct?
    public var recipe: WebRecipe?
    public var event: WebEvent?
    /// The Organization or LocalBusiness the page is about; nil for one only named as a publisher or in sitewide
    /// markup (see `subjectBusiness(among:)`).
    public var business: WebBusiness?
    public var article: WebArticle?
    /// The names of the first `BreadcrumbList`, in position order.
    public var breadcrumbs: [String]

    /// Visible body text (no scripts, styles, navigation, page header/footer, asides, hidden elements),
    /// whitespace collapsed, cut at `Options.maximumTextBytes` on a word boundary.
    public var textContent: String
    public var textTruncated: Bool
    /// What was skipped or repaired (invalid JSON-LD, an off-site canonical link, ...).
    public var issues: [WebMarkupIssue]
    /// Whether `<meta name="robots">` or `<meta name="applebot">` says `noindex` (or `none`), in any case and
    /// among other tokens: the public index skips such a page (`WebMarkupError.Code.noIndex`).
    public var noIndex: Bool { noIndexMeta != nil }
    /// The `<meta>` name (`robots` or `applebot`) that said `noindex`, for the skip's message.
    var noIndexMeta: String?

    // MARK: Derived facts

    /// The page's identity: the canonical URL, else `og:url` (same site only), else the page URL; no fragment.
    public var identifierURL: URL

    /// `og:url` resolved, when on the page's own site.
    public var openGraphURL: URL?

    /// Where relative references resolve: `<base href>` when present, else the page URL.
    public var baseURL: URL

    /// The link that opens this content in the app: App Links' `al:ios:url` (else `al:iphone:url`, `al:ipad:url`),
    /// else the banner's `app-argument`, else Twitter's app card (`twitter:app:url:iphone`, then `:ipad`); the first
    /// of them the app may follow (`WebMarkupURLs.isFollowableDeepLink`: not `javascript:`, `file:`...), so an
    /// unfollowable one does not hide the next.
    public var deepLink: String? {
        if let link = appLinks?.iosURL { return link }  // (App Links keep only followable links)
        if let link = smartAppBanner?.appArgument, WebMarkupURLs.isFollowableDeepLink(link) { return link }
        for device in ["iphone", "ipad"] {
            if let link = twitterCard["twitter:app:url:\(device)"].flatMap(Self.nonEmpty),
               WebMarkupURLs.isFollowableDeepLink(link) { return link }
        }
        return nil
    }

    /// The app's App Store ID: App Links, else the banner's `app-id`, else Twitter's app card.
    public var appStoreID: String? { appLinks?.appStoreID ?? smartAppBanner?.appID ?? twitterApp("id") }

    /// The app's name: App Links, else Twitter's app card.
    public var appName: String? { appLinks?.appName ?? twitterApp("name").map(WebMarkupText.collapse) }

    /// A field of Twitter's app card (`twitter:app:<field>:iphone`, else `:ipad`), which Apple's web-markup guide
    /// names as a deep-link source beside App Links and the Smart App Banner.
    private func twitterApp(_ field: String) -> String? {
        twitterCard["twitter:app:\(field):iphone"].flatMap(Self.nonEmpty) ?? twitterCard["twitter:app:\(field):ipad"].flatMap(Self.nonEmpty)
    }

    /// The best title: `og:title`, else the main entity's name or headline, else `<title>`, else `twitter:title`.
    public var bestTitle: String? {
        nonEmpty(openGraph["og:title"]) ?? nonEmpty(mainEntityName) ?? nonEmpty(title) ?? nonEmpty(twitterCard["twitter:title"])
    }

    /// The name of the page's main entity (product, recipe, event, article, business, in that order).
    public var mainEntityName: String? {
        product?.name ?? recipe?.name ?? event?.name ?? article?.headline ?? business?.name
    }

    /// The best description: `og:description`, meta description, `twitter:description`, the main entity's.
    public var bestDescription: String? {
        nonEmpty(openGraph["og:description"]) ?? nonEmpty(metaDescription) ?? nonEmpty(twitterCard["twitter:description"])
            ?? nonEmpty(product?.description ?? recipe?.description ?? event?.description ?? article?.description
                        ?? business?.description)
    }

    /// The best image: `og:image`, `twitter:image`, then the main entity's first image. An `http://` `og:image`
    /// yields to `og:image:secure_url`, which Open Graph defines as its https form.
    public var bestImage: URL? {
        for candidate in [openGraph["og:image"], openGraph["og:image:url"], openGraph["og:image:secure_url"],
                          twitterCard["twitter:image"], twitterCard["twitter:image:src"]] {
            if let text = candidate, let url = WebMarkupURLs.resolve(text, base: baseURL) {
                if url.scheme == "http",
                   let secure = openGraph["og:image:secure_url"].flatMap({ WebMarkupURLs.resolve($0, base: baseURL) }),
                   secure.scheme == "https" {
                    return secure
                }
                return url
            }
        }
        let entityImages = (product?.images ?? []) + (recipe?.images ?? []) + (event?.images ?? [])
            + (article?.images ?? []) + (business?.images ?? [])
        return entityImages.first
    }

    private func nonEmpty(_ s: String?) -> String? {
        guard let s else { return nil }
        let t = WebMarkupText.collapse(s)
        return t.isEmpty ? nil : t
    }

    // MARK: Building

    /// The text trimmed of ASCII whitespace, or nil when nothing is left.
    static func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimmingASCIIWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }

    init(pageURL: URL, charset: HTMLCharset, charsetSource: String, markup: HTMLMarkupReader.Result) {
        self.pageURL = pageURL
        self.charset = charset
        self.charsetSource = charsetSource
        title = markup.title.flatMap { $0.isEmpty ? nil : $0 }
        issues = markup.issues
        baseURL = markup.baseHref.flatMap { WebMarkupURLs.resolve($0, base: pageURL) } ?? pageURL
        var metaDescription: String?, keywords: [String] = [], og: [String: String] = [:], twitter: [String: String] = [:]
        var tags: [String] = [], links = WebAppLinks(), banner: WebSmartAppBanner?, articleMeta: [String: String] = [:]
        var deviceLinks: [String: String] = [:]
        // A blank `content` is absent: templates emit an empty tag that a later one fills, and the first of each counts.
        for (key, content) in markup.metas where !content.utf8.allSatisfy(isASCIIWhitespace) {
            switch key {
            case "description": if metaDescription == nil { metaDescription = WebMarkupText.collapse(content) }
            case "keywords", "news_keywords": keywords.append(content)
            case "article:tag": tags.append(content)
            // An empty value is absent (the banner's then applies), as the banner's own empty fields are.
            // Only a link the app may follow: a `javascript:` one must not hide the per-device links below.
            case "al:ios:url":
                if links.iosURL == nil, let url = Self.nonEmpty(content), WebMarkupURLs.isFollowableDeepLink(url) {
                    links.iosURL = url
                }
            case "al:ios:app_store_id": if links.appStoreID == nil { links.appStoreID = Self.nonEmpty(content) }
            case "al:ios:app_name":
                if links.appName == nil { links.appName = Self.nonEmpty(WebMarkupText.collapse(content)) }
            case _ where key.hasPrefix("al:iphone:") || key.hasPrefix("al:ipad:"):
                if deviceLinks[key] == nil { deviceLinks[key] = content }
            case "apple-itunes-app": if banner == nil { banner = WebSmartAppBanner(content: content) }
            // Applebot honours `robots` and its own `applebot` (Apple's crawler docs); `none` is `noindex, nofollow`.
            case "robots", "applebot":
                let directives = content.lowercased().split(whereSeparator: { $0 == "," || isASCIIWhitespace($0.asciiValue ?? 0) })
                if noIndexMeta == nil, directives.contains("noindex") || directives.contains("none") { noIndexMeta = key }
            case _ where key.hasPrefix("og:"): if og[key] == nil { og[key] = content }
            case _ where key.hasPrefix("article:"): if articleMeta[key] == nil { articleMeta[key] = content }
            case _ where key.hasPrefix("twitter:"): if twitter[key] == nil { twitter[key] = content }
            default: break
            }
        }
        // App Links' per-device keys (`al:iphone:*`, then `al:ipad:*`) name the iOS app when `al:ios:*` does not.
        for device in ["iphone", "ipad"] {
            func value(_ field: String) -> String? { deviceLinks["al:\(device):\(field)"].flatMap(Self.nonEmpty) }
            if links.iosURL == nil, let url = value("url"), WebMarkupURLs.isFollowableDeepLink(url) { links.iosURL = url }
            links.appStoreID = links.appStoreID ?? value("app_store_id")
            links.appName = links.appName ?? value("app_name").map(WebMarkupText.collapse)
        }
        self.metaDescription = metaDescription
        metaKeywords = WebMarkupText.splitList(keywords)
        openGraph = og
        twitterCard = twitter
        articleTags = WebMarkupText.splitList(tags)
        self.articleMeta = articleMeta
        appLinks = links == WebAppLinks() ? nil : links
        smartAppBanner = banner
        // After every block is read (a site's Organization block is often referred to by `@id` from another
        // block), against the page's base, which relative `@id`s name entities of.
        jsonLD = SchemaNode.resolvingReferences(markup.jsonLD, base: baseURL, blocks: markup.jsonLDBlocks)
        microdata = markup.microdata
        textContent = markup.text
        textTruncated = markup.textTruncated

        canonicalURL = nil
        if let href = markup.canonicalHref {
            if let url = WebMarkupURLs.resolve(href, base: baseURL, dropFragment: true), WebMarkupURLs.sameSite(url.host, pageURL.host) {
                canonicalURL = url
            } else if issues.count < WebMarkupIssue.maximumCount {
                issues.append(WebMarkupIssue(kind: .ignoredURL, message:
                    "the canonical link '\(href.prefix(200))' is not an http(s) URL on \(pageURL.host ?? "the page's host"); the page URL identifies the page"))
            }
        }

        let base = baseURL
        var ogURL: URL?
        if let text = og["og:url"], let url = WebMarkupURLs.resolve(text, base: base, dropFragment: true),
           WebMarkupURLs.sameSite(url.host, pageURL.host) {
            ogURL = url
        }
        openGraphURL = ogURL
        identifierURL = canonicalURL ?? ogURL
            ?? WebMarkupURLs.resolve(pageURL.absoluteString, base: nil, dropFragment: true) ?? pageURL

        let entities = jsonLD + markup.microdata
        // A page object's `mainEntity` is what the page is about (shops nest their Product in an ItemPage), and so
        // is an entity, top-level or nested, whose `mainEntityOfPage` names this page: these claimed subjects come
        // first, then the top-level entities in page order (a promotion's or related product's markup before the
        // page's own must not win); other nested entities (offers, brands, authors) stay properties.
        let pageNames = Set([WebMarkupURLs.resolve(pageURL.absoluteString, base: nil, dropFragment: true), identifierURL,
                             canonicalURL, ogURL].compactMap { $0?.absoluteString })
        var walked: Set<String> = [], namingThePage: [SchemaNode] = [], claimed: [SchemaNode] = []
        for entity in entities {
            let nested = Self.nestedMainEntities(of: entity, pageNames: pageNames, base: base, walked: &walked)
            let named = (Self.namesPage(entity, pageNames: pageNames, base: base) ? [entity] : []) + nested
            namingThePage += named
            claimed += (entity.isA(Self.webPageTypes) ? entity.nodes("mainEntity") : []) + named
        }
        // A claimed entity reached by `@id` is its top-level definition, whose inline entities' references (an
        // Event's Place naming its address by `@id`) are resolved too; the reference's copy resolves only its own.
        // Ids are keyed as references resolve them (`#e` and its absolute form are one node).
        // Blank node ids (`_:b0`) are left out: each block numbers its own, so one may name another block's node.
        var topLevelByID: [String: SchemaNode] = [:]
        for entity in jsonLD {
            if let id = entity.string("@id").map({ SchemaNode.nodeKey($0, base: base) }), !id.hasPrefix("_:"),
               topLevelByID[id] == nil {
                topLevelByID[id] = entity
            }
        }
        let subjects = claimed.map { claim in
            claim.string("@id").flatMap { topLevelByID[SchemaNode.nodeKey($0, base: base)] } ?? claim
        } + entities
        product = subjects.first(where: { $0.isA(WebProduct.types) }).map { WebProduct($0, base: base) }
        recipe = subjects.first(where: { $0.isA(WebRecipe.types) }).map { WebRecipe($0, base: base) }
        event = subjects.first(where: WebEvent.matches).map { WebEvent($0, base: base) }
        business = Self.subjectBusiness(among: entities, namingThePage: namingThePage).map { WebBusiness($0, base: base) }
        article = subjects.first(where: { $0.isA(WebArticle.types) }).map { WebArticle($0, base: base) }
        // A top-level BreadcrumbList, else one a page object holds as its `breadcrumb` (schema.org's own example).
        let pageBreadcrumbs = entities.filter { $0.isA(Self.webPageTypes) }.flatMap { $0.nodes("breadcrumb") }
        breadcrumbs = (entities + pageBreadcrumbs).first(where: { $0.isA(["BreadcrumbList"]) }).map(Self.breadcrumbNames) ?? []
    }

    /// The entities nested in `entity` whose `mainEntityOfPage` names this page (a URL, `{"@id": url}`, or a
    /// WebPage with that `@id` or `url`): an Offer's `itemOffered` or a list's item can say it is the page's subject.
    /// An entity with an `@id` is walked once per page (`walked`), so references resolved into many places keep
    /// the walk linear.
    static func nestedMainEntities(of entity: SchemaNode, pageNames: Set<String>, base: URL,
                                   walked: inout Set<String>) -> [SchemaNode] {
        var found: [SchemaNode] = []
        func visit(_ node: SchemaNode) {
            for values in node.properties.values {
                for case .node(let child) in values {
                    if let id = child.string("@id"), !walked.insert(id).inserted { continue }
                    if namesPage(child, pageNames: pageNames, base: base) { found.append(child) }
                    visit(child)
                }
            }
        }
        visit(entity)
        return found
    }

    /// Whether `node`'s `mainEntityOfPage` is one of `pageNames` (this page's URLs, no fragment): as text,
    /// `{"@id": url}`, or a WebPage with that `@id` or `url`, resolved against `base`.
    static func namesPage(_ node: SchemaNode, pageNames: Set<String>, base: URL) -> Bool {
        node.values("mainEntityOfPage").contains { value in
            let names: [String]
            switch value {
            case .text(let text): names = [text]
            case .node(let page): names = [page.string("@id"), page.string("url")].compactMap { $0 }
            }
            return names.contains { name in
                WebMarkupURLs.resolve(name, base: base, dropFragment: true).map { pageNames.contains($0.absoluteString) } == true
            }
        }
    }

    /// Page types of schema.org: the entity that says what a page is about.
    static let webPageTypes: Set<String> = [
        "WebPage", "AboutPage", "CheckoutPage", "CollectionPage", "ContactPage", "FAQPage", "ItemPage", "MedicalWebPage",
        "ProfilePage", "QAPage", "RealEstateListing", "SearchResultsPage",
    ]

    /// The Organization or LocalBusiness the page is about. Sites put their Organization on every page (a
    /// WebSite's publisher, logo markup), so it is the subject when the page's WebPage names it as its
    /// `mainEntity` or `about`, or it names the page through `mainEntityOfPage` (`namingThePage`, top-level or nested),
    /// or, unless a WebPage names something else, when no other top-level entity names it
    /// as its publisher, author, brand... (`attributionProperties`): by its `@id`, or, when it has none, by an
    /// inline organization of the same name or URL (a template's WebSite publisher next to an Organization block).
    /// WebSite markup alone says nothing of the subject: Google asks for it on a business's own home page.
    static func subjectBusiness(among entities: [SchemaNode], namingThePage: [SchemaNode] = []) -> SchemaNode? {
        let subjects = entities.filter { $0.isA(webPageTypes) }.flatMap { $0.values("mainEntity") + $0.values("about") }
        for case .node(let node) in subjects where node.isA(WebBusiness.types) { return node }
        // One that names this page as the page it is the main entity of says so itself, publisher of the site or not.
        if subjects.isEmpty, let named = namingThePage.first(where: { $0.isA(WebBusiness.types) }) { return named }
        guard subjects.isEmpty else { return nil }
        var attributed: Set<String> = [], attributedInline: Set<String> = []
        for entity in entities {
            for property in attributionProperties {
                for case .node(let node) in entity.values(property) {
                    if let id = node.string("@id") { attributed.insert(id) }
                    if node.isA(WebBusiness.types) { attributedInline.formUnion(sameOrganizationKeys(node)) }
                }
            }
        }
        return entities.first { entity in
            guard entity.isA(WebBusiness.types) else { return false }
            if let id = entity.string("@id") { return !attributed.contains(id) }
            return attributedInline.isDisjoint(with: sameOrganizationKeys(entity))
        }
    }

    /// What tells one organization written twice without an `@id`: its name and its URL, compared case-insensitively.
    private static func sameOrganizationKeys(_ node: SchemaNode) -> [String] {
        [node.string("name").map { "name " + $0 }, node.string("url").map { "url " + $0 }]
            .compactMap { $0.map { WebMarkupText.collapse($0).lowercased() } }
    }

    /// Properties that name an organization as who made, published, sold or stands behind another entity: one so
    /// named is not the page's subject. Others, such as a Review's `itemReviewed`, do not say so.
    static let attributionProperties = [
        "publisher", "sdPublisher", "author", "creator", "contributor", "editor", "brand", "manufacturer", "producer",
        "provider", "seller", "offeredBy", "sourceOrganization", "copyrightHolder", "parentOrganization", "funder",
        "sponsor", "worksFor", "memberOf", "affiliation",
    ]

    /// The names of a BreadcrumbList's items sorted by `position` (page order when absent).
    static func breadcrumbNames(_ list: SchemaNode) -> [String] {
        let items = list.nodes("itemListElement").enumerated().map { index, element -> (Double, Int, String?) in
            let name = element.string("name") ?? element.node("item")?.string("name")
            return (element.number("position") ?? Double(index + 1), index, name)
        }
        return items.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.compactMap { $0.2.map(WebMarkupText.collapse) }.filter { !$0.isEmpty }
    }
}
