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
    /// (`search_bigram`) instead of the `search_gram` table. 7: a smaller search index (no
    /// `fid` index on postings, sort ids instead of stored sort keys). 8: compact entries (`StationColumns`:
    /// `base_key` and `kind` only where they say more than the key and `regular`, no `sources`
    /// column: `station_sources` holds them) and `station_sources` clustered by entry
    /// (`WITHOUT ROWID`, no secondary index). Older files are upgraded by `Migrator`, through the
    /// frozen steps of `Migrations`: a new version appends its step there.
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

    \(StationColumns.createTable("stations"))
    \(sourceRecords)
    \(stationSources)
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

    /// Which source rows (dataset, id) make each entry, clustered by entry: an entry's rows are
    /// one range of the B-tree, and the table has no other index (look-ups by source row scan it).
    static let stationSources = """
        CREATE TABLE station_sources (
          station_fid INTEGER NOT NULL REFERENCES stations(fid) ON DELETE CASCADE,
          dataset TEXT NOT NULL,
          source_id TEXT NOT NULL,
          PRIMARY KEY (station_fid, dataset, source_id)) WITHOUT ROWID;
        """

    /// The `source_records` table.
    static let sourceRecords = """
        CREATE TABLE source_records (
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
