/// A failure reported by PostgreSQL or libpq.
///
/// `description` gives the server's message, its SQLSTATE and the statement text (with `$n`
/// placeholders, never the bound values); a connection string's password is never part of it.
public struct PostgresError: Error, CustomStringConvertible, Equatable {
    /// The SQLSTATE code (`23505` unique violation, `08006` connection failure …); empty when
    /// libpq failed before the server answered.
    public let sqlState: String
    /// The server's (or libpq's) message, first line.
    public let message: String
    /// The statement, when one failed.
    public let sql: String?
    /// The connection was lost (or could not be made): the statement may be sent again on a
    /// new connection. Inside a transaction the transaction is gone and was not committed.
    public let isConnectionLost: Bool

    public init(sqlState: String, message: String, sql: String?, isConnectionLost: Bool = false) {
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
        self.isConnectionLost = isConnectionLost
    }

    /// A unique or primary-key constraint refused the row.
    public var isUniqueViolation: Bool { sqlState == "23505" }

    public var description: String {
        var text = "PostgreSQL: \(message)"
        if !sqlState.isEmpty { text += " (SQLSTATE \(sqlState))" }
        if let sql { text += " (in: \(sql.count > 120 ? String(sql.prefix(120)) + "…" : sql))" }
        return text
    }
}
