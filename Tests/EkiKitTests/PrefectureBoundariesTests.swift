import EkiImport
import EkiKit
import EkiTestSupport
import Testing

@Suite struct PrefectureBoundariesTests {
    let boundaries = PrefectureBoundaries.builtIn!

    @Test func loadsAllPrefecturesInCodeOrder() {
        #expect(boundaries.regions.map(\.name) == Prefecture.names)
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
