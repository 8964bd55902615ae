import Testing
import Foundation
@testable import EkiKit
@testable import EkiImport
import EkiTestSupport

/// Kinds of stop on N02-23 + station_database main/, in both import orders: 黒部峡谷鉄道's
/// six staff-only stops (N02-23 lists them as stations of 本線) and the two seasonal 臨時駅 of
/// station_database, from `Datasets/station-kinds.csv`; every other entry is regular, and the
/// totals leave the staff-only stops out unless asked for.
@Suite struct ReconcileKindTests {
    static let orders = ReconcileRealDataTests.orders
    static let staffOnly = ["柳橋", "森石", "笹平", "出平", "猫又", "小屋平"]

    @Test(.needsN02AndStationDatabase, arguments: orders) func kindsOfTheListedStations(order: String) throws {
        let es = try ReconcileRealDataTests.entries(order).filter(\.isOpen)
        let kurobe = es.filter { $0.operatorID == "kurobe-gorge" }
        #expect(kurobe.filter { $0.kind == .staffOnly }.map(\.name).sorted() == Self.staffOnly.sorted())
        #expect(kurobe.filter { $0.kind == .regular }.map(\.name).sorted() == ["宇奈月", "欅平", "鐘釣", "黒薙"].sorted())
        let seasonal = es.filter { $0.kind == .seasonal }.map { "\($0.operatorID) \($0.name)" }.sorted()
        #expect(seasonal == ["hiroden 宮島ボートレース場", "jr-east ガーラ湯沢", "jr-east 偕楽園", "jr-east 猪苗代湖畔",
                             "jr-east 鹿島サッカースタジアム", "jr-hokkaido ラベンダー畑", "jr-hokkaido 原生花園",
                             "jr-hokkaido 細岡", "jr-kyushu バルーンさが", "jr-shikoku 津島ノ宮", "jr-shikoku 田井ノ浜",
                             "kashima-rinkai 鹿島サッカースタジアム", "nishikigawa 清流みはらし"])
        #expect(es.first { $0.name == "バルーンさが" }?.lines == ["JR唐津線", "JR長崎本線(鳥栖～長崎)"])
        #expect(es.filter { $0.kind == .staffOnly }.count == 6)
        // 西鉄's 柳橋 (closed in 1979) is another station: regular.
        #expect(try ReconcileRealDataTests.entries(order).filter { $0.name == "柳橋" && $0.operatorID != "kurobe-gorge" }
            .allSatisfy { $0.kind == .regular })
    }

    /// `eki stats`' figures: the staff-only stops are in no total by default.
    @Test(.needsN02AndStationDatabase) func totalsLeaveStaffOnlyOut() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let visited = try VisitedStations(log: try VisitLog.empty(), store: store)
        let plain = try visited.statistics(store: store, by: .operatorName, rules: .all)
        let all = try visited.statistics(store: store, by: .operatorName, includeStaffOnly: true, rules: .all)
        let open = try store.entries.all(includeClosed: false).count
        #expect(all.total.total == open)
        #expect(plain.total.total == open - 6)
        #expect(plain.groups.first { $0.group == "黒部峡谷鉄道" }?.total == 4)
        #expect(all.groups.first { $0.group == "黒部峡谷鉄道" }?.total == 10)
        let lines = try store.lines.all(operator: "kurobe-gorge")
        let staff = try store.entries.keys(of: .staffOnly)
        #expect(staff.count == 6)
        #expect(lines.map(\.total) == [10])
        #expect(lines.map { $0.without(staff).total } == [4])
    }

    /// Every output carries the kind: the feature JSON of the CLI and the server.
    @Test(.needsN02AndStationDatabase) func featureJSONCarriesTheKind() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let neko = try #require(try store.entries.all().first { $0.operatorID == "kurobe-gorge" && $0.name == "猫又" })
        var out: [UInt8] = []
        StationFeatureJSON.appendFeature(neko, to: &out)
        #expect(String(decoding: out, as: UTF8.self).contains(#""open":true,"kind":"staff-only","status":"open","status_since":null,"sources":["n02:"#))
    }
}
