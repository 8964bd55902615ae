import EkiSQLite

/// Runs the frozen schema steps (`Migrations`) on an older station database, one transaction
/// per step with its version bump (`eki_meta` `schema_version`) and the derived data it leaves
/// stale (`eki_meta` `stale_derived`). Uses the connection only: no search index, line table or
/// other code of today's runs inside a step.
enum Migrator {
    /// The oldest schema version the steps upgrade.
    static var oldest: Int { Migrations.all.first?.from ?? Schema.version }

    /// The `eki_meta` row listing the derived data still to be written (comma-separated
    /// `DerivedData` raw values).
    static let staleKey = "stale_derived"

    /// Upgrades a database of version `oldest` or later, step by step, to `Schema.version`
    /// (a writable connection, outside any transaction); other versions are left alone (the
    /// caller then reports the mismatch). Foreign keys are off while the steps run (a step
    /// that drops and renames tables must not cascade) and back as they were afterwards.
    /// - Returns: the derived data to write now, with what an earlier, stopped upgrade left.
    /// - Throws: `SQLiteError`; `StoreError.notAStationDatabase` when a step leaves a broken
    ///   reference in a table it checks (the step is rolled back).
    static func migrate(_ db: Database) throws -> Set<DerivedData> {
        guard try hasMeta(db) else { return [] }
        guard let v = try version(db), Migrations.step(from: v) != nil else { return try stale(db) }
        // The pragma has no effect inside a transaction: set around the steps.
        let foreignKeys = try db.scalarInt("PRAGMA foreign_keys") ?? 0
        try db.execute("PRAGMA foreign_keys = OFF")
        defer { try? db.execute("PRAGMA foreign_keys = \(foreignKeys)") }
        // The version is read inside each step's write transaction: another writer that
        // upgraded the file meanwhile leaves nothing to do.
        while try db.transaction({ try runNextStep(db) }) {}
        return try stale(db)
    }

    /// Runs the step of the stored version, if any. Call inside a write transaction.
    /// - Returns: true when a step ran.
    private static func runNextStep(_ db: Database) throws -> Bool {
        guard let version = try version(db), let step = Migrations.step(from: version) else { return false }
        for c in step.addColumns where try !hasColumn(db, table: c.table, column: c.name) {
            try db.execute("ALTER TABLE \(c.table) ADD COLUMN \(c.definition)")
        }
        if !step.sql.isEmpty { try db.execute(step.sql) }
        for table in step.checkedReferences {
            if try db.prepare("PRAGMA foreign_key_check(\(table))").step() { throw StoreError.notAStationDatabase(db.path) }
        }
        try setStale(db, try stale(db).union(step.stale))
        try db.prepare("UPDATE eki_meta SET value = ? WHERE name = 'schema_version'").run([.text(String(step.from + 1))])
        return true
    }

    /// The stored schema version, or nil when none is recorded.
    static func version(_ db: Database) throws -> Int? {
        try db.scalarInt("SELECT CAST(value AS INTEGER) FROM eki_meta WHERE name = 'schema_version'").map { Int($0) }
    }

    /// The derived data recorded as still to be written; empty for a file without `eki_meta`.
    static func stale(_ db: Database) throws -> Set<DerivedData> {
        guard try hasMeta(db) else { return [] }
        let s = try db.prepare("SELECT value FROM eki_meta WHERE name = ?")
        try s.bind([.text(staleKey)])
        guard try s.step() else { return [] }
        return Set(s.text(0).split(separator: ",").compactMap { DerivedData(rawValue: String($0)) })
    }

    /// Records `stale` (none: deletes the row). Call inside the transaction that makes (or
    /// writes) the data stale.
    static func setStale(_ db: Database, _ stale: Set<DerivedData>) throws {
        if stale.isEmpty {
            try db.prepare("DELETE FROM eki_meta WHERE name = ?").run([.text(staleKey)])
        } else {
            try db.prepare("INSERT OR REPLACE INTO eki_meta (name, value) VALUES (?, ?)")
                .run([.text(staleKey), .text(stale.sorted().map(\.rawValue).joined(separator: ","))])
        }
    }

    private static func hasMeta(_ db: Database) throws -> Bool {
        try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'eki_meta'") == 1
    }

    private static func hasColumn(_ db: Database, table: String, column: String) throws -> Bool {
        try db.scalarInt("SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", [.text(table), .text(column)]) == 1
    }
}
