/// What a long-running reader (the map server) needs to notice changes made by other
/// connections to the visit log: a visit recorded by the writer.
extension VisitLog {
    /// A number that changes whenever another connection commits to the log file (SQLite's
    /// data version).
    /// - Throws: `SQLiteError`.
    public func dataVersion() throws -> UInt32 { try db.dataVersion() }

    /// Runs `body` in a read transaction: every read inside sees one version of the log.
    /// - Throws: `SQLiteError`, or what `body` throws.
    public func readSnapshot<T>(_ body: () throws -> T) throws -> T { try db.readTransaction(body) }
}
