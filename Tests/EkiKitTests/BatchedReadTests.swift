import Foundation
import Testing
import EkiKit
import EkiSQLite
import EkiTestSupport

/// The bulk reads against the one-at-a-time reads they replace, on the real databases: whole
/// entries of a viewport or a nearest query read by one statement against `station(fid:)` for
/// each hit, and the R-tree node cache read by two scans (`preload`) against the nodes read one
/// at a time as queries reach them.
@Suite struct BatchedReadTests {
    let dir = TemporaryDirectory()

    @Test("whole-entry viewports and nearest answers equal the row-by-row reads", .needsN02AndStationDatabase)
    func wholeEntriesEqualRowByRow() throws {
        let store = RealData.open(RealData.combinedDatabase)
        var rng = SplitMix64(state: 29)
        var entriesCompared = 0
        for round in 0..<60 {
            let lon = Double.random(in: 129.0...145.0, using: &rng), lat = Double.random(in: 31.0...44.0, using: &rng)
            let box = round == 0 ? BoundingBox(minLon: 128, minLat: 30, maxLon: 146, maxLat: 46)
                : BoundingBox(minLon: lon, minLat: lat, maxLon: lon + Double.random(in: 0.02...3, using: &rng),
                              maxLat: lat + Double.random(in: 0.02...2, using: &rng))
            let limit = round == 0 ? 300 : [nil, 5, 300][round % 3]
            let q = ViewportQuery(bbox: box, limit: limit, includeClosed: round % 2 == 1)
            let hits = try store.spatial.viewport(q).hits
            var rowByRow = try hits.map { try store.entries.station(fid: $0.fid) }
            if limit == nil { rowByRow.sort { $0.key < $1.key } }
            let batched = try store.spatial.stations(q).stations
            #expect(batched == rowByRow, "\(q)")
            entriesCompared += batched.count

            let p = Coordinate(lat: lat, lon: lon)
            let near = try store.spatial.nearestHits(to: p, k: 25, includeClosed: round % 2 == 1)
            let want = try near.map { StationDistance(station: try store.entries.station(fid: $0.fid), distance: $0.distance) }
            #expect(try store.spatial.nearest(to: p, k: 25, includeClosed: round % 2 == 1) == want)
            entriesCompared += want.count
        }
        #expect(entriesCompared == 2_544)
        // A row id of no entry is left out of the batch, as station(fid:) finds none.
        #expect(try store.entries.stationsByFid([1, 999_999_999]).keys.sorted() == [1])
        #expect(throws: StoreError.self) { try store.entries.station(fid: 999_999_999) }
    }

    @Test("the R-tree read in bulk answers as the tree read node by node", .needsN02AndStationDatabase)
    func preloadEqualsOnDemand() throws {
        let bulk = RealData.open(RealData.combinedDatabase)
        try bulk.spatial.preload()
        let lazy = RealData.open(RealData.combinedDatabase)
        var rng = SplitMix64(state: 31)
        var a: [StationHit] = [], b: [StationHit] = []
        var found = 0
        for _ in 0..<300 {
            let lon = Double.random(in: 129.0...145.0, using: &rng), lat = Double.random(in: 31.0...44.0, using: &rng)
            let box = BoundingBox(minLon: lon, minLat: lat, maxLon: lon + Double.random(in: 0.01...2, using: &rng),
                                  maxLat: lat + Double.random(in: 0.01...2, using: &rng))
            try bulk.spatial.hits(in: box, into: &a)
            try lazy.spatial.hits(in: box, into: &b)
            #expect(a.map(\.fid).sorted() == b.map(\.fid).sorted())
            found += a.count
            let p = Coordinate(lat: lat, lon: lon)
            try bulk.spatial.nearestHits(to: p, k: 10, into: &a)
            try lazy.spatial.nearestHits(to: p, k: 10, into: &b)
            #expect(a == b)
        }
        #expect(found > 10_000)
    }

    /// 土浦's entry in its leaf (node 287 of the N02-23 database) renamed to row 2143: the bulk
    /// read stops at that leaf with the error a query reaching it gives.
    @Test("preload of a damaged leaf stops with the error a query gives", .needsN02)
    func preloadOfDamagedLeaf() throws {
        let path = dir.file("leaf.gpkg")
        try Database(path: RealData.n02Database, readOnly: true).execute(sql: "VACUUM INTO \(path)")
        let db = try Database(path: path)
        let s = try db.prepare(sql: "SELECT data FROM rtree_stations_geom_node WHERE nodeno = \(287)")
        #expect(try s.step())
        var blob = s.blob(0)
        s.reset()
        let cells = Int(blob[2]) << 8 | Int(blob[3])
        let tsuchiura: Int64 = 2127
        let cell = try #require((0..<cells).first { c in
            blob[4 + c * 24..<4 + c * 24 + 8].reduce(Int64(0)) { $0 << 8 | Int64($1) } == tsuchiura
        })
        blob[4 + cell * 24 + 7] ^= 0x10
        try db.execute(sql: "UPDATE rtree_stations_geom_node SET data = \(Data(blob)) WHERE nodeno = \(287)")
        db.close()
        let message = "\(path) is damaged: node 287 of its spatial index (rtree_stations_geom) puts row 2143 where stations does not; nothing was answered from it. `eki info --db \(path) --check` says what else is damaged and how to rebuild the file"
        let store = RealData.open(path)
        #expect { try store.spatial.preload() } throws: { ($0 as? StoreError)?.description == message }
    }
}
