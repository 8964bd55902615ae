import EkiSQLite
import Foundation

/// Upgrading an older visit log: version 1 (no uids, no tombstones, one owner) to 2, and
/// version 2 (no photos) to 3.
extension VisitLog {
    /// Upgrades the log file at `path` to `schemaVersion` when it is an older visit log, in one
    /// transaction on a writable connection of its own: each visit keeps its id, station, date,
    /// kind and note, and gets a random uid, `updated_at` now and a change number (its id);
    /// the settings become owner 0's. Version 2 gains the (empty) photo tables. Anything that is not a visit log is left alone (the
    /// caller's checks name it).
    /// - Throws: `VisitLogError.readOnlyUpgrade` when the file needs upgrading and cannot be
    ///   written; `SQLiteError`.
    static func upgradeIfNeeded(path: String) throws {
        do {
            let probe = try Database(path: path, readOnly: true)
            guard try probe.scalarInt("PRAGMA application_id") == applicationID,
                  let version = try probe.scalarInt("PRAGMA user_version"), version < schemaVersion else { return }
        } catch is SQLiteError {
            return
        }
        guard FileManager.default.isWritableFile(atPath: path) else { throw VisitLogError.readOnlyUpgrade(path) }
        let db = try Database(path: path, readOnly: false)
        try db.transaction {
            // Another process may have upgraded it meanwhile.
            let version = try db.scalarInt("PRAGMA user_version") ?? 0
            guard version < schemaVersion else { return }
            if version == 2 {
                try db.execute(photoTables)
                try db.execute("PRAGMA user_version = \(schemaVersion)")
                return
            }
            let now = VisitTimestamp.now().milliseconds
            try db.execute("""
                ALTER TABLE visits RENAME TO visits_v1;
                DROP INDEX IF EXISTS visits_identity;
                ALTER TABLE settings RENAME TO settings_v1;
                """)
            try db.execute(visitTables)
            // A version-4 UUID from SQLite's generator (randomness seeded by the OS): ids, not secrets.
            try db.prepare("""
                INSERT INTO visits (id, owner, uid, station_key, date, kind, note, updated_at, seq)
                SELECT id, 0, lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4'
                         || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1)
                         || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))),
                       station_key, date, kind, note, ?, id
                FROM visits_v1 ORDER BY id
                """).run([.int(now)])
            try db.execute("""
                INSERT INTO sqlite_sequence (name, seq) SELECT 'visits', seq FROM sqlite_sequence
                  WHERE name = 'visits_v1' AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'visits');
                UPDATE sqlite_sequence SET seq = max(seq, ifnull((SELECT seq FROM sqlite_sequence WHERE name = 'visits_v1'), 0))
                  WHERE name = 'visits';
                UPDATE sync_sequence SET last = ifnull((SELECT max(id) FROM visits), 0);
                INSERT INTO settings (owner, name, value) SELECT 0, name, value FROM settings_v1;
                DROP TABLE visits_v1;
                DROP TABLE settings_v1;
                DELETE FROM sqlite_sequence WHERE name = 'visits_v1';
                PRAGMA user_version = \(schemaVersion);
                """)
        }
    }
}
