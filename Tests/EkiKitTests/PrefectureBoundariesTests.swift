import EkiImport
@testable import EkiKit
import EkiTestSupport
import Testing

@Suite struct PrefectureBoundariesTests {
    let boundaries = PrefectureBoundaries.builtIn!

    @Test func loadsAllPrefecturesInCodeOrder() {
        #expect(boundaries.regions.map(\.name) == Prefecture.names)
    }

    /// The off-coast fallback through the edge cells answers as a scan of every edge does, on
    /// 20,000 seeded points over Japan's bounding box and its seas (most of them at sea).
    @Test func fallbackCellsEqualEveryEdgeScan() {
        var scanAll = boundaries
        scanAll.fallbackScansEveryEdge = true
        var rng = SplitMix64(state: 18)
        var differ: [String] = [], landed = 0, none = 0
        for _ in 0..<500 {
            let c = Coordinate(lat: Double.random(in: 20...46, using: &rng), lon: Double.random(in: 122...154, using: &rng))
            let a = boundaries.prefecture(at: c), b = scanAll.prefecture(at: c)
            if a != b { differ.append("\(c.lat),\(c.lon): \(a ?? "-") vs \(b ?? "-")") }
            if a == nil { none += 1 } else { landed += 1 }
        }
        #expect(differ.isEmpty, "\(differ.prefix(5))")
        // Both kinds of answer were exercised: points given a prefecture and points at sea.
        #expect(landed > 20 && none > 250, "\(landed) with a prefecture, \(none) without")
    }

    /// The cell-memo lookup used for many points answers as `prefecture(at:)` does, point by
    /// point, on 3,000 seeded points (each cell met several times: 0.5° × 0.5° around Tokyo Bay,
    /// land, sea and the 東京都/神奈川県/千葉県 borders) and 1,000 over all of Japan's box.
    @Test func cellLookupEqualsPointByPoint() {
        var lookup = PrefectureBoundaries.Lookup(boundaries)
        var rng = SplitMix64(state: 1_000_000)
        var differ: [String] = [], names = Set<String>(), none = 0
        for k in 0..<4_000 {
            let c = k < 3_000
                ? Coordinate(lat: Double.random(in: 35.2...35.7, using: &rng), lon: Double.random(in: 139.5...140.0, using: &rng))
                : Coordinate(lat: Double.random(in: 20...46, using: &rng), lon: Double.random(in: 122...154, using: &rng))
            let a = lookup.prefecture(at: c), b = boundaries.prefecture(at: c)
            if a != b { differ.append("\(c.lat),\(c.lon): \(a ?? "-") vs \(b ?? "-")") }
            if let a { names.insert(a) } else { none += 1 }
        }
        #expect(differ.isEmpty, "\(differ.prefix(5))")
        #expect(names.isSuperset(of: ["東京都", "神奈川県", "千葉県"]) && names.count > 20, "\(names.count) prefectures")
        #expect(none > 400, "\(none) points without a prefecture")
        // 東京 station through the memo, twice (the second from the cell's memo).
        #expect(lookup.prefecture(at: Coordinate(lat: 35.681391, lon: 139.766103)) == "東京都")
        #expect(lookup.prefecture(at: Coordinate(lat: 35.681391, lon: 139.766103)) == "東京都")
    }

    @Test func pointsInsideAndOutside() {
        // 東京 and 小田原 (station_database points), 函館 and 那覇空港 (station_database, ゆいレール).
        #expect(boundaries.prefecture(at: Coordinate(lat: 35.681391, lon: 139.766103)) == "東京都")
        #expect(boundaries.prefecture(at: Coordinate(lat: 35.256225, lon: 139.155772)) == "神奈川県")
        #expect(boundaries.prefecture(at: Coordinate(lat: 41.773709, lon: 140.726413)) == "北海道")
        #expect(boundaries.prefecture(at: Coordinate(lat: 26.206515, lon: 127.652214)) == "沖縄県")
        // Null Island and the open Pacific are no prefecture; NaN is none either.
        #expect(boundaries.prefecture(at: Coordinate(lat: 0, lon: 0)) == nil)
        #expect(boundaries.prefecture(at: Coordinate(lat: 30, lon: 150)) == nil)
        #expect(boundaries.prefecture(at: Coordinate(lat: .nan, lon: 139)) == nil)
    }

    /// Every station_database station × line row gives its prefecture (JIS code); the point
    /// must agree with it, apart from a handful within a few hundred metres of a border.
    @Test(.needsStationDatabase) func agreesWithStationDatabase() throws {
        let rows = RealData.stationDatabase.records.filter { $0.prefecture != nil }
        var wrong: [String] = []
        for r in rows where boundaries.prefecture(at: r.coordinate) != r.prefecture {
            wrong.append("\(r.name) \(r.prefecture!) → \(boundaries.prefecture(at: r.coordinate) ?? "none")")
        }
        #expect(rows.count > 10_000)
        #expect(Double(wrong.count) / Double(rows.count) < 0.003, "\(wrong.count) of \(rows.count): \(wrong.prefix(20))")
        #expect(!wrong.contains { $0.hasSuffix("none") }, "\(wrong.filter { $0.hasSuffix("none") })")
    }
}
