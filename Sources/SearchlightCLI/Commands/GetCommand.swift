import Foundation
import Searchlight

/// `searchlight get ID...`: prints stored items as interchange JSON, one per line.
enum GetCommand {
    static let help = """
    USAGE: searchlight get ID... [--attributes A,B,...] [--store DIR]

    Prints the stored items with these identifiers as JSON Lines (the interchange shape).
    Exit status 1 if any identifier is not indexed.

    OPTIONS:
      --attributes A,B  only these attributes
      --store DIR       the store directory (default ./.searchlight)
    """

    static let spec = ArgumentSpec(options: ["--attributes"])

    static func run(_ args: Arguments) throws -> Int32 {
        guard !args.positional.isEmpty else { throw UsageError(command: "get", message: "name at least one item identifier") }
        let index = CSSearchableIndex(name: StoreAccess.indexName, container: try StoreAccess.open(args))
        let attributes = args.value("--attributes").map { $0.split(separator: ",").map(String.init) }
        var missing: [String] = []
        for id in args.positional {
            guard let item = index.fetchSearchableItems(withIdentifiers: [id], fetchAttributes: attributes).first else {
                missing.append(id)
                continue
            }
            Terminal.out(String(decoding: try ItemJSON.encode(item), as: UTF8.self))
        }
        if !missing.isEmpty {
            Terminal.err("searchlight get: not indexed: \(missing.joined(separator: ", "))")
            return 1
        }
        return 0
    }
}
