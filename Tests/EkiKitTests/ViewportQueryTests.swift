import Testing
import Foundation
import EkiKit
import EkiTestSupport

/// `SpatialIndex.viewport` — the one viewport query behind `eki bbox`, `/api/bbox`,
/// `eki render`, `/api/render.png` and search's box plan — against brute force over every
/// entry of the real database: filter, prefecture and open rule before the pin cap, the cap
/// nearest the centre (geodesic, ties by key), and the total.
@Suite(.needsN02AndStationDatabase) struct ViewportQueryTests {
    @Test func viewportEqualsBruteForce() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let all = try store.entries.all()
        #expect(all.count == 10_030)
        let fid = try Dictionary(uniqueKeysWithValues: all.map { ($0.key, try store.entries.fids(keys: [$0.key]).first!) })
        var rng = SplitMix64(state: 23)
        // A visited set: every 7th entry.
        let visited = Set(all.enumerated().filter { $0.offset % 7 == 0 }.map { fid[$0.element.key]! })
        let prefectures: [String?] = [nil, "東京都", "神奈川県", "北海道"]
        var compared = 0, capped = 0
        for round in 0..<62 {
            let lon = Double.random(in: 129.0...145.0, using: &rng), lat = Double.random(in: 31.0...44.0, using: &rng)
            // The first two: all Japan under a 300-pin cap (answered by the k-NN from the centre).
            let box = round < 2 ? BoundingBox(minLon: 128, minLat: 30, maxLon: 146, maxLat: 46)
                : BoundingBox(minLon: lon, minLat: lat, maxLon: lon + Double.random(in: 0.02...4, using: &rng),
                              maxLat: lat + Double.random(in: 0.02...3, using: &rng))
            let limit = round < 2 ? 300 : [nil, 1, 5, 40, 300][Int.random(in: 0...4, using: &rng)]
            let includeClosed = round < 2 ? round == 1 : Bool.random(using: &rng)
            let prefecture = round < 2 ? nil : prefectures[Int.random(in: 0...3, using: &rng)]
            for filter in [ViewportQuery.Filter.all, .only(visited), .excluding(visited)] {
                let counted = all.filter { s in
                    box.contains(s.coordinate) && (includeClosed || s.isOpen) && filter.admits(fid[s.key]!)
                        && (prefecture == nil || s.prefecture == prefecture)
                }
                var expected = counted.sorted { $0.key < $1.key }.map(\.key)
                if let limit {
                    let c = box.center
                    expected = Array(try counted.map { StationDistance(station: $0, distance: try Geodesic.distance(c, $0.coordinate)) }
                        .sorted(by: StationDistance.nearestFirst).prefix(limit).map(\.station.key))
                    if counted.count > limit { capped += 1 }
                }
                let q = ViewportQuery(bbox: box, filter: filter, limit: limit, includeClosed: includeClosed, prefecture: prefecture)
                let got = try store.spatial.stations(q)
                #expect(got.stations.map(\.key) == expected, "\(q)")
                #expect(got.total == counted.count, "\(q)")
                compared += 1
            }
        }
        #expect(compared == 186)
        #expect(capped == 25)     // the pin cap itself is exercised
    }
}
