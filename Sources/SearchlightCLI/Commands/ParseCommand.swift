import Foundation
import SearchlightQueryLanguage

/// `searchlight parse QUERY`: prints the syntax tree of a query, or the error with its position.
enum ParseCommand {
    static let help = """
    USAGE: searchlight parse QUERY [--json]
           searchlight parse -          (reads one query from standard input)

    Prints the CSSearchQuery syntax tree and the canonical form of QUERY. On a syntax error prints the
    position and what was expected, and exits with status 1.
    """

    static let spec = ArgumentSpec()

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positional.count == 1 else { throw UsageError(command: "parse", message: "give exactly one QUERY (or '-')") }
        var query = args.positional[0]
        if query == "-" {
            // Not readDataToEndOfFile(), which traps on a read error (a directory as standard input).
            let data: Data
            do { data = try FileHandle.standardInput.readToEnd() ?? Data() } catch {
                throw CommandFailure(message: "searchlight parse: cannot read standard input: \(Terminal.describe(error))")
            }
            query = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        }
        do {
            let tree = try QueryParser.parse(query)
            if args.json {
                Terminal.json(["query": query, "canonical": tree.canonicalQuery, "tree": tree.treeDescription()])
            } else {
                Terminal.out(tree.treeDescription())
                Terminal.out("canonical: \(tree.canonicalQuery)")
            }
            return 0
        } catch {
            let location = error.range.location(in: query)
            if args.json {
                Terminal.json(["query": query, "error": error.description, "offset": error.offset,
                               "line": location.line, "column": location.column])
            } else {
                Terminal.err("searchlight parse: \(error.description)")
                // The error's own line, so the caret (a column of that line) sits under it in a multi-line query.
                let lines = query.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                let line = lines.indices.contains(location.line - 1) ? lines[location.line - 1] : query.utf8[...]
                Terminal.err("  " + String(decoding: line, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\r")))
                Terminal.err("  " + String(repeating: " ", count: max(location.column - 1, 0)) + "^")
            }
            return 1
        }
    }
}
