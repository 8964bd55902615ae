import Testing
import Foundation
import EkiKit
import EkiTestSupport

/// Schema version 8: entries stored compactly (source rows only in `station_sources`, `base_key`
/// and `kind` only where they say more), lines numbered for `line_stations`, and a version 7
/// file upgraded to it keeping every entry, fid and line.
@Suite struct CompactSchemaTests {
    func row(_ id: String, _ name: String, op: String, line: String, lat: Double, lon: Double) -> SourceRecord {
        SourceRecord(source: SourceRef(dataset: "n02", id: id), name: name, operatorName: op, serviceClass: .conventional,
                     lines: [line], coordinate: Coordinate(lat: lat, lon: lon))
    }

    /// 黒部峡谷鉄道本線: 猫又 is staff-only (curated), the two 宇奈月 rows are one entry.
    var rows: [SourceRecord] {
        [row("1", "猫又", op: "黒部峡谷鉄道", line: "本線", lat: 36.749565, lon: 137.641745),
         row("2", "宇奈月", op: "黒部峡谷鉄道", line: "本線", lat: 36.81516, lon: 137.58563),
         row("3", "宇奈月", op: "黒部峡谷鉄道", line: "本線", lat: 36.81520, lon: 137.58570),
         row("4", "欅平", op: "黒部峡谷鉄道", line: "本線", lat: 36.724, lon: 137.660)]
    }

    func strings(_ store: StationStore, _ sql: String) throws -> [String] {
        let s = try store.db.prepare(sql)
        var out: [String] = []
        while try s.step() { out.append(s.optionalText(0) ?? "NULL") }
        return out
    }

