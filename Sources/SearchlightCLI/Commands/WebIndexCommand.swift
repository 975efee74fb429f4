import Foundation
import Searchlight

/// `searchlight web index PATH...`: turns marked-up HTML pages into items in the store's public web index.
enum WebIndexCommand {
    static let help = """
    USAGE: searchlight web index PATH... [--base-url URL] [--store DIR] [--json]

    Reads .html files (directories are searched recursively), extracts their markup (title, meta, Open Graph,
    Twitter cards, App Links, Smart App Banner, schema.org JSON-LD and microdata) and indexes one item per page
    into the public web index kept beside the store (DIR/public-web), apart from the app's own items.
    'searchlight search' ranks web results together with the app's own, marked [web]; an app item with the
    same identifier wins.

    OPTIONS:
      --base-url URL  the site the files were served from: a file at PATH/a/b.html becomes URL/a/b.html
                      (default https://localhost/: pages are identified by their path under it)
    """

    static let spec = ArgumentSpec(options: ["--base-url"])

    /// The public web index of a store directory.
    static func publicStore(of args: Arguments) -> URL { args.storeDirectory.appendingPathComponent("public-web", isDirectory: true) }

    static func run(_ args: Arguments) throws -> Int32 {
        guard !args.positional.isEmpty else { throw UsageError(command: "web index", message: "name at least one .html file or directory") }
        let baseText = args.value("--base-url") ?? "https://localhost/"
        guard let base = URL(string: baseText.hasSuffix("/") ? baseText : baseText + "/"),
              ["http", "https"].contains(base.scheme?.lowercased() ?? "") else {
            throw UsageError(command: "web index", message: "--base-url '\(baseText)' is not an http(s) URL")
        }
        var pages: [WebPage] = []
        for path in args.positional {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CommandFailure(message: "searchlight web index: no such file or directory: \(path)")
            }
            // A linked directory is walked as its target (the walk does not enter a root that is a link).
            let named = URL(fileURLWithPath: path).standardizedFileURL
            let root = isDirectory.boolValue ? named.resolvingSymlinksInPath() : named
            let files = isDirectory.boolValue ? htmlFiles(under: root) : [root]
            for file in files {
                let data: Data
                do { data = try Data(contentsOf: file) } catch {
                    throw CommandFailure(message: "searchlight web index: cannot read \(file.path): \(error.localizedDescription)")
                }
                let relative = isDirectory.boolValue
                    ? String(file.path.dropFirst(root.path.count).drop(while: { $0 == "/" })) : file.lastPathComponent
                let url = URL(string: relative.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? relative,
                              relativeTo: base)?.absoluteURL ?? base
                pages.append(WebPage(data: data, url: url))
            }
        }
        let container: SearchlightContainer
        do { container = try SearchlightContainer(directory: publicStore(of: args)) } catch {
            throw CommandFailure(message: "searchlight web index: cannot open \(publicStore(of: args).path): \(error.localizedDescription)")
        }
        let index = CSSearchableIndex(name: "web", container: container)
        let indexer = WebMarkupIndexer()
        // Two files of one page (one canonical link) are one item, the later kept, as `index(pages:)` does.
        let (items, errors) = indexer.items(fromPages: pages)
        // A page whose robots meta asks not to be indexed is skipped as it asks: reported, but no failure.
        let declined = errors.filter { $0.code == .noIndex }
        let failures = errors.filter { $0.code != .noIndex }.map(\.description)
        for page in declined { Terminal.err("searchlight web index: \(page.description); skipped (noindex)") }
        for failure in failures { Terminal.err("searchlight web index: \(failure); skipped") }
        try StoreAccess.perform { index.indexSearchableItems(items, completionHandler: $0) }
        if args.json {
            Terminal.json(["indexed": items.count, "failed": failures.count, "noindex": declined.count,
                           "identifiers": items.map(\.uniqueIdentifier)])
        } else {
            for item in items { Terminal.out("\(item.uniqueIdentifier)  \(item.attributeSet.title ?? "")") }
            let skipped = declined.isEmpty ? "" : ", \(declined.count) skipped (noindex)"
            Terminal.err("indexed \(items.count) pages into the public web index\(skipped)\(failures.isEmpty ? "" : ", \(failures.count) failed")")
        }
        return failures.isEmpty ? 0 : 1
    }

    static func htmlFiles(under root: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { ["html", "htm"].contains($0.pathExtension.lowercased()) }
            .sorted { $0.path < $1.path }
    }
}
