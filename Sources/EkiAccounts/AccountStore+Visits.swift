import EkiKit
import EkiSQLite

/// Each account's visits: the visit log's tables inside the accounts file, every row owned by
/// the user id (`VisitLog(database:owner:path:)`).
extension AccountStore {
    /// The visit log of `userID`, on this store's connection (valid while the store is open;
    /// not thread-safe, as the store). Everything it reads and writes is `userID`'s only.
    public func visits(of userID: Int64) throws -> VisitLog {
        VisitLog(database: db, owner: userID, path: path)
    }

    /// A number that grows whenever `userID`'s visits change (a visit added, edited or removed:
    /// the largest change number of their visits and deletion records), for caches of what
    /// their visits resolve to. Other people's changes leave it as it is.
    public func changeMark(of userID: Int64) throws -> Int64 {
        try db.scalarInt(sql: """
            SELECT max(ifnull((SELECT max(seq) FROM visits WHERE owner = \(userID)), 0),
                       ifnull((SELECT max(seq) FROM visit_tombstones WHERE owner = \(userID)), 0))
            """) ?? 0
    }

    /// Creates the visit log's tables in a new accounts file (inside its creating transaction).
    static func installVisitSchema(in db: Database) throws { try VisitLog.installSchema(in: db) }

    /// Removes every visit, deletion record, setting and sync record of `userID`, inside the
    /// caller's transaction; how many visits there were.
    func deleteVisits(of userID: Int64) throws -> Int {
        let n = try visits(of: userID).count()
        for table in ["visits", "visit_tombstones", "settings", "sync_peers"] {
            try db.prepare(sql: "DELETE FROM \(raw: table) WHERE owner = \(userID)").runBound()
        }
        return n
    }
}
