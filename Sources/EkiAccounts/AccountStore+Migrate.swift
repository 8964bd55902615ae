import EkiSQLite
import Foundation

/// What `AccountStore.migrate(to:)` did, table by table.
public struct StoreMigrationReport: Sendable, Equatable {
    /// One table: rows in the source, rows written now, rows the destination already held
    /// unchanged (from an earlier run).
    public struct Table: Sendable, Equatable {
        public let name: String
        public let source: Int
        public let copied: Int
        public let alreadyThere: Int
    }
    public let tables: [Table]
}

/// A migration that would not keep every row as it is; nothing was written.
public struct StoreMigrationError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(description: String) { self.description = description }
}

extension AccountStore {
    /// Every table of the store with its columns (i: integer, t: text, b: bytes) and its key,
    /// in an order that keeps references before the rows that make them.
    static let migratedTables: [(name: String, columns: [(String, Character)], key: [String], sequence: String?)] = [
        ("users", [("id", "i"), ("name", "t"), ("password_hash", "t"), ("created_at", "i")], ["id"], "users_id_seq"),
        ("sessions", [("digest", "t"), ("user_id", "i"), ("csrf", "t"), ("created_at", "i"), ("last_seen", "i")], ["digest"], nil),
        ("api_tokens", [("digest", "t"), ("user_id", "i"), ("created_at", "i"), ("last_used", "i")], ["digest"], nil),
        ("visits", [("id", "i"), ("owner", "i"), ("uid", "t"), ("station_key", "t"), ("date", "t"), ("kind", "t"),
                    ("note", "t"), ("updated_at", "i"), ("seq", "i")], ["id"], "visits_id_seq"),
        ("visit_tombstones", [("owner", "i"), ("uid", "t"), ("station_key", "t"), ("date", "t"), ("kind", "t"), ("note", "t"),
                              ("updated_at", "i"), ("seq", "i")], ["owner", "uid"], nil),
        ("settings", [("owner", "i"), ("name", "t"), ("value", "t")], ["owner", "name"], nil),
        ("sync_peers", [("owner", "i"), ("url", "t"), ("cursor", "t"), ("sent_seq", "i")], ["owner", "url"], nil),
        ("key_sources", [("station_key", "t"), ("source", "t")], ["station_key", "source"], nil),
        ("visit_photos", [("id", "i"), ("owner", "i"), ("visit_id", "i"), ("width", "i"), ("height", "i"), ("jpeg", "b"),
                          ("thumb_width", "i"), ("thumb_height", "i"), ("thumb", "b"), ("created_at", "i")], ["id"],
         "visit_photos_id_seq"),
    ]

    /// Copies every account, session, API token, visit (with its uid, time stamp and change
    /// number), deletion record, setting, sync cursor, source link and photo of this store
    /// into `destination`, keeping every id, in one transaction of the destination.
    ///
    /// Re-runnable: a row the destination already holds unchanged counts as `alreadyThere`.
    /// Afterwards each table of the destination is checked to hold every source row as it is;
    /// the id sequences and the sync change number are moved past every copied value, so that
    /// a server on the destination never hands out an id or cursor the source used.
    /// - Throws: `StoreMigrationError` when this store is not SQLite or `destination` not
    ///   PostgreSQL, or when a row's key (or an account's name) is taken in the
    ///   destination by a different row: then nothing is written. Database errors likewise.
    public func migrate(to destination: AccountStore) throws -> StoreMigrationReport {
        let source = db, target = destination.db
        guard source.engine == .sqlite, target.engine == .postgresql else {
            throw StoreMigrationError(description: "a migration goes from an accounts file (SQLite) to PostgreSQL")
        }
        // The source is read in one snapshot; the destination written in one transaction.
        return try source.readTransaction {
            try target.transaction {
                var tables: [StoreMigrationReport.Table] = []
                for table in Self.migratedTables {
                    tables.append(try Self.copy(table, from: source, to: target))
                }
                try Self.moveCounters(from: source, to: target)
                return StoreMigrationReport(tables: tables)
            }
        }
    }

    private static func copy(_ table: (name: String, columns: [(String, Character)], key: [String], sequence: String?),
                             from source: any SQLConnection, to target: any SQLConnection) throws -> StoreMigrationReport.Table {
        let names = table.columns.map(\.0)
        let marks = names.indices.map { _ in "?" }.joined(separator: ", ")
        let read = try source.prepare("SELECT \(names.joined(separator: ", ")) FROM \(table.name) ORDER BY \(table.key.joined(separator: ", "))")
        let insert = try target.prepare("INSERT INTO \(table.name) (\(names.joined(separator: ", "))) VALUES (\(marks)) ON CONFLICT DO NOTHING")
        let same = try target.prepare("SELECT count(*) FROM \(table.name) WHERE "
                                      + names.map { "\($0) IS NOT DISTINCT FROM ?" }.joined(separator: " AND "))
        let before = try target.scalarInt("SELECT count(*) FROM \(table.name)") ?? 0
        var rows = 0
        while try read.step() {
            rows += 1
            let values: [SQLValue] = table.columns.enumerated().map { i, column in
                let c = Int32(i)
                if read.isNull(c) { return .null }
                switch column.1 {
                case "i": return .int(read.int64(c))
                case "b": return .blob(read.blob(c))
                default: return .text(read.text(c))
                }
            }
            insert.reset()
            try insert.run(values)
            same.reset()
            try same.bind(values)
            guard try same.step(), same.int64(0) == 1 else {
                let key = table.key.map { k in "\(k) \(values[names.firstIndex(of: k)!].display)" }.joined(separator: ", ")
                throw StoreMigrationError(description: "\(table.name): the row with \(key) is taken by a different row in the destination; nothing was copied (migrate into an empty store, or into one an earlier run of this migration filled)")
            }
        }
        let after = try target.scalarInt("SELECT count(*) FROM \(table.name)") ?? 0
        let copied = Int(after - before)
        return .init(name: table.name, source: rows, copied: copied, alreadyThere: rows - copied)
    }

    /// Moves the destination's id sequences past every id the source has used (SQLite's
    /// AUTOINCREMENT counters included: a deleted row's id is not handed out again), and its
    /// sync change number past the source's.
    private static func moveCounters(from source: any SQLConnection, to target: any SQLConnection) throws {
        for table in migratedTables {
            guard let sequence = table.sequence else { continue }
            let used = max(try source.scalarInt("SELECT max(id) FROM \(table.name)") ?? 0,
                           try sqliteSequence(source, table.name))
            if used > 0 { try target.idTaken(used, sequence: sequence) }
        }
        var change = try source.scalarInt("SELECT max(last) FROM sync_sequence") ?? 0
        for t in ["visits", "visit_tombstones"] {
            change = max(change, try source.scalarInt("SELECT max(seq) FROM \(t)") ?? 0)
        }
        if change > 0 { try target.idTaken(change, sequence: "sync_sequence") }
    }

    private static func sqliteSequence(_ db: any SQLConnection, _ table: String) throws -> Int64 {
        guard try db.hasTable("sqlite_sequence") else { return 0 }
        return try db.scalarInt("SELECT seq FROM sqlite_sequence WHERE name = ?", [.text(table)]) ?? 0
    }
}

private extension SQLValue {
    var display: String {
        switch self {
        case .int(let i): "\(i)"
        case .double(let d): "\(d)"
        case .text(let t): "'\(t)'"
        case .blob(let b): "(\(b.count) bytes)"
        case .null: "NULL"
        }
    }
}
