import Testing
import Foundation
import EkiCLI
import EkiKit
import EkiTestSupport

/// `eki search` through `EkiCommandLine.run`, on a small database written here.
@Suite(.serialized) struct SearchCommandTests {
    /// Runs `eki` and returns (status, stdout, stderr).
    func eki(_ args: [String]) -> (Int32, String, String) {
        final class Buffer: @unchecked Sendable { var out = "", err = "" }
        let b = Buffer()
        let status = EkiCommandLine.run(args, console: Console(out: { b.out += $0 }, err: { b.err += $0 }))
        return (status, b.out, b.err)
    }

    func database() throws -> String {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("cli.gpkg").path
        let store = try StationStore(path: path)
        let rows: [(String, String, String, Double, Double)] = [
            ("小田原", "おだわら", "小田急電鉄", 35.2564, 139.1553), ("新横浜", "しんよこはま", "東海旅客鉄道", 35.5075, 139.6176),
            ("田原本", "たわらもと", "近畿日本鉄道", 34.5531, 135.7906), ("富山駅", "とやまえき", "富山地方鉄道", 36.7012, 137.2133),
        ]
        try store.importRecords(rows.enumerated().map { i, r in
            SourceRecord(source: SourceRef(dataset: "t", id: "\(i)"), name: r.0, reading: r.1, operatorName: r.2,
                         serviceClass: .conventional, lines: ["試験線"], coordinate: Coordinate(lat: r.3, lon: r.4))
        }, dataset: "t")
        return path
    }

    @Test func searchesAndPrintsTheMatchedField() throws {
        let db = try database()
        let (status, out, _) = eki(["search", "--db", db, "ｵﾀﾞﾜﾗ", "--format", "json"])
        #expect(status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]]
        #expect(json?.map { $0["name"] as? String } == ["小田原"])
        #expect(json?.first?["matched_field"] as? String == "reading")
        #expect(json?.first?["match"] as? String == "exact")
        let partial = eki(["search", "--db", db, "田原", "--match", "partial", "--by", "name", "--format", "csv"]).1
        #expect(partial.split(separator: "\r\n").dropFirst().map { String($0.split(separator: ",")[1]) } == ["田原本", "小田原"])
        let near = eki(["search", "--db", db, "試験", "--by", "line", "--match", "partial", "--near", "35.68,139.77", "--limit", "2"]).1
        #expect(near.contains("新横浜") && near.contains("小田原") && !near.contains("富山駅") && near.contains(" km"))
        let box = eki(["search", "--db", db, "試験線", "--by", "line", "--bbox", "135,34,138,37", "--format", "geojson"]).1
        #expect(box.contains("田原本") && box.contains("富山駅") && !box.contains("小田原"))
    }

    @Test func usageErrorsExit64() throws {
        let db = try database()
        for args in [["search", "--db", db], ["search", "--db", db, "a", "b"], ["search", "--db", db, "a", "--by", "kana"],
                     ["search", "--db", db, "a", "--match", "fuzzy"], ["search", "--db", db, "a", "--near", "139.7,35.6,1"],
                     ["search", "--db", db, "a", "--near", "135,200"], ["search", "--db", db, "a", "--bbox", "1,2,3"],
                     ["search", "--db", db, "a", "--limit", "0"]] {
            let (status, _, err) = eki(args)
            #expect(status == 64, "\(args)")
            #expect(err.split(separator: "\n").count == 1, "\(args)")
        }
    }
}
