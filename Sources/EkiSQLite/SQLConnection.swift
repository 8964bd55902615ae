import CSQLite

/// The database engines a store can live in.
public enum SQLEngine: String, Sendable {
    /// One SQLite file (`Database`).
    case sqlite
    /// A PostgreSQL server, shared by several processes (EkiPostgres).
    case postgresql
}

/// A connection the account and visit stores run their SQL on: SQLite (`Database`) or
/// PostgreSQL (`PostgresConnection` in EkiPostgres). Statements use `?` (or `?NNN`) parameters
/// and the SQL both engines read (`ON CONFLICT`, `RETURNING`, `coalesce`); what differs (the
/// schema, the change counter) is asked of `engine`. Not thread-safe: one per thread.
public protocol SQLConnection: AnyObject {
    var engine: SQLEngine { get }
    /// Runs one or more statements without parameters or results.
    func execute(_ sql: String) throws
    /// A statement for `sql`: a new one, or with `cached` one kept for reuse, reset.
    func statement(_ sql: String, cached: Bool) throws -> any SQLStatement
    /// Runs `body` in a write transaction: commits when it returns, rolls back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T
    /// Runs `body` in a read transaction that sees one version of the data throughout.
    func readTransaction<T>(_ body: () throws -> T) throws -> T
    /// A number that changes whenever the data may have changed (another connection's commit
    /// included): caches compare it before trusting what they hold.
    func dataVersion() throws -> UInt32
    /// Whether a table called `name` exists.
    func hasTable(_ name: String) throws -> Bool
    /// Whether a transaction is open on this connection.
    var isInTransaction: Bool { get }
}

/// A statement of an `SQLConnection`: bind values to parameters 1…n, step through the rows,
/// read columns (0-based) of the current row.
public protocol SQLStatement: AnyObject {
    /// Resets the statement and clears its bindings.
    func reset()
    /// Binds values to parameters 1...n.
    func bind(_ values: [SQLValue]) throws
    /// Steps once: true when a row is available, false when done.
    @discardableResult func step() throws -> Bool
    func isNull(_ col: Int32) -> Bool
    func int64(_ col: Int32) -> Int64
    func double(_ col: Int32) -> Double
    func text(_ col: Int32) -> String
    func blob(_ col: Int32) -> [UInt8]
}

extension SQLStatement {
    public func optionalText(_ col: Int32) -> String? { isNull(col) ? nil : text(col) }

    /// Runs the statement with the values bound so far to completion.
    public func runBound() throws { while try step() {} }

    /// Binds, runs to completion, and resets.
    public func run(_ values: [SQLValue]) throws {
        reset()
        try bind(values)
        while try step() {}
        reset()
    }
}

extension SQLConnection {
    /// A new statement for `sql`.
    public func prepare(_ sql: String) throws -> any SQLStatement { try statement(sql, cached: false) }
    /// A statement kept for reuse (reset before it is handed out again).
    public func cached(_ sql: String) throws -> any SQLStatement { try statement(sql, cached: true) }
    /// A new statement for `sql.text` with `sql.arguments` bound.
    public func prepare(sql: SQL) throws -> any SQLStatement {
        let s = try statement(sql.text, cached: false)
        try s.bind(sql.arguments)
        return s
    }
    /// The cached statement for `sql.text`, with `sql.arguments` bound afresh.
    public func cached(sql: SQL) throws -> any SQLStatement {
        let s = try statement(sql.text, cached: true)
        try s.bind(sql.arguments)
        return s
    }
    /// The first column of the first row of `sql`, as Int64 (nil when no row or NULL).
    public func scalarInt(_ sql: String, _ bindings: [SQLValue] = []) throws -> Int64? {
        let s = try statement(sql, cached: false)
        try s.bind(bindings)
        guard try s.step() else { return nil }
        return s.isNull(0) ? nil : s.int64(0)
    }
    /// The first column of the first row of `sql`, as Int64 (nil when no row or NULL).
    public func scalarInt(sql: SQL) throws -> Int64? { try scalarInt(sql.text, sql.arguments) }

    /// After a row was written under an explicit `id`: on PostgreSQL moves `sequence` (the
    /// table's id sequence, a name written in the code) past it, so that later rows do not
    /// draw it; nothing on SQLite (AUTOINCREMENT does this itself).
    public func idTaken(_ id: Int64, sequence: String) throws {
        guard engine == .postgresql else { return }
        _ = try scalarInt("SELECT setval('\(sequence)', greatest(?, (SELECT last_value FROM \(sequence))))", [.int(id)])
    }
}

extension Statement: SQLStatement {}

extension Database: SQLConnection {
    public var engine: SQLEngine { .sqlite }
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    public func statement(_ sql: String, cached: Bool) throws -> any SQLStatement {
        cached ? try self.cached(sql) : try prepare(sql)
    }

    public func hasTable(_ name: String) throws -> Bool {
        let s = try cached("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?")
        defer { s.reset() }
        try s.bind([.text(name)])
        return try s.step() && s.int64(0) > 0
    }
}
