import Foundation
import Searchlight

/// `searchlight search TEXT`: what a person types, ranked (CSUserQuery), with highlighted snippets.
enum SearchCommand {
    static let help = """
    USAGE: searchlight search TEXT [--limit N] [--filter QUERY]... [--suggestions] [--explain] [--store DIR] [--json]
           searchlight search -      (one search per line of standard input; one JSON line of results each)

    Free-text search as a person types it: every word must match, the last one as a prefix, with typos
    tolerated (1 edit from 5 letters, 2 from 9, none in a number; two swapped neighbours are one edit). Results are ranked
    (BM25F, title boosts, rankingHint, recency, engagement) and the matched words are highlighted.

    OPTIONS:
      --limit N        results to show (default 10)
      --filter QUERY   a CSSearchQuery-language filter results must also satisfy (repeatable)
      --suggestions    also print query completions drawn from the index's terms
      --explain        print how each score was computed
    """

    static let spec = ArgumentSpec(flags: ["--suggestions", "--explain"], options: ["--limit", "--filter"],
                                   repeatable: ["--filter"])

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positional.count >= 1 else { throw UsageError(command: "search", message: "give the search TEXT (or '-')") }
        let limit = try args.integer("--limit", default: 10)
        let container = try StoreAccess.open(args)
        // Public web pages ('searchlight web index') are searched too when the store has them.
        let webDirectory = WebIndexCommand.publicStore(of: args)
        let webContainer = openPublicIndex(webDirectory)
        let fromStdin = args.positional == ["-"]
        let texts = fromStdin ? try QueryRunner.standardInputLines(command: "search") : [args.positional.joined(separator: " ")]
        var failed = false
        for text in texts {
            let context = CSUserQueryContext()
            context.maxResultCount = limit
            context.enableRankedResults = true
            context.filterQueries = args.values("--filter")
            if args.flag("--suggestions") { context.maxSuggestionCount = 5 }
            context.fetchAttributes = ["title", "displayName", "contentDescription", "keywords"]
            let query = CSUserQuery(userQueryString: text, userQueryContext: context, container: container)
            var outcome = QueryRunner.run(query)
            var sources: [String: CSUserQuery] = [:]
            for item in outcome.items { sources[item.uniqueIdentifier] = query }
            var webIdentifiers = Set<String>()
            if let webContainer, outcome.error == nil {
                let webQuery = CSUserQuery(userQueryString: text, userQueryContext: context, container: webContainer)
                let web = QueryRunner.run(webQuery)
                if let error = web.error {
                    Terminal.err("searchlight search: warning: the public web index failed (\(error.localizedDescription)); "
                                 + "showing the app's results only")
                } else {
                    let merged = WebResultMerger.merge(appResults: outcome.items, publicResults: web.items,
                                                       appContainer: container)
                    for item in web.items where sources[item.uniqueIdentifier] == nil {
                        sources[item.uniqueIdentifier] = webQuery
                        webIdentifiers.insert(item.uniqueIdentifier)
                    }
                    outcome.items = Array(merged.prefix(limit))
                }
            }
            if let error = outcome.error {
                failed = true
                if args.json || fromStdin { Terminal.json(["query": text, "error": error.localizedDescription]) } else {
                    Terminal.err("searchlight search: \(error.localizedDescription)")
                }
                continue
            }
            let items = outcome.items.sorted { $0.compare(byRank: $1) == .orderedAscending }
            func annotator(_ item: CSSearchableItem) -> CSUserQuery { sources[item.uniqueIdentifier] ?? query }
            if args.json || fromStdin {
                let results: [[String: Any]] = items.map { item in
                    let source = QueryRunner.isActivity(item) ? "activity"
                        : webIdentifiers.contains(item.uniqueIdentifier) ? "web" : "app"
                    var entry: [String: Any] = ["id": QueryRunner.displayIdentifier(item), "score": item.rank,
                                                "title": item.attributeSet.title ?? NSNull(),
                                                "domain": item.domainIdentifier ?? NSNull(), "source": source]
                    if let snippet = annotator(item).snippet(for: item) {
                        entry["snippet"] = ["attribute": snippet.attribute, "text": snippet.text,
                                            "highlights": snippet.highlightedWords]
                    }
                    if args.flag("--explain") { entry["explanation"] = annotator(item).explanation(for: item) ?? NSNull() }
                    return entry
                }
                var object: [String: Any] = ["query": text, "count": items.count, "results": results]
                if args.flag("--suggestions") { object["suggestions"] = outcome.suggestions.map(\.suggestionText) }
                Terminal.json(object)
            } else {
                printResults(items, annotator: annotator, web: webIdentifiers, text: text, explain: args.flag("--explain"))
                if args.flag("--suggestions"), !outcome.suggestions.isEmpty {
                    Terminal.out("suggestions: " + outcome.suggestions.map(\.suggestionText).joined(separator: ", "))
                }
            }
        }
        return failed ? 1 : 0
    }

    static func printResults(_ items: [CSSearchableItem], query: CSUserQuery, text: String, explain: Bool) {
        printResults(items, annotator: { _ in query }, web: [], text: text, explain: explain)
    }

    /// Ranked results with their snippets; web results are marked with their source.
    static func printResults(_ items: [CSSearchableItem], annotator: (CSSearchableItem) -> CSUserQuery, web: Set<String>,
                             text: String, explain: Bool) {
        if items.isEmpty {
            Terminal.out("no results for \"\(text)\"")
            return
        }
        for (rank, item) in items.enumerated() {
            let title = item.attributeSet.title ?? QueryRunner.displayIdentifier(item)
            let subtitle = item.attributeSet.displayName.map { " — \($0)" } ?? ""
            let source = web.contains(item.uniqueIdentifier) ? "[web] " : ""
            Terminal.out(String(format: "%2d. ", rank + 1) + source + title + subtitle
                         + "  [\(QueryRunner.displayIdentifier(item)), score \(String(format: "%.2f", item.rank))]")
            if let snippet = annotator(item).snippet(for: item) {
                Terminal.out("    " + highlighted(snippet))
            }
            if explain, let explanation = annotator(item).explanation(for: item) {
                for line in explanation.split(separator: "\n") { Terminal.out("      " + line) }
            }
        }
    }

    /// The snippet with matches in bold on a terminal, or in [brackets] otherwise.
    static func highlighted(_ snippet: CSUserQuery.Snippet) -> String {
        let (open, close) = Terminal.stdoutIsTerminal ? ("\u{1B}[1m", "\u{1B}[0m") : ("[", "]")
        var result = ""
        var cursor = snippet.text.startIndex
        for range in snippet.highlights.sorted(by: { $0.lowerBound < $1.lowerBound }) where range.lowerBound >= cursor {
            result += snippet.text[cursor..<range.lowerBound] + open + snippet.text[range] + close
            cursor = range.upperBound
        }
        result += snippet.text[cursor...]
        return result.replacingOccurrences(of: "\n", with: " ")
    }

    /// The public web index beside the store, when there is one. One that cannot be opened (locked by another
    /// process, unreadable) or was found damaged is said on standard error: the app's results are then shown
    /// alone, never as if the web had nothing.
    private static func openPublicIndex(_ directory: URL) -> SearchlightContainer? {
        guard FileManager.default.fileExists(atPath: directory.path) else { return nil }
        do {
            let container = try SearchlightContainer(directory: directory)
            if let corruption = container.recoveryReport?.corruption {
                Terminal.err("searchlight search: warning: the public web index \(directory.path) was damaged "
                             + "(\(corruption)) and reset to empty; run 'searchlight web index' again")
            }
            return container
        } catch {
            Terminal.err("searchlight search: warning: cannot open the public web index \(directory.path) "
                         + "(\(error.localizedDescription)); showing the app's results only")
            return nil
        }
    }
}
