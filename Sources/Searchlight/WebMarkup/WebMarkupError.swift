import Foundation

/// Why a page could not be turned into an item. Every message names the page and, where there is one, the place
/// in it (1-based line and byte column of the decoded page).
public struct WebMarkupError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
    public enum Code: String, Sendable, Hashable {
        /// The page has no bytes (or only a byte-order mark and whitespace).
        case emptyPage
        /// The page is larger than `WebMarkupIndexer.Options.maximumPageBytes`.
        case pageTooLarge
        /// The caller's URL is not an absolute http(s) URL with a host.
        case invalidPageURL
        /// The transport or the page declares a charset Searchlight does not decode.
        case unsupportedCharset
        /// The page asks not to be indexed: `<meta name="robots">` (or `applebot`, which Applebot honours) says
        /// `noindex` or `none`. Only `items(fromPages:)` and `index(pages:)` skip it; the page is readable.
        case noIndex
    }

    public var code: Code
    /// The page's URL as the caller gave it.
    public var page: String
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(_ code: Code, page: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.code = code
        self.page = page
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        let place = line.map { l in column.map { " line \(l), column \($0)" } ?? " line \(l)" } ?? ""
        return "page \(page)\(place): \(message)"
    }

    public var errorDescription: String? { description }
}

/// Something the reader noticed and worked around while still producing an item (bad JSON-LD, an ignored
/// canonical link, truncated text...). Kept in `WebPageExtraction.issues`, at most `maximumCount` per page.
public struct WebMarkupIssue: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case invalidJSONLD
        case ignoredURL
        case invalidUTF8
        case nestingTooDeep
        case textTruncated
    }

    public static let maximumCount = 32

    public var kind: Kind
    public var line: Int?
    public var column: Int?
    public var message: String

    public var description: String {
        let place = line.map { l in column.map { "line \(l), column \($0): " } ?? "line \(l): " } ?? ""
        return "\(kind.rawValue): \(place)\(message)"
    }
}
