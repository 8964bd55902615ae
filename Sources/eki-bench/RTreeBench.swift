import EkiKit
import EkiSQLite
import Foundation

// MARK: R-tree build alone

/// `eki-bench rtree --db D.gpkg`
///
/// Times the R-tree of an imported database built row by row (as the GeoPackage triggers do)
/// and packed (`rebuildSpatialIndex`), checks both with `rtreecheck` and compares their leaf
/// entries, inside one transaction that is rolled back (the file is unchanged). Prints one JSON
/// object. Run by Scripts/bench/bench.sh.
func runRTree(_ args: [String]) throws {
    let store = try StationStore(path: option("db", args)!)
    let db = store.db
    func rows(_ sql: String) throws -> [[Double]] {
        let s = try db.prepare(sql)
        var out: [[Double]] = []
        while try s.step() { out.append((0..<5).map { s.double(Int32($0)) }) }
        return out
    }
    func check() throws -> String {
        let s = try db.prepare("SELECT rtreecheck('rtree_stations_geom')")
        _ = try s.step()
        return s.text(0)
    }
    let n = try store.entries.count()
    try db.execute("BEGIN")
    defer { try? db.execute("ROLLBACK") }
    // Row by row: what the GeoPackage triggers do for each row, into an empty tree, fid order.
    try db.execute("DELETE FROM rtree_stations_geom")
    let t0 = now()
    try db.execute("""
        INSERT INTO rtree_stations_geom SELECT fid, ST_MinX(geom), ST_MaxX(geom), ST_MinY(geom), ST_MaxY(geom)
        FROM stations WHERE geom IS NOT NULL ORDER BY fid
        """)
    let t1 = now()
    let byRow = try rows("SELECT id, minx, maxx, miny, maxy FROM rtree_stations_geom ORDER BY id")
    let checkRow = try check()
    let t2 = now()
    try store.spatial.rebuild()
    let t3 = now()
    let packed = try rows("SELECT id, minx, maxx, miny, maxy FROM rtree_stations_geom ORDER BY id")
    let checkPacked = try check()
    let depth = try db.scalarInt("SELECT rtreedepth(data) FROM rtree_stations_geom_node WHERE nodeno = 1") ?? -1
    let nodes = try db.scalarInt("SELECT count(*) FROM rtree_stations_geom_node") ?? 0
    emit(["entries": n, "row_by_row_s": round2(Double(t1 - t0) / 1e9), "packed_s": round2(Double(t3 - t2) / 1e9),
          "speedup": round2(Double(t1 - t0) / Double(max(1, t3 - t2))),
          "rtreecheck_row_by_row": checkRow, "rtreecheck_packed": checkPacked,
          "same_leaf_entries": byRow == packed, "packed_depth": depth, "packed_nodes": nodes,
          "note": "both inside one transaction that is rolled back; the file is unchanged"])
}
