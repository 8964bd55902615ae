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
