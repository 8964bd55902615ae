import Testing
import Foundation
import EkiKit
@testable import EkiImport
import EkiTestSupport

@Suite struct StationDatabaseTests {
    /// station_database main/: its rows split by the entry rule.
    @Test(.needsStationDatabase) func mainGives10017Entries() throws {
        let batch = RealData.stationDatabase
        #expect(batch.records.count == 11_106)        // one per register.csv row
        let entries = EntryRule().entries(from: batch.records)
        #expect(entries.count == 10_017)
        #expect(entries.filter(\.isOpen).count == 9_566)
        let tokyo = entries.filter { $0.name == "東京" && abs($0.coordinate.lat - 35.68) < 0.01 }
        #expect(tokyo.count == 4)
        #expect(Set(tokyo.map { "\($0.operatorName ?? "-")/\($0.serviceClass.rawValue)" }) ==
                ["JR東日本/conventional", "JR東日本/shinkansen", "JR東海/shinkansen", "東京メトロ/conventional"])
        #expect(tokyo.allSatisfy { $0.reading == "とうきょう" && $0.prefecture == "東京都" })
        #expect(entries.filter { $0.name == "小田原" }.count == 5)
        #expect(entries.filter { $0.name == "熱海" }.count == 3)
        // Lines whose company is NULL are kept under an unknown operator.
        let unknown = entries.filter { $0.operatorName == nil }
        #expect(unknown.contains { $0.lines.contains("ハピラインふくい線") })
        #expect(unknown.contains { $0.lines.contains("宇都宮芳賀ライトレール線") })
        #expect(entries.first { $0.name == "三ノ宮" && $0.operatorName == "JR西日本" }?.reading == "さんのみや")
    }

    /// Readings keep their bracketed alternatives (the reconciler shows one), in ASCII brackets,
    /// without spaces.
    @Test func cleanReading() {
        #expect(StationDatabaseImporter.cleanReading("さんのみや(こうべさんのみや)") == "さんのみや(こうべさんのみや)")
        #expect(StationDatabaseImporter.cleanReading("どっきょうだいがくまえ〈そうかまつばら〉") == "どっきょうだいがくまえ(そうかまつばら)")
        #expect(StationDatabaseImporter.cleanReading("ふくおか（てんじん）") == "ふくおか(てんじん)")
        #expect(StationDatabaseImporter.cleanReading("とよたもびりてぃとやま じーすくえあ") == "とよたもびりてぃとやまじーすくえあ")
    }

    /// The 駅データ.jp layout (a format sample: codes invented, points from N02).
    @Test func ekidataSample() throws {
        let dir = TestPaths.package("Tests/EkiImportTests/Fixtures/ekidata")
        let batch = try EkidataImporter(path: dir).read()
        #expect(batch.records.count == 5)
        let entries = EntryRule().entries(from: batch.records)
        #expect(entries.map(\.key) == ["izuhakone/c/小田原", "jr-central/s/小田原", "jr-central/s/熱海", "jr-east/c/小田原", "jr-east/c/熱海"])
        let odawaraShinkansen = entries.first { $0.key == "jr-central/s/小田原" }!
        #expect(odawaraShinkansen.lines == ["東海道新幹線"])
        #expect(odawaraShinkansen.prefecture == "神奈川県")
        #expect(entries.first { $0.key == "jr-east/c/熱海" }?.isOpen == true)
        #expect(entries.first { $0.key == "izuhakone/c/小田原" }?.isOpen == false)
    }
}
