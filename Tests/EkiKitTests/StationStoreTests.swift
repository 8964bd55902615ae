import Testing
import Foundation
@testable import EkiKit
import EkiImport
import EkiTestSupport

/// Every entry of the N02-23 database (`RealData.n02Database`), read once, with unit vectors
/// for the brute-force nearest search.
final class N02Entries: Sendable {
    static let shared = N02Entries()
    let all: [Station]
    /// The open entries of `all` (what `nearest` answers by default; Datasets/station-status.csv
    /// closes some N02-23 stops).
    let open: [Station]
    /// Unit vectors of `open` on the sphere.
    let units: [(Double, Double, Double)]

    static func unit(_ c: Coordinate) -> (Double, Double, Double) {
        let la = c.lat * .pi / 180, lo = c.lon * .pi / 180
        return (cos(la) * cos(lo), cos(la) * sin(lo), sin(la))
    }

    init() {
        all = try! RealData.open(RealData.n02Database).entries.all()
        open = all.filter(\.isOpen)
        units = open.map { N02Entries.unit($0.coordinate) }
    }
}

@Suite(.serialized, .needsN02) struct StationStoreTests {
    var fixture: N02Entries { N02Entries.shared }
    /// A connection of its own on the N02-23 database.
    let store = RealData.open(RealData.n02Database)

    func entries(named name: String, near: Coordinate? = nil) -> [Station] {
        fixture.all.filter { $0.name == name && (near == nil || Geodesic.distance(valid: $0.coordinate, near!) < 5_000) }
    }

