import CSQLite

/// The few SQLite calls the geocoding cache needs. Private to this module (EkiKit has its own,
/// fuller wrapper). One connection per `Geocoder`; not thread-safe.
final class SQLiteConnection {
    private let db: OpaquePointer

    /// Opens (creating if needed) the database at `path`, waiting up to `busyTimeout` seconds for
    /// other connections' locks.
    init(path: String, busyTimeout: Double = 10) throws(GeocodingError) {
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw .misconfigured(reason: "cannot open cache database: \(message)")
        }
        db = handle
        sqlite3_busy_timeout(db, Int32(busyTimeout * 1000))
    }

    deinit { sqlite3_close(db) }

    /// Runs SQL without results (several statements allowed).
    func execute(_ sql: String) throws(GeocodingError) {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    /// Runs one statement with `arguments` bound to `?1, ?2, …`, returning every row.
    @discardableResult
    func query(_ sql: String, _ arguments: [Value] = []) throws(GeocodingError) -> [[Value]] {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else { throw failure(sql) }
        defer { sqlite3_finalize(stmt) }
        for (i, a) in arguments.enumerated() {
            let index = Int32(i + 1)
            switch a {
            case .null: sqlite3_bind_null(stmt, index)
            case .real(let d): sqlite3_bind_double(stmt, index, d)
            case .text(let s): sqlite3_bind_text(stmt, index, s, -1, eki_sqlite_transient())
            }
        }
        var rows: [[Value]] = []
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { return rows }
            guard rc == SQLITE_ROW else { throw failure(sql) }
            rows.append((0..<sqlite3_column_count(stmt)).map { c in
                switch sqlite3_column_type(stmt, c) {
                case SQLITE_NULL: return .null
                case SQLITE_INTEGER, SQLITE_FLOAT: return .real(sqlite3_column_double(stmt, c))
                default: return .text(String(cString: sqlite3_column_text(stmt, c)))
                }
            })
        }
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT` (the write lock is taken at the start, so two
    /// processes cannot both read and then write); rolls back when `body` throws.
    func immediateTransaction<T>(_ body: () throws(GeocodingError) -> T) throws(GeocodingError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)      // keep the first error
            throw error
        }
    }

    enum Value: Hashable {
        case null
        case real(Double)
        case text(String)

        var double: Double? { if case .real(let d) = self { return d } else { return nil } }
        var string: String? { if case .text(let s) = self { return s } else { return nil } }
    }

    private func failure(_ sql: String) -> GeocodingError {
        .misconfigured(reason: "cache database: \(String(cString: sqlite3_errmsg(db))) (SQL: \(sql))")
    }
}
