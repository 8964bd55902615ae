import EkiSQLite

/// The station database schema: a GeoPackage 1.3 with one point feature table `stations`
/// (srs 4326, WGS84 degrees) indexed by the GeoPackage R-tree extension (`rtree_stations_geom`),
/// the attributes tables `source_records` (every row each import read: entries are derived
/// from them), `station_sources` (which source rows make each entry) and `station_aliases`
/// (keys of entries merged into others), and the search index (`SearchIndex`).
enum Schema {
    /// 2: stations with source rows, aliases, operator ids. 3: search index. 4: line table
    /// (`LineTable`) and the rows' order along their lines. 5: the entries' `kind` (`StationKind`), former
    /// names in the search index. 6: `source_records` clustered by its key (`WITHOUT ROWID`: one
    /// B-tree instead of a table and an index), 1- and 2-character search grams in an FTS5 index
    /// (`search_bigram`) instead of the `search_gram` table. 7: a smaller search index
    /// (`SearchIndex.upgradeTo7`). 8: compact entries (`stationsTable`:
    /// `base_key` and `kind` only where they say more than the key and `regular`, no `sources`
    /// column: `station_sources` holds them) and `station_sources` clustered by entry
    /// (`WITHOUT ROWID`, no secondary index).
    static let version = 8

    static let create = """
    PRAGMA application_id = \(GeoPackage.applicationID);
    PRAGMA user_version = \(GeoPackage.userVersion);
    CREATE TABLE gpkg_spatial_ref_sys (
      srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
      organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
    INSERT INTO gpkg_spatial_ref_sys VALUES
      ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system'),
      ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system'),
      ('WGS 84 geodetic', 4326, 'EPSG', 4326,
       'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]',
       'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid');
    CREATE TABLE gpkg_contents (
      table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
      description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
      min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE,
      srs_id INTEGER, CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
    CREATE TABLE gpkg_geometry_columns (
      table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
      srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
      CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
      CONSTRAINT uk_gc_table_name UNIQUE (table_name),
      CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
      CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
    CREATE TABLE gpkg_extensions (
      table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL, definition TEXT NOT NULL,
      scope TEXT NOT NULL, CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));

    \(stationsTable("stations"))
    \(sourceRecords("source_records"))
    \(stationSources("station_sources"))
    CREATE TABLE station_aliases (
      old_key TEXT PRIMARY KEY,
      new_key TEXT NOT NULL,
      reason TEXT NOT NULL,
      created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')));
    CREATE TABLE eki_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO eki_meta VALUES ('schema_version', '\(version)');

    INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id)
      VALUES ('stations', 'features', 'stations',
              '降りつぶし entries: one operator x one service class x one place', 4326);
    INSERT INTO gpkg_contents (table_name, data_type, identifier, description)
      VALUES ('station_sources', 'attributes', 'station_sources', 'source rows of each entry');
    INSERT INTO gpkg_contents (table_name, data_type, identifier, description)
      VALUES ('source_records', 'attributes', 'source_records', 'rows as each source gave them');
    INSERT INTO gpkg_contents (table_name, data_type, identifier, description)
      VALUES ('station_aliases', 'attributes', 'station_aliases', 'old keys of merged entries and where they went');
    INSERT INTO gpkg_geometry_columns VALUES ('stations', 'geom', 'POINT', 4326, 0, 0);
    INSERT INTO gpkg_extensions VALUES ('stations', 'geom', 'gpkg_rtree_index',
      'http://www.geopackage.org/spec130/#extension_rtree', 'write-only');
    CREATE VIRTUAL TABLE rtree_stations_geom USING rtree(id, minx, maxx, miny, maxy);
    """ + GeoPackage.rtreeTriggers(table: "stations", column: "geom", idColumn: "fid") + "\n" + SearchIndex.schema + LineTable.schema

