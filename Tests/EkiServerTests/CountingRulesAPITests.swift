import EkiKit
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// The map's n/m under the counting rules, on the real database (N02-23 + station_database:
/// 9,571 open entries, 36 of them suspended): 9,529 count under 降りつぶし's rules, 9,565 under
/// `all`; 肥薩線 counts 11 of its 28 open stations by default. The rules are the log's setting,
/// or `eki serve --rules` for everyone.
@Suite(.needsN02AndStationDatabase) struct CountingRulesAPITests {
    static let hitoyoshi = "jr-kyushu/c/人吉"
    static let hisatsu = "jr-kyushu/c/肥薩線"

    func totals(_ s: TestServer) throws -> (stats: Int?, lines: Int?, hisatsu: Int?, rules: String?) {
        let stats = (try s.get("/api/stats").object["total"] as? [String: Any])?["total"] as? Int
        let lines = try s.get("/api/lines").object["total"] as? Int
        let line = try s.get("/api/line?id=\(percent(Self.hisatsu))").object["total"] as? Int
        let sync = try s.write("POST", "/api/sync", json: #"{"since":null,"changes":[]}"#)
        let rules = (sync.object["counting"] as? [String: Any])?["rules"] as? String
        return (stats, lines, line, rules)
    }

    @Test func theLogsSettingDecidesAndASuspendedStationSaysSo() throws {
        let s = try TestServer(database: RealData.combinedDatabase)
        let before = try totals(s)
        #expect(before.stats == 9_529 && before.lines == 9_529 && before.hisatsu == 11 && before.rules == "oritsubushi")
        // The station screen: its status, and its line counted without the suspended stations.
        let station = try s.get("/api/station?key=\(percent(Self.hitoyoshi))").object["properties"] as? [String: Any] ?? [:]
        #expect(station["status"] as? String == "suspended" && station["status_since"] as? String == "2020-07-04")
        let lineStats = station["line_stats"] as? [[String: Any]] ?? []
        #expect(lineStats.first { $0["id"] as? String == Self.hisatsu }?["total"] as? Int == 11)
        // A pin in the box says it too (the page draws it grey).
        let box = try s.get("/api/bbox?bbox=130.74,32.20,130.78,32.23").object["features"] as? [[String: Any]] ?? []
        let pin = box.compactMap { $0["properties"] as? [String: Any] }.first { $0["key"] as? String == Self.hitoyoshi }
        #expect(pin?["status"] as? String == "suspended")

        // The setting changed from the command line while the server runs: every count follows.
        #expect(runEki(["visit", "config", "counting-rules", "all", "--visits", s.visits]).status == 0)
        let after = try totals(s)
        #expect(after.stats == 9_565 && after.lines == 9_565 && after.hisatsu == 28 && after.rules == "all")
    }

    @Test func serveRulesHoldForEveryone() throws {
        let s = try TestServer(database: RealData.combinedDatabase) { $0.countingRules = .all }
        #expect(runEki(["visit", "config", "counting-rules", "oritsubushi", "--visits", s.visits]).status == 0)
        let t = try totals(s)
        #expect(t.stats == 9_565 && t.lines == 9_565 && t.hisatsu == 28 && t.rules == "all")
    }

    /// The offline snapshot carries each entry's status, so the page counts as the server does.
    @Test func theSnapshotCarriesTheStatus() throws {
        let s = try TestServer(database: RealData.combinedDatabase)
        let o = try s.get("/api/snapshot").object
        let fields = o["fields"] as? [String] ?? []
        let statuses = o["statuses"] as? [String] ?? []
        #expect(statuses == StationStatus.allCases.map(\.rawValue))
        let key = try #require(fields.firstIndex(of: "key")), status = try #require(fields.firstIndex(of: "status"))
        let entries = o["entries"] as? [[Any]] ?? []
        let byStatus = Dictionary(grouping: entries) { statuses[$0[status] as? Int ?? 0] }
        #expect(byStatus["suspended"]?.count == 36)
        #expect(byStatus["suspended"]?.contains { $0[key] as? String == Self.hitoyoshi } == true)
        #expect(byStatus["open"]?.count == 9_571 - 36)
    }
}
