/// The custom attributes Searchlight adds to items read from web pages (none exist in Core Spotlight's catalogue).
public enum WebMarkupAttributeKeys {
    /// The app deep link from App Links (`al:ios:url`) or the Smart App Banner (`app-argument`): continuation
    /// opens it when the app is installed, otherwise the item's `url`.
    public static let deepLink = key("webDeepLink")
    /// Provenance: the URL the page was read from, as the caller gave it.
    public static let source = key("webSource")
    /// Provenance: which markup the item was built from (`title`, `meta`, `open-graph`, `twitter-card`,
    /// `app-links`, `smart-app-banner`, `json-ld`, `microdata`).
    public static let markup = key("webMarkup", multiValued: true)
    /// The App Store id from App Links or the Smart App Banner.
    public static let appStoreID = key("webAppStoreID")
    /// The app's name from App Links.
    public static let appName = key("webAppName")
    /// A product's price (number) and currency (ISO 4217 code as written).
    public static let price = key("webPrice")
    public static let priceCurrency = key("webPriceCurrency")
    /// A product's availability (`InStock`, `OutOfStock`, ...).
    public static let availability = key("webAvailability")
    /// A recipe's ingredients, searched by free text so "basil" finds recipes that use it.
    public static let ingredients = key("webIngredients", searchableByDefault: true, multiValued: true)
    /// A recipe's yield as written (`4 servings`).
    public static let recipeYield = key("webRecipeYield")

    private static func key(_ name: String, searchableByDefault: Bool = false, multiValued: Bool = false) -> CSCustomAttributeKey {
        assert(CustomAttributeKeyInfo.problem(withKeyName: name) == nil, "invalid built-in key name \(name)")
        return CSCustomAttributeKey(info: CustomAttributeKeyInfo(keyName: name, isSearchable: true,
                                                                 isSearchableByDefault: searchableByDefault,
                                                                 isUnique: false, isMultiValued: multiValued))
    }
}
