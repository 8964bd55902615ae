import Foundation
import Testing
import EkiTestSupport

/// The status of `Datasets/station-status.csv` as `eki show` and `--format json` give it, on
/// N02-23 + station_database.
@Suite struct StationStatusCommandTests {
    let dir = TestPaths.temporaryDirectory()
    func show(_ args: String...) -> EkiRun {
        eki(["show"] + args + ["--db", RealData.combinedDatabase, "--visits", dir.appendingPathComponent("none.sqlite").path])
    }

    @Test(.needsN02AndStationDatabase) func suspendedAndBRTStationsSayTheirStatus() throws {
        #expect(show("jr-kyushu/c/人吉").out.contains("\nstatus      suspended since 2020-07-04\n"))
        #expect(show("jr-kyushu/c/彦山").out.contains("\nstatus      brt since 2023-08-28\n"))
        #expect(!show("jr-kyushu/c/添田").out.contains("\nstatus "))
        let json = show("jr-kyushu/c/人吉", "--format", "json").out
        #expect(json.contains(#""kind":"regular","status":"suspended","status_since":"2020-07-04","sources":"#), "\(json.prefix(400))")
        // Its line counts as `eki line 肥薩線` does: the 17 suspended stations are in no total.
        #expect(json.contains(#""line_stats":[{"id":"jr-kyushu/c/肥薩線","name":"肥薩線","operator":"JR九州","visited":0,"total":11}]"#))
        #expect(show("jr-east/c/東京", "--format", "json").out.contains(#""status":"open","status_since":null,"#))
    }

    /// `eki line` says each station's status: in the table's status column (blank when open,
    /// `closed` for an abolished one), and as `status` and `status_since` in JSON and GeoJSON.
    @Test(.needsN02AndStationDatabase) func lineSaysEachStationsStatus() throws {
        func line(_ args: String...) -> EkiRun {
            eki(["line"] + args + ["--db", RealData.combinedDatabase, "--visits", dir.appendingPathComponent("none.sqlite").path])
        }
        func row(_ out: String, _ key: String) -> [String] {
            out.split(separator: "\n").first { $0.hasSuffix(" " + key) }.map { $0.split(separator: " ").map(String.init) } ?? []
        }
        let table = line("肥薩線").out
        #expect(row(table, "jr-kyushu/c/人吉") == ["14", "人吉", "suspended", "jr-kyushu/c/人吉"], "\(table)")
        #expect(row(table, "jr-kyushu/c/八代") == ["0", "八代", "jr-kyushu/c/八代"])
        #expect(row(line("山形新幹線").out, "jr-east/c/赤岩") == ["3", "赤岩", "closed", "jr-east/c/赤岩"])

        func stations(_ format: String) throws -> [String: [String: Any]] {
            let object = try JSONSerialization.jsonObject(with: Data(line("肥薩線", "--format", format).out.utf8)) as? [String: Any]
            let items = format == "json" ? object?["stations"] as? [[String: Any]]
                : (object?["features"] as? [[String: Any]])?.compactMap { $0["properties"] as? [String: Any] }.filter { $0["key"] != nil }
            return Dictionary((items ?? []).map { ($0["key"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        }
        for format in ["json", "geojson"] {
            let s = try stations(format)
            #expect(s["jr-kyushu/c/人吉"]?["status"] as? String == "suspended", "\(format)")
            #expect(s["jr-kyushu/c/人吉"]?["status_since"] as? String == "2020-07-04", "\(format)")
            #expect(s["jr-kyushu/c/八代"]?["status"] as? String == "open", "\(format)")
            #expect(s["jr-kyushu/c/八代"]?["status_since"] is NSNull, "\(format)")
        }
    }

    /// The log's counting-rules setting is what stats, lines and share count by without
    /// --rules; --rules overrides it. A visit to suspended 人吉 counts only under `all`.
    @Test(.needsN02AndStationDatabase) func countingRulesSettingDecidesTheTotals() throws {
        let db = RealData.combinedDatabase, visits = dir.appendingPathComponent("rules.sqlite").path
        func run(_ args: String...) -> EkiRun { eki(args + ["--db", db, "--visits", visits]) }
        #expect(run("visit", "add", "jr-kyushu/c/人吉", "--date", "2019-05-05").status == 0)
        #expect(run("visit", "config").out == "transfer-counts yes\ncounting-rules oritsubushi\n")
        #expect(run("stats", "--format", "csv").out.hasSuffix("total,0,9529,0.00\r\n"))
        #expect(run("visit", "config", "counting-rules", "all").out == "counting-rules all\n")
        #expect(run("stats", "--format", "csv").out.hasSuffix("total,1,9565,0.01\r\n"))
        #expect(run("stats", "--format", "csv", "--rules", "oritsubushi").out.hasSuffix("total,0,9529,0.00\r\n"))
        #expect(run("visit", "share").out.hasSuffix("降りつぶし：1 / 9,565 駅（0.01 %）\n"))
        #expect(run("visit", "share", "--rules", "oritsubushi").out.hasSuffix("降りつぶし：0 / 9,529 駅（0.00 %）\n"))
        // eki show counts the lines by the setting too: 肥薩線 with its 17 suspended stations.
        #expect(run("show", "jr-kyushu/c/人吉", "--format", "json").out.contains(#""visited":1,"total":28}]"#))
        let bad = run("visit", "config", "counting-rules", "some")
        #expect(bad.status == 64)
        #expect(bad.err == "eki visit: visit config counting-rules: give oritsubushi or all, got 'some'\n")
    }
}
