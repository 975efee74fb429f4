import Foundation
import Searchlight

/// `searchlight demo`: indexes the bundled Fixtures into a temporary store and shows searches and queries.
enum DemoCommand {
    static let help = """
    USAGE: searchlight demo [--fixtures DIR] [--keep]

    Indexes the bundled Fixtures (the seed demos: friends, films, the July Report document; 2,000 Debian
    packages in English, 500 in Chinese and Japanese; a ranking sample) into a temporary store, then runs
    ranked free-text searches (CSUserQuery) and query-language queries (CSSearchQuery) and prints the results.

    OPTIONS:
      --fixtures DIR  where the fixture files are (default ./Fixtures, else the package's own)
      --keep          keep the temporary store and print its path
    """

    static let spec = ArgumentSpec(flags: ["--keep"], options: ["--fixtures"], takesOperands: false)

    /// One app's worth of content: Apple scopes items to an app, so each gets its own container (the friends
    /// demo and the Numbers document both use the identifier "1").
    struct DemoApp {
        let name: String
        let files: [String]
        let searches: [String]
        let queries: [String]
    }

    static let apps = [
        DemoApp(name: "the search demo app",
                files: ["friends.jsonl", "movies.jsonl", "debian-en-sample.jsonl", "debian-cjk-sample.jsonl",
                        "debian-en-ranking.jsonl"],
                searches: ["becky", "web server", "pdf viewer", "thunderb", "wireshrak", "游戏"],
                queries: [
                    #"title == "B*"cd"#,
                    #"contentType == "public.image" && contentDescription == "*interesting*"c"#,
                    #"keywords == "drama"cd || genre == "*fiction*"cd"#,
                    #"title == "f*"cd && keywords == "game*"cd"#,
                    #"section == "games" && installedSize >= 100000"#,
                    #"kMDItemDisplayName == "*server*"cdw && domainIdentifier == "debian.httpd""#,
                ]),
        DemoApp(name: "a documents app", files: ["documents.jsonl"], searches: ["numbers report"],
                queries: [#"contentTypeTree == "public.spreadsheet" || title == "*.Numbers""#]),
    ]

    static var fixtureFiles: [String] { apps.flatMap(\.files) }

    static func run(_ args: Arguments) throws -> Int32 {
        let fixtures = try locateFixtures(args.value("--fixtures"))
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("searchlight-demo-\(UUID().uuidString)")
        defer { if !args.flag("--keep") { try? FileManager.default.removeItem(at: root) } }
        for (number, app) in apps.enumerated() {
            let store = root.appendingPathComponent("app\(number + 1)")
            let container: SearchlightContainer
            do { container = try SearchlightContainer(directory: store) } catch {
                throw CommandFailure(message: "searchlight demo: cannot create a store in \(store.path): \(error.localizedDescription)")
            }
            try demo(app, container: container, fixtures: fixtures, store: store)
        }
        if args.flag("--keep") { Terminal.out("The stores were kept in \(root.path)") }
        return 0
    }

    static func demo(_ app: DemoApp, container: SearchlightContainer, fixtures: URL, store: URL) throws {
        let index = CSSearchableIndex(name: "demo", container: container)
        Terminal.out("== \(app.name): indexing fixtures from \(fixtures.path) into the store \(store.path)")
        let started = Date()
        var total = 0
        for (number, file) in app.files.enumerated() {
            let url = fixtures.appendingPathComponent(file)
            let (items, errors) = try ItemFileReader.readItems(from: url, policy: .collectErrors)
            for error in errors { Terminal.err("  \(file): \(error.description); skipped") }
            try StoreAccess.perform {
                index.beginBatch()
                index.indexSearchableItems(items)
                index.endBatch(withClientState: Data("fixture \(number + 1) of \(app.files.count): \(file)".utf8),
                               completionHandler: $0)
            }
            total += items.count
            Terminal.out("  " + file.padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%6d items", items.count))
        }
        let seconds = Date().timeIntervalSince(started)
        Terminal.out(String(format: "Indexed %d items in %.2f s (durably, batch by batch); the index holds %d items.\n",
                            total, seconds, index.itemCount()))

        for text in app.searches {
            Terminal.out("search \"\(text)\"")
            let context = CSUserQueryContext()
            context.maxResultCount = 5
            context.enableRankedResults = true
            context.maxSuggestionCount = 3
            context.fetchAttributes = ["title", "displayName", "contentDescription", "keywords"]
            let query = CSUserQuery(userQueryString: text, userQueryContext: context, container: container)
            let outcome = QueryRunner.run(query)
            if let error = outcome.error { throw CommandFailure(message: "searchlight demo: \(error.localizedDescription)") }
            SearchCommand.printResults(outcome.items.sorted { $0.compare(byRank: $1) == .orderedAscending },
                                       query: query, text: text, explain: false)
            if !outcome.suggestions.isEmpty {
                Terminal.out("    suggestions: " + outcome.suggestions.map(\.suggestionText).joined(separator: ", "))
            }
            Terminal.out("")
        }

        for text in app.queries {
            Terminal.out("query \(text)")
            let context = CSSearchQueryContext()
            context.fetchAttributes = ["title", "displayName"]
            context.limit = 5
            let outcome = QueryRunner.run(CSSearchQuery(queryString: text, queryContext: context, container: container))
            if let error = outcome.error { throw CommandFailure(message: "searchlight demo: \(error.localizedDescription)") }
            if outcome.items.isEmpty { Terminal.out("    no items match") }
            for item in outcome.items {
                Terminal.out("    \(item.uniqueIdentifier)  \(item.attributeSet.title ?? "")"
                             + (item.attributeSet.displayName.map { " — \($0)" } ?? ""))
            }
            Terminal.out("")
        }
    }

    /// `--fixtures DIR`, else ./Fixtures, else the Fixtures folder of the package this tool was built from.
    static func locateFixtures(_ explicit: String?) throws -> URL {
        var candidates: [URL] = []
        if let explicit { candidates.append(URL(fileURLWithPath: explicit, isDirectory: true)) } else {
            candidates.append(URL(fileURLWithPath: "Fixtures", isDirectory: true))
            candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures"))
        }
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent(fixtureFiles[0]).path) {
            return candidate
        }
        throw CommandFailure(message: "searchlight demo: cannot find the Fixtures folder (looked in "
                             + candidates.map(\.path).joined(separator: ", ") + "); pass --fixtures DIR")
    }
}
