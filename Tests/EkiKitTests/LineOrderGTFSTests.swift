import Testing
import Foundation
import EkiKit
import EkiImport
import EkiTestSupport

/// Stations in order along their lines from GTFS trip patterns (`stop_sequence`): the real
/// feeds in the shared folder (skipped with the reason when absent), and a small feed written
/// here for a branch.
private let portLinerFeed = "datasets/gtfs-portliner-kobe-unofficial/gtfs"
private let utsunomiyaFeed = "datasets/gtfs-utsunomiya-lrt-unofficial/gtfs"

@Suite struct LineOrderGTFSTests {
    static let lrtInOrder = ["芳賀・高根沢工業団地", "かしの森公園前", "芳賀町工業団地管理センター前", "芳賀台", "ゆいの杜東",
                             "ゆいの杜中央", "ゆいの杜西", "グリーンスタジアム前", "清原地区市民センター前", "清陵高校前", "飛山城跡",
                             "平石中央小学校前", "平石", "宇都宮大学陽東キャンパス", "陽東3丁目", "峰", "駅東公園前", "東宿郷",
                             "宇都宮駅東口"]

    func names(_ d: LineDetail) -> [String] { d.stops.map(\.station.name) }

    /// A fresh database holding `batches`.
    func store(_ batches: [ImportBatch], base: String? = nil) throws -> StationStore {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("order.gpkg").path
        if let base { try FileManager.default.copyItem(atPath: base, toPath: path) }
        let store = try StationStore(path: path)
        for b in batches { try store.importRecords(b.records, dataset: b.dataset) }
        return store
    }

    @Test("Port Liner: one order for both routes — 空港線 and ループ線 each 9 stations from 三宮 in order",
          .needsShared(portLinerFeed))
    func portLiner() throws {
        let batch = try GTFSImporter(path: TestPaths.requireShared(portLinerFeed)).read()
        #expect(batch.warnings.isEmpty)
        var order: [String: Int] = [:]
        for r in batch.records { order[r.name] = r.lineOrder }
        // 空港線 (569 trips) first, ループ線's own stations placed after 市民広場, its predecessor.
        #expect(order == ["三宮": 0, "貿易センター": 1, "ポートターミナル": 2, "中公園": 3, "みなとじま": 4, "市民広場": 5,
                          "南公園": 6, "中埠頭": 7, "北埠頭": 8, "医療センター": 9, "計算科学センター": 10, "神戸空港": 11])
        let s = try store([batch])
        let airport = try #require(try s.lines.named("空港線").first)
        #expect(names(airport) == ["三宮", "貿易センター", "ポートターミナル", "中公園", "みなとじま", "市民広場", "医療センター",
                                   "計算科学センター", "神戸空港"])
        #expect(airport.stops.map(\.order) == (0..<9).map { $0 } && airport.stops.allSatisfy { $0.branch == 0 })
        let loop = try #require(try s.lines.named("ループ線").first)
        #expect(names(loop) == ["三宮", "貿易センター", "ポートターミナル", "中公園", "みなとじま", "市民広場", "南公園", "中埠頭",
                                "北埠頭"])
        #expect(loop.stops.map(\.order) == (0..<9).map { $0 })
    }

    @Test("Utsunomiya LRT alone: the 34 poles carry the 19 stations' positions end to end; its unnamed route makes no line",
          .needsShared(utsunomiyaFeed))
    func utsunomiyaAlone() throws {
        let batch = try GTFSImporter(path: TestPaths.requireShared(utsunomiyaFeed)).read()
        #expect(batch.records.count == 34)
        #expect(batch.records.allSatisfy { $0.lineOrder != nil && $0.lines.isEmpty })
        var byOrder: [Int: Set<String>] = [:]
        for r in batch.records { byOrder[r.lineOrder!, default: []].insert(r.name) }
        #expect(byOrder.keys.sorted() == (0..<19).map { $0 })
        #expect(byOrder.keys.sorted().map { byOrder[$0]!.first! } == Self.lrtInOrder)
        #expect(byOrder.values.allSatisfy { $0.count == 1 })
        let s = try store([batch])
        #expect(try s.lines.all().isEmpty)
    }

    @Test("N02-23 + the LRT feed: 宇都宮芳賀ライトレール線 is 19 stations in order end to end, ordered by the feed",
          .needsShared(TestPaths.n02CSVFile, utsunomiyaFeed))
    func utsunomiyaWithN02() throws {
        let batch = try GTFSImporter(path: TestPaths.requireShared(utsunomiyaFeed), feedName: "utsunomiya-lrt").read()
        let s = try store([batch], base: RealData.n02Database)
        let found = try s.lines.named("宇都宮芳賀ライトレール線")
        #expect(found.map(\.line.id) == ["utsunomiya-light-rail/c/宇都宮芳賀らいとれーる線"])
        let d = try #require(found.first)
        #expect(names(d) == Self.lrtInOrder)
        #expect(d.stops.map(\.order) == (0..<19).map { $0 })
        #expect(d.line.sources == ["gtfs/utsunomiya-lrt:(unnamed route)", "n02:宇都宮芳賀ライトレール線"])
        #expect(d.line.total == 19)
    }

    @Test("A pattern that adds stations is a branch of its own: main A–B–C–D, branch X–Y off B")
    func branchPattern() throws {
        let dir = TestPaths.temporaryDirectory().appendingPathComponent("branch")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\na,テスト鉄道,https://example.org,Asia/Tokyo\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nr,a,,テスト線,2\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n"
                + ["A", "B", "C", "D", "X", "Y"].enumerated().map { "\($1),駅\($1),35.\($0)0,139.\($0)0" }.joined(separator: "\n") + "\n",
            "trips.txt": "route_id,service_id,trip_id\nr,s,t1\nr,s,t2\nr,s,t3\n",
            // t1 main, t2 the main backwards, t3 the branch (B then X, Y).
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + "t1,10:00:00,10:00:00,A,1\nt1,10:05:00,10:05:00,B,2\nt1,10:10:00,10:10:00,C,3\nt1,10:15:00,10:15:00,D,4\n"
                + "t2,11:00:00,11:00:00,D,1\nt2,11:05:00,11:05:00,C,2\nt2,11:10:00,11:10:00,B,3\nt2,11:15:00,11:15:00,A,4\n"
                + "t3,12:00:00,12:00:00,B,5\nt3,12:05:00,12:05:00,X,10\nt3,12:10:00,12:10:00,Y,20\n",
        ]
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let batch = try GTFSImporter(path: dir.path, feedName: "branch").read()
        var order: [String: Int] = [:]
        for r in batch.records { order[r.name] = r.lineOrder }
        let step = SourceRecord.lineOrderBranchStep
        #expect(order == ["駅A": 0, "駅B": 1, "駅C": 2, "駅D": 3, "駅X": step, "駅Y": step + 1])
        let d = try #require(try store([batch]).lines.named("テスト線").first)
        #expect(d.stops.map { "\($0.branch):\($0.order.map(String.init) ?? "-"):\($0.station.name)" }
                == ["0:0:駅A", "0:1:駅B", "0:2:駅C", "0:3:駅D", "1:0:駅X", "1:1:駅Y"])
    }
}
