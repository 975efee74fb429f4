import Foundation

/// Maps a page's extraction to one `CSSearchableItem` (the choices are listed in this folder's README).
enum WebPageItemMapping {
    /// Bounds on what one page may put into an item's short attributes (bytes, list length).
    static let maximumShortText = 1024
    static let maximumDescription = 4096
    static let maximumListEntries = 100
    /// The longest deep link kept (as `WebMarkupURLs.resolve` reads URLs).
    static let maximumLinkBytes = 8192

    static func item(from page: WebPageExtraction, descriptionFallbackLength: Int) -> CSSearchableItem {
        let event = page.event
        let isEvent = event != nil && page.product == nil && page.recipe == nil && page.article == nil
        // Organization details describe the page only when it is about the organization itself (see
        // `WebPageExtraction.subjectBusiness`), and never next to an article, product, recipe or event.
        let business = page.product == nil && page.recipe == nil && page.article == nil && !isEvent ? page.business : nil
        let set = CSSearchableItemAttributeSet(contentType: isEvent ? .calendarEvent : .html)
        var custom: [CSCustomAttributeKey: AttributeValue] = [:]
        let title = page.bestTitle.map(short)
        set.title = title
        set.displayName = title
        set.contentDescription = (page.bestDescription
            ?? (page.textContent.isEmpty ? nil : WebMarkupText.snippet(page.textContent, limit: descriptionFallbackLength)))
            .map { WebMarkupText.clip($0, bytes: maximumDescription) }
        set.thumbnailURL = page.bestImage
        set.contentURL = page.pageURL
        set.url = page.identifierURL
        if !page.textContent.isEmpty { set.textContent = page.textContent }

        var keywords = page.metaKeywords + page.articleTags + (page.article?.keywords ?? []) + page.breadcrumbs
        keywords = short(WebMarkupText.distinct(keywords))
        if !keywords.isEmpty { set.keywords = keywords }
        var trail = short(page.breadcrumbs)
        if let last = trail.last, trail.count > 1, last.caseInsensitiveCompare(title ?? "") == .orderedSame { trail.removeLast() }
        if !trail.isEmpty { set.containerTitle = WebMarkupText.clip(trail.joined(separator: " › "), bytes: maximumDescription) }
        if let site = page.openGraph["og:site_name"].map(WebMarkupText.collapse), !site.isEmpty {
            set.containerDisplayName = short(site)
        }

        if let article = page.article {
            set.headline = article.headline.map(short)
            if !article.authors.isEmpty {
                set.authorNames = short(article.authors)
            }
            set.contentCreationDate = article.datePublished
            set.contentModificationDate = article.dateModified
            if let publisher = article.publisher { set.publishers = [short(publisher)] }
        }
        if page.article == nil {
            // Open Graph article metadata, for pages without a schema.org article.
            set.contentCreationDate = page.articleMeta["article:published_time"].flatMap(SchemaTime.date)
            set.contentModificationDate = page.articleMeta["article:modified_time"].flatMap(SchemaTime.date)
            if let author = page.articleMeta["article:author"].map(WebMarkupText.collapse), !author.isEmpty,
               !author.hasPrefix("http") {
                set.authorNames = [short(author)]
            }
        }
        if let recipe = page.recipe {
            if set.authorNames == nil, !recipe.authors.isEmpty {
                set.authorNames = short(recipe.authors)
            }
            if let total = recipe.totalTime { set.duration = NSNumber(value: total) }
            if !recipe.ingredients.isEmpty {
                custom[WebMarkupAttributeKeys.ingredients] = .strings(short(recipe.ingredients))
            }
            if let yield = recipe.yield { custom[WebMarkupAttributeKeys.recipeYield] = .string(short(yield)) }
        }
        if let product = page.product {
            if let brand = product.brand { set.organizations = [short(brand)] }
            if let price = product.price { custom[WebMarkupAttributeKeys.price] = .number(.double(price)) }
            if let currency = product.priceCurrency { custom[WebMarkupAttributeKeys.priceCurrency] = .string(short(currency)) }
            if let availability = product.availability {
                custom[WebMarkupAttributeKeys.availability] = .string(short(availability))
            }
        }
        if let rating = page.product?.rating ?? page.recipe?.rating ?? business?.rating {
            set.rating = NSNumber(value: rating.normalized)
            set.ratingDescription = rating.summary
        }
        if let event, isEvent {
            set.startDate = event.startDate
            set.endDate = event.endDate
            if event.isAllDay { set.allDay = NSNumber(value: true) }
            set.namedLocation = event.locationName.map(short)
            apply(event.address, to: set)
        }
        if let business {
            set.namedLocation = business.name.map(short)
            if let phone = business.telephone {
                set.phoneNumbers = [short(phone)]
                set.supportsPhoneCall = NSNumber(value: true)
            }
            if let lat = business.latitude, let lon = business.longitude {
                set.latitude = NSNumber(value: lat)
                set.longitude = NSNumber(value: lon)
                set.supportsNavigation = NSNumber(value: true)
            }
            apply(business.address, to: set)
        }

        // A link cut short would open the wrong place: one longer than any page URL read (8 KiB) is dropped. (One
        // that would run script or read local data is no `deepLink`: `WebMarkupURLs.isFollowableDeepLink`.)
        if let deepLink = page.deepLink, deepLink.utf8.count <= maximumLinkBytes {
            custom[WebMarkupAttributeKeys.deepLink] = .string(deepLink)
        }
        if let appID = page.appStoreID { custom[WebMarkupAttributeKeys.appStoreID] = .string(short(appID)) }
        if let appName = page.appName { custom[WebMarkupAttributeKeys.appName] = .string(short(appName)) }
        custom[WebMarkupAttributeKeys.source] = .string(page.pageURL.absoluteString)
        custom[WebMarkupAttributeKeys.markup] = .strings(markupKinds(page))
        // Stored directly (the public setter's dynamic casts cost more than the rest of the mapping).
        var storage = set.snapshot
        for (key, value) in custom { storage.custom[key.keyName] = CustomAttributeEntry(key: key.info, slot: .value(value)) }
        set.replaceStorage(storage)

        return CSSearchableItem(uniqueIdentifier: page.identifierURL.absoluteString,
                                domainIdentifier: domainIdentifier(for: page.pageURL), attributeSet: set)
    }

