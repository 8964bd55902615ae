import Testing
import Foundation
import EkiCLI
import EkiTestSupport

/// Tables fit `COLUMNS` also when a visit log adds its `visited` and `completed` columns, on
/// the N02-23 + station_database database `RealData` builds once, widths counted as a terminal
/// shows them (kana, kanji and full-width forms take two columns).
@Suite struct VisitColumnsWidthTests {
    let dir = TestPaths.temporaryDirectory()

    /// Display columns of `line`: 2 for East Asian wide and full-width characters, else 1.
    static func width(_ line: Substring) -> Int {
        line.unicodeScalars.reduce(0) { w, u in
            let v = u.value
            let wide = (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
                || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x3FFFD).contains(v)
            return w + (wide ? 2 : 1)
        }
    }

    @Test(.needsN02AndStationDatabase) func nearestWithVisitsFitsEightyColumns() throws {
        let visits = dir.appendingPathComponent("tokyo.sqlite").path
        let base = ["--db", RealData.combinedDatabase, "--visits", visits]
        #expect(eki(["visit", "add", "jr-east/c/東京", "--date", "2019-08-13"] + base).status == 0)
        let args = ["nearest", "--lat", "35.681", "--lon", "139.767", "-k", "5"] + base
        let r = eki(args, environment: ["COLUMNS": "80"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == """
            distance  name      reading  operator    lines   visited  key
            45 m      東京      とうき…  JR東日本    総武…   yes      jr-east/c/東京
            80 m      東京      とうき…  JR東海      東海…   no       jr-central/s/東京
            80 m      東京      とうき…  JR東日本    東北…   no       jr-east/s/東京
            225 m     東京      とうき…  東京メトロ  4号線…  no       tokyo-metro/c/東京
            476 m     二重橋前  にじゅ…  東京メトロ  9号線…  no       tokyo-metro/c/二重橋前
            (5 entries)

            """)
        for columns in [72, 80, 100, 120] {
            let out = eki(args, environment: ["COLUMNS": String(columns)]).out
            let widest = out.split(separator: "\n").map(Self.width).max() ?? 0
            #expect(widest <= columns, "\(columns) columns: a line is \(widest) wide\n\(out)")
        }
        // Wide enough, the visit columns are all there; --wide keeps every cell whole.
        #expect(eki(args, environment: ["COLUMNS": "120"]).out.contains("  visited  completed   key\n"))
        #expect(eki(args + ["--wide"], environment: ["COLUMNS": "80"]).out.contains("  yes      2019-08-13  jr-east/c/東京\n"))
    }

    /// A visit without a date: the table says so; csv and json keep the completion empty / null.
    @Test(.needsN02AndStationDatabase) func anUndatedCompletionSaysSo() throws {
        let visits = dir.appendingPathComponent("undated.sqlite").path
        let base = ["--db", RealData.combinedDatabase, "--visits", visits]
        #expect(eki(["visit", "add", "jr-east/c/小田原"] + base).status == 0)
        let table = eki(["search", "小田原", "--wide"] + base).out
        #expect(table.split(separator: "\n").contains { $0.hasSuffix("  yes      date unknown  jr-east/c/小田原") }, "\(table)")
        let csv = eki(["search", "小田原", "--format", "csv"] + base).out
        #expect(csv.split(separator: "\r\n").contains { $0.hasPrefix("jr-east/c/小田原,") && $0.hasSuffix(",yes,") }, "\(csv)")
    }

    @Test(.needsN02AndStationDatabase) func linesFitEightyColumns() {
        let args = ["lines", "--db", RealData.combinedDatabase, "--visits", dir.appendingPathComponent("none.sqlite").path]
        let out = eki(args, environment: ["COLUMNS": "80"]).out
        #expect(out.split(separator: "\n").count == 593)   // 591 open lines, the header and the total
        #expect(out.split(separator: "\n").map(Self.width).max() ?? 0 <= 80)
        #expect(out.contains("\nJR          JR東海    東海道新幹線  "), "\(out.prefix(300))")
        let wide = eki(args + ["--wide"], environment: ["COLUMNS": "80"]).out
        #expect((wide.split(separator: "\n").map(Self.width).max() ?? 0) > 80)
    }
}
