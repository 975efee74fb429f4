import Foundation

extension Folding {
    /// Case- and diacritic-folded text in Unicode normalization form C with its whitespace runs collapsed to one
    /// space, trimmed: how a title and what a person typed are compared, byte for byte, when one starts with the
    /// other (`LeadingKeys` and the title coverage of `CSUserQuery` ranking use this one definition). Form C makes
    /// canonically equivalent texts (a decomposed Hangul syllable and its precomposed one) the same bytes.
    package static func foldCollapsingWhitespace(_ text: String) -> String {
        let folded = fold(text)
        // Most titles are ASCII (already in form C): collapse their whitespace byte by byte, not by grapheme
        // (several times cheaper).
        if let ascii = collapseASCIIWhitespace(folded) { return ascii }
        return folded.precomposedStringWithCanonicalMapping.split(whereSeparator: { $0.isWhitespace })
            .joined(separator: " ")
    }

    /// ASCII text with its whitespace runs (tab, line feed, vertical tab, form feed, carriage return, space:
    /// ASCII's `Character.isWhitespace`) collapsed to one space and trimmed; nil when the text is not ASCII.
    package static func collapseASCIIWhitespace(_ text: String) -> String? {
        text.withUTF8Bytes { bytes -> String? in
            var out = WhitespaceCollapser(capacity: bytes.count)
            for byte in bytes {
                if byte >= 0x80 { return nil }
                out.append(byte, isSpace: byte == 0x20 || (byte >= 0x09 && byte <= 0x0D))
            }
            return out.string
        }
    }
}
