import EkiKit
import Foundation

// MARK: clusters

/// `eki-bench clusters --db D.gpkg [--queries 2000] [--visited 1000]`
///
/// Times `SpatialIndex.clusters` (what `/api/clusters` asks) in process, each query alone
/// (monotonic clock) after a warm-up: (1) `cold_ms`: the first all-Japan question on a fresh
/// store (reading every entry into the grid and binning the first cell zoom); (2) `japan_z5`:
/// the all-Japan view (bbox 122,20,154,46 at zoom 5) again and again; (3) `japan_z5_unvisited`:
/// the same with `visited` random entries visited and filter unvisited; (4) `pans`: 1280×800
/// screens at zooms 5…11 centred on random entries (their cell zooms warmed first). p50/p99 in
/// µs and the clusters per answer; `rss_mb` after all.
func runClusters(_ args: [String]) throws {
    guard let db = option("db", args) else { throw BenchUsageError("clusters: --db D.gpkg is required") }
    let n = Int(option("queries", args) ?? "2000") ?? 2000
    let visitedCount = Int(option("visited", args) ?? "1000") ?? 1000
    let store = try StationStore(path: db, readOnly: true)
    let japan = BoundingBox(minLon: 122, minLat: 20, maxLon: 154, maxLat: 46)
    let t0 = now()
    let first = try store.spatial.clusters(ClusterQuery(bbox: japan, zoom: 5))
    let cold = Double(now() - t0) / 1e6

    var rng = SystemRandomNumberGenerator()
    let open = try store.spatial.hits(in: japan)
    let visited = Set((0..<min(visitedCount, open.count)).map { _ in open[Int.random(in: 0..<open.count, using: &rng)].fid })
    let all = try measure(n, warmup: 50, { _ in _ = try store.spatial.clusters(ClusterQuery(bbox: japan, zoom: 5)) }) { _ in
        _ = try store.spatial.clusters(ClusterQuery(bbox: japan, zoom: 5, visited: visited))
    }
    let unvisited = try measure(n, warmup: 50, { _ in }) { _ in
        _ = try store.spatial.clusters(ClusterQuery(bbox: japan, zoom: 5, visited: visited, filter: .unvisited))
    }
    // Screens of 1280×800 px around random entries.
    func screen(_ c: Coordinate, zoom: Int) -> BoundingBox {
        let world = 256 * pow(2, Double(zoom))
        let x = WebMercator.x(c.lon), y = WebMercator.y(c.lat)
        return BoundingBox(minLon: max(-180, WebMercator.lon(x - 640 / world)), minLat: WebMercator.lat(y + 400 / world),
                           maxLon: min(180, WebMercator.lon(x + 640 / world)), maxLat: WebMercator.lat(y - 400 / world))
    }
    let pans = (0..<n).map { _ in
        let e = open[Int.random(in: 0..<open.count, using: &rng)]
        let zoom = Int.random(in: 5...11, using: &rng)
        return ClusterQuery(bbox: screen(e.coordinate, zoom: zoom), zoom: zoom, visited: visited)
    }
    var levelMs: [String: Double] = [:]
    for z in 5...11 {
        let t = now()
        _ = try store.spatial.clusters(ClusterQuery(bbox: screen(Coordinate(lat: 35.68, lon: 139.76), zoom: z), zoom: z))
        levelMs["z\(z)"] = round2(Double(now() - t) / 1e6)
    }
    var sizes = 0
    let panned = try measure(n, warmup: 0, { _ in }) { i in sizes += try store.spatial.clusters(pans[i]).clusters.count }
    emit(["entries_open": open.count, "cold_ms": round2(cold), "first_level_ms_by_zoom": levelMs,
          "japan_z5": all.merging(["clusters": first.clusters.count]) { a, _ in a },
          "japan_z5_unvisited": unvisited.merging(["visited": visited.count]) { a, _ in a },
          "pans_z5_to_z11": panned.merging(["clusters_mean": round2(Double(sizes) / Double(2 * n))]) { a, _ in a },
          "rss_mb": round2(statusMB("VmRSS"))])
}
