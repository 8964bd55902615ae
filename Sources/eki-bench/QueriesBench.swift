import EkiKit
import EkiSQLite
import Foundation

// MARK: queries

struct Query { var lat, lon, minLon, minLat, maxLon, maxLat: Double }

func readQueries(_ dir: String) throws -> (queries: [Query], warmup: [Query]) {
    let d = try Data(contentsOf: URL(fileURLWithPath: dir + "/queries.bin"))
    return d.withUnsafeBytes { b in
        let nq = Int(Int32(littleEndian: b.loadUnaligned(fromByteOffset: 0, as: Int32.self)))
        let nw = Int(Int32(littleEndian: b.loadUnaligned(fromByteOffset: 4, as: Int32.self)))
        func q(_ i: Int) -> Query {
            let o = 8 + i * 48
            func f(_ j: Int) -> Double { Double(bitPattern: UInt64(littleEndian: b.loadUnaligned(fromByteOffset: o + 8 * j, as: UInt64.self))) }
            return Query(lat: f(0), lon: f(1), minLon: f(2), minLat: f(3), maxLon: f(4), maxLat: f(5))
        }
        return ((0..<nq).map(q), (nq..<(nq + nw)).map(q))
    }
}

func readInt32s(_ path: String) throws -> [Int32] {
    let d = try Data(contentsOf: URL(fileURLWithPath: path))
    return d.withUnsafeBytes { b in (0..<(b.count / 4)).map { Int32(littleEndian: b.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self)) } }
}

/// Exact k nearest by brute force over every point: chord distances (a lower bound of the
/// geodesic, less 1 cm) pick a superset, the geodesic (Karney, PROJ) orders it, ties by key.
func bruteNearest(_ store: StationStore, all: [(fid: Int64, lat: Double, lon: Double, xyz: (Double, Double, Double))],
                  lat: Double, lon: Double, k: Int) throws -> [Int64] {
    func xyz(_ la: Double, _ lo: Double) -> (Double, Double, Double) {
        let a = Geodesic.a, e2 = Geodesic.f * (2 - Geodesic.f)
        let p = la * .pi / 180, l = lo * .pi / 180, n = a / (1 - e2 * sin(p) * sin(p)).squareRoot()
        return (n * cos(p) * cos(l), n * cos(p) * sin(l), n * (1 - e2) * sin(p))
    }
    let q = xyz(lat, lon)
    var chord = [Double](repeating: 0, count: all.count)
    for (i, p) in all.enumerated() {
        let dx = p.xyz.0 - q.0, dy = p.xyz.1 - q.1, dz = p.xyz.2 - q.2
        chord[i] = (dx * dx + dy * dy + dz * dz).squareRoot()
    }
    let kk = min(k, all.count)
    let nearestByChord = chord.indices.sorted { chord[$0] < chord[$1] }.prefix(kk)
    let bound = try nearestByChord.map { try Geodesic.distance(lat1: lat, lon1: lon, lat2: all[$0].lat, lon2: all[$0].lon) }.max() ?? 0
    var cands: [(d: Double, key: String, fid: Int64)] = []
    for i in all.indices where chord[i] - 0.01 <= bound {
        cands.append((try Geodesic.distance(lat1: lat, lon1: lon, lat2: all[i].lat, lon2: all[i].lon), "", all[i].fid))
    }
    cands.sort { $0.d < $1.d }
    // Keys only where distances tie.
    for i in cands.indices where (i > 0 && cands[i - 1].d == cands[i].d) || (i + 1 < cands.count && cands[i + 1].d == cands[i].d) {
        cands[i].key = try store.entries.station(fid: cands[i].fid).key
    }
    cands.sort { $0.d != $1.d ? $0.d < $1.d : $0.key < $1.key }
    return cands.prefix(k).map(\.fid)
}