    /// Upgrades a version 2 or 3 database (writable connections only) to version 4, one
    /// transaction per step: 2 → 3 adds the search index and builds it from the entries; 3 → 4
    /// adds the rows' line order and colour (empty for rows imported before: import again to
    /// fill them) and the line table, built from the stored rows. Other versions are left
    /// alone (`StationStore.init` then reports the mismatch). 4 → 5 adds the entries' `kind`
    /// (`StationKinds.builtIn` applied to the stored entries by operator id and folded name)
    /// and indexes
    /// every entry again, its former names searched as names. 5 → 6 copies `source_records`
    /// into its `WITHOUT ROWID` form; the grams of a version 3–5 file move from `search_gram`
    /// into `search_bigram` first (before any step indexes entries). 7 → 8 compacts the entries
    /// (`compactEntries`).
    /// - Throws: `SQLiteError`.
    /// The `stations` feature table (under another name while a migration copies it). `base_key`
    /// is NULL when it equals `key`, `kind` NULL for a regular stop (`StationKind.regular`); an
    /// entry's source rows are in `station_sources` (`StationStore.columns` reads them back in
    /// the entry's `sources` order).
    static func stationsTable(_ name: String) -> String {
        """
        CREATE TABLE \(name) (
          fid INTEGER PRIMARY KEY AUTOINCREMENT,
          geom POINT,
          key TEXT NOT NULL UNIQUE,
          base_key TEXT,
          name TEXT NOT NULL,
          reading TEXT,
          latin_name TEXT,
          operator TEXT,
          operator_ref TEXT,
          operator_id TEXT NOT NULL,
          class TEXT NOT NULL CHECK (class IN ('shinkansen', 'conventional')),
          lines TEXT NOT NULL,
          prefecture TEXT,
          open INTEGER NOT NULL,
          lon REAL NOT NULL,
          lat REAL NOT NULL,
          former_names TEXT NOT NULL DEFAULT '[]',
          retired TEXT,
          kind TEXT CHECK (kind IN ('seasonal', 'staff-only')));
        """
    }

    /// Which source rows (dataset, id) make each entry, clustered by entry: an entry's rows are
    /// one range of the B-tree, and the table has no other index (look-ups by source row scan it).
    static func stationSources(_ name: String) -> String {
        """
        CREATE TABLE \(name) (
          station_fid INTEGER NOT NULL REFERENCES stations(fid) ON DELETE CASCADE,
          dataset TEXT NOT NULL,
          source_id TEXT NOT NULL,
          PRIMARY KEY (station_fid, dataset, source_id)) WITHOUT ROWID;
        """
    }

    /// The `source_records` table (under another name while a migration copies it).
    static func sourceRecords(_ name: String) -> String {
        """
        CREATE TABLE \(name) (
          dataset TEXT NOT NULL,
          ord INTEGER NOT NULL,
          source_id TEXT NOT NULL,
          name TEXT NOT NULL,
          reading TEXT,
          latin_name TEXT,
          operator TEXT,
          operator_ref TEXT,
          class TEXT NOT NULL,
          lines TEXT NOT NULL,
          lon REAL NOT NULL,
          lat REAL NOT NULL,
          prefecture TEXT,
          closed INTEGER NOT NULL,
          line_order INTEGER,
          line_color TEXT,
          PRIMARY KEY (dataset, ord)) WITHOUT ROWID;
        """
    }

