import Foundation
import Searchlight

/// `searchlight delete --id ID... | --domain D... | --all`.
enum DeleteCommand {
    static let help = """
    USAGE: searchlight delete (--id ID... | --domain D... | --all) [--store DIR] [--json]

    Deletes items by identifier, by domain (a domain also removes its subdomains: 'a' removes 'a' and 'a.b',
    never 'ab'), or all items (which also resets the import checkpoint).
    """

    static let spec = ArgumentSpec(flags: ["--all"], options: ["--id", "--domain"], repeatable: ["--id", "--domain"])

    static func run(_ args: Arguments) throws -> Int32 {
        let ids = args.values("--id") + args.positional
        let domains = args.values("--domain")
        let all = args.flag("--all")
        let modes = [!ids.isEmpty, !domains.isEmpty, all].filter { $0 }.count
        guard modes == 1 else {
            throw UsageError(command: "delete", message: "give exactly one of --id ID..., --domain D... or --all")
        }
        let index = CSSearchableIndex(name: StoreAccess.indexName, container: try StoreAccess.open(args, create: true))
        let before = index.itemCount()
        if all {
            try StoreAccess.perform { index.deleteAllSearchableItems(completionHandler: $0) }
        } else if !domains.isEmpty {
            try StoreAccess.perform { index.deleteSearchableItems(withDomainIdentifiers: domains, completionHandler: $0) }
        } else {
            try StoreAccess.perform { index.deleteSearchableItems(withIdentifiers: ids, completionHandler: $0) }
        }
        let deleted = before - index.itemCount()
        if args.json { Terminal.json(["deleted": deleted, "remaining": index.itemCount()]) } else {
            Terminal.out("deleted \(deleted) items; \(index.itemCount()) remain")
        }
        return 0
    }
}
