import Testing
import Foundation
@testable import EkiKit
import EkiTestSupport

/// The lines as their operators define them (`Datasets/line-definitions.csv`) on N02-23 +
/// station_database main/: service routes and former names are aliases, not lines; a line
/// closed as a whole is not open.
@Suite struct LineDefinitionsRealDataTests {
    static var store: StationStore { RealData.open(RealData.combinedDatabase) }

    /// No `alias` row's name is an open line of its operator, and the named lines carry it.
    @Test(.needsN02AndStationDatabase) func serviceRoutesAndFormerNamesAreNoLines() throws {
        let open = try Self.store.lines.all()
        for d in LineDefinitions.all where d.kind == .alias {
            let same = open.filter { $0.operatorID == d.operatorID && SearchFold.name($0.name) == SearchFold.name(d.name) }
            #expect(same.isEmpty, "\(d.operatorID) \(d.name) is listed as an open line: \(same.map(\.id))")
        }
        let names = Set(open.filter { $0.operatorID == "jr-east" }.map(\.name))
        #expect(names.isDisjoint(with: ["湘南新宿ライン", "上野東京ライン", "中央・総武線", "成田エクスプレス"]))
        // A service route's name is an alias of a line it runs on, not of an unrelated one.
        #expect(open.first { $0.id == "jr-east/c/成田線" }?.aliases.contains("成田エクスプレス") == true)
        #expect(open.first { $0.id == "jr-east/c/東海道本線" }?.aliases.contains("成田エクスプレス") == false)
        #expect(open.contains { $0.operatorID == "jr-east" && $0.aliases.contains("湘南新宿ライン") })
        let rias = open.filter { $0.operatorID == "sanriku" }
        #expect(rias.map(\.name) == ["リアス線"])
        let riasAliases = Set(rias.first?.aliases ?? [])
        #expect(riasAliases.isSuperset(of: ["北リアス線", "南リアス線"]))
        let yokohama = open.filter { $0.operatorID == "yokohama-city" }.map(\.name).sorted()
        #expect(yokohama == ["グリーンライン", "ブルーライン"])
        #expect(open.first { $0.name == "ブルーライン" }?.aliases.contains("3号線") == true)
    }

    /// 留萌本線 is closed as a whole (2026-04-01), though 深川 stays open for the 函館本線.
    @Test(.needsN02AndStationDatabase) func rumoiMainLineIsClosed() throws {
        let all = try Self.store.lines.all(includeClosed: true)
        let rumoi = all.filter { $0.operatorID == "jr-hokkaido" && $0.name == "留萌本線" }
        #expect(rumoi.count == 1)
        #expect(rumoi.allSatisfy { !$0.isOpen })
        #expect(try Self.store.lines.all().contains { $0.name == "留萌本線" } == false)
    }

    /// (line id, open stations, first and last station of its first sequence).
    static let formalLines: [(id: String, stations: Int, from: String, to: String)] = [
        ("jr-west/c/奈良線", 19, "京都", "木津"),
        ("jr-east/c/常磐線", 80, "日暮里", "岩沼"),
        ("jr-shikoku/c/徳島線", 24, "佐古", "佃"),
        ("kintetsu/c/京都線", 26, "京都", "大和西大寺"),
        ("tokyu/c/大井町線", 15, "大井町", "二子玉川"),
        ("jr-kyushu/c/日田彦山線", 15, "城野", "添田"),
        ("jr-west/c/北陸本線", 12, "米原", "敦賀"),
    ]

    /// Through-service stops beyond a line's formal ends and closed sections are not the line's.
    @Test(.needsN02AndStationDatabase, arguments: formalLines) func formalEnds(line: (id: String, stations: Int, from: String, to: String)) throws {
        let d = try #require(try Self.store.lines.line(id: line.id))
        let open = d.stops.filter { $0.station.isOpen }
        #expect(open.count == line.stations)
        let first = d.stops.filter { $0.branch == 0 && $0.order != nil }.sorted { $0.order! < $1.order! }
        #expect(first.first?.station.name == line.from)
        #expect(first.last?.station.name == line.to)
        #expect(first.count == line.stations)
    }

