import Foundation

/// Mirror of `CSLocalizedString`: one string in several languages, resolved for the current language.
///
/// Apple's class subclasses `NSString`, which cannot be done portably; this is a value type convertible to
/// `String` (`localizedString()`, `String(describing:)`), accepted as a custom attribute value.
public struct CSLocalizedString: Sendable, Hashable, CustomStringConvertible {
    /// Language code (BCP 47, e.g. `"en"`, `"fr-CA"`) → string.
    public let localizedStrings: [String: String]

    /// Keys and values that are not strings are ignored, as Apple documents string-to-string dictionaries.
    public init(localizedStrings: [AnyHashable: Any]) {
        var table: [String: String] = [:]
        for (key, value) in localizedStrings {
            if let k = key.base as? String, let v = value as? String { table[k] = v }
        }
        self.localizedStrings = table
    }

    /// The string for the process's preferred languages (`Locale.preferredLanguages`).
    public func localizedString() -> String {
        localizedString(preferredLanguages: Locale.preferredLanguages)
    }

    /// Resolver: the first preferred language with an exact entry, then its base language (`fr` for `fr-CA`),
    /// then English, then the alphabetically first entry; empty if there are none.
    public func localizedString(preferredLanguages: [String]) -> String {
        for language in preferredLanguages {
            if let s = localizedStrings[language] { return s }
            let base = String(language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
            if let s = localizedStrings[base] { return s }
        }
        if let s = localizedStrings["en"] { return s }
        return localizedStrings.keys.sorted().first.flatMap { localizedStrings[$0] } ?? ""
    }

    public var description: String { localizedString() }
}

extension String {
    /// The localized string for the current language, so a `CSLocalizedString` can be assigned to text attributes.
    public init(_ localized: CSLocalizedString) { self = localized.localizedString() }
}
