import CSQLite

/// A thin, typed wrapper over the SQLite C API: one connection, prepared statements, errors with messages.
public final class SQLiteDatabase {
    public struct Failure: Error, CustomStringConvertible {
        public var code: Int32
        public var message: String
        public var description: String { "SQLite error \(code): \(message)" }
    }

    let handle: OpaquePointer

    /// Opens (or creates) a database; `":memory:"` is a private in-memory database.
    public init(path: String) throws {
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            if let db { sqlite3_close_v2(db) }
            throw Failure(code: code, message: message)
        }
        handle = db
    }

    deinit { sqlite3_close_v2(handle) }

    /// The library version, e.g. "3.40.1".
    public static var version: String { String(cString: sqlite3_libversion()) }

    /// Runs one or more statements that return no rows the caller needs.
    public func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        if code != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(error)
            throw Failure(code: code, message: message)
        }
    }

    public func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw Failure(code: code, message: lastMessage) }
        return SQLiteStatement(statement: statement, database: self)
    }

    /// Rows changed by the last INSERT/UPDATE/DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// The first column of the first row of a query (for PRAGMAs and counts).
    public func scalarText(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(at: 0)
    }

    /// Whether the library was compiled with an option (e.g. "ENABLE_FTS5").
    public static func hasCompileOption(_ name: String) -> Bool {
        sqlite3_compileoption_used(name) != 0
    }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
}

/// A prepared statement, reset and rebound for every use.
public final class SQLiteStatement {
    let statement: OpaquePointer
    let database: SQLiteDatabase

    init(statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    /// SQLite copies the text (SQLITE_TRANSIENT), so the Swift string's buffer need not outlive the call.
    public func bind(_ value: String, at index: Int32) throws {
        let transient = unsafeBitCast(Int(-1), to: sqlite3_destructor_type.self)
        let code = sqlite3_bind_text(statement, index, value, -1, transient)
        guard code == SQLITE_OK else { throw SQLiteDatabase.Failure(code: code, message: database.lastMessage) }
    }

    public func bind(_ value: Int64, at index: Int32) throws {
        let code = sqlite3_bind_int64(statement, index, value)
        guard code == SQLITE_OK else { throw SQLiteDatabase.Failure(code: code, message: database.lastMessage) }
    }

    /// Advances; true while a row is available, false when done.
    public func step() throws -> Bool {
        let code = sqlite3_step(statement)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw SQLiteDatabase.Failure(code: code, message: database.lastMessage)
    }

    /// Runs a statement that returns no rows.
    public func run() throws {
        defer { reset() }
        while try step() {}
    }

    public func reset() {
        sqlite3_reset(statement)
    }

    public func int64(at column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    public func text(at column: Int32) -> String? {
        guard let text = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: text)
    }
}
