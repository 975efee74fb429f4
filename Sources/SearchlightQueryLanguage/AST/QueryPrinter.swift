/// Prints a `QueryExpression` back as a canonical query string.
///
/// Canonical form: `==` for equality, strings double-quoted with `\`-escapes for `\`, `"`, and literal `*`
/// and `?`, modifiers in `cdwt` order, single spaces around operators, and parentheses around every nested
/// `&&`/`||` and around the operand of `!` unless it is a constant. Parsing the output gives back the same
/// tree (up to source positions). Trees built in code round-trip too, as long as attribute names are valid
/// identifiers and numbers are finite.
extension QueryExpression: CustomStringConvertible {
    /// The canonical query string.
    public var canonicalQuery: String {
        var out = ""
        QueryPrinter.write(self, into: &out)
        return out
    }

    public var description: String { canonicalQuery }
}

enum QueryPrinter {
    static func write(_ expression: QueryExpression, into out: inout String) {
        switch expression {
        case .and(let operands, _): writeOperands(operands, separator: " && ", into: &out)
        case .or(let operands, _): writeOperands(operands, separator: " || ", into: &out)
        case .not(let operand, _):
            out += "!"
            if case .constant = operand {
                write(operand, into: &out)
            } else {
                out += "("
                write(operand, into: &out)
                out += ")"
            }
        case .constant(let value, _): out += value ? "true" : "false"
        case .comparison(let comparison):
            out += comparison.attribute.description
            out += " "
            out += comparison.op.symbol
            out += " "
            out += comparison.value.description
            if case .string = comparison.value { out += comparison.modifiers.letters }
        case .inRange(let test):
            out += "InRange("
            out += test.attribute.description
            out += ", "
            out += test.lower.description
            out += ", "
            out += test.upper.description
            out += ")"
        }
    }

    private static func writeOperands(_ operands: [QueryExpression], separator: String, into out: inout String) {
        for (index, operand) in operands.enumerated() {
            if index > 0 { out += separator }
            switch operand {
            case .and, .or:
                out += "("
                write(operand, into: &out)
                out += ")"
            default:
                write(operand, into: &out)
            }
        }
    }
}
