import Foundation

/// URL handling shared by the extractors: resolving page-relative references and keeping only web URLs.
enum WebMarkupURLs {
    /// `reference` resolved against `base`, only if the result is an http(s) URL with a host; fragment dropped
    /// when `dropFragment`.
    static func resolve(_ reference: String, base: URL?, dropFragment: Bool = false) -> URL? {
        let text = reference.trimmingASCIIWhitespace()
        guard !text.isEmpty, text.utf8.count <= 8192 else { return nil }
        // Foundation's percent-encoding is slow on Linux; most page URLs need none.
        let encoded = needsEncoding(text) ? text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text : text
        guard let url = URL(string: encoded, relativeTo: base)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else { return nil }
        // Scheme and host are case-insensitive: lowercase them so one page has one identifier.
        let needsLowercasing = scheme != url.scheme || host.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A })
        let dropsFragment = dropFragment && url.fragment != nil
        guard needsLowercasing || dropsFragment,
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        if dropsFragment { components.fragment = nil }
        if needsLowercasing {
            components.scheme = scheme
            components.host = components.host?.lowercased()
        }
        return components.url ?? url
    }

    /// Characters left as they are when a page's URL text is made parseable (everything legal in a URL, plus `%`).
    private static let allowed: CharacterSet = {
        var set = CharacterSet.urlQueryAllowed
        set.formUnion(.urlPathAllowed)
        set.formUnion(.urlFragmentAllowed)
        set.insert(charactersIn: "%#?/:@[]!$&'()*+,;=")
        return set
    }()

    /// Whether `text` has a byte `URL(string:)` would refuse: controls, space, non-ASCII, `"<>\\^`{|}`.
    private static func needsEncoding(_ text: String) -> Bool {
        for b in text.utf8 {
            if b <= 0x20 || b >= 0x7F { return true }
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"),
                 UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
                return true
            default:
                continue
            }
        }
        return false
    }

    static func urls(_ texts: [String], base: URL?) -> [URL] {
        texts.compactMap { resolve($0, base: base) }
    }

    /// The `image` values of a node: URLs as text or ImageObjects with `url`/`contentUrl`.
    static func images(of node: SchemaNode, base: URL?) -> [URL] {
        addresses(of: node, "image", base: base)
    }

    /// The addresses `property` names (`SchemaValue.address`), resolved against `base`.
    static func addresses(of node: SchemaNode, _ property: String, base: URL?) -> [URL] {
        urls(node.values(property).compactMap(\.address), base: base)
    }

    /// Whether a page's deep link may be followed: it names a scheme, and not one that runs script or reads local
    /// or in-memory data when opened (`javascript:`, `vbscript:`, `data:`, `file:`, `blob:`, `about:`); a page's
    /// author picks the link, the app opens it.
    static func isFollowableDeepLink(_ text: String) -> Bool {
        guard let scheme = URL(string: text)?.scheme?.lowercased() else { return false }
        return !unfollowableSchemes.contains(scheme)
    }

    private static let unfollowableSchemes: Set<String> = ["javascript", "vbscript", "data", "file", "blob", "about"]

    /// Whether two hosts are the same site, ignoring case and a leading `www.`.
    static func sameSite(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return false }
        func bare(_ h: String) -> String {
            let l = h.lowercased()
            return l.hasPrefix("www.") ? String(l.dropFirst(4)) : l
        }
        return bare(a) == bare(b)
    }
}
