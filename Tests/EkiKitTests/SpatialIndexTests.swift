import Testing
import Foundation
@testable import EkiKit
import EkiSQLite
import EkiTestSupport

/// The packed R-tree (bulk build) and the lean queries: the same tree leaves and the same
/// answers as the row-by-row GeoPackage triggers and a brute-force scan.
@Suite(.serialized) struct SpatialIndexTests {
    let dir = TestPaths.temporaryDirectory()

    /// 3,000 synthetic rows: clusters around a few centres (dense, with duplicates and points
    /// on float32 boundaries) plus uniform ones; some operators and names repeat so that
    /// groups have several rows; every 17th is closed.
    static func records(_ n: Int = 3_000, seed: UInt64 = 9) -> [SourceRecord] {
        var rng = SplitMix64(state: seed)
        let centres = [(35.681, 139.767), (34.702, 135.496), (43.068, 141.351), (33.59, 130.421)]
        return (0..<n).map { i in
            var lat: Double, lon: Double
            if i % 3 == 0 {
                lat = Double.random(in: 31...45, using: &rng); lon = Double.random(in: 129...146, using: &rng)
            } else {
                let c = centres[i % centres.count]
                lat = c.0 + Double.random(in: -0.2...0.2, using: &rng); lon = c.1 + Double.random(in: -0.2...0.2, using: &rng)
            }
            if i % 101 == 0 { lat = 35.5; lon = 139.5 }                       // identical points
            if i % 97 == 0 { lon = Double(Float(lon)) }                        // exactly a float
            lat = (lat * 1e7).rounded() / 1e7; lon = (lon * 1e7).rounded() / 1e7
            return SourceRecord(source: SourceRef(dataset: "csv/synthetic", id: String(i)), name: "S\(i % 1_700)",
                                operatorName: "OP\(i % 7)", serviceClass: i % 50 == 0 ? .shinkansen : .conventional,
                                lines: ["L\(i % 40)"], coordinate: Coordinate(lat: lat, lon: lon), isClosed: i % 17 == 0)
        }
    }

