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

    /// A field's average length over `documents` documents holding `sum` tokens (1 when none, and at least 1).
    static func averageLength(sum: UInt64, documents: UInt64) -> Float {
        documents > 0 ? max(Float(sum) / Float(documents), 1) : 1
    }

    /// BM25F's `weight / (1 − b + b·length/average)` for the 256 codes: a field's weighted length normalisation.
    /// Searches and champion lists compute it alike, so one segment's lists see the very factors a snapshot of
    /// that segment scores with.
    static func lengthFactors(weight: Float, average: Float, b: Float) -> [Float] {
        lengths.map { weight / (1 - b + b * $0 / average) }
    }

    private static func pow104(_ n: Int) -> Double {
        var value = 1.0
        for _ in 0..<n { value *= 1.04 }
        return value
    }
}
