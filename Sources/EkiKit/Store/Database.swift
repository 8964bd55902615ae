import CSQLite

/// An SQLite error with the statement that caused it (never the bound values).
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// SQLite result code (e.g. 19 = SQLITE_CONSTRAINT).
    public var code: Int32
    public var message: String
    public var sql: String?

    public var description: String {
        sql.map { "SQLite error \(code): \(message) (in: \($0))" } ?? "SQLite error \(code): \(message)"
    }
}

/// A connection to one SQLite file. Owns the `sqlite3*` handle and closes it in `deinit`.
/// Not thread-safe: use one connection per thread or task.
public final class Database {
    let handle: OpaquePointer
    /// The file path given at open.
    public let path: String
    private var statementCache: [String: Statement] = [:]

    /// Opens (and with `create`, creates) the database at `path`.
    /// - Throws: `SQLiteError` when the file cannot be opened.
    public init(path: String, readOnly: Bool = false, create: Bool = true) throws {
        var db: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY
            : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let msg = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: "\(msg): \(path)", sql: nil)
        }
        handle = db
        self.path = path
        sqlite3_busy_timeout(db, 5000)
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more SQL statements without results.
    public func execute(_ sql: String) throws {
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &err)
        if rc != SQLITE_OK {
            let msg = err.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(err)
            throw SQLiteError(code: rc, message: msg, sql: sql)
        }
    }

    /// A new prepared statement.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(db: self, sql: sql)
    }

    /// A prepared statement kept for reuse (reset before it is handed out again).
    public func cached(_ sql: String) throws -> Statement {
        if let s = statementCache[sql] {
            s.reset()
            return s
        }
        let s = try Statement(db: self, sql: sql)
        statementCache[sql] = s
        return s
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws (and
    /// rethrows the body's error even if the rollback fails too).
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// rowid of the last insert.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// A number that changes whenever the main database file changes, through this connection
    /// or any other (`SQLITE_FCNTL_DATA_VERSION`): in-memory caches of the file compare it.
    /// SQLite notices other connections' commits when it takes the read lock, so outside a
    /// transaction this runs `PRAGMA data_version` first (one lock and unlock, a few µs); inside
    /// one the lock is held and nothing else can commit, so it only reads the counter.
    public func dataVersion() throws -> UInt32 {
        if sqlite3_get_autocommit(handle) != 0 {
            let s = try cached("PRAGMA data_version")
            defer { s.reset() }
            _ = try s.step()
        }
        var v: UInt32 = 0
        _ = withUnsafeMutablePointer(to: &v) { sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, $0) }
        return v
    }

    /// Runs `body` in a read transaction (`BEGIN DEFERRED` and a first read, which takes the
    /// shared lock): every read inside sees one version of the file, and other connections
    /// cannot commit until it ends (in the default rollback-journal mode).
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN DEFERRED")
        do {
            try execute("SELECT count(*) FROM sqlite_master")
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// The first column of the first row of `sql`, as Int64 (nil when no row or NULL).
    public func scalarInt(_ sql: String, _ bindings: [SQLValue] = []) throws -> Int64? {
        let s = try prepare(sql)
        try s.bind(bindings)
        guard try s.step() else { return nil }
        return s.isNull(0) ? nil : s.int64(0)
    }
}

/// A value to bind to a statement parameter.
public enum SQLValue: Sendable {
    case int(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
    case null
}

/// A prepared statement; finalized in `deinit`.
public final class Statement {
    let handle: OpaquePointer
    unowned let db: Database
    public let sql: String

    init(db: Database, sql: String) throws {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(db.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw SQLiteError(code: rc, message: db.lastErrorMessage, sql: sql)
        }
        handle = stmt
        self.db = db
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and clears its bindings.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds values to parameters 1...n.
    public func bind(_ values: [SQLValue]) throws {
        for (i, v) in values.enumerated() { try bind(v, at: Int32(i + 1)) }
    }

    public func bind(_ v: SQLValue, at i: Int32) throws {
        let rc: Int32
        switch v {
        case .int(let x): rc = sqlite3_bind_int64(handle, i, x)
        case .double(let x): rc = sqlite3_bind_double(handle, i, x)
        case .text(let s): rc = sqlite3_bind_text(handle, i, s, -1, eki_sqlite_transient())
        case .blob(let b):
            rc = b.withUnsafeBytes { sqlite3_bind_blob(handle, i, $0.baseAddress, Int32(b.count), eki_sqlite_transient()) }
        case .null: rc = sqlite3_bind_null(handle, i)
        }
        if rc != SQLITE_OK { throw SQLiteError(code: rc, message: db.lastErrorMessage, sql: sql) }
    }

    public func bind(_ x: Double, at i: Int32) { sqlite3_bind_double(handle, i, x) }
    public func bind(_ x: Int64, at i: Int32) { sqlite3_bind_int64(handle, i, x) }
    /// Binds text (copied), or NULL when `s` is nil.
    public func bind(_ s: String?, at i: Int32) {
        if let s { sqlite3_bind_text(handle, i, s, -1, eki_sqlite_transient()) } else { sqlite3_bind_null(handle, i) }
    }
    /// Binds a blob (copied).
    public func bind(blob b: UnsafeRawBufferPointer, at i: Int32) {
        sqlite3_bind_blob(handle, i, b.baseAddress, Int32(b.count), eki_sqlite_transient())
    }

    /// Runs the statement with the values bound so far to completion, then resets it (bindings
    /// are kept for the next run, so bind every parameter again).
    public func runBound() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Steps once: true when a row is available, false when done.
    @discardableResult
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw SQLiteError(code: rc, message: db.lastErrorMessage, sql: sql)
    }

    /// Binds, runs to completion, and resets.
    public func run(_ values: [SQLValue]) throws {
        sqlite3_reset(handle)
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    public func isNull(_ col: Int32) -> Bool { sqlite3_column_type(handle, col) == SQLITE_NULL }
    public func int64(_ col: Int32) -> Int64 { sqlite3_column_int64(handle, col) }
    public func double(_ col: Int32) -> Double { sqlite3_column_double(handle, col) }
    public func text(_ col: Int32) -> String {
        guard let p = sqlite3_column_text(handle, col) else { return "" }
        return String(cString: p)
    }
    public func optionalText(_ col: Int32) -> String? { isNull(col) ? nil : text(col) }
    /// Calls `body` with the bytes of a blob column without copying them (valid only inside).
    public func withBlob<T>(_ col: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let n = Int(sqlite3_column_bytes(handle, col))
        return try body(UnsafeRawBufferPointer(start: sqlite3_column_blob(handle, col), count: n))
    }
    public func blob(_ col: Int32) -> [UInt8] {
        let n = Int(sqlite3_column_bytes(handle, col))
        guard n > 0, let p = sqlite3_column_blob(handle, col) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}
