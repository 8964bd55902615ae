import EkiSQLite

/// A read-only open of a file whose upgrade stopped after its schema steps, before the derived
/// tables they left stale were written (`SchemaUpgrade.rebuildStale`).
public enum SchemaUpgradeError: Error, CustomStringConvertible, Sendable {
    case unfinished(String)

    public var description: String {
        switch self {
        case .unfinished(let p):
            return "\(p) was left mid-upgrade by a command that stopped (its search index, lines or spatial index are not written yet); read-only commands do not change it: the next `eki import --db \(p) …` finishes the upgrade, keeping its entries"
        }
    }
}

/// Opening an older file: the frozen schema steps (`Migrator`), then the derived data they left
/// stale written once with today's code.
struct SchemaUpgrade {
    let db: Database
    let spatial: SpatialIndex
    let search: SearchIndex
    let lines: LineTable
    var path: String { db.path }

    init(_ store: StationStore) {
        (db, spatial, search, lines) = (store.db, store.spatial, store.search, store.lines)
    }

    /// Writable: upgrades an older file in place and writes the derived data its steps left
    /// stale (or an earlier, stopped upgrade left). Read-only: refuses a file whose upgrade
    /// stopped before that (its derived tables are missing or of an older form).
    /// - Throws: `SchemaUpgradeError.unfinished` (read-only, rebuild pending),
    ///   `StoreError.writerBusy`, `StoreError.notAStationDatabase` (see `Migrator.migrate`),
    ///   `SQLiteError`.
    func run(readOnly: Bool) throws {
        if readOnly {
            if try !Migrator.stale(db).isEmpty { throw SchemaUpgradeError.unfinished(path) }
            return
        }
        let stale = try Migrator.migrate(db)
        if !stale.isEmpty { try rebuildStale(stale) }
    }

    /// Writes `stale` afresh from `stations` and `source_records` in one write transaction,
    /// then clears the record of it: the curated kinds first (entries only), then the R-tree
    /// (triggers and a packed tree), the line table, the search index (built with today's
    /// folds, which it records).
    /// - Throws: `StoreError.writerBusy`, `SQLiteError`.
    func rebuildStale(_ stale: Set<DerivedData>) throws {
        try db.writeTransaction {
            if stale.contains(.stationKinds) { try fillCuratedKinds() }
            if stale.contains(.spatialIndex) {
                try spatial.dropTriggers()
                try spatial.createTriggers()
                try spatial.rebuild()
            }
            if stale.contains(.lineTable) {
                // Children first: no cascade runs (foreign keys are on here).
                try db.execute("DROP TABLE IF EXISTS line_aliases; DROP TABLE IF EXISTS line_stations; DROP TABLE IF EXISTS lines;"
                               + LineTable.schema)
                try lines.update()
            }
            if stale.contains(.searchIndex) {
                try dropSearchTables()
                try db.execute(SearchIndex.schema)
                try search.update()
                try db.prepare("INSERT OR REPLACE INTO eki_meta (name, value) VALUES ('search_fold', ?)")
                    .run([.text(String(TextFold.foldVersion))])
            }
            try Migrator.setStale(db, [])
        }
        spatial.dropCache()
    }

    /// Drops every search table and trigger, whichever version wrote them (all are named
    /// `search_…`): triggers, then FTS5 tables (their shadow tables go with them), then the
    /// others, `search_entry` last (older postings referred to it).
    private func dropSearchTables() throws {
        func names(_ sql: String) throws -> [String] {
            let s = try db.prepare(sql)
            var out: [String] = []
            while try s.step() { out.append(s.text(0)) }
            return out
        }
        let prefix = "name LIKE 'search\\_%' ESCAPE '\\'"
        for t in try names("SELECT name FROM sqlite_master WHERE type = 'trigger' AND \(prefix)") {
            try db.execute("DROP TRIGGER \"\(t)\"")
        }
        for t in try names("SELECT name FROM sqlite_master WHERE type = 'table' AND \(prefix) AND sql LIKE 'CREATE VIRTUAL TABLE%'") {
            try db.execute("DROP TABLE \"\(t)\"")
        }
        for t in try names("SELECT name FROM sqlite_master WHERE type = 'table' AND \(prefix) ORDER BY name = 'search_entry', name") {
            try db.execute("DROP TABLE \"\(t)\"")
        }
    }

    /// Sets the kind of the stored entries that `StationKinds.builtIn` lists (by operator id
    /// and `TextFold.nameKey` of the name, as the reconciler matches rows); others keep theirs.
    ///
    /// The kind is stored data, not derived: imports write it from the curated table when they
    /// write an entry, and an import of unchanged rows writes nothing. An entry stored before
    /// schema version 5 never met the table, so the upgrade applies today's table once (the
    /// 4 → 5 step marks it); it cannot be frozen SQL, as it matches through the name folds.
    func fillCuratedKinds() throws {
        let kinds = StationKinds.builtIn
        let ops = Set(kinds.entries.map(\.operatorID))
        let s = try db.prepare("SELECT fid, operator_id, name FROM stations")
        var found: [(Int64, StationKind)] = []
        while try s.step() {
            guard ops.contains(s.text(1)), let k = kinds.kind(operatorID: s.text(1), nameKey: TextFold.nameKey(s.text(2))) else { continue }
            found.append((s.int64(0), k))
        }
        let update = try db.prepare("UPDATE stations SET kind = ? WHERE fid = ?")
        for (fid, k) in found { try update.run([k == .regular ? .null : .text(k.rawValue), .int(fid)]) }
    }
}
