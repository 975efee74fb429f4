import Foundation

/// Reads an item file of either form: JSON Lines (streamed) or a JSON array of item objects (read whole, since
/// an array is one document). The form is recognised from the first non-blank byte (`[` means array).
public enum ItemFileReader {
    /// Every item of the file at `url`. Under `.collectErrors` bad items are skipped and returned in `errors`;
    /// JSON Lines errors carry the line (and column); array errors name the element, or the line and column of a
    /// syntax error.
    public static func readItems(from url: URL, policy: InterchangeErrorPolicy = .stopOnFirstError)
        throws(InterchangeError) -> (items: [CSSearchableItem], errors: [InterchangeError]) {
        if try startsWithArray(url) {
            let data: Data
            do { data = try Data(contentsOf: url) } catch {
                throw InterchangeError(message: "cannot read \(url.path): \(error.localizedDescription)")
            }
            return try readArray(data, policy: policy)
        }
        return try JSONLinesReader(contentsOf: url).readAll(policy: policy)
    }

    /// Items from the bytes of a JSON array document. A syntax error stops reading (the array cannot be
    /// resynchronised); an element that is valid JSON but not a valid item is skipped under `.collectErrors`.
    public static func readArray(_ data: Data, policy: InterchangeErrorPolicy = .stopOnFirstError)
        throws(InterchangeError) -> (items: [CSSearchableItem], errors: [InterchangeError]) {
        var bytes = [UInt8](data)
        let hasByteOrderMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        if hasByteOrderMark { bytes.removeFirst(3) }
        let json: JSONValue
        do throws(InterchangeError) { json = try JSONParser.parse(bytes) } catch {
            // Columns count the line's bytes, so line 1's count the byte-order mark's too.
            guard hasByteOrderMark, error.line == 1 else { throw error }
            throw error.located(line: 1, columnOffset: 3)
        }
        guard case .array(let elements) = json else {
            throw InterchangeError(line: 1, column: 1, message: "expected a JSON array of items but found \(json.typeName)")
        }
        var items: [CSSearchableItem] = []
        var errors: [InterchangeError] = []
        for (i, element) in elements.enumerated() {
            do throws(InterchangeError) {
                items.append(try ItemJSON.item(from: element))
            } catch {
                let located = InterchangeError(message: "array element \(i + 1): \(error.message)")
                if policy == .stopOnFirstError { throw located }
                errors.append(located)
            }
        }
        return (items, errors)
    }

    private static func startsWithArray(_ url: URL) throws(InterchangeError) -> Bool {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw InterchangeError(message: "cannot open \(url.path): \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 4096) } catch {
                throw InterchangeError(message: "cannot read \(url.path): \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { return false }
            for b in chunk where !(b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == 0xEF || b == 0xBB || b == 0xBF) {
                return b == UInt8(ascii: "[")
            }
        }
    }
}
