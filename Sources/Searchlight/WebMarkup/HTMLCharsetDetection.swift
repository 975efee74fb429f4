/// Finds a page's charset the way browsers do, in order: a byte-order mark (or UTF-16's NUL pattern without one,
/// refused like it), the transport's `Content-Type` (given by the caller), a `<meta charset>` or
/// `<meta http-equiv="Content-Type" content="…charset=…">` within the first 4096 bytes (where UTF-16 means UTF-8),
/// and otherwise UTF-8 if the bytes are valid UTF-8, else Windows-1252. A label that names no encoding is skipped,
/// as browsers skip it.
struct HTMLCharsetDetection {
    /// Where the charset came from.
    enum Source: String, Sendable, Hashable {
        case byteOrderMark, transport, metaTag, validUTF8, fallback
    }

    /// How many leading bytes are searched for a `<meta>` declaration.
    static let prescanLength = 4096

    var charset: HTMLCharset
    var source: Source
    /// Bytes to skip at the start (the byte-order mark).
    var skip = 0

    /// A declared-but-unsupported label and where it was declared (byte offset in the raw page, nil for transport).
    struct Unsupported: Error {
        var label: String
        var offset: Int?
    }

    static func detect(_ bytes: UnsafeBufferPointer<UInt8>, transportLabel: String?) throws(Unsupported) -> HTMLCharsetDetection {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            return HTMLCharsetDetection(charset: .utf8, source: .byteOrderMark, skip: 3)
        }
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw Unsupported(label: "UTF-16 (byte-order mark)", offset: 0)
        }
        if looksLikeUTF16(bytes) { throw Unsupported(label: "UTF-16 (no byte-order mark, NUL bytes between characters)", offset: 0) }
        if let transportLabel, HTMLCharset.namesAnEncoding(transportLabel) {
            guard let charset = HTMLCharset(label: transportLabel) else { throw Unsupported(label: transportLabel, offset: nil) }
            return HTMLCharsetDetection(charset: charset, source: .transport)
        }
        if let (label, offset) = metaDeclaration(in: UnsafeBufferPointer(rebasing: bytes[0..<min(bytes.count, prescanLength)])) {
            guard let charset = charset(metaLabel: label) else { throw Unsupported(label: label, offset: offset) }
            return HTMLCharsetDetection(charset: charset, source: .metaTag)
        }
        if HTMLCharset.isValidUTF8(bytes) { return HTMLCharsetDetection(charset: .utf8, source: .validUTF8) }
        return HTMLCharsetDetection(charset: .windows1252, source: .fallback)
    }

    /// Whether the page starts like ASCII text in UTF-16 saved without a byte-order mark: in each of its first byte
    /// pairs (at least 4, up to 32) exactly one byte, always the same one, is NUL. Such bytes are valid UTF-8, so
    /// without this check the page would be indexed as NUL-riddled markup; no HTML in a supported charset starts so.
    static func looksLikeUTF16(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let pairs = min(bytes.count / 2, 32)
        guard pairs >= 4 else { return false }
        let little = (0..<pairs).allSatisfy { bytes[2 * $0] != 0 && bytes[2 * $0 + 1] == 0 }
        return little || (0..<pairs).allSatisfy { bytes[2 * $0] == 0 && bytes[2 * $0 + 1] != 0 }
    }

    /// The charset a `<meta>` label declares. The tag was just read as ASCII, so the page is not UTF-16: as in the
    /// WHATWG prescan, a declared UTF-16 means UTF-8, and `x-user-defined` means Windows-1252.
    static func charset(metaLabel label: String) -> HTMLCharset? {
        let name = label.trimmingASCIIWhitespace().lowercased()
        if HTMLCharset.utf16Labels.contains(name) { return .utf8 }
        if name == "x-user-defined" { return .windows1252 }
        return HTMLCharset(label: name)
    }

    /// The charset label of the first `<meta>` that names an encoding, with the tag's offset. Tag syntax is ASCII in
    /// every supported encoding, so the raw bytes can be tokenized directly.
    static func metaDeclaration(in prefix: UnsafeBufferPointer<UInt8>) -> (String, Int)? {
        guard mentionsCharset(prefix) else { return nil }  // most pages: no tokenizing twice
        var tokenizer = HTMLTokenizer(bytes: prefix)
        while let token = tokenizer.next() {
            guard case .startTag(let name, let attributes, _, let offset) = token, name == "meta" else { continue }
            let label: String?
            if let charset = attributes.value("charset") {
                label = charset.trimmingASCIIWhitespace()
            } else if attributes.value("http-equiv")?.lowercased() == "content-type", let content = attributes.value("content") {
                label = charsetParameter(content)
            } else {
                label = nil
            }
            if let label, HTMLCharset.namesAnEncoding(label) { return (label, offset) }
        }
        return nil
    }

    /// Whether the bytes contain `charset`, case-insensitively (every declaration does).
    static func mentionsCharset(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let word: [UInt8] = Array("charset".utf8)
        var i = 0
        while i + word.count <= bytes.count {
            if bytes[i] | 0x20 == word[0] {
                var k = 1
                while k < word.count, bytes[i + k] | 0x20 == word[k] { k += 1 }
                if k == word.count { return true }
            }
            i += 1
        }
        return false
    }

    /// The value of `charset=` in a `Content-Type` value such as `text/html; charset="ISO-8859-1"`.
    static func charsetParameter(_ contentType: String) -> String? {
        let lower = contentType.lowercased()
        guard let range = lower.range(of: "charset") else { return nil }
        var rest = lower[range.upperBound...].drop(while: { $0 == " " })
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop(while: { $0 == " " || $0 == "\"" || $0 == "'" })
        let label = rest.prefix(while: { $0 != ";" && $0 != "\"" && $0 != "'" && $0 != " " })
        return label.isEmpty ? nil : String(label)
    }
}
