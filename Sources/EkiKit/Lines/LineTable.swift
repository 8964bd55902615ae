import EkiSQLite

/// The line table inside the station database (since schema version 4; an upgrade of an older
/// file writes it afresh, `SchemaUpgrade.rebuildStale`), derived from the stored source rows and
/// the entries they belong to, rebuilt by every import in its transaction (`update()`, in
/// `LineTable+Build.swift`), and read as `store.lines` (`LineTable+Query.swift`). A value holding
/// the store's connection.
///
/// ```swift
/// let jrCentral = try store.lines.all(operator: "JR東海")                        // [Line]
/// let tokaido = try store.lines.line(id: "jr-central/s/東海道新幹線")?.stops      // 17 stops in order
/// let yamagata = try store.lines.named("山形新幹線")                             // the 福島–新庄 section
/// ```
///
/// - `lines`: one row per line. A line is one operator's line in one service class: `id` is
///   `<operator id>/<c|s>/<folded name>` (`jr-central/s/東海道新幹線`), `name` the display name
///   (the source line's name without the operator's brand, route number or section brackets),
///   `color` (`#RRGGBB`, from the first source that has one), `loop` (1 when the line's one
///   ordered sequence closes on itself), `open` (1 when it has an open entry), `sources` (JSON
///   array of `dataset:line name`, every source line matched to it); `num` numbers the lines
///   of this build (since schema version 8) for `line_stations`.
/// - `line_stations`: the entries of each line (`line_num`: `lines.num`): `branch` (0, 1, … one per sequence of the
///   ordered source that does not join the others end to end) and `seq` (position along the
///   branch, from 0; NULL for entries only unordered sources place on the line, listed after
///   the ordered ones in key order). `station_fid` is `stations.fid`.
/// - `line_aliases`: every name a line is known by, folded (`SearchFold.name`) in `form` and
///   as written in `alias`: each source line's full name and its short forms, the names in
///   its brackets (山形線), and the curated common names (`LineCommonNames`, 山形新幹線), which
///   name a section: `from_fid`…`to_fid` along the line.
public struct LineTable {
    /// The station database's connection.
    let db: Database
    let entries: EntryCatalog

    static let schema = """
    CREATE TABLE lines (
      num INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      operator_id TEXT NOT NULL,
      class TEXT NOT NULL,
      name TEXT NOT NULL,
      color TEXT,
      loop INTEGER NOT NULL,
      open INTEGER NOT NULL,
      sources TEXT NOT NULL);
    CREATE INDEX lines_operator ON lines(operator_id);
    CREATE TABLE line_stations (
      line_num INTEGER NOT NULL REFERENCES lines(num) ON DELETE CASCADE,
      station_fid INTEGER NOT NULL REFERENCES stations(fid) ON DELETE CASCADE,
      branch INTEGER NOT NULL,
      seq INTEGER,
      PRIMARY KEY (line_num, station_fid, branch)) WITHOUT ROWID;
    CREATE INDEX line_stations_fid ON line_stations(station_fid);
    CREATE TABLE line_aliases (
      form TEXT NOT NULL,
      line_id TEXT NOT NULL REFERENCES lines(id) ON DELETE CASCADE,
      alias TEXT NOT NULL,
      from_fid INTEGER,
      to_fid INTEGER,
      source TEXT,
      PRIMARY KEY (form, line_id, alias)) WITHOUT ROWID;
    CREATE INDEX line_aliases_line ON line_aliases(line_id);

    """

    /// True when the database has the line tables (schema version 4).
    public var exists: Bool {
        guard let s = try? db.cached("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'line_stations'") else { return false }
        defer { s.reset() }
        return (try? s.step()) ?? false
    }
}