    /// A text clipped to `maximumShortText`: every text the item keeps is bounded, not only the title and keywords.
    private static func short(_ text: String) -> String { WebMarkupText.clip(text, bytes: maximumShortText) }

    /// A list of short texts: each clipped to `maximumShortText`, at most `maximumListEntries` of them.
    private static func short(_ texts: [String]) -> [String] {
        WebMarkupText.clip(texts, bytes: maximumShortText, count: maximumListEntries)
    }

    private static func apply(_ address: WebPostalAddress?, to set: CSSearchableItemAttributeSet) {
        guard let address else { return }
        set.thoroughfare = address.street.map(short)
        set.city = address.city.map(short)
        set.stateOrProvince = address.region.map(short)
        set.postalCode = address.postalCode.map(short)
        set.country = address.country.map(short)
        set.fullyFormattedAddress = WebMarkupText.clip(address.formatted, bytes: maximumDescription)
    }

    /// The page's host, lowercased, as a dotted domain identifier (nil when it would not be a valid one).
    static func domainIdentifier(for url: URL) -> String? {
        guard var host = url.host?.lowercased() else { return nil }
        while host.hasSuffix(".") { host.removeLast() }
        return CSSearchableItem.domainProblem(host) == nil ? host : nil
    }

    static func markupKinds(_ page: WebPageExtraction) -> [String] {
        var kinds: [String] = []
        if page.title != nil { kinds.append("title") }
        if page.metaDescription != nil || !page.metaKeywords.isEmpty || page.canonicalURL != nil { kinds.append("meta") }
        if !page.openGraph.isEmpty { kinds.append("open-graph") }
        if !page.twitterCard.isEmpty { kinds.append("twitter-card") }
        if page.appLinks != nil { kinds.append("app-links") }
        if page.smartAppBanner != nil { kinds.append("smart-app-banner") }
        if !page.jsonLD.isEmpty { kinds.append("json-ld") }
        if !page.microdata.isEmpty { kinds.append("microdata") }
        return kinds
    }
}
