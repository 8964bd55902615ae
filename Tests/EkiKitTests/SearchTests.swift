import Testing
import Foundation
@testable import EkiKit
import EkiImport
import EkiTestSupport

/// Search on each real file alone: names, ヶ/ッ variants, lines and bbox on N02-23 (whose five
/// 小田原 entries are the issue's five; it has no readings), readings, romaji, 富山駅 and 松山市駅
/// on station_database (which has readings and other line and operator spellings). The issue's
/// expectations on both imported together are in SearchIssueTests.
@Suite(.serialized) struct SearchTests {
    /// Connections of their own on the databases built once (suites run in parallel).
    var n02: StationStore { RealData.open(RealData.n02Database) }
    var sd: StationStore { RealData.open(RealData.stationDatabaseDatabase) }

    static let odawaraOperators: Set<String> = ["小田急電鉄", "箱根登山鉄道", "東海旅客鉄道", "東日本旅客鉄道", "伊豆箱根鉄道"]
    static let odawaraOperatorsSD: Set<String> = ["小田急電鉄", "箱根登山鉄道", "JR東海", "JR東日本", "伊豆箱根鉄道"]

    @Test(.needsN02) func odawaraByNameWithOrWithoutEki() throws {
        let store = n02
        for q in ["小田原駅", "小田原", "小田原 駅"] {
            let hits = try store.search.stations(matching: q)
            #expect(hits.count >= 5, "\(q)")
            let first = hits.prefix(5)
            #expect(first.allSatisfy { $0.station.name == "小田原" && $0.isExact && $0.field == .name }, "\(q)")
            #expect(Set(first.compactMap(\.station.operatorName)) == Self.odawaraOperators, "\(q)")
        }
    }

    @Test(.needsStationDatabase) func odawaraByReadingAndRomaji() throws {
        let store = sd
        for q in ["おだわら", "オダワラ", "ｵﾀﾞﾜﾗ", "odawara", "Odawara", "小田原駅", "おだわらえき"] {
            let hits = try store.search.stations(matching: q)
            let first = hits.prefix(5)
            #expect(first.count == 5 && first.allSatisfy { $0.station.name == "小田原" && $0.isExact }, "\(q)")
            #expect(Set(first.compactMap(\.station.operatorName)) == Self.odawaraOperatorsSD, "\(q)")
        }
        #expect(try store.search.stations(matching: "odawara").first?.field == .romaji)
        #expect(try store.search.stations(matching: "ｵﾀﾞﾜﾗ").first?.field == .reading)
    }

