/// A strict, fast, byte-level JSON parser (RFC 8259): no comments, no trailing commas, no NaN, UTF-8 validated,
/// nesting limited to `maximumDepth`. Errors carry the line and byte column of the offending byte.
///
/// Why not Foundation: on debian-en (63,666 items, 52 MB, release build, CPU time) `JSONSerialization` took
/// 1.3–1.6 s and `JSONDecoder` into a minimal struct 0.65–0.77 s before building a single item; the whole
/// `JSONLinesReader` path on this parser, items included, takes about 0.45 s.
package struct JSONParser: ~Copyable {
    /// How deeply arrays and objects may nest. Parsing recurses once per level, and so do the walks over the
    /// parsed tree (JSON-LD's conversion to `SchemaNode`, `ItemJSON`, `Codable`); in a debug build an object
    /// level of the parser takes about 3.7 KB of stack, and a 512 KB stack (every secondary thread on Apple
    /// platforms) overflowed at 143 nested objects. At 64 the deepest walk uses under half of it. Items nest at
    /// most 31 arrays inside three objects; JSON-LD in the wild, under 20.
    package static let maximumDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// Whether a repeated object member is kept rather than an error (see `isDuplicate`).
    private let allowsDuplicateMembers: Bool

    private init(bytes: UnsafeBufferPointer<UInt8>, allowsDuplicateMembers: Bool) {
        self.bytes = bytes
        self.allowsDuplicateMembers = allowsDuplicateMembers
    }

    /// Parses exactly one JSON value (surrounded by optional whitespace) from `bytes`. A repeated object member
    /// is an error unless `allowsDuplicateMembers` (web pages' JSON-LD, read as browsers read it).
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>,
                              allowsDuplicateMembers: Bool = false) throws(InterchangeError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, allowsDuplicateMembers: allowsDuplicateMembers)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count { throw parser.error("unexpected data after the JSON value") }
        return value
    }

    /// Parses a JSON value from any contiguous bytes (`[UInt8]`, `Data`, a `String`'s UTF-8).
    package static func parse<Bytes: Sequence<UInt8>>(_ bytes: Bytes,
                                                      allowsDuplicateMembers: Bool = false) throws(InterchangeError) -> JSONValue {
        let result: Result<JSONValue, InterchangeError>? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(InterchangeError) {
                return .success(try parse(buffer, allowsDuplicateMembers: allowsDuplicateMembers))
            } catch { return .failure(error) }
        }
        if let result { return try result.get() }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { buffer throws(InterchangeError) in
            try parse(buffer, allowsDuplicateMembers: allowsDuplicateMembers)
        }
    }

    // MARK: Errors

    /// An error at the current position, as line and byte column within the parsed bytes.
    private func error(_ message: String, at position: Int? = nil) -> InterchangeError {
        let offset = min(position ?? index, bytes.count)
        var line = 1, lineStart = 0
        for i in 0..<offset where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return InterchangeError(line: line, column: offset - lineStart + 1, message: message)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let b = bytes[index]
        if b >= 0x20 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16))"
    }

    // MARK: Values

    private mutating func skipWhitespace() {
        while index < bytes.count {
            let b = bytes[index]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 } else { return }
        }
    }

    private mutating func parseValue() throws(InterchangeError) -> JSONValue {
        guard index < bytes.count else { throw error("expected a JSON value but found end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("expected a JSON value but found \(describeCurrent())")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(InterchangeError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("invalid literal (expected '\(literal)')", at: start) }
        let p = literal.utf8Start
        for i in 0..<count where bytes[index + i] != p[i] {
            throw error("invalid literal (expected '\(literal)')", at: start)
        }
        index += count
    }

    private mutating func enter() throws(InterchangeError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(InterchangeError) -> JSONValue {
        try enter()
        index += 1  // {
        var members: [JSONMember] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1; depth -= 1
            return .object(members)
        }
        // Names seen, for objects too large to scan (see `isDuplicate`).
        var seen: Set<String> = []
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key in object but found \(describeCurrent())")
            }
            let keyStart = index
            let key = try parseString()
            if !allowsDuplicateMembers, Self.isDuplicate(key, in: members, seen: &seen) {
                throw error("duplicate member \"\(key)\" in object", at: keyStart)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after object key \"\(key)\" but found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            members.append(JSONMember(key, try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object: expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; break }
            throw error("expected ',' or '}' in object but found \(describeCurrent())")
        }
        depth -= 1
        return .object(members)
    }

    /// Whether an earlier member of the object is named `key`. Items keep members by name, so a repeated one
    /// silently replaced what came before it (a second `customAttributes` dropped the first's values); it is an
    /// error instead. Names compare as `String`s (canonically equivalent ones too: a dictionary keeps only one).
    /// Small objects are scanned; past 16 members names go into `seen`, so a huge object stays linear.
    private static func isDuplicate(_ key: String, in members: [JSONMember], seen: inout Set<String>) -> Bool {
        if members.count < 16 { return members.contains { $0.key == key } }
        if seen.isEmpty { seen = Set(members.map(\.key)) }
        return !seen.insert(key).inserted
    }

    private mutating func parseArray() throws(InterchangeError) -> JSONValue {
        try enter()
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1; depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array: expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; break }
            throw error("expected ',' or ']' in array but found \(describeCurrent())")
        }
        depth -= 1
        return .array(elements)
    }

    // MARK: Strings

    /// Advances `index` to the next quote, backslash or control character (or the end), OR-ing every byte
    /// passed into `highBits` so the caller knows whether the run is pure ASCII.
    @inline(__always)
    private mutating func skipPlainRun(_ highBits: inout UInt8) {
        // Eight bytes at a time while none is special (SWAR bit tricks; each test is exact as a yes/no, so a
        // hit just drops to the byte loop for that word).
        if let base = bytes.baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            var wordBits: UInt64 = 0
            while index + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let quote = word ^ (ones &* 0x22), slash = word ^ (ones &* 0x5C)
                let special = ((quote &- ones) & ~quote) | ((slash &- ones) & ~slash) | ((word &- ones &* 0x20) & ~word)
                if special & highs != 0 { break }
                wordBits |= word
                index += 8
            }
            if wordBits & highs != 0 { highBits |= 0x80 }
        }
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { return }
            highBits |= b
            index += 1
        }
    }

    private mutating func parseString() throws(InterchangeError) -> String {
        let open = index
        index += 1  // opening quote
        var runStart = index
        var highBits: UInt8 = 0
        var escaped = false
        var buffer: [UInt8] = []  // used only once an escape is seen
        while true {
            skipPlainRun(&highBits)
            guard index < bytes.count else { throw error("unterminated string", at: open) }
            let b = bytes[index]
            let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
            if b == UInt8(ascii: "\"") {
                index += 1
                if !escaped {
                    if highBits < 0x80 { return String(decoding: run, as: UTF8.self) }
                    return try makeString(run, at: runStart)
                }
                buffer.append(contentsOf: run)
                return try buffer.withUnsafeBufferPointer { all throws(InterchangeError) in try makeString(all, at: open + 1) }
            }
            if b < 0x20 { throw error("control character 0x\(String(b, radix: 16)) inside a string must be escaped") }
            // A backslash: copy the run so far, then decode the escape.
            if !escaped {
                escaped = true
                buffer.reserveCapacity(run.count + 64)
            }
            buffer.append(contentsOf: run)
            index += 1
            guard index < bytes.count else { throw error("unterminated string", at: open) }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): buffer.append(0x22)
            case UInt8(ascii: "\\"): buffer.append(0x5C)
            case UInt8(ascii: "/"): buffer.append(0x2F)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired UTF-16 high surrogate in \\u escape")
                    }
                    index += 2
                    let low = try parseHex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw error("invalid UTF-16 low surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw error("unpaired UTF-16 low surrogate in \\u escape")
                }
                guard let s = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                buffer.append(contentsOf: UTF8.encode(s) ?? UTF8.EncodedScalar())
                if scalar >= 0x80 { highBits |= 0x80 }
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))' in string", at: index - 2)
            }
            runStart = index
        }
    }

    private mutating func parseHex4() throws(InterchangeError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// `run` as a string; invalid UTF-8 is an error at its first bad byte, found in the input from `start` (the
    /// escapes an unescaped run lacks are ASCII, so the input goes wrong exactly where the run does).
    private func makeString(_ run: UnsafeBufferPointer<UInt8>, at start: Int) throws(InterchangeError) -> String {
        var ascii = true
        for b in run where b >= 0x80 { ascii = false; break }
        if ascii { return String(decoding: run, as: UTF8.self) }
        guard let s = String(validating: run, as: UTF8.self) else {
            var parser = Unicode.UTF8.ForwardParser()
            var input = UnsafeBufferPointer(rebasing: bytes[start...]).makeIterator()
            var offset = start
            while case .valid(let scalar) = parser.parseScalar(from: &input) { offset += scalar.count }
            throw error("invalid UTF-8 in string", at: offset)
        }
        return s
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(InterchangeError) -> JSONValue {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit", at: index) }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, isDigit(bytes[index + 1]) {
            throw error("invalid number: leading zeros are not allowed", at: start)
        }
        var magnitude: UInt64 = 0
        var overflow = false
        while index < bytes.count, isDigit(bytes[index]) {
            let (m1, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (m2, o2) = m1.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            magnitude = m2
            index += 1
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit in exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if isInteger && !overflow {
            if !negative, magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
            if negative, magnitude <= UInt64(Int64.max) + 1 { return .int(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let d = Double(text), d.isFinite else { throw error("number \(text) is out of range", at: start) }
        return .double(d)
    }

    @inline(__always) private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
