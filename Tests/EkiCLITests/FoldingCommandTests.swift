import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// Issue #16 item 7 at the command line: `search`, `visit add` and `geocode` fold names as the
/// entry rule does (丁目 numerals, variant kanji), on real N02-23 rows written small here.
@Suite(.serialized) struct FoldingCommandTests {
    let dir = TestPaths.temporaryDirectory()
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
    static let offline = ["EKI_CACHE": "", "EKI_GSI_ENDPOINT": "http://127.0.0.1:9/gsi",
                          "EKI_NOMINATIM_ENDPOINT": "http://127.0.0.1:9/nominatim"]

    /// N02-23's rows of 六本木一丁目, 麹町, 本町一丁目 (two lines) and 萱町六丁目, and a 麴町 row
    /// (U+9EB4) 5 m north of the real 麹町, imported.
    func database() throws -> String {
        let db = path("fold.gpkg"), csv = path("fold-n02.csv")
        try? FileManager.default.removeItem(atPath: db)
        try """
        N02_001,N02_002,N02_003,N02_004,N02_005,N02_005c,N02_005g,lon,lat,n_vertices
        12,4,7号線南北線,東京地下鉄,六本木一丁目,003884,003884,139.738900,35.665075,2
        12,4,8号線有楽町線,東京地下鉄,麹町,003737,003737,139.737350,35.684785,2
        12,4,8号線有楽町線,東京地下鉄,麴町,903737,903737,139.737350,35.684830,2
        21,4,城南線,伊予鉄道,本町一丁目,008756,008756,132.758650,33.840755,2
        21,4,本町線,伊予鉄道,本町一丁目,008757,008756,132.758650,33.840755,2
        12,4,城北線,伊予鉄道,萱町六丁目,008725,008725,132.756220,33.851780,2

        """.write(toFile: csv, atomically: true, encoding: .utf8)
        let r = eki("import", "--db", db, csv)
        #expect(r.status == 0, "\(r.err)")
        return db
    }

    @Test func searchVisitAddAndGeocodeFindChoumeStations() throws {
        let db = try database()
        let store = try StationStore(path: db, readOnly: true)
        // The 麴町 row joined the real 麹町: four entries from six rows.
        #expect(try store.entries.count() == 4)
        #expect(try store.entries.resolve(key: "tokyo-metro/c/麹町")?.sources.count == 2)
        for (q, name) in [("本町一丁目", "本町一丁目"), ("萱町６丁目", "萱町六丁目"), ("六本木1丁目", "六本木一丁目"),
                          ("麴町", "麹町"), ("麹町", "麹町")] {
            let r = eki("search", "--db", db, q, "--format", "csv")
            #expect(r.status == 0, "\(q): \(r.err)")
            let rows = r.out.split(separator: "\r\n").dropFirst()
            #expect(rows.count == 1 && rows.first?.contains(",\(name),") == true, "\(q): \(r.out)")
        }
        let visits = path("visits.db")
        let add = eki(["visit", "add", "六本木1丁目", "--date", "2019-08-13", "--db", db, "--visits", visits])
        #expect(add.status == 0, "\(add.err)")
        #expect(add.out == "visit 1: 2019-08-13 - 六本木一丁目 (東京メトロ) tokyo-metro/c/六本木1丁目\n", "\(add.out)")
        let g = eki(["geocode", "--db", db, "六本木1丁目駅", "--provider", "stations", "--format", "json"], environment: Self.offline)
        #expect(g.status == 0, "\(g.err)")
        let places = try JSONSerialization.jsonObject(with: Data(g.out.utf8)) as? [[String: Any]] ?? []
        #expect(places.count == 1)
        #expect(places.first?["title"] as? String == "六本木一丁目駅")
        #expect(places.first?["lat"] as? Double == 35.665075 && places.first?["lon"] as? Double == 139.7389)
    }
}

/// `eki import --max-field-bytes`: a field over the limit stops the import (exit 1, one line
/// naming file, line, column, the limit and the flag), and nothing is written.
@Suite struct FieldLimitCommandTests {
    @Test func fieldOverTheLimitStopsTheImport() throws {
        let dir = TestPaths.temporaryDirectory()
        let csv = dir.appendingPathComponent("long.csv").path, db = dir.appendingPathComponent("long.gpkg").path
        try "id,name,lat,lon\n1,\(String(repeating: "a", count: 2048)),35.69,139.70\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let r = eki("import", "--db", db, csv, "--max-field-bytes", "1024")
        #expect(r.status == 1)
        #expect(r.err.contains("\(csv):2:2: name: field is longer than the limit of 1024 bytes (--max-field-bytes N raises it)"), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
        #expect(eki("import", "--db", db, csv, "--max-field-bytes", "4096").status == 0)
        #expect(eki("import", "--db", db, csv, "--max-field-bytes", "0").status == 64)
    }
}