    @Test(.needsN02) func kasumigasekiAndYotsuyaVariants() throws {
        let store = n02
        let kasumi = try store.search.stations(matching: "霞ケ関")
        // N02 writes 霞ヶ関 for both; Datasets/station-names.csv gives 東京メトロ its own 霞ケ関.
        #expect(Set(kasumi.map { "\($0.station.name) \($0.station.operatorName ?? "")" })
            == ["霞ケ関 東京地下鉄", "霞ヶ関 東武鉄道"])
        let tokyo = kasumi.first { $0.station.operatorName == "東京地下鉄" }
        let saitama = kasumi.first { $0.station.operatorName == "東武鉄道" }
        #expect(tokyo.map { abs($0.station.coordinate.lat - 35.674) < 0.01 } == true)
        #expect(saitama.map { abs($0.station.coordinate.lat - 35.925) < 0.01 } == true)
        let yotsuya = try store.search.stations(matching: "四ッ谷")
        #expect(Set(yotsuya.map(\.station.name)) == ["四ツ谷"])
        #expect(Set(yotsuya.compactMap(\.station.operatorName)) == ["東京地下鉄", "東日本旅客鉄道"])
    }

    @Test(.needsStationDatabase) func kasumigasekiAndYotsuyaVariantsOnStationDatabase() throws {
        let store = sd
        let kasumi = try store.search.stations(matching: "霞ケ関").map { "\($0.station.name) \($0.station.operatorName ?? "")" }
        #expect(Set(kasumi) == ["霞ケ関 東京メトロ", "霞ヶ関 東武鉄道"])
        #expect(try store.search.stations(matching: "四ッ谷").contains { $0.station.name.hasPrefix("四ツ谷") })
    }

    @Test(.needsN02) func partialFindsInsidePrefixDoesNot() throws {
        let store = n02
        let partial = try store.search.stations(matching: "田原", options: SearchOptions(match: .partial, limit: nil))
        let names = Set(partial.map(\.station.name))
        #expect(names.isSuperset(of: ["小田原", "田原本", "田原", "三河田原"]))
        // prefix matches (田原, 田原本) come before matches inside the name (小田原)
        let firstInside = partial.firstIndex { !$0.isPrefix }!
        #expect(partial[..<firstInside].allSatisfy { $0.isPrefix })
        #expect(partial[firstInside...].allSatisfy { !$0.isPrefix })
        let odawara = partial.first { $0.station.name == "小田原" }
        #expect(odawara?.isPrefix == false && odawara?.field == .name)
        let prefix = try store.search.stations(matching: "田原", options: SearchOptions(by: .name, limit: nil))
        #expect(prefix.contains { $0.station.name == "田原本" })
        #expect(!prefix.contains { $0.station.name == "小田原" })
        #expect(prefix.allSatisfy { $0.station.name.hasPrefix("田原") })
    }

    @Test(.needsN02) func oneAndTwoCharacterPartialQueries() throws {
        let store = n02
        let two = try store.search.stations(matching: "宮町", options: SearchOptions(by: .name, match: .partial, limit: nil))
        #expect(!two.isEmpty && two.allSatisfy { $0.station.name.contains("宮町") })
        let one = try store.search.stations(matching: "鬼", options: SearchOptions(by: .name, match: .partial, limit: nil))
        #expect(Set(one.map(\.station.name)) == Set(N02Entries.shared.all.filter { $0.name.contains("鬼") }.map(\.name)))
        #expect(!one.isEmpty)
    }

    @Test(.needsN02) func linesByPrefixAfterRouteNumberOrBrand() throws {
        let store = n02
        let tokaido = try store.search.stations(matching: "東海道", options: SearchOptions(by: .line, limit: nil))
        let lines = Set(tokaido.flatMap(\.station.lines))
        #expect(lines.isSuperset(of: ["東海道線", "東海道新幹線"]))
        #expect(tokaido.allSatisfy { $0.field == .line && $0.station.lines.contains { $0.hasPrefix("東海道") } })
        let marunouchi = try store.search.stations(matching: "丸ノ内", options: SearchOptions(by: .line, limit: nil))
        #expect(!marunouchi.isEmpty && marunouchi.allSatisfy { $0.station.operatorName == "東京地下鉄" })
        #expect(marunouchi.contains { $0.station.name == "東京" })
        #expect(try store.search.stations(matching: "丸の内", options: SearchOptions(by: .line, limit: nil)).count == marunouchi.count)
    }

    @Test(.needsStationDatabase) func linesByPrefixOnStationDatabase() throws {
        let store = sd
        let tokaido = try store.search.stations(matching: "東海道", options: SearchOptions(by: .line, limit: nil))
        #expect(tokaido.contains { $0.station.lines.contains { $0.hasPrefix("JR東海道本線") } })
        #expect(tokaido.contains { $0.station.lines.contains("東海道新幹線") })
        let maru = try store.search.stations(matching: "丸ノ内", options: SearchOptions(by: .line, limit: nil))
        #expect(maru.contains { $0.station.name == "東京" && $0.station.operatorName == "東京メトロ" })
    }

    @Test(.needsN02) func bboxNarrowsToTheViewport() throws {
        let store = n02
        let odawaraBox = try BoundingBox(parsing: "139.10,35.22,139.20,35.29")
        let tokyoBox = try BoundingBox(parsing: "139.60,35.55,139.90,35.80")
        #expect(try store.search.stations(matching: "小田原", options: SearchOptions(bbox: odawaraBox)).filter { $0.station.name == "小田原" }.count == 5)
        #expect(try store.search.stations(matching: "小田原", options: SearchOptions(by: .name, bbox: tokyoBox)).isEmpty)
        // by any, 小田原 is also the line 小田原線, which runs from 新宿 in the box
        #expect(try store.search.stations(matching: "小田原", options: SearchOptions(bbox: tokyoBox)).allSatisfy { $0.field == .line })
        let all = try store.search.stations(matching: "新", options: SearchOptions(match: .partial, limit: nil))
        let inTokyo = try store.search.stations(matching: "新", options: SearchOptions(match: .partial, bbox: tokyoBox, limit: nil))
        #expect(inTokyo.count < all.count && !inTokyo.isEmpty)
        #expect(inTokyo.allSatisfy { tokyoBox.contains($0.station.coordinate) })
        #expect(Set(inTokyo.map(\.station.key)) == Set(all.filter { tokyoBox.contains($0.station.coordinate) }.map(\.station.key)))
    }

    @Test(.needsN02) func nearOrdersByDistance() throws {
        let store = n02
        let tokyo = Coordinate(lat: 35.6812, lon: 139.7671)
        let hits = try store.search.stations(matching: "新", options: SearchOptions(match: .partial, near: tokyo, limit: 30))
        #expect(hits.count == 30)
        let prefix = hits.filter(\.isPrefix), inside = hits.filter { !$0.isPrefix }
        #expect(prefix.map { $0.distance! } == prefix.map { $0.distance! }.sorted())
        #expect(inside.map { $0.distance! } == inside.map { $0.distance! }.sorted())
        #expect(hits.allSatisfy { abs($0.distance! - Geodesic.distance(valid: tokyo, $0.station.coordinate)) < 1e-6 })
    }

    @Test(.needsStationDatabase) func tramStopsNamedEkiAreStillFound() throws {
        let store = sd
        let toyama = try store.search.stations(matching: "富山駅")
        #expect(toyama.contains { $0.station.name == "富山駅" && $0.isExact })
        #expect(toyama.contains { $0.station.name == "富山" && $0.isExact })
        let matsuyama = try store.search.stations(matching: "松山市駅")
        #expect(matsuyama.contains { $0.station.name == "松山市駅" && $0.isExact })
        #expect(matsuyama.contains { $0.station.name == "松山市" && $0.isExact })
    }

    @Test(.needsStationDatabase) func gazetteerLookups() throws {
        let store = sd
        for q in ["小田原駅", "新横浜"] {
            let top = try store.search.stations(matching: q, options: SearchOptions(limit: 3))
            #expect(top.count == 3 && top.allSatisfy { $0.isExact && $0.station.name == q.replacingOccurrences(of: "駅", with: "") }, "\(q)")
        }
        #expect(try store.search.stations(matching: "Tōkyō").first?.station.name == "東京")
        #expect(try store.search.stations(matching: "とうきょう").first?.station.name == "東京")
    }

    @Test func queryIsDataNeverSyntax() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("literal.gpkg").path
        let store = try StationStore(path: path)
        let names = ["100%前", "A_B", "\"引用\"", "星*", "OR", "'; DROP TABLE stations; --", "普通", "駅前"]
        let records = names.enumerated().map { i, n in
            SourceRecord(source: SourceRef(dataset: "t", id: "\(i)"), name: n, operatorName: "テスト", serviceClass: .conventional,
                         lines: ["線"], coordinate: Coordinate(lat: 35 + Double(i) * 0.1, lon: 139))
        }
        try store.importRecords(records, dataset: "t")
        let cases: [(String, String)] = [("%", "100%前"), ("_", "A_B"), ("\"", "\"引用\""), ("*", "星*"), ("OR", "OR"),
                                         ("'; DROP TABLE stations; --", "'; DROP TABLE stations; --"), ("DROP", "'; DROP TABLE stations; --"),
                                         ("引用\"", "\"引用\""), ("NEAR(星 前)", "")]
        for (q, expected) in cases {
            for match in SearchOptions.Match.allCases {
                let hits = try store.search.stations(matching: q, options: SearchOptions(by: .name, match: match, limit: nil)).map(\.station.name)
                let want = expected.isEmpty || (match == .prefix && !SearchFold.name(expected).hasPrefix(SearchFold.name(q))) ? [] : [expected]
                #expect(hits == want, "\(q) \(match)")
            }
        }
        #expect(try store.entries.count() == names.count)
    }

    @Test(.needsN02) func emptyAndInvalidQueries() throws {
        let store = n02
        #expect(try store.search.stations(matching: "").isEmpty)
        #expect(try store.search.stations(matching: " ・ ").isEmpty)
        #expect(throws: SearchError.self) { try store.search.stations(matching: "東京", options: SearchOptions(limit: 0)) }
    }
}
