/// Prints a `QueryExpression` as an indented tree with source spans, for `searchlight parse` and debugging.
///
/// ```
/// or 0..<58
///   comparison 0..<22 title == "Tim" modifiers=cw
///   in-range 26..<58 completionDate lower=$time.today(-10) upper=$time.today
/// ```
extension QueryExpression {
    /// One node per line, children indented by two spaces, each with its UTF-8 span.
    public func treeDescription() -> String {
        var lines: [String] = []
        QueryTreePrinter.write(self, indent: 0, into: &lines)
        return lines.joined(separator: "\n")
    }
}

enum QueryTreePrinter {
    static func write(_ expression: QueryExpression, indent: Int, into lines: inout [String]) {
        let pad = String(repeating: " ", count: indent * 2)
        let span = expression.range.description
        switch expression {
        case .and(let operands, _):
            lines.append("\(pad)and \(span)")
            for operand in operands { write(operand, indent: indent + 1, into: &lines) }
        case .or(let operands, _):
            lines.append("\(pad)or \(span)")
            for operand in operands { write(operand, indent: indent + 1, into: &lines) }
        case .not(let operand, _):
            lines.append("\(pad)not \(span)")
            write(operand, indent: indent + 1, into: &lines)
        case .constant(let value, _):
            lines.append("\(pad)constant \(span) \(value)")
        case .comparison(let c):
            var line = "\(pad)comparison \(span) \(c.attribute) \(c.op.symbol) \(c.value)"
            if case .string(let pattern) = c.value { line += " shape=\(shapeName(pattern.shape))" }
            if !c.modifiers.isEmpty { line += " modifiers=\(c.modifiers.letters)" }
            lines.append(line)
        case .inRange(let test):
            lines.append("\(pad)in-range \(span) \(test.attribute) lower=\(test.lower) upper=\(test.upper)")
        }
    }

    private static func shapeName(_ shape: PatternShape) -> String {
        switch shape {
        case .exact: "exact"
        case .presence: "presence"
        case .prefix: "prefix"
        case .suffix: "suffix"
        case .infix: "infix"
        case .general: "general"
        }
    }
}
