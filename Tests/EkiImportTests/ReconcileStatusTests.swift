import Testing
import Foundation
@testable import EkiKit
@testable import EkiImport
import EkiTestSupport

/// Closures on N02-23 + station_database main/, in both import orders, from
/// `Datasets/station-status.csv`: N02-23 lists スカイレール, 猿猴橋町, the 日田彦山線 stations
/// of 添田–夜明 (BRT since 2023-08-28) and 立山トンネルトロリーバス as open; they are closed.
@Suite struct ReconcileStatusTests {
    static let brt = ["歓遊舎ひこさん", "豊前桝田", "彦山", "筑前岩屋", "大行司", "宝珠山", "大鶴", "今山"]

    @Test(.needsN02AndStationDatabase, arguments: ReconcileRealDataTests.orders)
    func listedClosuresAreClosed(order: String) throws {
        let es = try ReconcileRealDataTests.entries(order)
        func entries(_ op: String, _ name: String) -> [Station] { es.filter { $0.operatorID == op && $0.name == name } }
        for (op, names) in [("jr-kyushu", Self.brt), ("skyrail", ["みどり口", "みどり中街", "みどり中央"]),
                            ("hiroden", ["猿猴橋町"]), ("tateyama-kurobe", ["室堂", "大観峰"])] {
            for name in names {
                let found = entries(op, name)
                #expect(!found.isEmpty, "\(op) \(name) is an entry")
                #expect(found.allSatisfy { !$0.isOpen }, "\(op) \(name) is closed")
            }
        }
        // The 日田彦山線 north of 添田 keeps its trains; 夜明 is a 久大本線 station too.
        for name in ["添田", "西添田", "城野", "夜明"] {
            #expect(entries("jr-kyushu", name).contains { $0.isOpen }, "\(name) stays open")
        }
        // 立山黒部貫光's funicular stays.
        #expect(entries("tateyama-kurobe", "美女平").contains { $0.isOpen })
    }

    /// The compiled-in table is `Datasets/station-status.csv` as it is.
    @Test func builtInTableIsTheDataset() throws {
        let csv = try String(contentsOfFile: TestPaths.package("Datasets/station-status.csv"), encoding: .utf8)
        let table = try StationStatuses(csv: csv, file: "station-status.csv")
        #expect(table.entries == StationStatuses.builtIn.entries)
        #expect(table.entries.count == 50)
        #expect(table.entry(operatorID: "skyrail", nameKey: TextFold.nameKey("みどり口"))?.since == "2024-05-01")
        // Only the year is known: 猪苗代湖畔 has had no trains since the 2007 season.
        #expect(table.entry(operatorID: "jr-east", nameKey: TextFold.nameKey("猪苗代湖畔"))?.since == "2007")
    }

    @Test func badRowsAreRefused() {
        let header = "operator,station,status,since,source\n"
        for row in ["skyrail,みどり口,closed,2024-05-01,x", "skyrail,みどり口,abolished,2024-13-01,x",
                    "skyrail,みどり口,abolished,2024/05/01,x", "skyrail,みどり口,abolished,24,x", "skyrail,みどり口,abolished,2024-5,x",
                    "nobody,みどり口,abolished,2024-05,x",
                    "skyrail,,abolished,2024-05,x", "skyrail,みどり口,abolished,2024-05, ",
                    "skyrail,みどり口,abolished,2024-05,x\nskyrail,みどり口,brt,2024-05,y"] {
            #expect(throws: OperatorTableError.self, "\(row)") { try StationStatuses(csv: header + row + "\n", file: "s.csv") }
        }
        #expect(throws: OperatorTableError.self) { try StationStatuses(csv: "operator,station,status,source\n", file: "s.csv") }
    }
}

/// ガーラ湯沢 is conventional (上越線's branch, as 降りつぶし.net files it) and seasonal; the key it
/// had as a Shinkansen entry still finds it, so visits recorded under it follow.
@Suite struct GalaYuzawaTests {
    @Test(.needsN02AndStationDatabase) func conventionalSeasonalAndTheOldKeyFollows() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let gala = try #require(try store.entries.resolve(key: "jr-east/s/ガーラ湯沢"))
        #expect(gala.key == "jr-east/c/ガーラ湯沢")
        #expect(gala.serviceClass == .conventional && gala.kind == .seasonal && gala.isOpen)
        #expect(try store.entries.station(key: "jr-east/s/ガーラ湯沢") == nil)
        // 越後湯沢 keeps its Shinkansen entry.
        #expect(try store.entries.station(key: "jr-east/s/越後湯沢")?.isOpen == true)
    }
}

/// Counting rules on N02-23 + station_database main/: the 35 stations of 肥薩線 八代–吉松,
/// 米坂線 今泉–坂町 and 津軽線 蟹田–三厩 (no trains since 2020 and 2022) are open entries with
/// status `suspended`; 降りつぶし.net's rules (the default) leave them out, `all` counts them.
@Suite struct CountingRulesTests {
    static let hisatsu = ["段", "坂本", "葉木", "鎌瀬", "瀬戸石", "海路", "吉尾", "白石", "球泉洞", "一勝地", "那良口", "渡",
                          "西人吉", "人吉", "大畑", "矢岳", "真幸"]

    @Test(.needsN02AndStationDatabase) func suspendedStationsAreOpenButNotCountedByDefault() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let open = try store.entries.all(includeClosed: false)
        let suspended = open.filter { $0.status == .suspended }
        #expect(suspended.count == 36)
        let hisatsu = Self.hisatsu.map { name in open.filter { $0.operatorID == "jr-kyushu" && $0.name == name } }
        #expect(hisatsu.allSatisfy { $0.count == 1 })
        for s in hisatsu.joined() {
            #expect(s.status == .suspended && s.statusSince == "2020-07-04", "\(s.key)")
            #expect(!CountingRules.oritsubushi.counts(s) && CountingRules.all.counts(s), "\(s.key)")
        }
        // 八代 and 吉松 have trains of other lines; 隼人–吉松 is not listed.
        for name in ["八代", "吉松", "隼人"] {
            let s = try #require(open.first { $0.operatorID == "jr-kyushu" && $0.name == name && $0.serviceClass == .conventional })
            #expect(s.status == .open && CountingRules.oritsubushi.counts(s))
        }
        #expect(open.filter { $0.operatorID == "jr-east" && $0.status == .suspended }.count == 19)
        // A closed entry: スカイレール, abolished since 2024-05-01.
        let midori = try #require(try store.entries.all().first { $0.operatorID == "skyrail" && $0.name == "みどり口" })
        #expect(midori.status == .abolished && midori.statusSince == "2024-05-01")

        let visited = try VisitedStations(log: try VisitLog.empty(), store: store)
        let byDefault = try visited.statistics(store: store, by: nil)
        let all = try visited.statistics(store: store, by: nil, rules: .all)
        #expect(all.total.total == open.count - 6)
        #expect(byDefault.total.total == open.count - 6 - 36)
        // By line: 肥薩線 counts only 隼人–吉松 by default.
        let line = try #require(try store.lines.all(operator: "jr-kyushu").first { $0.name == "肥薩線" })
        let excluded = try CountingRules.oritsubushi.excludedKeys(store: store)
        #expect(excluded.count == 36)
        #expect(line.without(excluded).total == line.total - 17)
        #expect(try CountingRules.all.excludedKeys(store: store).isEmpty)
    }
}
