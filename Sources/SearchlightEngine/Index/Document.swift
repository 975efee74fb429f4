/// One value of a field.
public enum FieldValue: Sendable, Equatable {
    case text(String)
    case number(Double)
    case bytes([UInt8])
}

/// A document as the engine sees it: an external id, an optional dotted domain, and field values.
/// A multi-valued attribute is the same field repeated; the order of values is kept.
public struct Document: Sendable, Equatable {
    public var id: String
    public var domain: String?
    public var values: [(FieldID, FieldValue)]

    public init(id: String, domain: String? = nil, values: [(FieldID, FieldValue)] = []) {
        self.id = id
        self.domain = domain
        self.values = values
    }

    public static func == (lhs: Document, rhs: Document) -> Bool {
        lhs.id == rhs.id && lhs.domain == rhs.domain && lhs.values.count == rhs.values.count
            && zip(lhs.values, rhs.values).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    /// The values of one field, in order.
    public func values(of field: FieldID) -> [FieldValue] { values.filter { $0.0 == field }.map(\.1) }
}

/// The address of a document inside one snapshot: segment ordinal and document number in it.
/// Addresses are only meaningful for the snapshot that produced them.
public struct DocAddress: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let segment: UInt32
    public let doc: UInt32
    public init(segment: UInt32, doc: UInt32) {
        self.segment = segment
        self.doc = doc
    }
    public static func < (lhs: DocAddress, rhs: DocAddress) -> Bool {
        lhs.segment != rhs.segment ? lhs.segment < rhs.segment : lhs.doc < rhs.doc
    }
    public var description: String { "\(segment):\(doc)" }
}
