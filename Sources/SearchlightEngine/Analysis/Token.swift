/// What a token stands for: a word (or one part of an identifier), a whole identifier kept beside its
/// parts, or a CJK unigram or bigram.
public enum TokenKind: UInt8, Sendable {
    /// A plain word, or one part of a compound such as `Report.Numbers` or `MyWindowController`.
    case word
    /// The whole compound (`report.numbers`, `mywindowcontroller`), stacked on its first part's position.
    case compound
    /// One Han, Kana or Hangul character.
    case cjkUnigram
    /// Two adjacent CJK characters, stacked on the first one's position.
    case cjkBigram
    /// A word longer than `Analyzer.maxTermBytes`, indexed as `Analyzer.overlongTerm` (`tokens` never reports it).
    case overlong
}

/// A token as the public API reports it: the folded term, its position in the field and the UTF-8 byte
/// range it came from in the original text (for highlighting).
public struct Token: Sendable, Equatable, CustomStringConvertible {
    public var term: String
    public var position: Int
    public var byteRange: Range<Int>
    public var kind: TokenKind

    public init(term: String, position: Int, byteRange: Range<Int>, kind: TokenKind) {
        self.term = term
        self.position = position
        self.byteRange = byteRange
        self.kind = kind
    }

    public var description: String { "\(term)@\(position)[\(byteRange.lowerBound)..<\(byteRange.upperBound)]" }
}

/// Tokens kept: folded term bytes in one arena and fixed-size token records. What queries analyze into, and
/// batches analyzed ahead on other threads (the serial indexing path interns tokens as they come instead).
struct TokenBuffer: TokenSink {
    struct Record {
        var termStart: UInt32
        var termLength: UInt32
        var position: UInt32
        var byteStart: UInt32
        var byteEnd: UInt32
        var kind: TokenKind
    }

    var bytes: [UInt8] = []
    var records: [Record] = []
    /// Scratch of the analyzer (kept here so repeated calls reuse the allocations).
    var scratch = AnalyzerScratch()

    mutating func take(_ term: UnsafeBufferPointer<UInt8>, position: UInt32, byteStart: Int, byteEnd: Int, kind: TokenKind) {
        let termStart = UInt32(bytes.count)
        bytes.append(contentsOf: term)
        records.append(.init(termStart: termStart, termLength: UInt32(term.count), position: position,
                             byteStart: UInt32(byteStart), byteEnd: UInt32(byteEnd), kind: kind))
    }

    func term(_ record: Record) -> String {
        String(decoding: bytes[Int(record.termStart)..<Int(record.termStart + record.termLength)], as: UTF8.self)
    }
}
