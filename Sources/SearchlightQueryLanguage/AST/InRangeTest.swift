/// `InRange(attribute, lower, upper)`: `lower <= attribute <= upper`, inclusive at both ends.
public struct InRangeTest: Sendable, Hashable {
    public var attribute: QueryAttribute
    public var lower: QueryValue
    public var upper: QueryValue
    /// The whole `InRange(…)`.
    public var range: SourceRange
    public var attributeRange: SourceRange
    public var lowerRange: SourceRange
    public var upperRange: SourceRange

    public init(attribute: QueryAttribute, lower: QueryValue, upper: QueryValue, range: SourceRange = .none,
                attributeRange: SourceRange = .none, lowerRange: SourceRange = .none,
                upperRange: SourceRange = .none) {
        self.attribute = attribute
        self.lower = lower
        self.upper = upper
        self.range = range
        self.attributeRange = attributeRange
        self.lowerRange = lowerRange
        self.upperRange = upperRange
    }
}
