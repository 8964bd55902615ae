import Testing
import Foundation
@testable import EkiKit
@testable import EkiImport
import EkiTestSupport

/// More of what the sources disagree on, on N02-23 + station_database main/ in both import
/// orders (`ReconcileRealDataTests.orders`): the operator of a shared track by the line's
/// majority (神戸高速線), a line station_database still lists under its former operator
/// (近鉄内部線 / 八王子線, 四日市あすなろう鉄道's since 2015), and readings with bracketed
/// alternatives (西院, 神戸三宮, 西鉄福岡（天神）).
@Suite struct ReconcileFidelityTests {
    static let orders = ReconcileRealDataTests.orders

    @Test(.needsN02AndStationDatabase, arguments: orders) func kobeRapidByTheLinesOperator(order: String) throws {
        let es = try ReconcileRealDataTests.entries(order).filter(\.isOpen)
        // 神戸高速東西線 is run by 阪急 and 阪神, 南北線 by 神戸電鉄.
        let shinkaichi = Dictionary(uniqueKeysWithValues: es.filter { $0.name == "新開地" }.map { ($0.operatorID, Set($0.lines)) })
        #expect(shinkaichi.keys.sorted() == ["hankyu", "hanshin", "shintetsu"])
        #expect(shinkaichi["hanshin"]?.contains("神戸高速東西線") == true)
        #expect(shinkaichi["shintetsu"]?.contains("神戸高速南北線") == true)
        #expect(es.filter { $0.operatorID == "shintetsu" && $0.lines.contains("神戸高速東西線") }.isEmpty)
        #expect(es.filter { $0.operatorID == "kobe-rapid" }.isEmpty)
    }

    @Test(.needsN02AndStationDatabase, arguments: orders) func noStaleKintetsuLines(order: String) throws {
        let es = try ReconcileRealDataTests.entries(order).filter(\.isOpen)
        // No open 近鉄 entry on 内部線 or 八王子線 (赤堀 was one); 近鉄四日市 stays 近鉄's (名古屋線).
        #expect(es.filter { $0.operatorID == "kintetsu" && $0.lines.contains { $0.contains("内部線") || $0.contains("八王子線") } }
            .map(\.key) == [])
        #expect(es.filter { $0.operatorID == "kintetsu" && $0.name == "近鉄四日市" }.count == 1)
        #expect(es.filter { $0.operatorID == "kintetsu" && $0.name == "赤堀" }.isEmpty)
        #expect(es.filter { $0.operatorID == "asunarou" }.count == 9)
        let path = order == Self.orders[0] ? RealData.combinedDatabase : RealData.stationDatabaseThenN02
        let lines = try RealData.open(path).lines.all()
        #expect(lines.filter { $0.operatorID == "kintetsu" && ($0.name.contains("八王子") || $0.name.contains("内部")) }.isEmpty)
        // The lines station_database still lists under the former operator are names of the
        // successor's lines, not lines of their own.
        #expect(lines.filter { $0.operatorID == "asunarou" }.map(\.id).sorted()
                == ["asunarou/c/四日市あすなろう鉄道八王子線", "asunarou/c/四日市あすなろう鉄道内部線"])
        #expect(lines.first { $0.id == "asunarou/c/四日市あすなろう鉄道八王子線" }?.sources.contains("station-database:近鉄八王子線") == true)
        #expect(lines.filter { $0.operatorID == "willer-trains" }.map(\.id).sorted()
                == ["willer-trains/c/京都丹後鉄道宮福線", "willer-trains/c/京都丹後鉄道宮舞線", "willer-trains/c/京都丹後鉄道宮豊線"])
    }

    @Test(.needsN02AndStationDatabase, arguments: orders) func readingsWithAlternatives(order: String) throws {
        let es = try ReconcileRealDataTests.entries(order).filter(\.isOpen)
        func entry(_ op: String, _ name: String) -> Station? { es.first { $0.operatorID == op && $0.name == name } }
        #expect(entry("keifuku", "西院")?.reading == "さい")
        #expect(entry("keifuku", "西院")?.formerNames.contains("さいいん") == true)
        #expect(entry("hankyu", "西院")?.reading == "さいいん")
        #expect(entry("hankyu", "神戸三宮")?.reading == "こうべさんのみや")
        #expect(entry("hanshin", "神戸三宮")?.reading == "こうべさんのみや")
        #expect(entry("kobe-city", "三宮")?.reading == "さんのみや")
        #expect(entry("asunarou", "あすなろう四日市")?.reading == "あすなろうよっかいち")
        #expect(entry("kintetsu", "近鉄四日市")?.reading == "きんてつよっかいち")
        // station_database's ふくおか(てんじん) is wrong outside the brackets: the curated にしてつふくおか.
        #expect(entry("nishitetsu", "西鉄福岡（天神）")?.reading == "にしてつふくおか")
        #expect(entry("nishitetsu", "西鉄福岡（天神）")?.formerNames.contains("てんじん") == true)
        // No shown reading keeps a bracket.
        #expect(es.filter { ($0.reading ?? "").contains { "()（）〈〉".contains($0) } }.map(\.key) == [])
    }

    /// Search finds a station by either reading.
    @Test(.needsN02AndStationDatabase) func searchByEitherReading() throws {
        let store = RealData.open(RealData.combinedDatabase)
        func keys(_ q: String) throws -> Set<String> { Set(try store.search.stations(matching: q, options: SearchOptions(limit: nil)).map(\.station.key)) }
        #expect(try keys("さいいん").isSuperset(of: ["hankyu/c/西院", "keifuku/c/西院"]))
        #expect(try keys("てんじん").contains("nishitetsu/c/西鉄福岡"))
        #expect(try keys("こうべさんのみや").isSuperset(of: ["hankyu/c/神戸三宮", "hanshin/c/神戸三宮"]))
        // The other readings are readings to `--by reading` too, and to the romaji field.
        func byReading(_ q: String) throws -> [String: SearchField] {
            Dictionary(try store.search.stations(matching: q, options: SearchOptions(by: .reading, match: .prefix, limit: nil))
                .map { ($0.station.key, $0.field) }, uniquingKeysWith: { a, _ in a })
        }
        let saiin = try byReading("さいいん")
        #expect(saiin["keifuku/c/西院"] == .reading && saiin["hankyu/c/西院"] == .reading)
        #expect(try byReading("てんじん")["nishitetsu/c/西鉄福岡"] == .reading)
        #expect(try byReading("saiin")["keifuku/c/西院"] == .romaji)
    }

    /// N02's edition comes from its file name (N02-23 → 2023-01-01) when `--edition` is not given.
    @Test func n02EditionFromTheFileName() {
        #expect(N02CSVImporter.edition(path: "/data/N02-23_Station.utf8.csv") == "2023-01-01")
        #expect(N02CSVImporter.edition(path: "N02-22_Station.geojson") == "2022-01-01")
        #expect(N02CSVImporter.edition(path: "Datasets/n02-odawara-tokyo.csv") == nil)
        #expect(N02CSVImporter.edition(path: "N02-231.csv") == nil)
    }

    @Test(.needsN02) func realN02Edition() throws {
        #expect(try N02CSVImporter(path: TestPaths.requireShared(TestPaths.n02CSVFile)).read().edition == "2023-01-01")
    }
}
