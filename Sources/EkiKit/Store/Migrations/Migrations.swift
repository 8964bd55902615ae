/// The schema steps, in order, each frozen as its version wrote its tables: never edit a step
/// that has shipped; a new schema version appends one (see `Migration`). The files these steps
/// are tested on were written by the eki of each version (`Tests/EkiKitTests/Fixtures`,
/// `Scripts/make-schema-fixtures.sh`).
enum Migrations {
    /// Every step, oldest first: `from` runs 2, 3, … up to `Schema.version - 1`.
    static let all: [Migration] = [v2to3, v3to4, v4to5, v5to6, v6to7, v7to8]

    /// The step upgrading `version`, or nil when there is none (current, newer or too old).
    static func step(from version: Int) -> Migration? {
        all.first { $0.from == version }
    }

    /// 2 → 3: the search index (derived from the entries) appears; nothing stored changes.
    static let v2to3 = Migration(from: 2, stale: [.searchIndex])

    /// 3 → 4: source rows gain their order along their line and the line's colour (NULL for
    /// rows imported before: a later import of the same source fills them); the line table
    /// (derived) appears.
    static let v3to4 = Migration(
        from: 3,
        addColumns: [.init(table: "source_records", name: "line_order", definition: "line_order INTEGER"),
                     .init(table: "source_records", name: "line_color", definition: "line_color TEXT")],
        stale: [.lineTable])

    /// 4 → 5: entries gain their kind of stop, `regular` here (the curated kinds are filled
    /// afterwards); former names are searched, so the search index is written again.
    static let v4to5 = Migration(
        from: 4,
        addColumns: [.init(table: "stations", name: "kind", definition: """
            kind TEXT NOT NULL DEFAULT 'regular' CHECK (kind IN ('regular', 'seasonal', 'staff-only'))
            """)],
        stale: [.searchIndex, .stationKinds])

    /// 5 → 6: `source_records` copied into its `WITHOUT ROWID` form (clustered by dataset and
    /// order); the search grams move to an FTS5 index, so the search index is written again.
    static let v5to6 = Migration(from: 5, sql: """
        CREATE TABLE source_records_v6 (
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
        INSERT INTO source_records_v6 (dataset, ord, source_id, name, reading, latin_name, operator, operator_ref,
                                       class, lines, lon, lat, prefecture, closed, line_order, line_color)
          SELECT dataset, ord, source_id, name, reading, latin_name, operator, operator_ref,
                 class, lines, lon, lat, prefecture, closed, line_order, line_color
          FROM source_records ORDER BY dataset, ord;
        DROP TABLE source_records;
        ALTER TABLE source_records_v6 RENAME TO source_records;
        """, stale: [.searchIndex])

    /// 6 → 7: a smaller search index (no `fid` index on postings, sort ids instead of stored
    /// sort keys); nothing stored changes.
    static let v6to7 = Migration(from: 6, stale: [.searchIndex])

    /// 7 → 8: compact entries. `stations` and `station_sources` copied into their version 8
    /// forms, same fids: `base_key` NULL where it equals the key, `kind` NULL for a regular
    /// stop, no `sources` column (`station_sources`, clustered by entry, holds the rows); the
    /// AUTOINCREMENT sequence carried over (it may run past the largest fid: entries deleted since).
    /// Dropping the old `stations` drops its triggers: the R-tree's and the search index's
    /// (both written again), and the line table numbers its lines since this version.
    static let v7to8 = Migration(from: 7, sql: """
        CREATE TABLE stations_v8 (
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
        CREATE TABLE station_sources_v8 (
          station_fid INTEGER NOT NULL REFERENCES stations(fid) ON DELETE CASCADE,
          dataset TEXT NOT NULL,
          source_id TEXT NOT NULL,
          PRIMARY KEY (station_fid, dataset, source_id)) WITHOUT ROWID;
        INSERT INTO stations_v8 (fid, base_key, kind, geom, key, name, reading, latin_name, operator, operator_ref,
                                 operator_id, class, lines, prefecture, open, lon, lat, former_names, retired)
          SELECT fid, NULLIF(base_key, key), NULLIF(kind, 'regular'), geom, key, name, reading, latin_name, operator,
                 operator_ref, operator_id, class, lines, prefecture, open, lon, lat, former_names, retired
          FROM stations ORDER BY fid;
        INSERT INTO station_sources_v8 (station_fid, dataset, source_id)
          SELECT DISTINCT station_fid, dataset, source_id FROM station_sources ORDER BY 1, 2, 3;
        DELETE FROM sqlite_sequence WHERE name = 'stations_v8';
        INSERT INTO sqlite_sequence (name, seq)
          SELECT 'stations_v8', max(seq, coalesce((SELECT max(fid) FROM stations_v8), 0)) FROM sqlite_sequence WHERE name = 'stations';
        DROP TABLE station_sources;
        DROP TABLE stations;
        ALTER TABLE stations_v8 RENAME TO stations;
        ALTER TABLE station_sources_v8 RENAME TO station_sources;
        """, stale: [.spatialIndex, .lineTable, .searchIndex], checkedReferences: ["station_sources"])
}
