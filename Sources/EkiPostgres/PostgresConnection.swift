import CPostgres
import EkiSQLite

/// A connection to a PostgreSQL database through libpq: the `SQLConnection` the account and
/// visit stores use when they live on a server that several `eki serve` processes share.
///
/// Statements are written with `?` / `?NNN` parameters (as for SQLite) and sent with
/// `PQexecParams` / `PQexecPrepared` (`$n`), every value bound: integers and text as text,
/// blobs as binary `bytea`. Results come back as text and are read as the column accessors
/// ask (`int64`, `text`, `blob` from bytea's hex form).
///
/// A lost connection (the server restarted, say) fails the statement or transaction in flight
/// with `PostgresError.isConnectionLost`; the next use connects again. `BEGIN` and statements
/// outside a transaction are sent once more on the new connection, so a restart costs only
/// the requests that were in flight. Not thread-safe: one connection per thread.
public final class PostgresConnection: SQLConnection {
    private var conn: OpaquePointer
    /// The connection string given at open, password hidden (`PostgresURL.redacted`).
    public let name: String
    public var engine: SQLEngine { .postgresql }
    private var prepared: [String: PostgresStatement] = [:]
    private var generation = 0
    private var version: UInt32 = 0
    var inTransaction = false
    public var isInTransaction: Bool { inTransaction }

    /// Connects to `url` (a libpq connection URI or `key=value` string).
    /// - Throws: `PostgresError` (`isConnectionLost`) when the server cannot be reached or
    ///   refuses the login; the message names the database without its password.
    public init(url: String) throws {
        name = PostgresURL.redacted(url)
        guard let c = PQconnectdb(url) else {
            throw PostgresError(sqlState: "", message: "out of memory connecting to \(name)", sql: nil, isConnectionLost: true)
        }
        // `conn` is set only once the connection is good: a throw before that runs no deinit,
        // so the failed one is finished here, once.
        guard PQstatus(c) == CONNECTION_OK else {
            let why = Self.firstLine(PQerrorMessage(c))
            PQfinish(c)
            throw PostgresError(sqlState: "", message: "cannot connect to \(name): \(why)", sql: nil, isConnectionLost: true)
        }
        conn = c
        Self.quietNotices(c)
    }

    deinit {
        prepared.removeAll()
        PQfinish(conn)
    }

    /// NOTICE messages (`… already exists, skipping`) are not for the person running eki.
    private static func quietNotices(_ c: OpaquePointer) {
        PQsetNoticeProcessor(c, { _, _ in }, nil)
    }

    static func firstLine(_ p: UnsafePointer<CChar>?) -> String {
        guard let p else { return "unknown error" }
        let text = String(cString: p)
        return text.split(separator: "\n").first.map { String($0).trimmingSpaces } ?? "unknown error"
    }

    /// Connects again when the connection is gone and no transaction depends on it.
    func reconnectIfNeeded() throws {
        guard PQstatus(conn) != CONNECTION_OK, !inTransaction else { return }
        PQreset(conn)
        // The cached statements stay, each with its name: one is prepared again on the new
        // connection when it is next sent (its generation is older).
        generation += 1
        guard PQstatus(conn) == CONNECTION_OK else {
            throw PostgresError(sqlState: "08006", message: "cannot connect to \(name): \(Self.firstLine(PQerrorMessage(conn)))",
                                sql: nil, isConnectionLost: true)
        }
        Self.quietNotices(conn)
    }

    /// Sends `body` once, and once more on a new connection when it fails because the
    /// connection was lost outside a transaction.
    func retryingOnLostConnection<T>(_ body: () throws -> T) throws -> T {
        try reconnectIfNeeded()
        do { return try body() } catch let e as PostgresError where e.isConnectionLost && !inTransaction {
            try reconnectIfNeeded()
            return try body()
        }
    }

    /// The error of a failed result (or of the connection when there is no result).
    func error(_ result: OpaquePointer?, sql: String?) -> PostgresError {
        let lost = PQstatus(conn) != CONNECTION_OK
        guard let result else {
            return PostgresError(sqlState: "", message: Self.firstLine(PQerrorMessage(conn)), sql: sql, isConnectionLost: lost)
        }
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        let message = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            ?? Self.firstLine(PQresultErrorMessage(result))
        return PostgresError(sqlState: state, message: message, sql: sql, isConnectionLost: lost || state.hasPrefix("08") || state == "57P01")
    }

    /// Runs one or more statements (no parameters), discarding any rows.
    public func execute(_ sql: String) throws {
        try retryingOnLostConnection { try run(sql) }
    }

    private func run(_ sql: String) throws {
        let r = PQexec(conn, sql)
        defer { PQclear(r) }
        let status = r.map(PQresultStatus)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw error(r, sql: sql) }
    }

    public func statement(_ sql: String, cached: Bool) throws -> any SQLStatement {
        guard cached else { return PostgresStatement(connection: self, sql: sql, name: nil) }
        if let s = prepared[sql] {
            s.reset()
            return s
        }
        let s = PostgresStatement(connection: self, sql: sql, name: "eki_\(prepared.count)")
        prepared[sql] = s
        return s
    }

    /// The libpq handle for `PostgresStatement`, with the generation it was connected in
    /// (prepared statements do not survive a new connection).
    var handle: (conn: OpaquePointer, generation: Int) { (conn, generation) }

    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(begin: "BEGIN", body)
    }

    /// A `REPEATABLE READ READ ONLY` transaction: every read sees one snapshot.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    private func transaction<T>(begin: String, _ body: () throws -> T) throws -> T {
        guard !inTransaction else {
            throw PostgresError(sqlState: "25001", message: "a transaction is already in progress", sql: begin)
        }
        try retryingOnLostConnection { try run(begin) }
        inTransaction = true
        defer { inTransaction = false }
        do {
            let value = try body()
            try run("COMMIT")
            return value
        } catch {
            if PQstatus(conn) == CONNECTION_OK { try? run("ROLLBACK") }
            throw error
        }
    }

    /// PostgreSQL has no counter of other sessions' commits that is cheap to read: this
    /// changes on every call, so caches always check their own change marks.
    public func dataVersion() throws -> UInt32 {
        version &+= 1
        return version
    }

    public func hasTable(_ name: String) throws -> Bool {
        let s = try cached("SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = ?")
        defer { s.reset() }
        try s.bind([.text(name)])
        return try s.step() && s.int64(0) > 0
    }

    /// The server's version number (`150014` for 15.14).
    public var serverVersion: Int { Int(PQserverVersion(conn)) }

    /// `?` → `$1`, `$2` …, and `?NNN` → `$NNN`, outside quoted text, quoted names and comments.
    static func numberedParameters(_ sql: String) -> String {
        var out = ""
        out.reserveCapacity(sql.utf8.count + 8)
        var next = 1
        var chars = Array(sql.unicodeScalars)[...]
        while let c = chars.popFirst() {
            switch c {
            case "'", "\"":
                out.unicodeScalars.append(c)
                while let d = chars.popFirst() {
                    out.unicodeScalars.append(d)
                    if d == c { break }
                }
            case "-" where chars.first == "-":
                out.unicodeScalars.append(c)
                while let d = chars.popFirst() {
                    out.unicodeScalars.append(d)
                    if d == "\n" { break }
                }
            case "?":
                var digits = ""
                while let d = chars.first, ("0"..."9").contains(d) { digits.unicodeScalars.append(d); chars.removeFirst() }
                if digits.isEmpty { out += "$\(next)"; next += 1 } else { out += "$" + digits }
            default:
                out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
