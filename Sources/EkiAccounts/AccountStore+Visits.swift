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

    /// Creates the visit log's tables in a new accounts file (inside its creating transaction).
    static func installVisitSchema(in db: Database) throws { try VisitLog.installSchema(in: db) }

    /// Removes every visit, deletion record, setting and sync record of `userID`, inside the
    /// caller's transaction; how many visits there were.
    func deleteVisits(of userID: Int64) throws -> Int { try visits(of: userID).eraseOwner() }
}
