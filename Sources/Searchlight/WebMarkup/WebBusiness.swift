import Foundation

/// A schema.org `Organization` or `LocalBusiness` (and their common subtypes): who to call and where to go.
public struct WebBusiness: Sendable, Hashable {
    public var types: [String]
    public var name: String?
    public var description: String?
    public var images: [URL]
    public var telephone: String?
    public var latitude: Double?
    public var longitude: Double?
    public var address: WebPostalAddress?
    public var rating: WebRating?

    static let types: Set<String> = [
        "Organization", "LocalBusiness", "Corporation", "NGO", "Restaurant", "CafeOrCoffeeShop", "Bakery", "BarOrPub",
        "FoodEstablishment", "Store", "ClothingStore", "BookStore", "GroceryStore", "HardwareStore", "Hotel",
        "LodgingBusiness", "MedicalBusiness", "Dentist", "Physician", "Pharmacy", "AutoRepair", "HealthAndBeautyBusiness",
        "ProfessionalService", "LegalService", "FinancialService", "Library", "Museum", "SportsActivityLocation",
        "EntertainmentBusiness", "HomeAndConstructionBusiness", "Place", "TouristAttraction",
    ]

    init(_ node: SchemaNode, base: URL?) {
        types = node.types
        name = node.string("name")
        description = node.string("description")
        images = WebMarkupURLs.images(of: node, base: base) + WebMarkupURLs.addresses(of: node, "logo", base: base)
        telephone = node.string("telephone").map { $0.lowercased().hasPrefix("tel:") ? String($0.dropFirst(4)) : $0 }
        if let geo = node.node("geo") {
            let lat = geo.number("latitude"), lon = geo.number("longitude")
            if let lat, let lon, (-90...90).contains(lat), (-180...180).contains(lon) {
                latitude = lat
                longitude = lon
            }
        }
        address = WebPostalAddress(node.values("address").first)
        rating = WebRating(of: node)
    }
}