    /// JR東日本's 東北本線 ends at 盛岡 (八戸–青森 is 青い森鉄道's); 南海's 高野線 has its 汐見橋
    /// section; 丸ノ内線 and JR九州's 山陽本線 are one line each.
    @Test(.needsN02AndStationDatabase) func sectionsAndBranches() throws {
        let store = Self.store
        let tohoku = try #require(try store.lines.line(id: "jr-east/c/東北本線"))
        let names = Set(tohoku.stops.map(\.station.name))
        #expect(names.contains("盛岡"))
        #expect(names.isDisjoint(with: ["八戸", "青森", "野辺地"]))
        let koya = try #require(try store.lines.line(id: "nankai/c/高野線"))
        #expect(Set(koya.stops.map(\.station.name)).isSuperset(of: ["汐見橋", "芦原町", "岸里玉出", "難波", "極楽橋"]))
        let open = try store.lines.all()
        #expect(open.filter { $0.operatorID == "nankai" && $0.name.contains("汐見橋") }.isEmpty)
        #expect(open.filter { $0.operatorID == "tokyo-metro" && $0.name.hasPrefix("丸ノ内線") }.map(\.name) == ["丸ノ内線"])
        #expect(open.first { $0.name == "丸ノ内線" }?.total == 28)
        let sanyo = open.filter { $0.operatorID == "jr-kyushu" && $0.name.hasPrefix("山陽") }
        #expect(sanyo.map(\.name) == ["山陽本線"])
        #expect(Set(sanyo.first.map { l in try! store.lines.line(id: l.id)!.stops.map(\.station.name) } ?? []) == ["下関", "門司"])
    }

    /// 総武本線, 中央本線 and JR東日本's 東海道本線 hold every station of the line (`whole`
    /// rows), those only N02 places on them too (西船橋, on the 武蔵野線's order as well); the
    /// 中央線快速 is the 中央本線's section, its stations in order between the 中央本線's.
    @Test(.needsN02AndStationDatabase) func wholeLines() throws {
        let store = Self.store
        func line(_ id: String) throws -> (names: Set<String>, first: [String], total: Int) {
            let d = try #require(try store.lines.line(id: id))
            let open = d.stops.filter { $0.station.isOpen }
            let first = d.stops.filter { $0.branch == 0 && $0.order != nil }.sorted { $0.order! < $1.order! }.map(\.station.name)
            return (Set(open.map(\.station.name)), first, open.count)
        }
        let sobu = try line("jr-east/c/総武本線")
        #expect(sobu.total == 46)
        #expect(sobu.names.isSuperset(of: ["西船橋", "秋葉原", "御茶ノ水", "両国", "浅草橋", "亀戸", "新日本橋"]))
        #expect(sobu.first.first == "東京" && sobu.first.last == "銚子")
        let chuo = try line("jr-east/c/中央本線")
        #expect(chuo.total == 73)
        #expect(Array(chuo.first.prefix(6)) == ["東京", "神田", "御茶ノ水", "四ツ谷", "新宿", "中野"])
        #expect(chuo.first.last == "塩尻")
        #expect(chuo.names.isSuperset(of: ["代々木", "信濃町", "千駄ケ谷", "水道橋", "辰野", "みどり湖"]))
        let tokaido = try line("jr-east/c/東海道本線")
        #expect(tokaido.total == 37)
        #expect(tokaido.names.isSuperset(of: ["有楽町", "高輪ゲートウェイ", "西大井", "武蔵小杉", "新川崎", "羽沢横浜国大", "保土ケ谷"]))
        #expect(tokaido.first.first == "東京" && tokaido.first.last == "熱海")
        let open = try store.lines.all()
        #expect(open.filter { $0.operatorID == "jr-east" && $0.name == "中央線" }.isEmpty)
        #expect(open.first { $0.id == "jr-east/c/中央本線" }?.aliases.contains("中央線") == true)
    }

