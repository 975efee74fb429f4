import Foundation
import Searchlight

/// `searchlight stats`: items, domains, terms, memory and store size.
enum StatsCommand {
    static let help = """
    USAGE: searchlight stats [--store DIR] [--json]

    Prints the number of items, domains, distinct terms and segments, the estimated memory of the index and the
    size of the store on disk.
    """

    static let spec = ArgumentSpec(takesOperands: false)

    static func run(_ args: Arguments) throws -> Int32 {
        let index = CSSearchableIndex(name: StoreAccess.indexName, container: try StoreAccess.open(args))
        let stats = index.statistics()
        let storeBytes = directorySize(args.storeDirectory)
        if args.json {
            Terminal.json(["items": stats.items, "domains": stats.domains, "terms": stats.terms, "segments": stats.segments,
                           "memory_bytes": stats.estimatedMemoryBytes, "store_bytes": storeBytes])
        } else {
            Terminal.out("""
            items     \(stats.items)
            domains   \(stats.domains)
            terms     \(stats.terms)
            segments  \(stats.segments)
            memory    \(megabytes(stats.estimatedMemoryBytes))
            store     \(megabytes(storeBytes)) (\(args.storeDirectory.path))
            """)
        }
        return 0
    }

    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }

    static func directorySize(_ url: URL) -> Int {
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.fileSizeKey]) else { return 0 }
        var total = 0
        for case let file as URL in walker {
            total += (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        }
        return total
    }
}
