import Testing
import Foundation
import EkiKit
import EkiImport
import EkiTestSupport

/// Visited / unvisited queries equal the filter applied to every entry before the cap, on the
/// N02 sample in Datasets/ (39 entries around 小田原 and 東京).
@Suite struct VisitedStationsTests {
    let dir = TestPaths.temporaryDirectory()

    func sample() throws -> (StationStore, VisitLog) {
        let store = try StationStore(path: dir.appendingPathComponent("sample.gpkg").path)
        try store.importRecords(try N02CSVImporter(path: TestPaths.package("Datasets/n02-odawara-tokyo.csv")).read().records, dataset: "n02")
        let log = try VisitLog(path: dir.appendingPathComponent("visits.sqlite").path)
        return (store, log)
    }

    @Test func filteredQueriesEqualBruteForce() throws {
        let (store, log) = try sample()
        let all = try store.entries.all()
        #expect(all.count == 39)
        var rng = SplitMix64(state: 11)
        for (i, s) in all.enumerated() where i % 3 == 0 {
            try log.add(Visit(stationKey: s.key, date: VisitDate(year: 2019, month: 8, day: 1 + i % 28)!,
                              kind: i % 9 == 0 ? .pass : .board))
        }
        let visits = try VisitedStations(log: log, store: store)
        #expect(visits.count == 8)      // 13 recorded, 5 of them passes
        for _ in 0..<300 {
            let lon = Double.random(in: 139.0...139.9, using: &rng), lat = Double.random(in: 35.1...35.8, using: &rng)
            let box = BoundingBox(minLon: lon, minLat: lat, maxLon: lon + Double.random(in: 0.01...0.8, using: &rng),
                                  maxLat: lat + Double.random(in: 0.01...0.5, using: &rng))
            let limit = [nil, 1, 3, 10][Int.random(in: 0...3, using: &rng)]
            let k = Int.random(in: 1...12, using: &rng)
            let p = Coordinate(lat: lat, lon: lon)
            for filter in VisitFilter.allCases {
                let keep = { (s: Station) in filter == .all || visits.isVisited(s.key) == (filter == .visited) }
                var expected = all.filter { keep($0) && box.contains($0.coordinate) }
                if let limit {
                    expected = Array(try expected.map { StationDistance(station: $0, distance: try Geodesic.distance(box.center, $0.coordinate)) }
                        .sorted(by: StationDistance.nearestFirst).prefix(limit).map(\.station))
                }
                let got = try store.spatial.stations(ViewportQuery(bbox: box, filter: visits.viewportFilter(filter), limit: limit)).stations
                #expect(got.map(\.key) == expected.map(\.key), "\(filter) \(box) limit \(limit ?? 0)")
                let nearest = try all.filter(keep).map { StationDistance(station: $0, distance: try Geodesic.distance(p, $0.coordinate)) }
                    .sorted(by: StationDistance.nearestFirst).prefix(k).map(\.station.key)
                #expect(try store.spatial.nearest(to: p, k: k, filter: visits.viewportFilter(filter)).map(\.station.key) == Array(nearest))
            }
        }
    }

    @Test func keysResolveThroughAliasesAndOrphansAreKept() throws {
        let (store, log) = try sample()
        try log.add(Visit(stationKey: "jr-central/s/小田原", date: try VisitDate(parsing: "2019-08-13")))
        try log.add(Visit(stationKey: "old/c/小田原", date: try VisitDate(parsing: "2018")))
        try log.add(Visit(stationKey: "gone/c/熱海", date: try VisitDate(parsing: "2017"), kind: .alight))
        try log.add(Visit(stationKey: "gone/c/熱海", date: try VisitDate(parsing: "2016"), kind: .pass))
        try store.db.execute("INSERT INTO station_aliases (old_key, new_key, reason) VALUES ('old/c/小田原', 'jr-central/s/小田原', 'test')")
        let visits = try VisitedStations(log: log, store: store)
        #expect(visits.count == 1)
        #expect(visits.completion(of: "jr-central/s/小田原")?.description == "2018")   // the earlier of the two keys
        #expect(visits.orphanedKeys == ["gone/c/熱海"])
        let check = try log.check(against: store)
        #expect(check.visits == 4 && check.keys == 3)
        #expect(check.aliased.map { "\($0.recorded)→\($0.current.key) \($0.visitIDs)" } == ["old/c/小田原→jr-central/s/小田原 [2]"])
        #expect(check.orphaned.map { "\($0.key) \($0.visitIDs)" } == ["gone/c/熱海 [3, 4]"])
        #expect(try log.count() == 4)
        let stats = try visits.statistics(store: store, by: .operatorName)
        #expect(stats.total == VisitTally(group: "total", visited: 1, total: 39))
        #expect(stats.groups.first == VisitTally(group: "JR東海", visited: 1, total: 2))
        #expect(stats.orphanedKeys == 1 && stats.closedVisited == 0)
    }

    @Test func visitCandidates() throws {
        let (store, _) = try sample()
        #expect(try StationQuery(text: "小田原").candidates(in: store).count == 5)
        #expect(try StationQuery(text: " 小田原 ", operatorName: "東海旅客鉄道").candidates(in: store).map(\.key) == ["jr-central/s/小田原"])
        #expect(try StationQuery(text: "東京", serviceClass: .shinkansen).candidates(in: store).map(\.key)
                == ["jr-central/s/東京", "jr-east/s/東京"])
        #expect(try StationQuery(text: "小田原", near: Coordinate(lat: 35.68, lon: 139.76)).candidates(in: store).isEmpty)
        #expect(try StationQuery(text: "hakone-tozan/c/風祭").candidates(in: store).map(\.name) == ["風祭"])
        #expect(try StationQuery(text: "hakone-tozan/c/風祭", serviceClass: .shinkansen).candidates(in: store).isEmpty)
        // Names and operators compare folded (spaces, full-width forms).
        #expect(try StationQuery(text: "銀　座", operatorName: "東京地下鉄 ").candidates(in: store).map(\.key) == ["tokyo-metro/c/銀座"])
    }
}
