/// `attribute op value [modifiers]`, e.g. `title == "Par*"cd`.
public struct Comparison: Sendable, Hashable {
    public var attribute: QueryAttribute
    public var op: ComparisonOperator
    public var value: QueryValue
    /// Modifier letters glued to a string value; always empty for other values.
    public var modifiers: StringModifiers
    /// The whole comparison.
    public var range: SourceRange
    public var attributeRange: SourceRange
    public var operatorRange: SourceRange
    public var valueRange: SourceRange

    public init(attribute: QueryAttribute, op: ComparisonOperator, value: QueryValue,
                modifiers: StringModifiers = [], range: SourceRange = .none, attributeRange: SourceRange = .none,
                operatorRange: SourceRange = .none, valueRange: SourceRange = .none) {
        self.attribute = attribute
        self.op = op
        self.value = value
        self.modifiers = modifiers
        self.range = range
        self.attributeRange = attributeRange
        self.operatorRange = operatorRange
        self.valueRange = valueRange
    }
}
