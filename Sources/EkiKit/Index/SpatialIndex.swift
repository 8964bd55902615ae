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

/// The entries' points and the GeoPackage R-tree over them (`rtree_stations_geom`), as
/// `store.spatial`: viewport (bbox) queries with a pin cap and a total (`viewport`), nearest-first
/// (k-NN) queries (`nearest`, `nearestHits`), the lean forms a map asks on every pan
/// (`LeanQueries.swift`), and the tree's upkeep by imports (packing it afresh, switching its
/// row-by-row triggers off and on). Not thread-safe (one connection).
///
/// ```swift
/// let box = BoundingBox(minLon: 139.74, minLat: 35.67, maxLon: 139.78, maxLat: 35.69)
/// let view = try store.spatial.viewport(ViewportQuery(bbox: box, limit: 300))   // hits + total
/// let five = try store.spatial.nearest(to: Coordinate(lat: 35.2564, lon: 139.1553), k: 5)
/// ```
public final class SpatialIndex {
    static let table = "rtree_stations_geom"
    let db: Database
    let entries: EntryCatalog
    /// How imports maintain the R-tree (see `SpatialIndexBuild`).
    public var build: SpatialIndexBuild = .automatic
    /// The R-tree's nodes and the points of its leaves, read on demand for the lean queries;
    /// dropped when the file changes.
    private var nodeCache: RTreeNodeCache?
    /// Every entry binned for cluster questions (`ClusterGrid`); dropped when the file changes.
    private var clusterGrid: ClusterGrid?

    package init(db: Database, entries: EntryCatalog) {
        self.db = db
        self.entries = entries
    }

    /// The R-tree node cache for the file as it is now (a new one when the file changed).
    func currentNodeCache() throws -> RTreeNodeCache {
        if let c = nodeCache, c.dataVersion == (try db.dataVersion()) { return c }
        let c = try RTreeNodeCache(db: db, table: Self.table)
        nodeCache = c
        return c
    }

    /// The cluster grid for the file as it is now (a new one when the file changed).
    func currentClusterGrid() throws -> ClusterGrid {
        if let g = clusterGrid, g.dataVersion == (try db.dataVersion()) { return g }
        let g = try ClusterGrid(db: db)
        clusterGrid = g
        return g
    }

    /// Forgets the nodes read so far (after this connection rewrote the tree).
    func dropCache() { nodeCache = nil; clusterGrid = nil }

    /// Reads the whole R-tree and every leaf's points now, by one scan of the node table and
    /// one of `stations` (not one lookup per node and entry), so that later lean queries never
    /// wait for SQLite (about 50 MB for 1M entries). Optional: queries read what they need on
    /// their own.
    /// - Throws: `SQLiteError`, `StoreError.corruptRTree`.
    public func preload() throws {
        try currentNodeCache().loadAll()
    }

    /// Replaces the R-tree with a packed one built from every entry's `geom` (what the triggers
    /// would have inserted: the point's x and y, rounded outward to 32-bit floats).
    /// - Throws: `SQLiteError`.
    public func rebuild() throws {
        let s = try db.prepare("SELECT fid, geom FROM stations WHERE geom IS NOT NULL")
        var points: [RTreeBulkLoad.Entry] = []
        while try s.step() {
            if let p = s.withBlob(1, { GeoPackage.point(fromBlob: $0) }) {
                points.append(RTreeBulkLoad.entry(id: s.int64(0), x: p.x, y: p.y))
            }
        }
        try RTreeBulkLoad.rebuild(db, table: Self.table, entries: points)
        dropCache()
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
