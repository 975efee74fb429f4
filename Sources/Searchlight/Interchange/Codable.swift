/// `Codable` for items and attribute sets, in the interchange shape of `ItemJSON`. The fast paths for files are
/// `JSONLinesReader` / `JSONLinesWriter`; this is for apps that embed items in their own `Codable` models.
/// (Through `JSONDecoder` an integral double such as `2.0` may come back as an integer `NSNumber`.)
extension CSSearchableItem: Codable {
    public func encode(to encoder: any Encoder) throws {
        try ItemJSON.jsonValue(for: self).encode(to: encoder)
    }
}

extension CSSearchableItemAttributeSet: Codable {
    public func encode(to encoder: any Encoder) throws {
        try ItemJSON.jsonValue(for: self).encode(to: encoder)
    }
}
