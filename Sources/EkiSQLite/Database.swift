import CSQLite

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

    /// How long a statement waits for a lock another connection holds before it fails with
    /// SQLITE_BUSY, in seconds (5 by default).
    public var busyTimeout: Double = 5 {
        didSet { sqlite3_busy_timeout(handle, Int32((busyTimeout * 1000).rounded())) }
    }

    private var isClosed = false

    deinit { close() }

    /// Closes the connection now (SQLite finishes the close once the last statement of it is
    /// finalized). Nothing may use the connection afterwards; a second call does nothing.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
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
        try transaction(begin: "BEGIN IMMEDIATE", body)
    }

    /// `begin`, then `body`, then COMMIT; ROLLBACK and the body's error when it throws.
    private func transaction<T>(begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
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
        try transaction(begin: "BEGIN DEFERRED") {
            try execute("SELECT count(*) FROM sqlite_master")
            return try body()
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
