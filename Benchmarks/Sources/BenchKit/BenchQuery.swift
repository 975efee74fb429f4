/// One workload query: every clause is required (AND), results ranked by relevance.
///
/// Parsed from the workload's query text: a bare word is a term, a word with a trailing `*` a prefix, a
/// double-quoted run of words a phrase (a quoted single word is a term).
public struct BenchQuery: Sendable, Equatable {
    public enum Clause: Sendable, Equatable {
        case term(String)
        case prefix(String)
        case phrase([String])
    }

    /// The workload kind (`term`, `prefix`, `and2`, `phrase`, ...), used to group the timings.
    public var kind: String
    /// The query as written in the workload file.
    public var text: String
    public var clauses: [Clause]

    public init(kind: String, text: String, clauses: [Clause]) {
        self.kind = kind
        self.text = text
        self.clauses = clauses
    }

    public enum Failure: Error, CustomStringConvertible, Equatable {
        case badLine(number: Int, line: String)
        case unterminatedQuote(number: Int, query: String)
        case emptyQuery(number: Int)

        public var description: String {
            switch self {
            case .badLine(let number, let line): return "query line \(number) is not kind<TAB>query: \(line)"
            case .unterminatedQuote(let number, let query): return "query line \(number) has an open quote: \(query)"
            case .emptyQuery(let number): return "query line \(number) has no words"
            }
        }
    }

    /// Parses one query text (`line` is only for error messages).
    public static func parse(kind: String, text: String, line: Int = 0) throws -> BenchQuery {
        var clauses: [Clause] = []
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: { $0 == " " || $0 == "\t" })
            guard let first = rest.first else { break }
            if first == "\"" {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else {
                    throw Failure.unterminatedQuote(number: line, query: text)
                }
                let words = body[..<close].split(separator: " ").map(String.init)
                if words.count == 1 {
                    clauses.append(.term(words[0]))
                } else if words.count > 1 {
                    clauses.append(.phrase(words))
                }
                rest = body[body.index(after: close)...]
            } else {
                let end = rest.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? rest.endIndex
                let word = rest[..<end]
                if word.hasSuffix("*") {
                    let stem = word.dropLast()
                    if !stem.isEmpty { clauses.append(.prefix(String(stem))) }
                } else {
                    clauses.append(.term(String(word)))
                }
                rest = rest[end...]
            }
        }
        guard !clauses.isEmpty else { throw Failure.emptyQuery(number: line) }
        return BenchQuery(kind: kind, text: text, clauses: clauses)
    }

    /// Parses a workload file's text: lines `kind<TAB>query`; blank lines and `#` comments are skipped.
    public static func parseWorkload(_ contents: String) throws -> [BenchQuery] {
        var queries: [BenchQuery] = []
        for (offset, raw) in contents.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
        ).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            guard let tab = line.firstIndex(of: "\t") else {
                throw Failure.badLine(number: offset + 1, line: String(line))
            }
            let kind = String(line[..<tab])
            guard !kind.isEmpty else { throw Failure.badLine(number: offset + 1, line: String(line)) }
            queries.append(try parse(kind: kind, text: String(line[line.index(after: tab)...]), line: offset + 1))
        }
        return queries
    }
}