    @Test func freshImportStoresEachFactOnce() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("compact.gpkg").path
        let store = try StationStore(path: path)
        try store.importRecords(rows, dataset: "n02")
        #expect(try strings(store, "SELECT name FROM pragma_table_info('stations') WHERE name IN ('sources', 'base_key', 'kind') ORDER BY name")
                == ["base_key", "kind"])
        // base_key equals the key everywhere here, and only 猫又 is not a regular stop.
        #expect(try strings(store, "SELECT key || ' ' || ifnull(base_key, '-') || ' ' || ifnull(kind, '-') FROM stations ORDER BY fid")
                == ["kurobe-gorge/c/宇奈月 - -", "kurobe-gorge/c/欅平 - -", "kurobe-gorge/c/猫又 - staff-only"])
        #expect(try strings(store, "SELECT station_fid || ' ' || dataset || ':' || source_id FROM station_sources")
                == ["1 n02:2", "1 n02:3", "2 n02:4", "3 n02:1"])
        // The primary key is the table's only index; lines are referred to by number.
        #expect(try strings(store, "SELECT name FROM pragma_index_list('station_sources')") == ["sqlite_autoindex_station_sources_1"])
        #expect(try strings(store, "SELECT DISTINCT typeof(line_num) FROM line_stations") == ["integer"])
        #expect(try store.entries.all().map { "\($0.name) \($0.kind.rawValue) \($0.sources.map(\.description))" }
                == ["宇奈月 regular [\"n02:2\", \"n02:3\"]", "欅平 regular [\"n02:4\"]", "猫又 staff-only [\"n02:1\"]"])
        #expect(try store.entries.station(sharingSourcesWith: [SourceRef(dataset: "n02", id: "3")])?.name == "宇奈月")
        #expect(try store.lines.all(includeClosed: true).map { "\($0.id) \($0.total)" } == ["kurobe-gorge/c/黒部峡谷鉄道本線 3"])
        // The first import wrote through the rollback journal; the file is back in WAL mode.
        #expect(try strings(store, "PRAGMA journal_mode") == ["wal"])
    }

    /// A version 7 file (entries with their `sources` copy, `station_sources` keyed by source
    /// row with an index on entries, lines by text id) is upgraded in place by a writable open.
    @Test func version7FileIsCompactedKeepingEntriesFidsAndLines() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("compact-v7.gpkg").path
        let before: [Station], lines: [Line]
        do {
            let store = try StationStore(path: path)
            try store.importRecords(rows, dataset: "n02")
            before = try store.entries.all()
            lines = try store.lines.all(includeClosed: true)
            try store.db.execute("PRAGMA foreign_keys = OFF")
            try store.db.execute("""
                CREATE TABLE stations_old (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom POINT, key TEXT NOT NULL UNIQUE,
                  base_key TEXT NOT NULL, name TEXT NOT NULL, reading TEXT, latin_name TEXT, operator TEXT, operator_ref TEXT,
                  operator_id TEXT NOT NULL, class TEXT NOT NULL, lines TEXT NOT NULL, prefecture TEXT, open INTEGER NOT NULL,
                  lon REAL NOT NULL, lat REAL NOT NULL, sources TEXT NOT NULL, former_names TEXT NOT NULL DEFAULT '[]',
                  retired TEXT, kind TEXT NOT NULL DEFAULT 'regular');
                INSERT INTO stations_old SELECT fid, geom, key, coalesce(base_key, key), name, reading, latin_name, operator,
                  operator_ref, operator_id, class, lines, prefecture, open, lon, lat,
                  (SELECT json_group_array(dataset || ':' || source_id) FROM station_sources WHERE station_fid = fid),
                  former_names, retired, coalesce(kind, 'regular') FROM stations;
                CREATE TABLE station_sources_old (station_fid INTEGER NOT NULL, dataset TEXT NOT NULL, source_id TEXT NOT NULL,
                  PRIMARY KEY (dataset, source_id, station_fid));
                INSERT INTO station_sources_old SELECT station_fid, dataset, source_id FROM station_sources;
                DROP TABLE station_sources; DROP TABLE stations;
                ALTER TABLE stations_old RENAME TO stations;
                ALTER TABLE station_sources_old RENAME TO station_sources;
                CREATE INDEX station_sources_fid ON station_sources(station_fid);
                CREATE INDEX stations_base_key ON stations(base_key);
                DROP TABLE line_aliases; DROP TABLE line_stations; DROP TABLE lines;
                CREATE TABLE lines (id TEXT PRIMARY KEY, operator_id TEXT NOT NULL, class TEXT NOT NULL, name TEXT NOT NULL,
                  color TEXT, loop INTEGER NOT NULL, open INTEGER NOT NULL, sources TEXT NOT NULL);
                CREATE TABLE line_stations (line_id TEXT NOT NULL, station_fid INTEGER NOT NULL, branch INTEGER NOT NULL,
                  seq INTEGER, PRIMARY KEY (line_id, station_fid, branch)) WITHOUT ROWID;
                CREATE TABLE line_aliases (form TEXT NOT NULL, line_id TEXT NOT NULL, alias TEXT NOT NULL, from_fid INTEGER,
                  to_fid INTEGER, source TEXT, PRIMARY KEY (form, line_id, alias)) WITHOUT ROWID;
                UPDATE sqlite_sequence SET seq = 50 WHERE name = 'stations';
                UPDATE eki_meta SET value = '7' WHERE name = 'schema_version';
                """)
        }
        #expect(throws: StoreError.self) { try StationStore(path: path, readOnly: true) }
        let store = try StationStore(path: path)
        #expect(try store.db.scalarInt("SELECT CAST(value AS INTEGER) FROM eki_meta WHERE name = 'schema_version'") == 8)
        #expect(try store.entries.all() == before)
        #expect(try store.lines.all(includeClosed: true) == lines)
        #expect(try strings(store, "SELECT fid || ' ' || key || ' ' || ifnull(base_key, '-') || ' ' || ifnull(kind, '-') FROM stations ORDER BY fid")
                == ["1 kurobe-gorge/c/宇奈月 - -", "2 kurobe-gorge/c/欅平 - -", "3 kurobe-gorge/c/猫又 - staff-only"])
        #expect(try strings(store, "SELECT name FROM pragma_table_info('stations') WHERE name = 'sources'") == [])
        #expect(try strings(store, "SELECT name FROM pragma_index_list('station_sources')") == ["sqlite_autoindex_station_sources_1"])
        #expect(try store.db.scalarInt("SELECT seq FROM sqlite_sequence WHERE name = 'stations'") == 50)
        // The triggers dropped with the old table are back: the R-tree's six and the search index's.
        #expect(try store.db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'stations'") == 7)
        #expect(try store.db.scalarInt("PRAGMA foreign_keys") == 1)
        // And it takes imports as before: a new row gets a fid after the kept sequence.
        try store.importRecords(rows + [row("5", "黒薙", op: "黒部峡谷鉄道", line: "本線", lat: 36.80, lon: 137.60)], dataset: "n02")
        #expect(try store.db.scalarInt("SELECT fid FROM stations WHERE name = '黒薙'") == 51)
        #expect(try store.lines.all(includeClosed: true).map { "\($0.id) \($0.total)" } == ["kurobe-gorge/c/黒部峡谷鉄道本線 4"])
    }
}
