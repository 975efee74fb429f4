import Foundation

/// App Links (`al:ios:url`, `al:ios:app_store_id`, `al:ios:app_name`): how a page says which app shows it.
public struct WebAppLinks: Sendable, Hashable {
    /// The custom-scheme or universal link that opens this content in the app (one it may follow: not `javascript:`,
    /// `file:`..., `WebMarkupURLs.isFollowableDeepLink`).
    public var iosURL: String?
    public var appStoreID: String?
    public var appName: String?
}

/// Safari's Smart App Banner: `<meta name="apple-itunes-app" content="app-id=123, app-argument=myapp://x">`.
public struct WebSmartAppBanner: Sendable, Hashable {
    public var appID: String
    /// Passed to the app when it opens from the banner; Searchlight uses it as the deep link.
    public var appArgument: String?

    /// The keys Safari reads from the banner's `content`.
    private static let keys: Set<String> = ["app-id", "app-argument", "affiliate-data", "app-clip-bundle-id", "app-clip-display"]

    /// Parses the banner's `content`, keys in any order; nil without an `app-id`. Keys and values are trimmed of
    /// ASCII whitespace, newlines included: an attribute value may run over several lines.
    init?(content: String) {
        var appID: String?, argument: Substring?, argumentRunsOn = false
        // The argument is a URL that may itself contain commas, so it runs on until a comma followed by a banner key.
        for part in content.split(separator: ",", omittingEmptySubsequences: false) {
            if let eq = part.firstIndex(of: "="),
               case let key = String(part[..<eq]).trimmingASCIIWhitespace().lowercased(), Self.keys.contains(key) {
                let value = part[part.index(after: eq)...]
                argumentRunsOn = key == "app-argument"
                if argumentRunsOn { argument = value }
                if key == "app-id", case let id = String(value).trimmingASCIIWhitespace(), !id.isEmpty { appID = id }
            } else if argumentRunsOn, let start = argument?.startIndex {
                argument = content[start..<part.endIndex]
            }
        }
        guard let appID else { return nil }
        self.appID = appID
        appArgument = argument.map { String($0).trimmingASCIIWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
    }
}
