import Foundation

/// Does a crawler's work for pages an app or a server hands it: reads the markup of each page and indexes one
/// searchable item per page, by default into the public web index (`CSSearchableIndex.publicIndex()`), kept apart
/// from the items apps index themselves.
///
/// ```swift
/// let indexer = WebMarkupIndexer()
/// let item = try indexer.item(fromHTML: data, url: URL(string: "https://www.example.com/p/42")!)
/// let report = try await indexer.index(pages: [WebPage(data: data, url: pageURL)])
/// ```
public struct WebMarkupIndexer: Sendable {
    public struct Options: Sendable, Hashable {
        /// Larger pages are refused with `WebMarkupError.Code.pageTooLarge`.
        public var maximumPageBytes = 64 << 20
        /// The visible text kept as `textContent`, at most (UTF-8 bytes; cut on a word boundary).
        public var maximumTextBytes = 64 << 10
        /// Length of the description made from the text when the page has none (characters).
        public var descriptionFallbackLength = 240

        public init() {}
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Reads a page: charset, markup, entities. `contentType` is the transport's `Content-Type` (its `charset`
    /// parameter outranks the page's own declaration, as in browsers).
    public func extract(html data: Data, url: URL, contentType: String? = nil) throws(WebMarkupError) -> WebPageExtraction {
        let page = url.absoluteString
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw WebMarkupError(.invalidPageURL, page: page, message: "the page URL must be an absolute http or https URL with a host")
        }
        guard data.count <= options.maximumPageBytes else {
            throw WebMarkupError(.pageTooLarge, page: page,
                                 message: "the page has \(data.count) bytes, more than the limit of \(options.maximumPageBytes)")
        }
        let transportLabel = contentType.flatMap(HTMLCharsetDetection.charsetParameter)
        let result: Result<WebPageExtraction, WebMarkupError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let detection: HTMLCharsetDetection
            do throws(HTMLCharsetDetection.Unsupported) {
                detection = try HTMLCharsetDetection.detect(bytes, transportLabel: transportLabel)
            } catch {
                var line: Int?, column: Int?
                var place = "the Content-Type '\(contentType ?? "")'"
                if let offset = error.offset {
                    var locator = LineLocator(bytes: bytes)
                    (line, column) = locator.location(of: offset)
                    place = offset == 0 && error.label.hasPrefix("UTF-16") ? "the page" : "a <meta> tag"
                }
                return .failure(WebMarkupError(.unsupportedCharset, page: page, line: line, column: column, message:
                    "\(place) declares the charset '\(error.label)', which Searchlight does not decode "
                        + "(supported: UTF-8, ISO-8859-1, Windows-1252)"))
            }
            let body = UnsafeBufferPointer(rebasing: bytes[detection.skip...])
            var decoded = detection.charset.decodeToUTF8(body, knownValid: detection.source == .validUTF8)
            let repaired = detection.charset == .utf8 && detection.source != .validUTF8 && !HTMLCharset.isValidUTF8(body)
            let onlyWhitespace = !decoded.contains(where: { !isASCIIWhitespace($0) })
            if onlyWhitespace {
                return .failure(WebMarkupError(.emptyPage, page: page, message: "the page has no content"))
            }
            let markup = decoded.withUnsafeMutableBufferPointer { buffer in
                HTMLMarkupReader.read(UnsafeBufferPointer(buffer), maximumTextBytes: max(0, options.maximumTextBytes))
            }
            decoded = []
            var extraction = WebPageExtraction(pageURL: url, charset: detection.charset,
                                               charsetSource: detection.source.rawValue, markup: markup)
            if repaired, extraction.issues.count < WebMarkupIssue.maximumCount {
                extraction.issues.insert(WebMarkupIssue(kind: .invalidUTF8, message:
                    "the page is declared UTF-8 but has invalid byte sequences; they were replaced with U+FFFD"), at: 0)
            }
            return .success(extraction)
        }
        return try result.get()
    }

    /// The searchable item for a page (see `extract(html:url:contentType:)` and `item(from:)`).
    public func item(fromHTML data: Data, url: URL, contentType: String? = nil) throws(WebMarkupError) -> CSSearchableItem {
        item(from: try extract(html: data, url: url, contentType: contentType))
    }

    /// The searchable item for an extraction: identifier = canonical URL (else `og:url`, else the page URL),
    /// domain = the page's host; the README lists every attribute.
    public func item(from extraction: WebPageExtraction) -> CSSearchableItem {
        WebPageItemMapping.item(from: extraction, descriptionFallbackLength: max(1, options.descriptionFallbackLength))
    }

    /// Reads every page and indexes the items in one call (atomic: all or none). Pages that cannot be read are
    /// reported and skipped, the rest are indexed; two pages with the same identifier keep the later one.
    /// Throws only if the index refuses the items.
    public func index(pages: [WebPage], into index: CSSearchableIndex = .publicIndex()) async throws -> WebIndexingReport {
        let (items, failures) = items(fromPages: pages)
        if !items.isEmpty { try await index.indexSearchableItems(items) }
        return WebIndexingReport(indexedIdentifiers: items.map(\.uniqueIdentifier), failures: failures)
    }

    /// The items of `pages`, one per identifier: two pages with the same identifier (one canonical link) are one
    /// item, the later page's, in the earlier one's place. Pages that cannot be read, or that ask not to be indexed
    /// (`noindex` robots meta: `WebMarkupError.Code.noIndex`), are the failures, in order.
    public func items(fromPages pages: [WebPage]) -> (items: [CSSearchableItem], failures: [WebMarkupError]) {
        var items: [CSSearchableItem] = [], failures: [WebMarkupError] = [], positions: [String: Int] = [:]
        for page in pages {
            do throws(WebMarkupError) {
                let extraction = try extract(html: page.data, url: page.url, contentType: page.contentType)
                if let meta = extraction.noIndexMeta {
                    throw WebMarkupError(.noIndex, page: page.url.absoluteString, message:
                        "<meta name=\"\(meta)\"> says noindex; the page asks not to be indexed")
                }
                let item = self.item(from: extraction)
                if let earlier = positions[item.uniqueIdentifier] {
                    items[earlier] = item
                } else {
                    positions[item.uniqueIdentifier] = items.count
                    items.append(item)
                }
            } catch {
                failures.append(error)
            }
        }
        return (items, failures)
    }

    /// The URL continuation should open for a web item: its deep link when it has one the app may follow (not a
    /// `javascript:` or `file:` link, `WebMarkupURLs.isFollowableDeepLink`), otherwise the page.
    public static func continuationURL(for item: CSSearchableItem) -> URL? {
        if let link = item.attributeSet.value(forCustomKey: WebMarkupAttributeKeys.deepLink) as? NSString,
           WebMarkupURLs.isFollowableDeepLink(String(link)), let url = URL(string: String(link)) {
            return url
        }
        return item.attributeSet.url ?? item.attributeSet.contentURL
    }
}

/// A page handed to the indexer: its bytes, its URL and optionally the transport's `Content-Type`.
public struct WebPage: Sendable {
    public var data: Data
    public var url: URL
    public var contentType: String?

    public init(data: Data, url: URL, contentType: String? = nil) {
        self.data = data
        self.url = url
        self.contentType = contentType
    }
}

/// What `WebMarkupIndexer.index(pages:into:)` did.
public struct WebIndexingReport: Sendable {
    /// Identifiers of the items indexed, in page order.
    public var indexedIdentifiers: [String]
    /// Pages that could not be read, each error naming the page.
    public var failures: [WebMarkupError]
}
