import Testing
import Foundation
@testable import EkiKit
@testable import EkiImport
import EkiTestSupport

/// Names as the operator writes them today, on N02-23 + station_database main/ in both import
/// orders: the newer source's spelling where the two differ only in its forms (ケ / ヶ, variant
/// kanji, kana for kanji), the curated spellings (`StationNames`), and a name with a bracketed
/// part found by either part.
@Suite struct StationNamesFidelityTests {
    static let orders = ReconcileRealDataTests.orders

    func names(_ es: [Station], _ operatorID: String) -> Set<String> {
        Set(es.filter { $0.isOpen && $0.operatorID == operatorID }.map(\.name))
    }

    @Test(.needsN02AndStationDatabase, arguments: orders) func spellingsOfTheNewerSource(order: String) throws {
        let es = try ReconcileRealDataTests.entries(order)
        let jrEast = names(es, "jr-east"), metro = names(es, "tokyo-metro")
        let small = { (n: String) in n.replacingOccurrences(of: "ケ", with: "ヶ") }
        let east = ["保土ケ谷", "茅ケ崎", "北茅ケ崎", "千駄ケ谷", "阿佐ケ谷", "市ケ谷"]
        #expect(east.filter { !jrEast.contains($0) || jrEast.contains(small($0)) } == [])
        let tokyoMetro = ["南阿佐ケ谷", "市ケ谷", "霞ケ関", "西ケ原"]
        #expect(tokyoMetro.filter { !metro.contains($0) || metro.contains(small($0)) } == [])
        // 都営 and 東武 write the small ヶ.
        #expect(names(es, "toei").contains("市ヶ谷") && names(es, "tobu").contains("霞ヶ関"))
        // Where station_database is not the operator's spelling, the table keeps the large ケ.
        #expect(names(es, "jr-central").contains("各務ケ原"))
        #expect(names(es, "jr-west").isSuperset(of: ["牛ケ原", "柿ケ島", "下祇園"]))
        #expect(names(es, "nankai").contains("泉ケ丘"))
        #expect(names(es, "ichibata").contains("遙堪") && names(es, "nose").contains("鶯の森"))
        // Osaka Metro writes なんば and なかもず; 南海 writes 難波 and 中百舌鳥.
        #expect(names(es, "osaka-metro").isSuperset(of: ["なんば", "なかもず"]))
        #expect(names(es, "osaka-metro").isDisjoint(with: ["難波", "中百舌鳥"]))
        #expect(names(es, "nankai").isSuperset(of: ["難波", "中百舌鳥"]))
        // Width is not a spelling: 札幌市交通局 stays 北12条, not station_database's 北１２条.
        #expect(names(es, "sapporo-city").contains("北12条"))
    }

    @Test(.needsN02AndStationDatabase, arguments: orders) func bracketedNamesFoundByEitherPart(order: String) throws {
        let path = order == Self.orders[0] ? RealData.combinedDatabase : RealData.stationDatabaseThenN02
        let store = RealData.open(path)
        for (query, name) in [("本諫早", "本諫早（諫早市役所前）"), ("諫早市役所前", "本諫早（諫早市役所前）"),
                              ("西鉄福岡", "西鉄福岡（天神）"), ("広島港", "広島港（宇品）"), ("己斐", "広電西広島（己斐）")] {
            let found = try StationQuery(text: query).candidates(in: store)
            #expect(found.map(\.name) == [name], "\(query)")
        }
    }

    @Test(.needsN02AndStationDatabase, arguments: orders) func readingsFromTheCuratedTable(order: String) throws {
        let es = try ReconcileRealDataTests.entries(order).filter(\.isOpen)
        func reading(_ op: String, _ name: String) -> [String?] { es.filter { $0.operatorID == op && $0.name == name }.map(\.reading) }
        #expect(reading("jr-kyushu", "人吉") == ["ひとよし"])
        // The source's wrong reading is gone, not kept as another name or reading.
        #expect(es.first { $0.operatorID == "jr-kyushu" && $0.name == "人吉" }?.otherReadings == [])
        #expect(reading("kumagawa", "人吉温泉") == ["ひとよしおんせん"])
        // Two operators' readings of one name: each shows its own and is found by the other's.
        let saiin = es.first { $0.operatorID == "keifuku" && $0.name == "西院" }
        #expect(saiin?.reading == "さい" && saiin?.otherReadings == ["さいいん"] && saiin?.otherNames == [])
        #expect(reading("nishitetsu", "西鉄福岡（天神）") == ["にしてつふくおか"])
        #expect(reading("hakone-tozan", "公園下") == ["こうえんしも"])
        #expect(reading("kurobe-gorge", "出平") == ["だしだいら"])
        // The open entries no page read gives a reading for (50 had none).
        #expect(reading("jukkoku-toge", "十国峠山頂") == ["じゅっこくとうげさんちょう"])
        #expect(es.filter { $0.reading == nil }.map(\.key).sorted() == [
            "keifuku/c/ケーブル比叡", "sarakura-tozan/c/山上", "takao-tozan/c/高尾山", "tango-kairiku/c/府中"])
    }
}
