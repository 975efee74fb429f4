/// One byte per document per text field holding the field's length in tokens: exact below 128, then a
/// 4% geometric scale (like Lucene's and tantivy's 1-byte norms). Zero means the field is absent.
enum FieldNorm {
    static func encode(_ length: Int) -> UInt8 {
        if length < 128 { return UInt8(length) }
        var code = 128
        var bound = 128.0
        while code < 255, bound * 1.04 <= Double(length) {
            bound *= 1.04
            code += 1
        }
        return UInt8(code)
    }

    /// Decoded lengths of the 256 codes.
    static let lengths: [Float] = (0..<256).map { code in
        code < 128 ? Float(code) : Float(128.0 * pow104(code - 128))
    }

    private static func pow104(_ n: Int) -> Double {
        var value = 1.0
        for _ in 0..<n { value *= 1.04 }
        return value
    }
}
