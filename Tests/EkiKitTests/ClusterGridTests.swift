import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// `SpatialIndex.clusters` against a brute force over every entry of the real database
/// (N02-23 + station_database: 10,030 entries, 9,571 open), written from the cell rule alone.
@Suite(.needsN02AndStationDatabase) struct ClusterGridTests {
    static let japan = BoundingBox(minLon: 122, minLat: 20, maxLon: 154, maxLat: 46)

    /// The rule, entry by entry: Web Mercator tile at zoom + 2 × prefecture, every tile that
    /// overlaps the box whole; the representative nearest the mean (Mercator), ties by key.
    static func bruteForce(_ all: [Station], _ q: ClusterQuery, visitedKeys: Set<String>) -> [(id: String, total: Int, visited: Int,
                                                                                                 rep: String, extent: BoundingBox)] {
        func mx(_ lon: Double) -> Double { (lon + 180) / 360 }
        func my(_ lat: Double) -> Double {
            let r = min(max(lat, -85.05112878), 85.05112878) * .pi / 180
            return (1 - log(tan(r) + 1 / cos(r)) / .pi) / 2
        }
        let n = Double(1 << q.cellZoom)
        func tile(_ w: Double) -> Int { Int(min(max((w * n).rounded(.down), 0), n - 1)) }
        let xs = tile(mx(q.bbox.minLon))...tile(mx(q.bbox.maxLon)), ys = tile(my(q.bbox.maxLat))...tile(my(q.bbox.minLat))
        var cells: [String: [Station]] = [:]
        for s in all where q.includeClosed || s.isOpen {
            let v = visitedKeys.contains(s.key)
            if q.filter == .visited && !v || q.filter == .unvisited && v { continue }
            let x = tile(mx(s.coordinate.lon)), y = tile(my(s.coordinate.lat))
            guard xs.contains(x), ys.contains(y) else { continue }
            let code = s.prefecture.flatMap { Prefecture.names.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            cells["\(q.cellZoom)/\(x)/\(y)/\(code)", default: []].append(s)
        }
        return cells.map { id, members in
            let cx = members.map { mx($0.coordinate.lon) }.reduce(0, +) / Double(members.count)
            let cy = members.map { my($0.coordinate.lat) }.reduce(0, +) / Double(members.count)
            func d(_ s: Station) -> Double { pow(mx(s.coordinate.lon) - cx, 2) + pow(my(s.coordinate.lat) - cy, 2) }
            let rep = members.min { (d($0), $0.key) < (d($1), $1.key) }!
            let lats = members.map(\.coordinate.lat), lons = members.map(\.coordinate.lon)
            return (id, members.count, members.filter { visitedKeys.contains($0.key) }.count, rep.key,
                    BoundingBox(minLon: lons.min()!, minLat: lats.min()!, maxLon: lons.max()!, maxLat: lats.max()!))
        }.sorted { $0.id < $1.id }
    }

    @Test func clustersAreTheBruteForceAtEveryZoomBoxAndFilter() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let all = try store.entries.all()
        #expect(all.count == 10_030)
        // Every 41st entry visited (245 of them, some closed), as a visit log's fids would be.
        let visitedKeys = Set(all.enumerated().filter { $0.offset % 41 == 0 }.map(\.element.key))
        let visited = try store.entries.fids(keys: visitedKeys)
        let kanto = BoundingBox(minLon: 138.9, minLat: 35.1, maxLon: 140.4, maxLat: 36.2)
        let osaka = BoundingBox(minLon: 135.40, minLat: 34.60, maxLon: 135.60, maxLat: 34.75)
        var compared = 0, clusters = 0
        for (box, zooms) in [(Self.japan, [0, 3, 5, 7]), (kanto, [6, 8, 10]), (osaka, [9, 11])] {
            for zoom in zooms {
                for filter in VisitFilter.allCases {
                    for includeClosed in [false, true] {
                        let q = ClusterQuery(bbox: box, zoom: zoom, visited: visited, filter: filter, includeClosed: includeClosed)
                        let got = try store.spatial.clusters(q)
                        let want = Self.bruteForce(all, q, visitedKeys: visitedKeys)
                        #expect(got.clusters.map(\.id) == want.map(\.id), "\(box) z\(zoom) \(filter) closed \(includeClosed)")
                        #expect(got.clusters.map(\.total) == want.map(\.total))
                        #expect(got.clusters.map(\.visited) == want.map(\.visited))
                        #expect(try got.clusters.map { try store.entries.station(fid: $0.representative.fid).key } == want.map(\.rep))
                        #expect(got.clusters.map(\.extent) == want.map(\.extent))
                        #expect(got.cellZoom == zoom + 2 && got.clusters.allSatisfy { $0.total > 0 })
                        if filter == .visited { #expect(got.clusters.allSatisfy { $0.visited == $0.total }) }
                        if filter == .unvisited { #expect(got.visited == 0) }
                        compared += 1
                        clusters += got.clusters.count
                    }
                }
            }
        }
        #expect(compared == 54)
        #expect(clusters > 1_000)
    }

    @Test func anAllJapanViewHasClustersInEveryPrefecture() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let view = try store.spatial.clusters(ClusterQuery(bbox: Self.japan, zoom: 5))
        #expect(view.cellZoom == 7)
        #expect(view.total == 9_571 && view.visited == 0)
        #expect(Set(view.clusters.compactMap(\.prefecture)).count == 47)
        #expect(view.clusters.allSatisfy { $0.prefectureCode > 0 })
        // A cluster's representative is one of its entries: in its prefecture, inside its extent.
        for c in view.clusters {
            let s = try store.entries.station(fid: c.representative.fid)
            #expect(s.prefecture == c.prefecture && c.extent.contains(s.coordinate), "\(c.id)")
        }
        // 東京都 at zoom 5: the tile 7/113/50 holds Tokyo's stations (and 神奈川県's, 埼玉県's … apart).
        let tokyo = view.clusters.filter { $0.prefecture == "東京都" }
        #expect(tokyo.map(\.id).contains("7/113/50/13"))
        #expect(tokyo.reduce(0) { $0 + $1.total } == (try store.entries.all(includeClosed: false)).filter { $0.prefecture == "東京都" }.count)
    }
}
