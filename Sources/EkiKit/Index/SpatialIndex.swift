import EkiSQLite

/// Keeping the GeoPackage R-tree (`rtree_stations_geom`) in step with `stations`.
///
/// Row by row, the GeoPackage triggers insert each changed point into the R*Tree (a descent and
/// often a node split per row). When an import changes many points, they are dropped for the
/// writes and the tree is packed afresh from `stations` at the end (`RTreeBulkLoad`), then the
/// triggers are created again, all inside the import's transaction.
public enum SpatialIndexBuild: Sendable {
    /// Pack the tree when an import changes at least 10,000 entries and at least a tenth of
    /// them; row by row otherwise.
    case automatic
    /// Always row by row through the triggers (what the GeoPackage spec describes; slower).
    case rowByRow
    /// Always pack the tree when anything changed.
    case packed

    func packs(changedRows: Int, totalRows: Int) -> Bool {
        switch self {
        case .rowByRow: return false
        case .packed: return changedRows > 0
        case .automatic: return changedRows >= 10_000 && changedRows * 10 >= totalRows
        }
    }
}

/// The GeoPackage R-tree of `stations.geom` (`rtree_stations_geom`) and its triggers: packing
/// it afresh and switching the row-by-row upkeep off and on. Not thread-safe (one connection).
struct SpatialIndex {
    static let table = "rtree_stations_geom"
    let db: Database

    /// Replaces the R-tree with a packed one built from every entry's `geom` (what the triggers
    /// would have inserted: the point's x and y, rounded outward to 32-bit floats).
    /// - Throws: `SQLiteError`.
    func rebuild() throws {
        let s = try db.prepare("SELECT fid, geom FROM stations WHERE geom IS NOT NULL")
        var entries: [RTreeBulkLoad.Entry] = []
        while try s.step() {
            if let p = s.withBlob(1, { GeoPackage.point(fromBlob: $0) }) {
                entries.append(RTreeBulkLoad.entry(id: s.int64(0), x: p.x, y: p.y))
            }
        }
        try RTreeBulkLoad.rebuild(db, table: Self.table, entries: entries)
    }

    /// Drops the GeoPackage triggers that keep the tree in step row by row.
    func dropTriggers() throws {
        for name in GeoPackage.rtreeTriggerNames(table: "stations", column: "geom") {
            try db.execute("DROP TRIGGER IF EXISTS \(name)")
        }
    }

    /// Creates the GeoPackage triggers again.
    func createTriggers() throws {
        try db.execute(GeoPackage.rtreeTriggers(table: "stations", column: "geom", idColumn: "fid"))
    }
}