    /// Branches as branches (`branch` rows): each starts at its junction, in order, and the main
    /// run goes through the junction without them.
    @Test(.needsN02AndStationDatabase, arguments: [
        ("jr-hokkaido/c/室蘭本線", ["東室蘭", "輪西", "御崎", "母恋", "室蘭"], ["本輪西", "東室蘭", "鷲別"]),
        ("jr-central/c/東海道本線", ["大垣", "荒尾", "美濃赤坂"], ["穂積", "大垣", "垂井"]),
        ("fukutetsu/c/福武線", ["福井城址大名町", "福井駅"], ["足羽山公園口", "福井城址大名町", "仁愛女子高校"]),
        ("tokyo-metro/c/丸の内線", ["中野坂上", "中野新橋", "中野富士見町", "方南町"], ["西新宿", "中野坂上", "新中野"]),
    ])
    func branchesAreBranches(line: (id: String, branch: [String], through: [String])) throws {
        let d = try #require(try Self.store.lines.line(id: line.id))
        func run(_ b: Int) -> [String] {
            d.stops.filter { $0.branch == b && $0.order != nil }.sorted { $0.order! < $1.order! }.map(\.station.name)
        }
        #expect(run(1) == line.branch)
        let main = run(0)
        let i = try #require(main.firstIndex(of: line.through[1]))
        #expect(i > 0 && main[i - 1] == line.through[0] && main[i + 1] == line.through[2], "\(main)")
        #expect(Set(main).isDisjoint(with: line.branch.dropFirst()))
    }

    /// 京浜東北線, 埼京線 and 仙石東北ライン are service routes: no line of their own; N02's
    /// 赤羽線 (池袋–赤羽) is the line 埼京線 runs on there, and the 東北本線 holds 王子 and 北赤羽.
    @Test(.needsN02AndStationDatabase) func moreServiceRoutesAreAliases() throws {
        let open = try Self.store.lines.all()
        let east = Set(open.filter { $0.operatorID == "jr-east" }.map(\.name))
        #expect(east.isDisjoint(with: ["京浜東北線", "埼京線", "仙石東北ライン"]))
        let akabane = try #require(try Self.store.lines.line(id: "jr-east/c/赤羽線"))
        #expect(Set(akabane.stops.map(\.station.name)) == ["池袋", "板橋", "十条", "赤羽"])
        let tohoku = try #require(try Self.store.lines.line(id: "jr-east/c/東北本線"))
        #expect(Set(tohoku.stops.map(\.station.name)).isSuperset(of: ["王子", "東十条", "北赤羽", "浮間舟渡", "大宮"]))
    }

    /// An open entry lists the lines of its open rows: not a line a source gives as closed there
    /// (青い森鉄道's 八戸–青森, once JR's; 三陸鉄道's 北/南リアス線; 留萌本線 at 深川).
    @Test(.needsN02AndStationDatabase) func openEntriesListNoClosedLines() throws {
        let open = try Self.store.entries.all(includeClosed: false)
        func lines(_ key: String) -> [String] { open.first { $0.key == key }?.lines ?? ["missing"] }
        #expect(lines("jr-east/c/八戸") == ["八戸線", "JR八戸線"])
        #expect(!lines("jr-hokkaido/c/深川").contains { $0.contains("留萌") })
        #expect(lines("sanriku/c/宮古") == ["リアス線", "三陸鉄道リアス線"])
        #expect(lines("sanriku/c/久慈") == ["三陸鉄道リアス線"])
        // (新田老 has no closed row there, so N02-23's old name stays on it.)
        #expect(!open.contains { $0.lines.contains("JR東北本線(八戸～青森)") })
    }
}
