import CSQLite

/// A value to bind to a statement parameter.
public enum SQLValue: Sendable, Equatable {
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

    /// Takes ownership of `handle`, prepared on `db` from `sql`.
    init(db: Database, handle: OpaquePointer, sql: String) {
        self.handle = handle
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
        case .text(let s): rc = Self.bindText(handle, i, s)
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
        if let s { _ = Self.bindText(handle, i, s) } else { sqlite3_bind_null(handle, i) }
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
    /// The text of a column, all of its bytes (a NUL inside is kept).
    public func text(_ col: Int32) -> String {
        guard let p = sqlite3_column_text(handle, col) else { return "" }
        let n = Int(sqlite3_column_bytes(handle, col))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// Binds all the UTF-8 bytes of `s` (copied) with their length, so a NUL inside is kept.
    static func bindText(_ handle: OpaquePointer, _ i: Int32, _ s: String) -> Int32 {
        var s = s
        return s.withUTF8 { b in
            guard let base = b.baseAddress, !b.isEmpty else { return sqlite3_bind_text(handle, i, "", 0, eki_sqlite_transient()) }
            return base.withMemoryRebound(to: CChar.self, capacity: b.count) {
                sqlite3_bind_text(handle, i, $0, Int32(b.count), eki_sqlite_transient())
            }
        }
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
