import Foundation

/// App Links (`al:ios:url`, `al:ios:app_store_id`, `al:ios:app_name`): how a page says which app shows it.
public struct WebAppLinks: Sendable, Hashable {
    /// The custom-scheme or universal link that opens this content in the app.
    public var iosURL: String?
    public var appStoreID: String?
    public var appName: String?
}

/// Safari's Smart App Banner: `<meta name="apple-itunes-app" content="app-id=123, app-argument=myapp://x">`.
public struct WebSmartAppBanner: Sendable, Hashable {
    public var appID: String
    /// Passed to the app when it opens from the banner; Searchlight uses it as the deep link.
    public var appArgument: String?

    /// Parses the banner's `content`; nil without an `app-id`.
    init?(content: String) {
        var appID: String?, argument: String?
        // The argument is a URL that may itself contain commas, so it runs to the end once reached.
        var rest = Substring(content)
        while !rest.isEmpty {
            let trimmed = rest.drop(while: { $0 == " " || $0 == "," || $0 == "\t" })
            if trimmed.prefix(13).lowercased() == "app-argument=" {  // look at the prefix only: linear overall
                argument = String(trimmed.dropFirst("app-argument=".count)).trimmingASCIIWhitespace()
                break
            }
            let part = trimmed.prefix(while: { $0 != "," })
            rest = trimmed.dropFirst(part.count)
            if let eq = part.firstIndex(of: "=") {
                let key = part[..<eq].trimmingCharacters(in: .whitespaces).lowercased()
                let value = part[part.index(after: eq)...].trimmingCharacters(in: .whitespaces)
                if key == "app-id", !value.isEmpty { appID = value }
            }
        }
        guard let appID else { return nil }
        self.appID = appID
        appArgument = argument.flatMap { $0.isEmpty ? nil : $0 }
    }
}
