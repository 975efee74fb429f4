/// One searchable item of the corpus, reduced to what both engines index.
///
/// The shape follows ../shared/corpus (Core Spotlight property names); missing fields read as empty so a
/// sparse item still indexes. Strings are shared between replicas, so `--replicate` costs little memory.
public struct CorpusItem: Sendable, Equatable {
    public var uniqueIdentifier: String
    public var domainIdentifier: String
    public var title: String
    public var displayName: String
    public var keywords: [String]
    public var contentDescription: String

    public init(
        uniqueIdentifier: String, domainIdentifier: String, title: String, displayName: String,
        keywords: [String], contentDescription: String
    ) {
        self.uniqueIdentifier = uniqueIdentifier
        self.domainIdentifier = domainIdentifier
        self.title = title
        self.displayName = displayName
        self.keywords = keywords
        self.contentDescription = contentDescription
    }
}

extension CorpusItem: Decodable {
    private enum Keys: String, CodingKey { case uniqueIdentifier, domainIdentifier, attributeSet }
    private enum AttributeKeys: String, CodingKey { case title, displayName, keywords, contentDescription }

    public init(from decoder: any Decoder) throws {
        let top = try decoder.container(keyedBy: Keys.self)
        uniqueIdentifier = try top.decode(String.self, forKey: .uniqueIdentifier)
        domainIdentifier = try top.decodeIfPresent(String.self, forKey: .domainIdentifier) ?? ""
        if top.contains(.attributeSet) {
            let attributes = try top.nestedContainer(keyedBy: AttributeKeys.self, forKey: .attributeSet)
            title = try attributes.decodeIfPresent(String.self, forKey: .title) ?? ""
            displayName = try attributes.decodeIfPresent(String.self, forKey: .displayName) ?? ""
            keywords = try attributes.decodeIfPresent([String].self, forKey: .keywords) ?? []
            contentDescription = try attributes.decodeIfPresent(String.self, forKey: .contentDescription) ?? ""
        } else {
            title = ""
            displayName = ""
            keywords = []
            contentDescription = ""
        }
    }
}
