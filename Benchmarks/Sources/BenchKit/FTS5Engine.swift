/// SQLite FTS5 configured as a fair peer: in-memory database, `unicode61 remove_diacritics 2`, prefix indexes
/// for 2 and 3 characters, the same four fields and BM25 weights as Searchlight, prepared statements reused.
///
/// Item identifiers and domains live in a side table (`item_meta`, indexed by identifier and by domain) the way
/// an application keeps them, so deleting a domain and replacing an item are indexed operations.
public final class FTS5Engine: BenchEngine {
    public static let name = "fts5"

    let database: SQLiteDatabase
    private let insertItem: SQLiteStatement
    private let insertMeta: SQLiteStatement
    private let searchStatement: SQLiteStatement
    private let identifierStatement: SQLiteStatement
    private let rowidStatement: SQLiteStatement
    private let updateItem: SQLiteStatement
    private let deleteItem: SQLiteStatement
    private let deleteMeta: SQLiteStatement
    private var nextRowid: Int64 = 1

    /// The columns in table order; bm25 weights follow the same order.
    static let fields = BenchField.allCases

    public init() throws {
        guard SQLiteDatabase.hasCompileOption("ENABLE_FTS5") else {
            throw SQLiteDatabase.Failure(code: 0, message: "this SQLite \(SQLiteDatabase.version) was built without FTS5")
        }
        database = try SQLiteDatabase(path: ":memory:")
        let columns = Self.fields.map(\.rawValue).joined(separator: ", ")
        let weights = Self.fields.map { String($0.weight) }.joined(separator: ", ")
        try database.execute("""
            PRAGMA page_size = 4096;
            PRAGMA cache_size = -262144;
            PRAGMA temp_store = MEMORY;
            PRAGMA journal_mode = MEMORY;
            CREATE TABLE item_meta(rowid INTEGER PRIMARY KEY, uid TEXT NOT NULL UNIQUE, domain TEXT NOT NULL);
            CREATE INDEX item_meta_domain ON item_meta(domain);
            CREATE VIRTUAL TABLE items USING fts5(\(columns),
                tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
            INSERT INTO items(items, rank) VALUES('rank', 'bm25(\(weights))');
            """)
        let placeholders = Self.fields.map { _ in "?" }.joined(separator: ", ")
        insertItem = try database.prepare("INSERT INTO items(rowid, \(columns)) VALUES(?, \(placeholders))")
        insertMeta = try database.prepare("INSERT INTO item_meta(rowid, uid, domain) VALUES(?, ?, ?)")
        searchStatement = try database.prepare("SELECT rowid FROM items WHERE items MATCH ?1 ORDER BY rank LIMIT ?2")
        identifierStatement = try database.prepare("SELECT uid FROM item_meta WHERE rowid = ?1")
        rowidStatement = try database.prepare("SELECT rowid FROM item_meta WHERE uid = ?1")
        let assignments = Self.fields.map { "\($0.rawValue) = ?" }.joined(separator: ", ")
        updateItem = try database.prepare("UPDATE items SET \(assignments) WHERE rowid = ?")
        deleteItem = try database.prepare("DELETE FROM items WHERE rowid = ?1")
        deleteMeta = try database.prepare("DELETE FROM item_meta WHERE rowid = ?1")
    }

