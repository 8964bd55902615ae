/// One schema step of an older station database, from version `from` to `from + 1`: SQL frozen
/// as that version wrote its tables, so that later changes to today's code (`Schema.create`,
/// the search index, the line table) never change what an old step does. `Migrator` runs each
/// step in its own transaction with the version bump.
///
/// A step converts stored data only (entries, source rows, aliases: fids, keys and the
/// AUTOINCREMENT sequence kept). Tables derived from that data are not converted: the step
/// names them in `stale` and today's code writes them once after the last step
/// (`SchemaUpgrade.rebuildStale`).
struct Migration: Sendable {
    /// A column the step adds unless the table has it already: the code these steps replaced
    /// accepted such files (a version 3 file whose rows have the line columns, one of version 4
    /// with a `kind`), so the frozen step does too.
    struct Column: Sendable {
        let table: String
        let name: String
        /// The column as `ALTER TABLE … ADD COLUMN` takes it (name, type, constraints).
        let definition: String
    }

    /// The version the step upgrades.
    let from: Int
    /// Columns added first, in order.
    var addColumns: [Column] = []
    /// The step's statements, run after the columns are added (empty: the step only marks
    /// derived data stale).
    var sql: String = ""
    /// Derived data the step leaves to be written again.
    var stale: Set<DerivedData> = []
    /// Tables whose foreign keys must hold when the step commits (`Migrator` runs the steps
    /// with foreign keys off; derived tables are not checked: they are written again).
    var checkedReferences: [String] = []
}

/// What a schema step leaves for today's code to write from the stored data, once, after every
/// step has run. Recorded in `eki_meta` (`stale_derived`) by the step that leaves it, in the
/// step's transaction, so that an upgrade stopped between steps and the rebuild still writes it.
enum DerivedData: String, CaseIterable, Comparable, Sendable {
    /// The GeoPackage R-tree `rtree_stations_geom` and its triggers on `stations`.
    case spatialIndex = "rtree"
    /// The line tables (`LineTable`): `lines`, `line_stations`, `line_aliases`.
    case lineTable = "lines"
    /// The search tables (`SearchIndex`), every `search_…` table and trigger.
    case searchIndex = "search"
    /// Not a table: the `kind` of entries stored before schema version 5, from the curated
    /// `StationKinds.builtIn` (see `SchemaUpgrade.fillCuratedKinds`).
    case stationKinds = "kinds"

    static func < (a: DerivedData, b: DerivedData) -> Bool { a.rawValue < b.rawValue }
}