    func build(_ name: String, _ mode: SpatialIndexBuild, _ records: [SourceRecord]) throws -> StationStore {
        let path = dir.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: path)
        let store = try StationStore(path: path)
        store.spatial.build = mode
        try store.importRecords(records, dataset: "csv/synthetic")
        return store
    }

    /// Rows of `sql`'s first five columns as doubles.
    func rows(_ store: StationStore, _ sql: String) throws -> [[Double]] {
        let s = try store.db.prepare(sql)
        var out: [[Double]] = []
        while try s.step() { out.append((0..<5).map { s.double(Int32($0)) }) }
        return out
    }

    func rtreeCheck(_ store: StationStore) throws -> String {
        let s = try store.db.prepare("SELECT rtreecheck('rtree_stations_geom')")
        _ = try s.step()
        return s.text(0)
    }

    @Test func packedTreeHasTheRowByRowLeavesAndPassesRtreecheck() throws {
        let records = Self.records()
        let packed = try build("packed.gpkg", .packed, records)
        let byRow = try build("rows.gpkg", .rowByRow, records)
        #expect(try rtreeCheck(packed) == "ok")
        #expect(try rtreeCheck(byRow) == "ok")
        let leaves = "SELECT id, minx, maxx, miny, maxy FROM rtree_stations_geom ORDER BY id"
        #expect(try rows(packed, leaves) == rows(byRow, leaves))
        #expect(try packed.entries.count() == byRow.entries.count())
        #expect(try packed.entries.all() == byRow.entries.all())
        // More than one level, so internal nodes are exercised.
        #expect(try packed.db.scalarInt("SELECT rtreedepth(data) FROM rtree_stations_geom_node WHERE nodeno = 1") ?? 0 >= 1)
        // The GeoPackage triggers are back: a later row-by-row change keeps the tree right.
        try packed.db.execute("UPDATE stations SET geom = (SELECT geom FROM stations WHERE fid = 2) WHERE fid = 1")
        #expect(try rtreeCheck(packed) == "ok")
        #expect(try packed.db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'rtree_stations_geom_%'") == 6)
    }

    /// A first import into an empty store written by the fresh writer (inserts only) gives what
    /// the incremental writer (updates, merges, retirements, every source row again) gives from
    /// the same plan: rows, keys, fids, sources, R-tree.
    @Test func emptyStorePathEqualsGeneralPath() throws {
        var records = Self.records()
        // Same operator, class and name in two places (place-qualified keys), and a name with `@`.
        records.append(SourceRecord(source: SourceRef(dataset: "csv/synthetic", id: "x1"), name: "S1@xn7", operatorName: "OP1",
                                    serviceClass: .conventional, lines: ["L1"], coordinate: Coordinate(lat: 35, lon: 139)))
        let other = SourceRecord(source: SourceRef(dataset: "n02", id: "n1"), name: "S3", operatorName: "OP3",
                                 serviceClass: .conventional, lines: ["M"], coordinate: Coordinate(lat: 41, lon: 141))
        func build(_ name: String, fresh: Bool) throws -> StationStore {
            let path = dir.appendingPathComponent(name).path
            try? FileManager.default.removeItem(atPath: path)
            let store = try StationStore(path: path)
            store.entryWriteStrategy = fresh ? .fresh : .incremental
            try store.importBatches([("csv/synthetic", records), ("n02", [other])])
            return store
        }
        let a = try build("fresh.gpkg", fresh: true), b = try build("general.gpkg", fresh: false)
        for sql in ["SELECT fid, key, base_key, name, lines, kind, lon, lat, open, operator_id FROM stations ORDER BY fid",
                    "SELECT station_fid, dataset, source_id FROM station_sources ORDER BY 1, 2, 3",
                    "SELECT id, minx, maxx, miny, maxy FROM rtree_stations_geom ORDER BY id"] {
            let ra = try a.db.prepare(sql), rb = try b.db.prepare(sql)
            var n = 0
            while try ra.step() {
                #expect(try rb.step())
                let cols = sql.contains("station_sources") ? 3 : sql.contains("rtree") ? 5 : 10
                for c in 0..<Int32(cols) { #expect(ra.optionalText(c) == rb.optionalText(c), "\(sql) row \(n) column \(c)") }
                n += 1
            }
            #expect(try !rb.step())
            #expect(n > 0)
        }
        #expect(try a.entries.all().contains { $0.key.contains("@") })
    }

    @Test func rtreeValueRoundingMatchesSQLite() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE VIRTUAL TABLE r USING rtree(id, minx, maxx, miny, maxy)")
        var rng = SplitMix64(state: 3)
        let insert = try db.prepare("INSERT INTO r VALUES (?, ?, ?, ?, ?)")
        var values: [Double] = [0, -0.0, 1e-40, -1e-40, 139.7671234, -139.7671234, 35.1, -35.1, Double(Float(35.1))]
        for _ in 0..<2_000 { values.append(Double.random(in: -180...180, using: &rng)) }
        for (i, v) in values.enumerated() {
            try insert.run([.int(Int64(i)), .double(v), .double(v), .double(v), .double(v)])
        }
        let s = try db.prepare("SELECT id, minx, maxx FROM r ORDER BY id")
        while try s.step() {
            let v = values[Int(s.int64(0))]
            #expect(s.double(1) == Double(RTreeBulkLoad.down(v)), "min of \(v)")
            #expect(s.double(2) == Double(RTreeBulkLoad.up(v)), "max of \(v)")
        }
    }

    @Test func leanBBoxEqualsStationsInAndBruteForce() throws {
        let store = try build("bbox.gpkg", .packed, Self.records())
        let all = try store.entries.all()
        var fidOfKey: [String: Int64] = [:]
        let s = try store.db.prepare("SELECT fid, key FROM stations")
        while try s.step() { fidOfKey[s.text(1)] = s.int64(0) }
        var rng = SplitMix64(state: 11)
        for i in 0..<500 {
            let lon = Double.random(in: 129...146, using: &rng), lat = Double.random(in: 31...45, using: &rng)
            let w = [0.001, 0.05, 0.5, 5][i % 4], h = w * 0.8
            let box = BoundingBox(minLon: lon - w / 2, minLat: lat - h / 2, maxLon: lon + w / 2, maxLat: lat + h / 2)
            for closed in [false, true] {
                let lean = Set(try store.spatial.hits(in: box, includeClosed: closed).map(\.fid))
                let sql = Set(try store.spatial.stations(in: box, includeClosed: closed).map { fidOfKey[$0.key]! })
                let brute = Set(all.filter { box.contains($0.coordinate) && (closed || $0.isOpen) }.map { fidOfKey[$0.key]! })
                #expect(lean == sql && lean == brute, "box \(i) \(box) closed \(closed)")
            }
        }
        // A box on a point's exact coordinates (edges included).
        let p = all[0].coordinate
        let edge = BoundingBox(minLon: p.lon, minLat: p.lat, maxLon: p.lon, maxLat: p.lat)
        #expect(try store.spatial.hits(in: edge, includeClosed: true).map(\.fid).contains(fidOfKey[all[0].key]!))
    }

    @Test func leanNearestEqualsBruteForce() throws {
        let store = try build("knn.gpkg", .packed, Self.records())
        let all = try store.entries.all()
        var rng = SplitMix64(state: 5)
        for i in 0..<300 {
            let p = i % 10 == 0 ? all[i].coordinate
                : Coordinate(lat: Double.random(in: 30...46, using: &rng), lon: Double.random(in: 128...147, using: &rng))
            let k = [1, 10, 100, 3][i % 4]
            let closed = i % 5 == 0
            let expected = all.filter { closed || $0.isOpen }
                .map { StationDistance(station: $0, distance: Geodesic.distance(valid: p, $0.coordinate)) }
                .sorted(by: StationDistance.nearestFirst).prefix(k)
            let got = try store.spatial.nearestHits(to: p, k: k, includeClosed: closed)
            #expect(try got.map { try store.entries.station(fid: $0.fid).key } == expected.map(\.station.key), "query \(i) \(p) k=\(k)")
            #expect(got.map(\.distance) == expected.map(\.distance))
            #expect(try store.spatial.nearest(to: p, k: k, includeClosed: closed).map(\.station.key) == expected.map(\.station.key))
        }
        // More than there are: all of them.
        #expect(try store.spatial.nearestHits(to: Coordinate(lat: 35, lon: 139), k: 5_000, includeClosed: true).count == all.count)
    }

    @Test func cacheFollowsChanges() throws {
        let records = Self.records(200)
        let store = try build("change.gpkg", .automatic, records)
        let box = BoundingBox(minLon: 129, minLat: 31, maxLon: 146, maxLat: 45)
        #expect(try store.spatial.hits(in: box, includeClosed: true).count == store.entries.count())
        try store.importRecords(Array(records.prefix(50)), dataset: "csv/synthetic")
        let open = try store.entries.count(includeClosed: false)
        #expect(try store.spatial.hits(in: box).count == open)
        // A change from another connection is seen too.
        let other = try StationStore(path: store.db.path)
        try other.importRecords(Array(records.prefix(10)), dataset: "csv/synthetic")
        #expect(try store.spatial.hits(in: box).count == other.entries.count(includeClosed: false))
    }

    @Test func shellHoldsItsPatch() {
        var rng = SplitMix64(state: 1)
        for _ in 0..<2_000 {
            let lat0 = Double.random(in: -89...88, using: &rng), lon0 = Double.random(in: -180...179, using: &rng)
            let lat1 = min(90, lat0 + Double.random(in: 0...30, using: &rng)), lon1 = min(180, lon0 + Double.random(in: 0...200, using: &rng))
            let s = Earth.shell(minLon: lon0, maxLon: lon1, minLat: lat0, maxLat: lat1)
            for _ in 0..<20 {
                let p = Earth.point(lat: Double.random(in: lat0...lat1, using: &rng), lon: Double.random(in: lon0...lon1, using: &rng))
                #expect(p.x >= s[0] && p.x <= s[1] && p.y >= s[2] && p.y <= s[3] && p.z >= s[4] && p.z <= s[5])
            }
        }
    }

    /// The k-NN scans Earth-centred points rounded to 32-bit floats and shell boxes rounded
    /// outward: each rounded point lies within `Earth.floatPointError` of the exact one, and
    /// the rounded boxes still hold their patches.
    @Test func floatPointsAndShellsKeepTheirBounds() {
        var rng = SplitMix64(state: 3)
        var worst = 0.0
        for i in 0..<20_000 {
            let lat = i < 4 ? [-90.0, 90, 0, 35.681][i] : Double.random(in: -90...90, using: &rng)
            let lon = Double.random(in: -180...180, using: &rng)
            let p = Earth.point(lat: lat, lon: lon)
            let dx = Double(Float(p.x)) - p.x, dy = Double(Float(p.y)) - p.y, dz = Double(Float(p.z)) - p.z
            worst = max(worst, (dx * dx + dy * dy + dz * dz).squareRoot())
        }
        #expect(worst > 0.1 && worst < Earth.floatPointError, "worst rounding \(worst) m")
        for v in [0.0, 1e-3, -1e-3, 6_378_137.0, -6_378_137.0, 4_194_304.1, 123_456.789, -0.01] {
            #expect(Double(Earth.floatDown(v)) <= v && Double(Earth.floatUp(v)) >= v, "\(v)")
            #expect(Double(Earth.floatUp(v)) - Double(Earth.floatDown(v)) <= Double(Float(v).ulp) * 2)
        }
        // A box on a point: the squared distance from that point is 0, and from 1 km east about 1 km².
        let s = Earth.shell(minLon: 139.767, maxLon: 139.767, minLat: 35.681, maxLat: 35.681)
        let f = s.enumerated().map { $0.offset % 2 == 0 ? Earth.floatDown($0.element) : Earth.floatUp($0.element) }
        let q = Earth.point(lat: 35.681, lon: 139.767)
        f.withUnsafeBufferPointer { b in
            #expect(Earth.squaredDistance(q, b, 0) == 0)
            let east = Earth.point(lat: 35.681, lon: 139.767 + 1 / (111.32 * cos(35.681 * .pi / 180)))
            let d = Earth.lowerBound(squared: Earth.squaredDistance(east, b, 0))
            #expect(d > 997 && d < 1_001, "\(d) m")
        }
    }

    @Test func jsonArraysMatchJSONSerialization() {
        for a in [[], ["東京"], ["a/b", "c"], ["q\"x"], ["b\\s"], ["tab\t"], ["\u{2028}x", "😀"], [""]] as [[String]] {
            #expect(JSONText.encodeStrings(a) == JSONText.slowEncode(a))
            #expect(JSONText.decodeStrings(JSONText.encodeStrings(a)) == a)
        }
        #expect(JSONText.decodeStrings("[ \"a\" ]") == ["a"])
    }
}