/// `eki-bench queries --db D.gpkg --queries DIR [--k 10] [--verify 100] [--cap-full 2000] [--only knn]`
///
/// Times viewport (bbox) and k-nearest queries read from DIR/queries.bin (made by
/// Scripts/bench/make_queries.py), lean and full-entry APIs, and checks the answers against the
/// peers' references (DIR/bbox_ref.bin, DIR/knn_ref.bin) and a brute-force k-NN on `--verify`
/// queries. Prints one JSON object. Run by Scripts/bench/bench.sh. `--only knn` runs the lean
/// k-NN at `--k` alone (timed, verified, and `knnTimeSplit`).
func runQueries(_ args: [String]) throws {
    let dir = option("queries", args)!
    let k = Int(option("k", args) ?? "10")!
    let nVerify = Int(option("verify", args) ?? "100")!
    let capFull = Int(option("cap-full", args) ?? "2000")!
    let knnOnly = option("only", args) == "knn"
    if let only = option("only", args), only != "knn" { throw BenchUsageError("queries: --only takes knn, not \(only)") }
    let store = try StationStore(path: option("db", args)!, readOnly: true)
    let (queries, warm) = try readQueries(dir)
    let n = queries.count
    var result: [String: Any] = ["entries": try store.entries.count()]

    // fid → the CSV id (the peers' ids), outside any timing.
    var idOf: [Int64: Int32] = [:]
    let s = try store.db.prepare("SELECT station_fid, source_id FROM station_sources")
    while try s.step() { idOf[s.int64(0)] = Int32(s.text(1)) ?? -1 }

    let rss0 = statusMB("VmRSS")
    var t0 = now()
    try store.spatial.preload()
    result["index_load"] = ["preload_s": round2(Double(now() - t0) / 1e9),
                            "rss_growth_mb": round2(statusMB("VmRSS") - rss0),
                            "note": "preloadSpatialIndex(): reads every R-tree node and leaf point into memory"]

    var hits: [StationHit] = []
    hits.reserveCapacity(4096)
    let nFull = min(n, capFull)
    if !knnOnly {
        try runViewports(store, queries, warm, dir: dir, idOf: idOf, nFull: nFull, hits: &hits, into: &result)
    }

    // Brute force for the verification sample.
    var all: [(fid: Int64, lat: Double, lon: Double, xyz: (Double, Double, Double))] = []
    let a = try store.db.prepare("SELECT fid, lat, lon FROM stations WHERE open = 1")
    while try a.step() {
        let la = a.double(1), lo = a.double(2)
        let e2 = Geodesic.f * (2 - Geodesic.f)
        let p = la * .pi / 180, l = lo * .pi / 180, nn = Geodesic.a / (1 - e2 * sin(p) * sin(p)).squareRoot()
        all.append((a.int64(0), la, lo, (nn * cos(p) * cos(l), nn * cos(p) * sin(l), nn * (1 - e2) * sin(p))))
    }

    let knnRef = try readInt32s(dir + "/knn_ref.bin")
    for kk in (knnOnly ? [k] : [1, k, 100]) where result["knn_lean_k\(kk)"] == nil {
        var st = try store.readSnapshot {
            try measure(n, warmup: warm.count,
                        { try store.spatial.nearestHits(to: Coordinate(lat: warm[$0].lat, lon: warm[$0].lon), k: kk, into: &hits) },
                        { try store.spatial.nearestHits(to: Coordinate(lat: queries[$0].lat, lon: queries[$0].lon), k: kk, into: &hits) })
        }
        if kk == k {
            result["knn_lean_k\(kk)_no_snapshot"] = try measure(n, warmup: warm.count,
                { try store.spatial.nearestHits(to: Coordinate(lat: warm[$0].lat, lon: warm[$0].lon), k: kk, into: &hits) },
                { try store.spatial.nearestHits(to: Coordinate(lat: queries[$0].lat, lon: queries[$0].lon), k: kk, into: &hits) })
        }
        var exact = 0, apiSame = 0
        var firstBad: Any = NSNull()
        t0 = now()
        for i in 0..<min(nVerify, n) {
            let p = Coordinate(lat: queries[i].lat, lon: queries[i].lon)
            try store.spatial.nearestHits(to: p, k: kk, into: &hits)
            let got = hits.map(\.fid)
            let want = try bruteNearest(store, all: all, lat: p.lat, lon: p.lon, k: kk)
            if got == want { exact += 1 } else if firstBad is NSNull { firstBad = ["query": i, "got": got, "want": want] }
            if try store.spatial.nearest(to: p, k: kk).map(\.station.key) == got.map({ try store.entries.station(fid: $0).key }) { apiSame += 1 }
        }
        st["verify"] = ["samples": min(nVerify, n), "exact_vs_bruteforce": exact, "first_mismatch": firstBad, "same_as_nearest_api": apiSame,
                        "truth": "brute force over every open entry: geodesic (WGS84, Karney via PROJ) distances, ties by key",
                        "verify_s": round2(Double(now() - t0) / 1e9)]
        if kk == k && knnRef.count == n * k {
            var sameList = 0, sameSet = 0
            for i in 0..<n {
                try store.spatial.nearestHits(to: Coordinate(lat: queries[i].lat, lon: queries[i].lon), k: k, into: &hits)
                let got = hits.map { idOf[$0.fid] ?? -1 }
                let want = Array(knnRef[(i * k)..<((i + 1) * k)])
                if got == want { sameList += 1 }
                if Set(got) == Set(want) { sameSet += 1 }
            }
            st["agreement_with_ckdtree"] = ["queries": n, "same_ordered_list": sameList, "same_set": sameSet,
                                            "note": "cKDTree orders by great-circle distance on a sphere; eki by the WGS84 ellipsoid"]
        }
        if kk == k { st["time_split"] = try knnTimeSplit(store, queries, k: k, hits: &hits) }
        result["knn_lean_k\(kk)"] = st
    }
    guard !knnOnly else {
        result["peak_rss_mb"] = round2(statusMB("VmHWM"))
        return emit(result)
    }
    // The full-entry API (StationDistance with whole rows), k = 10, first capFull queries.
    result["knn_full_k\(k)"] = try measure(nFull, warmup: warm.count,
                                           { _ = try store.spatial.nearest(to: Coordinate(lat: warm[$0].lat, lon: warm[$0].lon), k: k) },
                                           { _ = try store.spatial.nearest(to: Coordinate(lat: queries[$0].lat, lon: queries[$0].lon), k: k) })
    result["peak_rss_mb"] = round2(statusMB("VmHWM"))
    emit(result)
}

