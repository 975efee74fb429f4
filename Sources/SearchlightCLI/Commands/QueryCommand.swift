import Foundation
import Searchlight

/// `searchlight query 'QUERY'`: the CSSearchQuery language over the store.
enum QueryCommand {
    static let help = """
    USAGE: searchlight query 'QUERY' [--attributes A,B,...] [--limit N] [--offset N] [--sort ATTR[:desc]]...
                             [--store DIR] [--json]
           searchlight query -      (one query per line of standard input; one JSON line of results each)

    Runs a Core Spotlight query-language query, e.g.
      title == "fire*"cd && keywords == "game"cd
      InRange(contentModificationDate, $time.today(-7), $time.now) || rating >= 4
    Results come in index order unless --sort is given. A syntax error prints its position; exit status 1.

    OPTIONS:
      --attributes A,B   attributes to fetch and print (default title,displayName)
      --limit N          at most N results (default 20; 0 for all)
      --offset N         skip the first N results
      --sort ATTR[:desc] sort by an attribute (repeatable)
    """

    static let spec = ArgumentSpec(options: ["--attributes", "--limit", "--offset", "--sort"], repeatable: ["--sort"])

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positional.count == 1 else { throw UsageError(command: "query", message: "give exactly one QUERY (quote it) or '-'") }
        let limit = try args.integer("--limit", default: 20, minimum: 0)
        let offset = try args.integer("--offset", default: 0, minimum: 0)
        let attributes = (args.value("--attributes") ?? "title,displayName").split(separator: ",").map(String.init)
        let sort = try args.values("--sort").map { spec throws(UsageError) -> CSSearchQueryContext.SortAttribute in
            let parts = spec.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let direction = parts.count > 1 ? parts[1] : "asc"
            guard !parts[0].isEmpty, direction == "asc" || direction == "desc" else {
                throw UsageError(command: "query", message: "--sort takes ATTR, ATTR:asc or ATTR:desc (got '\(spec)')")
            }
            return CSSearchQueryContext.SortAttribute(parts[0], ascending: direction == "asc")
        }
        let container = try StoreAccess.open(args)
        let fromStdin = args.positional == ["-"]
        let queries = fromStdin ? try QueryRunner.standardInputLines(command: "query") : args.positional
        var failed = false
        for text in queries {
            let context = CSSearchQueryContext()
            context.fetchAttributes = attributes
            context.sortAttributes = sort
            if limit > 0 { context.limit = limit }
            context.offset = offset
            let outcome = QueryRunner.run(CSSearchQuery(queryString: text, queryContext: context, container: container))
            if let error = outcome.error {
                failed = true
                if args.json || fromStdin { Terminal.json(["query": text, "error": error.localizedDescription]) } else {
                    Terminal.err("searchlight query: \(error.localizedDescription)")
                }
                continue
            }
            if args.json || fromStdin {
                // Only items are interchange objects ('searchlight index' input); matching activities are counted.
                let items = outcome.items.filter { !QueryRunner.isActivity($0) }
                var members = [JSONMember("count", .int(Int64(items.count))), JSONMember("items", .array(items.map(QueryRunner.jsonValue))),
                               JSONMember("query", .string(text))]
                if items.count < outcome.items.count {
                    members.insert(JSONMember("activities", .int(Int64(outcome.items.count - items.count))), at: 0)
                }
                Terminal.json(JSONValue.object(members))
                continue
            }
            if outcome.items.isEmpty { Terminal.out("no items match") }
            for item in outcome.items {
                let set = (try? ItemJSON.jsonValue(for: item.attributeSet)) ?? .object([])
                let shown = attributes.compactMap { name -> String? in
                    guard let value = set[name] ?? set["customAttributes"]?[name] else { return nil }
                    return "\(name)=\(display(value))"
                }
                Terminal.out("\(QueryRunner.displayIdentifier(item))  " + shown.joined(separator: "  "))
            }
            Terminal.err("\(outcome.items.count) items")
        }
        return failed ? 1 : 0
    }

    /// A value on the item's one line: a string as it is, anything else as its JSON; line breaks become spaces.
    static func display(_ value: JSONValue) -> String {
        var text: String
        if case .string(let string) = value { text = string } else {
            var bytes: [UInt8] = []
            try? JSONSerializer.write(value, to: &bytes)
            text = String(decoding: bytes, as: UTF8.self)
        }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
    }
}
