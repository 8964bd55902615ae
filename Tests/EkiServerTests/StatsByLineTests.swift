import EkiKit
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// `/api/stats?by=line` counts the unified lines of the line table, as `eki stats --by line`.
@Suite struct StatsByLineTests {
    @Test func statsByLineCountsTheLineTable() throws {
        let s = try TestServer()
        let r = try s.get("/api/stats?by=line")
        #expect(r.status == 200)
        let groups = r.object["groups"] as? [[String: Any]] ?? []
        // The sample's 18 lines, each `<operator> <line>`, most stations first (as the CLI lists them).
        #expect(groups.map { "\($0["line"] as? String ?? "") \($0["total"] as? Int ?? -1)" } == [
            "伊豆箱根鉄道 大雄山線 8", "JR東日本 東海道線 5", "箱根登山鉄道 鉄道線 5", "小田急 小田原線 4", "東京メトロ 丸ノ内線 3",
            "東京メトロ 千代田線 3", "東京メトロ 銀座線 3", "JR東日本 総武線 2", "JR東海 東海道新幹線 2", "東京メトロ 半蔵門線 2",
            "東京メトロ 日比谷線 2", "東京メトロ 有楽町線 2", "東京メトロ 東西線 2", "都営 三田線 2", "JR東日本 京葉線 1",
            "JR東日本 東北新幹線 1", "JR東日本 東北線 1", "都営 浅草線 1"])
        let total = r.object["total"] as? [String: Any] ?? [:]
        #expect(total["total"] as? Int == 39 && total["visited"] as? Int == 0)
    }
}
