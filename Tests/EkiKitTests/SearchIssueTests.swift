import Testing
import Foundation
@testable import EkiKit
import EkiImport
import EkiTestSupport

/// The issue's expectations, word for word, on N02-23 + station_database in one database.
/// The database is `RealData.combinedDatabase`: the import merges their rows into one entry
/// per operator × class × place.
@Suite(.serialized, .needsN02AndStationDatabase) struct SearchIssueTests {
    let store = RealData.open(RealData.combinedDatabase)

    @Test func fiveOdawaraEntriesFirst() throws {
        for q in ["おだわら", "オダワラ", "ｵﾀﾞﾜﾗ", "odawara", "小田原駅"] {
            let hits = try store.search.stations(matching: q)
            #expect(hits.count >= 5, "\(q)")
            #expect(hits.prefix(5).allSatisfy { $0.station.name == "小田原" && $0.isExact }, "\(q)")
            #expect(Set(hits.prefix(5).compactMap(\.station.operatorName)) ==
                    ["小田急電鉄", "箱根登山鉄道", "東海旅客鉄道", "東日本旅客鉄道", "伊豆箱根鉄道"], "\(q)")
            #expect(!hits.dropFirst(5).contains { $0.station.name == "小田原" }, "\(q)")
        }
    }

    @Test func kasumigasekiInTokyoAndSaitamaAndYotsuya() throws {
        let kasumi = try store.search.stations(matching: "霞ケ関")
        // 東京メトロ writes the large ケ, 東武 the small ヶ.
        let places = Set(kasumi.map { "\($0.station.name) \($0.station.operatorName ?? "") \($0.station.prefecture ?? "")" })
        #expect(places == ["霞ケ関 東京地下鉄 東京都", "霞ヶ関 東武鉄道 埼玉県"])
        let yotsuya = try store.search.stations(matching: "四ッ谷")
        #expect(!yotsuya.isEmpty && yotsuya.allSatisfy { $0.station.name == "四ツ谷" })
    }

    @Test func taharaPartialAndPrefix() throws {
        let partial = Set(try store.search.stations(matching: "田原", options: SearchOptions(match: .partial, limit: nil)).map(\.station.name))
        #expect(partial.isSuperset(of: ["小田原", "田原本", "田原", "三河田原", "上田原"]))
        let prefix = Set(try store.search.stations(matching: "田原", options: SearchOptions(limit: nil)).map(\.station.name))
        #expect(prefix.contains("田原本") && !prefix.contains("小田原"))
    }

    @Test func linesTokaidoAndMarunouchi() throws {
        let tokaido = try store.search.stations(matching: "東海道", options: SearchOptions(by: .line, limit: nil))
        let lines = Set(tokaido.flatMap(\.station.lines))
        #expect(lines.contains("東海道線") && lines.contains("東海道新幹線"))
        let maru = try store.search.stations(matching: "丸ノ内", options: SearchOptions(by: .line, limit: nil))
        #expect(!maru.isEmpty && maru.allSatisfy { $0.station.operatorName == "東京地下鉄" })
        #expect(maru.contains { $0.station.name == "東京" })
    }

    @Test func bboxIsTheMapFilter() throws {
        let box = try BoundingBox(parsing: "139.0,35.1,139.3,35.4")
        let all = try store.search.stations(matching: "小", options: SearchOptions(match: .partial, limit: nil))
        let inBox = try store.search.stations(matching: "小", options: SearchOptions(match: .partial, bbox: box, limit: nil))
        #expect(!inBox.isEmpty && inBox.count < all.count)
        #expect(Set(inBox.map(\.station.key)) == Set(all.filter { box.contains($0.station.coordinate) }.map(\.station.key)))
        #expect(inBox.contains { $0.station.name == "小田原" })
    }

    @Test func stationGazetteerLookups() throws {
        let odawara = try store.search.stations(matching: "小田原駅", options: SearchOptions(limit: 10))
        #expect(odawara.prefix(5).allSatisfy { $0.station.name == "小田原" })
        let shinYokohama = try store.search.stations(matching: "新横浜", options: SearchOptions(limit: 10))
        let exact = shinYokohama.prefix { $0.isExact }
        #expect(exact.count >= 5 && exact.allSatisfy { $0.station.name == "新横浜" })
        #expect(!shinYokohama.dropFirst(exact.count).contains { $0.isExact })
        let toyama = try store.search.stations(matching: "富山駅", options: SearchOptions(limit: 10)).filter(\.isExact).map(\.station.name)
        #expect(Set(toyama) == ["富山", "富山駅"])
    }
}
