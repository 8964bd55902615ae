import Foundation
import EkiSQLite

/// Errors about the database file itself, and what the store finds wrong inside it.
public enum StoreError: Error, CustomStringConvertible, Sendable {
    case missing(String)
    /// The path is a folder.
    case isDirectory(String)
    /// The file is not an SQLite database at all (a text file, an image).
    case notADatabase(String)
    case notAStationDatabase(String)
    case schemaVersion(String, found: Int, expected: Int)
    /// A row the store itself wrote is missing (the `fid` of a stations row).
    case noEntry(fid: Int64)
    /// An R-tree node has a size the store does not read.
    case unexpectedRTreeNode(table: String, size: Int)
    /// An R-tree node of the file at `path` is missing, cannot be decoded, or does not fit the
    /// tree or the table (`problem`: "is missing", "has cell 3 outside its parent's box", …).
    case corruptRTree(path: String, table: String, node: Int64, problem: String)
    /// A read-only open of a file whose write-ahead log needs recovering, without the right
    /// to write beside it.
    case interruptedWrite(String)
    /// Another connection was writing the file for the whole wait (seconds).
    case writerBusy(String, waited: Double)
    /// A first import is creating the file (rollback journal beside it, nothing committed yet):
    /// a reader has nothing to read until it commits.
    case beingCreated(String)
    /// A reader waited for the whole busy timeout (seconds) behind another connection writing
    /// the file with a rollback journal: a first import when `creating` (its `-journal` is
    /// beside the file), else another program.
    case locked(String, waited: Double, creating: Bool)

    /// True when the file `db` reads is being written by a first import (see
    /// `StationStore.importBatches`): in rollback-journal mode (EkiKit's files are otherwise
    /// always WAL), its `-journal` beside it, and no entry and no source row committed.
    static func firstImportRunning(_ db: Database) throws -> Bool {
        guard FileManager.default.fileExists(atPath: db.path + "-journal") else { return false }
        let mode = try db.prepare("PRAGMA journal_mode")
        guard try mode.step(), mode.text(0) != "wal" else { return false }
        return try db.scalarInt("SELECT NOT EXISTS (SELECT 1 FROM stations) AND NOT EXISTS (SELECT 1 FROM source_records)") == 1
    }

    /// True when a read-only open failed because the file's write-ahead log (`PATH-wal`, not
    /// empty) needs recovering and this process may not write the index beside it
    /// (SQLITE_READONLY or SQLITE_CANTOPEN families). A connection that may write recovers it
    /// on its first read, read-only or not.
    static func leftMidWrite(_ path: String, _ e: SQLiteError) -> Bool {
        guard [.readOnly, .cantOpen].contains(e.primary) else { return false }
        let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        return size > 0
    }

    public var description: String {
        switch self {
        case .missing(let p): return "no station database at \(p) (build one with `eki import`)"
        case .isDirectory(let p): return "\(p) is a directory"
        case .notADatabase(let p): return "\(p) is not an EkiKit database"
        case .notAStationDatabase(let p): return "\(p) is an SQLite file but not an EkiKit station database"
        case .schemaVersion(let p, let found, let expected) where found >= 2 && found < expected:
            // Older files are upgraded in place (`SchemaUpgrade`) by any open that may write.
            return "\(p) has schema version \(found), older than this eki's \(expected); read-only commands do not change it: the next `eki import --db \(p) …` upgrades it in place, keeping its entries"
        case .schemaVersion(let p, let found, let expected):
            return "\(p) has schema version \(found), this eki reads \(expected): rebuild it with `eki import`"
        case .noEntry(let fid): return "no station with fid \(fid)"
        case .unexpectedRTreeNode(let table, let size): return "\(table): unexpected R*Tree node size \(size)"
        case .corruptRTree(let p, let table, let node, let problem):
            return "\(p) is damaged: node \(node) of its spatial index (\(table)) \(problem); nothing was answered from it. `eki info --db \(p) --check` says what else is damaged and how to rebuild the file"
        case .interruptedWrite(let p):
            return "\(p) was left mid-write by a command that stopped; its last changes are recovered by the next command that may write \(p) and its folder: run `eki info --db \(p)` once as that user"
        case .beingCreated(let p):
            return "an import is creating \(p) and has not finished: there is nothing to read yet; run this again when it has"
        case .locked(let p, let waited, true):
            return "an import is creating \(p) and has not finished: waited \(String(format: "%g", waited)) s for it; run this again when it has"
        case .locked(let p, let waited, false):
            return "\(p) is locked by another program writing it: waited \(String(format: "%g", waited)) s; run this again when it is done"
        case .writerBusy(let p, let waited):
            return "another import is running on \(p): waited \(String(format: "%g", waited)) s for it to finish; nothing was written, run this again when it has"
        }
    }
}

extension Database {
    /// Runs `body` in a write transaction. Only one connection writes at a time: when another
    /// holds the write lock, the begin waits `busyTimeout` seconds for it to finish.
    /// - Throws: `StoreError.writerBusy` when the wait ran out (nothing was written); the
    ///   body's error.
    package func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        do {
            return try transaction(body)
        } catch let e as SQLiteError where e.primary == .busy && e.sql?.hasPrefix("BEGIN") == true {
            throw StoreError.writerBusy(path, waited: busyTimeout)
        }
    }
}