/// The viewport (bbox) part of `runQueries`: lean API (in a snapshot and without), checked
/// against the peers' reference, and full entries on the first `nFull` queries.
func runViewports(_ store: StationStore, _ queries: [Query], _ warm: [Query], dir: String, idOf: [Int64: Int32], nFull: Int,
                  hits: inout [StationHit], into result: inout [String: Any]) throws {
    let n = queries.count
    // Viewport, lean API.
    func box(_ q: Query) -> BoundingBox { BoundingBox(minLon: q.minLon, minLat: q.minLat, maxLon: q.maxLon, maxLat: q.maxLat) }
    // A map redraw's burst of queries runs in one read snapshot (no per-query change check).
    var bbox = try store.readSnapshot {
        try measure(n, warmup: warm.count, { try store.spatial.hits(in: box(warm[$0]), into: &hits) },
                    { try store.spatial.hits(in: box(queries[$0]), into: &hits) })
    }
    result["bbox_lean_no_snapshot"] = try measure(n, warmup: warm.count, { try store.spatial.hits(in: box(warm[$0]), into: &hits) },
                                                  { try store.spatial.hits(in: box(queries[$0]), into: &hits) })
    // Verification: every answer against the peers' reference (libspatialindex).
    let ref = try readInt32s(dir + "/bbox_ref.bin")
    var o = 0, mismatches = 0, totalHits = 0
    var firstMismatch: Any = NSNull()
    for (i, q) in queries.enumerated() {
        try store.spatial.hits(in: box(q), into: &hits)
        let got = hits.map { idOf[$0.fid] ?? -1 }.sorted()
        let c = Int(ref[o]); let want = Array(ref[(o + 1)..<(o + 1 + c)]); o += 1 + c
        totalHits += got.count
        if got != want {
            mismatches += 1
            if mismatches == 1 { firstMismatch = ["query": i, "got": got.count, "want": want.count] }
        }
    }
    bbox["verify"] = ["queries_compared": n, "mismatches": mismatches, "reference": "Rtree/libspatialindex ids",
                      "first_mismatch": firstMismatch]
    bbox["mean_hits"] = round2(Double(totalHits) / Double(n))
    result["bbox_lean"] = bbox

    // Viewport, full entries (stations(in:), sorted by key), on the first capFull queries.
    result["bbox_full"] = try measure(nFull, warmup: warm.count, { _ = try store.spatial.stations(in: box(warm[$0])) },
                                      { _ = try store.spatial.stations(in: box(queries[$0])) })
    // The same with the map's 300-pin cap (stations(_:) of a ViewportQuery with limit 300).
    result["bbox_full_limit300"] = try measure(nFull, warmup: warm.count,
                                               { _ = try store.spatial.stations(ViewportQuery(bbox: box(warm[$0]), limit: 300)) },
                                               { _ = try store.spatial.stations(ViewportQuery(bbox: box(queries[$0]), limit: 300)) })
}

/// Where a k-NN query's time goes, per query (p50 over the query set, µs): the query as timed
/// (`first`), the same query again at once (its nodes and entries now in the CPU caches:
/// `repeat`), and the k geodesic distances of its answer alone (`Geodesic.distance` from the
/// point to each answer: the floor under a query that reports exact distances). `first` less
/// `repeat` is what fetching the nodes from memory costs.
func knnTimeSplit(_ store: StationStore, _ queries: [Query], k: Int, hits: inout [StationHit]) throws -> [String: Any] {
    var first: [Double] = [], again: [Double] = [], geodesics: [Double] = []
    var sum = 0.0
    for q in queries {
        let p = Coordinate(lat: q.lat, lon: q.lon)
        var t = now()
        try store.spatial.nearestHits(to: p, k: k, into: &hits)
        first.append(Double(now() - t) / 1000)
        t = now()
        try store.spatial.nearestHits(to: p, k: k, into: &hits)
        again.append(Double(now() - t) / 1000)
        t = now()
        for h in hits { sum += try Geodesic.distance(p, h.coordinate) }
        geodesics.append(Double(now() - t) / 1000)
    }
    return ["p50_first_us": round2(percentile(first.sorted(), 50)), "p50_repeat_us": round2(percentile(again.sorted(), 50)),
            "p50_k_geodesics_alone_us": round2(percentile(geodesics.sorted(), 50)),
            "mean_answer_distance_m": round2(sum / Double(max(1, queries.count * k)))]
}