    @Test func n02Counts() throws {
        // 9,590 entries by N02-23's own operators (see rawOperatorCount); 9,587 with the operator
        // table, which puts 新京成電鉄 under 京成電鉄 and 泉北高速鉄道 under 南海電気鉄道 (both
        // merged in 2025), so 京成津田沼, 中百舌鳥 and 和泉中央… shared stations become one entry.
        #expect(fixture.all.count == 9_587)
        let tokyo = entries(named: "東京")
        #expect(tokyo.count == 4)
        let jrEast = tokyo.first { $0.operatorName == "東日本旅客鉄道" && $0.serviceClass == .conventional }
        #expect(Set(jrEast?.lines ?? []) == ["東海道線", "東北線", "総武線", "京葉線"])
        #expect(Set(tokyo.map { "\($0.operatorName!) \($0.serviceClass.rawValue)" }) ==
                ["東日本旅客鉄道 conventional", "東日本旅客鉄道 shinkansen", "東海旅客鉄道 shinkansen", "東京地下鉄 conventional"])
        #expect(entries(named: "小田原").count == 5)
        #expect(entries(named: "大宮", near: Coordinate(lat: 35.906, lon: 139.624)).count == 4)
        #expect(entries(named: "熱海").count == 3)
        #expect(entries(named: "仙台").count == 3)
        #expect(entries(named: "新大阪").count == 4)
    }

    /// The entry rule alone, with N02-23's operators as written (an empty operator table).
    @Test func rawOperatorCount() throws {
        let records = RealData.n02Records
        #expect(EntryRule(operators: OperatorTable(operators: [])).entries(from: records).count == 9_590)
        let merged = Set(EntryRule().entries(from: records).filter { $0.sources.count > 1 && ["keisei", "nankai"].contains($0.operatorID) }
            .filter { e in Set(e.sources.map(\.id)).count > 1 }.map(\.name))
        #expect(merged.isSuperset(of: ["京成津田沼", "中百舌鳥"]))
    }

    @Test func nearestIsExactlyBruteForce() throws {
        var rng = SplitMix64(state: 42)
        for i in 0..<1_000 {
            let p = Coordinate(lat: Double.random(in: 31...45, using: &rng), lon: Double.random(in: 129...146, using: &rng))
            let k = [1, 5, 10, 30][i % 4]
            let got = try store.spatial.nearest(to: p, k: k).map(\.station.key)
            let expected = bruteForceNearest(p, k: k)
            #expect(got == expected, "query \(i) at \(p) k=\(k)")
        }
    }

    /// Brute force over every entry. To keep it fast, the great-circle angle (unit vectors; the
    /// sphere is within 0.6 % of the ellipsoid) first keeps every entry that could be among the
    /// k nearest; the exact geodesic distance then orders those.
    func bruteForceNearest(_ p: Coordinate, k: Int) -> [String] {
        let q = N02Entries.unit(p)
        let units = fixture.units
        var cosines = [Double](repeating: 0, count: units.count)
        for i in 0..<units.count { cosines[i] = q.0 * units[i].0 + q.1 * units[i].1 + q.2 * units[i].2 }
        let kth = acos(min(1, cosines.sorted(by: >)[k - 1]))
        let limit = cos(min(Double.pi, kth * 1.02 + 1e-6))
        var candidates: [StationDistance] = []
        for i in 0..<units.count where cosines[i] >= limit {
            candidates.append(StationDistance(station: fixture.open[i], distance: Geodesic.distance(valid: p, fixture.open[i].coordinate)))
        }
        return candidates.sorted(by: StationDistance.nearestFirst).prefix(k).map(\.station.key)
    }

    @Test func bboxIsExactlyBruteForce() throws {
        var rng = SplitMix64(state: 7)
        for i in 0..<300 {
            let lon = Double.random(in: 129...146, using: &rng), lat = Double.random(in: 31...45, using: &rng)
            let w = Double.random(in: 0.01...1.0, using: &rng), h = Double.random(in: 0.01...0.8, using: &rng)
            let box = BoundingBox(minLon: lon, minLat: lat, maxLon: lon + w, maxLat: lat + h)
            let got = try store.spatial.stations(in: box).map(\.key)
            let expected = fixture.open.filter { box.contains($0.coordinate) }.map(\.key).sorted()
            #expect(got == expected, "box \(i) \(box)")
        }
    }

    @Test func bboxAroundTokyoAndPinCap() throws {
        let box = try BoundingBox(parsing: "139.74,35.67,139.78,35.69")
        let found = try store.spatial.stations(in: box)
        #expect(found.count == 30)
        #expect(found.filter { $0.name == "東京" }.count == 4)
        let capped = try store.spatial.stations(in: box, limit: 5)
        #expect(capped.count == 5)
        let c = box.center
        let nearest5 = found.map { StationDistance(station: $0, distance: Geodesic.distance(valid: c, $0.coordinate)) }
            .sorted(by: StationDistance.nearestFirst).prefix(5).map(\.station.key)
        #expect(capped.map(\.key) == nearest5)
    }

    @Test func odawaraNearestFive() throws {
        let five = try store.spatial.nearest(to: Coordinate(lat: 35.2564, lon: 139.1553), k: 5)
        #expect(five.allSatisfy { $0.station.name == "小田原" })
        #expect(Set(five.compactMap(\.station.operatorName)) == ["小田急電鉄", "箱根登山鉄道", "東海旅客鉄道", "東日本旅客鉄道", "伊豆箱根鉄道"])
        #expect(five.map(\.distance) == five.map(\.distance).sorted())
    }

    @Test func geoPackageHeaderAndRtreeCheck() throws {
        #expect(try store.db.scalarInt("PRAGMA application_id") == Int64(GeoPackage.applicationID))
        #expect(try store.db.scalarInt("PRAGMA user_version") == 10300)
        #expect(try store.db.scalarInt("SELECT count(*) FROM rtree_stations_geom") == 9_587)
        let check = try store.db.prepare("SELECT rtreecheck('rtree_stations_geom')")
        _ = try check.step()
        #expect(check.text(0) == "ok")
    }
}

/// The GeoPackage point blob, without real data.
@Suite struct GeoPackageBlobTests {
    @Test func geoPackageBlobRoundTrip() {
        let blob = GeoPackage.pointBlob(lon: 139.7671, lat: 35.6812)
        #expect(blob.count == 29)
        let pt = blob.withUnsafeBytes { GeoPackage.point(fromBlob: $0) }
        #expect(pt?.x == 139.7671 && pt?.y == 35.6812)
    }
}
