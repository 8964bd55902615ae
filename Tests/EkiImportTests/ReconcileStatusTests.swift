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
        #expect(table.entries.count == 14)
        #expect(table.entry(operatorID: "skyrail", nameKey: TextFold.nameKey("みどり口"))?.since == "2024-05-01")
    }

    @Test func badRowsAreRefused() {
        let header = "operator,station,status,since,source\n"
        for row in ["skyrail,みどり口,closed,2024-05-01,x", "skyrail,みどり口,abolished,2024-13-01,x",
                    "skyrail,みどり口,abolished,2024/05/01,x", "nobody,みどり口,abolished,2024-05,x",
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
