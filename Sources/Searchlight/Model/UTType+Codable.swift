#if !canImport(UniformTypeIdentifiers)
/// `Codable` as Apple's `UTType` is, so ported models that hold a type still compile: a type is written as its
/// identifier and read back as the known type so named (in any case), else as a type of that name, registering
/// nothing, as reading an attribute does.
extension UTType: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let identifier = try container.decode(String.self)
        guard !identifier.isEmpty else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "An empty type identifier")
        }
        self = UTType(identifier) ?? UTType(named: identifier)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}
#endif