    public func build(_ items: [CorpusItem]) throws {
        try database.execute("BEGIN")
        do {
            for item in items { try insert(item) }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
        try database.execute("INSERT INTO items(items) VALUES('optimize')")
    }

    private func insert(_ item: CorpusItem) throws {
        let rowid = nextRowid
        nextRowid += 1
        try insertMeta.bind(rowid, at: 1)
        try insertMeta.bind(item.uniqueIdentifier, at: 2)
        try insertMeta.bind(item.domainIdentifier, at: 3)
        try insertMeta.run()
        try insertItem.bind(rowid, at: 1)
        for (offset, field) in Self.fields.enumerated() {
            try insertItem.bind(field.text(of: item), at: Int32(offset + 2))
        }
        try insertItem.run()
    }

    /// `"word"` for a term, `"pre"*` for a prefix, `"w1 w2"` for a phrase, joined by AND.
    public static func matchExpression(_ query: BenchQuery) -> String {
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        return query.clauses.map { clause -> String in
            switch clause {
            case .term(let word): return quoted(word)
            case .prefix(let stem): return quoted(stem) + "*"
            case .phrase(let words): return quoted(words.joined(separator: " "))
            }
        }.joined(separator: " AND ")
    }

    public func compile(_ query: BenchQuery) throws -> String { Self.matchExpression(query) }

    public func search(_ query: String, limit: Int) throws -> Int {
        defer { searchStatement.reset() }
        try searchStatement.bind(query, at: 1)
        try searchStatement.bind(Int64(limit), at: 2)
        var hits = 0
        var checksum: Int64 = 0
        while try searchStatement.step() {
            checksum &+= searchStatement.int64(at: 0)  // read every hit's id, as a caller would
            hits += 1
        }
        blackHole(checksum)
        return hits
    }

    public func topIdentifiers(_ query: String, limit: Int) throws -> [String] {
        var rowids: [Int64] = []
        do {
            defer { searchStatement.reset() }
            try searchStatement.bind(query, at: 1)
            try searchStatement.bind(Int64(limit), at: 2)
            while try searchStatement.step() { rowids.append(searchStatement.int64(at: 0)) }
        }
        return try rowids.map { rowid in
            defer { identifierStatement.reset() }
            try identifierStatement.bind(rowid, at: 1)
            return try identifierStatement.step() ? identifierStatement.text(at: 0) ?? "" : ""
        }
    }

    public func deleteDomain(_ domain: String) throws -> Int {
        let quotedDomain = "'" + domain.replacingOccurrences(of: "'", with: "''") + "'"
        try database.execute("BEGIN")
        do {
            try database.execute(
                "DELETE FROM items WHERE rowid IN (SELECT rowid FROM item_meta WHERE domain = \(quotedDomain))")
            let removed = database.changes
            try database.execute("DELETE FROM item_meta WHERE domain = \(quotedDomain)")
            try database.execute("COMMIT")
            return removed
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// The rowid of an identifier (the lookup statement is reset before the row is changed).
    private func rowid(of identifier: String) throws -> Int64? {
        defer { rowidStatement.reset() }
        try rowidStatement.bind(identifier, at: 1)
        return try rowidStatement.step() ? rowidStatement.int64(at: 0) : nil
    }

    /// One transaction: each item's row goes from the index and from the side table, looked up by identifier.
    public func delete(_ items: ArraySlice<CorpusItem>) throws -> Int {
        try database.execute("BEGIN")
        do {
            var removed = 0
            for item in items {
                guard let rowid = try rowid(of: item.uniqueIdentifier) else { continue }
                try deleteItem.bind(rowid, at: 1)
                try deleteItem.run()
                try deleteMeta.bind(rowid, at: 1)
                try deleteMeta.run()
                removed += 1
            }
            try database.execute("COMMIT")
            return removed
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    public func replace(_ items: ArraySlice<CorpusItem>) throws {
        try database.execute("BEGIN")
        do {
            for item in items {
                if let rowid = try rowid(of: item.uniqueIdentifier) {
                    for (offset, field) in Self.fields.enumerated() {
                        try updateItem.bind(field.text(of: item), at: Int32(offset + 1))
                    }
                    try updateItem.bind(rowid, at: Int32(Self.fields.count + 1))
                    try updateItem.run()
                } else {
                    try insert(item)
                }
            }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// Pages of the whole database times the page size: the index's own size, beside the RSS figure.
    public func indexBytes() throws -> Int? {
        let pages = Int(try database.scalarText("PRAGMA page_count") ?? "0") ?? 0
        let size = Int(try database.scalarText("PRAGMA page_size") ?? "0") ?? 0
        return pages * size
    }
}
