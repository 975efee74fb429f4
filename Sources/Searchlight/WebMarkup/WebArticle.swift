import Foundation

/// A schema.org `Article`, `NewsArticle`, `BlogPosting` or similar.
public struct WebArticle: Sendable, Hashable {
    public var types: [String]
    public var headline: String?
    public var description: String?
    public var images: [URL]
    public var authors: [String]
    public var datePublished: Date?
    public var dateModified: Date?
    public var publisher: String?
    /// `keywords` (an array, or one comma-separated text) and `articleSection`.
    public var keywords: [String]

    static let types: Set<String> = [
        "Article", "NewsArticle", "BlogPosting", "TechArticle", "ScholarlyArticle", "Report", "SocialMediaPosting",
        "LiveBlogPosting", "AnalysisNewsArticle", "OpinionNewsArticle", "ReviewNewsArticle", "ReportageNewsArticle",
    ]

    init(_ node: SchemaNode, base: URL?) {
        types = node.types
        headline = node.string("headline") ?? node.string("name")
        description = node.string("description")
        images = WebMarkupURLs.images(of: node, base: base)
        authors = node.strings("author")
        datePublished = node.string("datePublished").flatMap(SchemaTime.date)
        dateModified = node.string("dateModified").flatMap(SchemaTime.date)
        publisher = node.string("publisher")
        keywords = WebMarkupText.splitList(node.strings("keywords")) + node.strings("articleSection")
    }
}