    static func migrate(_ store: StationStore) throws {
        let db = store.db
        func current() throws -> Int64? {
            try db.scalarInt("SELECT CAST(value AS INTEGER) FROM eki_meta WHERE name = 'schema_version'")
        }
        let setVersion = { (v: Int) in
            try db.prepare("UPDATE eki_meta SET value = ? WHERE name = 'schema_version'").run([.text(String(v))])
        }
        if let v = try current(), (3...5).contains(v), try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'search_gram'") == 1 {
            try db.transaction { try moveGramsToBigrams(db) }
        }
        if try current() == 2 {
            try db.transaction {
                try db.execute(SearchIndex.schema)
                try store.search.update()
                try setVersion(3)
            }
        }
        if try current() == 3 {
            try db.transaction {
                let info = try db.prepare("SELECT name FROM pragma_table_info('source_records')")
                var columns = Set<String>()
                while try info.step() { columns.insert(info.text(0)) }
                for c in ["line_order INTEGER", "line_color TEXT"] where !columns.contains(String(c.split(separator: " ")[0])) {
                    try db.execute("ALTER TABLE source_records ADD COLUMN \(c)")
                }
                if !store.lines.exists { try db.execute(LineTable.schema) }
                try store.lines.update()
                try setVersion(4)
            }
        }
        if try current() == 4 {
            try db.transaction {
                let info = try db.prepare("SELECT 1 FROM pragma_table_info('stations') WHERE name = 'kind'")
                if try !info.step() {
                    try db.execute("""
                        ALTER TABLE stations ADD COLUMN kind TEXT NOT NULL DEFAULT 'regular'
                          CHECK (kind IN ('regular', 'seasonal', 'staff-only'))
                        """)
                }
                // The curated kinds on the stored entries (an import of the same rows again
                // writes nothing, so it would not bring them).
                try fillKinds(db)
                // Former names are searched since version 5: index every entry again.
                try db.execute("DROP TRIGGER IF EXISTS search_entry_stale; DELETE FROM search_posting; DELETE FROM search_entry;")
                try db.execute(SearchIndex.staleTrigger)
                try store.search.update()
                try setVersion(5)
            }
        }
        if try current() == 5 {
            try db.transaction {
                let columns = "dataset, ord, source_id, name, reading, latin_name, operator, operator_ref, class, lines, lon, lat, prefecture, closed, line_order, line_color"
                try db.execute(sourceRecords("source_records_new") + """
                    INSERT INTO source_records_new (\(columns)) SELECT \(columns) FROM source_records ORDER BY dataset, ord;
                    DROP TABLE source_records;
                    ALTER TABLE source_records_new RENAME TO source_records;
                    """)
                try setVersion(6)
            }
        }
        if try current() == 6 {
            try db.transaction {
                try SearchIndex.upgradeTo7(db)
                try setVersion(7)
            }
        }
        if try current() == 7 {
            // The old tables are dropped while `line_stations` still refers to `stations`: no
            // cascade (the pragma has no effect inside a transaction, so it is set around it).
            try db.execute("PRAGMA foreign_keys = OFF")
            defer { try? db.execute("PRAGMA foreign_keys = ON") }
            try db.transaction {
                try compactEntries(store)
                try setVersion(8)
            }
        }
    }

    /// 7 → 8: copies `stations` and `station_sources` into their compact forms (same fids,
    /// same AUTOINCREMENT sequence), then puts back the R-tree triggers and the search index's
    /// stale trigger that dropping the old table removed, and builds the line table again in
    /// its numbered form. Call with foreign keys off.
    /// - Throws: `SQLiteError`, `StoreError.notAStationDatabase` when a foreign key no longer holds.
    static func compactEntries(_ store: StationStore) throws {
        let db = store.db
        let sequence = try db.scalarInt("SELECT seq FROM sqlite_sequence WHERE name = 'stations'")
        let kept = "geom, key, name, reading, latin_name, operator, operator_ref, operator_id, class, lines, prefecture, open, lon, lat, former_names, retired"
        try db.execute(stationsTable("stations_v8") + stationSources("station_sources_v8") + """
            INSERT INTO stations_v8 (fid, base_key, kind, \(kept))
              SELECT fid, NULLIF(base_key, key), NULLIF(kind, 'regular'), \(kept) FROM stations ORDER BY fid;
            INSERT INTO station_sources_v8 (station_fid, dataset, source_id)
              SELECT DISTINCT station_fid, dataset, source_id FROM station_sources ORDER BY 1, 2, 3;
            DROP TABLE station_sources;
            DROP TABLE stations;
            ALTER TABLE stations_v8 RENAME TO stations;
            ALTER TABLE station_sources_v8 RENAME TO station_sources;
            """ + GeoPackage.rtreeTriggers(table: "stations", column: "geom", idColumn: "fid"))
        if store.search.exists { try db.execute(SearchIndex.staleTrigger) }
        // Lines are numbered for `line_stations` since version 8: the derived line table afresh.
        if store.lines.exists {
            try db.execute("DROP TABLE line_aliases; DROP TABLE line_stations; DROP TABLE lines;" + LineTable.schema)
            try store.lines.update()
        }
        if let sequence {
            try db.prepare("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'stations'").run([.int(sequence)])
        }
        let check = try db.prepare("PRAGMA foreign_key_check")
        if try check.step() { throw StoreError.notAStationDatabase(db.path) }
    }

    /// Replaces `search_gram` (schema versions 3–5) by `search_bigram`, written from the terms.
    static func moveGramsToBigrams(_ db: Database) throws {
        try db.execute("DROP TABLE search_gram; " + SearchIndex.bigramSchema)
        let terms = try db.prepare("SELECT id, field, form FROM search_term ORDER BY id")
        let insert = try db.prepare("INSERT INTO search_bigram (rowid, grams) VALUES (?, ?)")
        while try terms.step() {
            try insert.run([.int(terms.int64(0)), .text(SearchIndex.bigramDocument(code: Int(terms.int64(1)), terms.text(2)))])
        }
    }

    /// Sets the kind of the stored entries `StationKinds.builtIn` lists (operator id and
    /// `TextFold.nameKey` of the name, as the reconciler matches rows).
    static func fillKinds(_ db: Database) throws {
        let kinds = StationKinds.builtIn
        let ops = Set(kinds.entries.map(\.operatorID))
        let s = try db.prepare("SELECT fid, operator_id, name FROM stations")
        var found: [(Int64, StationKind)] = []
        while try s.step() {
            if ops.contains(s.text(1)), let k = kinds.kind(operatorID: s.text(1), nameKey: TextFold.nameKey(s.text(2))) { found.append((s.int64(0), k)) }
        }
        let update = try db.prepare("UPDATE stations SET kind = ? WHERE fid = ?")
        for (fid, k) in found { try update.run([.text(k.rawValue), .int(fid)]) }
    }
}
