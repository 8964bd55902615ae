import Testing
import Foundation
import EkiKit
import EkiTestSupport

/// The line table on the real files: N02-23 and station_database main/ (`RealData`), skipped
/// with the reason when they are absent.
@Suite struct LinesRealDataTests {
    func names(_ d: LineDetail) -> [String] { d.stops.map(\.station.name) }

    @Test(.needsN02AndStationDatabase) func tokaidoShinkansenIsSeventeenStationsInOrder() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let found = try store.lines.named("東海道新幹線")
        #expect(found.map(\.line.id) == ["jr-central/s/東海道新幹線"])
        let d = try #require(found.first)
        #expect(names(d) == ["東京", "品川", "新横浜", "小田原", "熱海", "三島", "新富士", "静岡", "掛川", "浜松", "豊橋",
                             "三河安城", "名古屋", "岐阜羽島", "米原", "京都", "新大阪"])
        #expect(d.stops.map(\.order) == (0..<17).map { $0 })
        #expect(d.line.total == 17 && d.line.operatorName == "JR東海" && d.line.serviceClass == .shinkansen)
        #expect(d.line.sources == ["station-database:東海道新幹線", "n02:東海道新幹線"])
        #expect(d.line.color == "#0000FF")
    }

    @Test(.needsN02AndStationDatabase) func jrEastTokaidoIsOneLineAcrossSources() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let tokaido = try store.lines.all(operator: "JR東日本").filter { $0.aliases.contains("東海道線") }
        #expect(tokaido.map(\.id) == ["jr-east/c/東海道本線"])
        #expect(tokaido.first?.sources == ["station-database:JR東海道本線(東京～熱海)", "n02:東海道線"])
        let d = try #require(try store.lines.line(id: "jr-east/c/東海道本線"))
        #expect(Array(names(d).prefix(5)) == ["東京", "新橋", "品川", "川崎", "横浜"])
        #expect(d.stops.filter { $0.order != nil }.last?.station.name == "熱海")
    }

    @Test(.needsN02AndStationDatabase) func ginzaLineIsNineteenStationsInOrder() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let found = try store.lines.named("3号線銀座線")
        #expect(found.map(\.line.id) == ["tokyo-metro/c/銀座線"])
        #expect(try store.lines.named("銀座線").map(\.line.id) == ["tokyo-metro/c/銀座線"])
        let d = try #require(found.first)
        #expect(names(d) == ["浅草", "田原町", "稲荷町", "上野", "上野広小路", "末広町", "神田", "三越前", "日本橋", "京橋",
                             "銀座", "新橋", "虎ノ門", "溜池山王", "赤坂見附", "青山一丁目", "外苑前", "表参道", "渋谷"])
        #expect(d.line.aliases == ["3号線銀座線", "東京メトロ銀座線", "銀座線"])
    }

    @Test(.needsN02AndStationDatabase) func honsenIsEachOperatorsOwnLine() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let all = try store.lines.all(includeClosed: true)
        #expect(!all.contains { $0.name == "本線" })
        let honsen = all.filter { $0.sources.contains("n02:本線") }
        #expect(Set(honsen.map(\.operatorID)).count == honsen.count)
        for id in ["keikyu/c/京急本線", "keisei/c/京成本線", "hanshin/c/阪神本線"] {
            #expect(honsen.contains { $0.id == id }, "\(id)")
        }
    }

    @Test(.needsN02AndStationDatabase) func yamanoteIsALoopOfThirty() throws {
        let d = try #require(try RealData.open(RealData.combinedDatabase).lines.line(id: "jr-east/c/山手線"))
        #expect(d.line.isLoop && d.line.total == 30 && d.stops.count == 30)
        #expect(Set(d.stops.map(\.branch)) == [0])
        #expect(d.line.sources == ["station-database:JR山手線", "n02:山手線"])
    }

    @Test(.needsN02AndStationDatabase) func yamagataShinkansenIsTheOuSectionFukushimaShinjo() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let found = try store.lines.named("山形新幹線")
        #expect(found.map(\.line.id) == ["jr-east/c/奥羽本線"])
        let d = try #require(found.first)
        #expect(d.section == "山形新幹線")
        #expect(d.stops.first?.station.name == "福島" && d.stops.last?.station.name == "新庄" && d.stops.count == 36)
        #expect(Array(names(d).prefix(4)) == ["福島", "笹木野", "庭坂", "赤岩"])
        let akita = try store.lines.named("秋田新幹線")
        #expect(akita.map(\.line.id) == ["jr-east/c/田沢湖線", "jr-east/c/奥羽本線"])
        #expect(akita.map { [$0.stops.first!.station.name, $0.stops.last!.station.name] } == [["盛岡", "大曲"], ["大曲", "秋田"]])
    }

    @Test(.needsN02AndStationDatabase) func jrCentralLinesAndCounts() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let lines = try store.lines.all(operator: "JR東海")
        #expect(lines.count == 13 && lines.allSatisfy { $0.operatorType == "JR" })
        #expect(OperatorTypes.type(of: "keikyu") == "大手私鉄" && OperatorTypes.type(of: "sanyo") == "準大手私鉄")
        #expect(OperatorTypes.type(of: "hakone-tozan") == "その他")
        #expect(lines.first { $0.name == "東海道新幹線" }?.total == 17)
        #expect(lines.first { $0.id == "jr-central/c/東海道本線" }?.stationKeys.contains("jr-central/c/熱海") == true)
        #expect(try store.lines.all(operator: "jr-central", serviceClass: .shinkansen).map(\.id) == ["jr-central/s/東海道新幹線"])
        let kanagawa = try store.lines.all(operator: "JR東海", prefecture: "神奈川県")
        #expect(kanagawa.map { "\($0.name) \($0.total)" } == ["東海道新幹線 2", "御殿場線 8"])
    }

    /// Line counts (see docs/lines.md, "Counts on the real data"): station_database's 602 open line sections are 558
    /// open lines once an operator's sections are joined and the lines it still lists under a
    /// former operator (近鉄内部線, 北近畿タンゴ鉄道宮津線 …) join their successors' lines; with
    /// N02-23, 611, of which 45 only N02 has and 16 only station_database. 海峡線 is open in
    /// N02-23 alone, closed with station_database (its every station is closed to passengers).
    @Test(.needsN02AndStationDatabase) func lineCounts() throws {
        let sd = try RealData.open(RealData.stationDatabaseDatabase).lines.all()
        // Datasets/line-definitions.csv: service routes (湘南新宿ライン, 上野東京ライン, 中央・総武線, 成田エクスプレス, 中央線快速, 京浜東北線, 埼京線, 仙石東北ライン),
        // former names (北/南リアス線), sections listed apart (汐見橋線, 丸ノ内線分岐線, JR九州 山陽線,
        // ブルーライン's 3号線) make no line, and 留萌本線 is closed.
        #expect(sd.count == 531)
        let n02 = try RealData.open(RealData.n02Database).lines.all()
        #expect(n02.count == 591)
        let both = try RealData.open(RealData.combinedDatabase).lines.all()
        #expect(both.count == 591)
        #expect(n02.contains { $0.id == "jr-hokkaido/c/海峡線" } && !both.contains { $0.id == "jr-hokkaido/c/海峡線" })
        #expect(both.filter { !$0.sources.contains { $0.hasPrefix("station-database:") } }.count == 62)
        #expect(both.filter { !$0.sources.contains { $0.hasPrefix("n02:") } }.count == 3)
        // Tram route numbers (広電Ｌ系統, 伊予鉄 １・２系統) are services, not lines (`LineDefinitions.isRouteNumber`).
        #expect(sd.filter(\.isLoop).map(\.id) == ["jr-east/c/山手線", "jr-west/c/大阪環状線", "nagoya-city/c/名城線", "sapporo-kosha/c/札幌市電山鼻線"])
    }

    /// Operators by section: station_database gives the whole 北陸新幹線 to JR東日本; the
    /// reconciler files its rows from 糸魚川 west under JR西日本, N02-23 has JR西日本's 上越妙高.
    @Test(.needsN02AndStationDatabase)
    func hokurikuShinkansenIsTwoSections() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let east = try #require(try store.lines.line(id: "jr-east/s/北陸新幹線"))
        let west = try #require(try store.lines.line(id: "jr-west/s/北陸新幹線"))
        // The line as station_database (and the railway's own definition) has it starts at 高崎;
        // 東京–高崎 is the 東北/上越新幹線 track its trains run on.
        #expect(east.stops.first?.station.name == "高崎" && east.stops.last?.station.name == "上越妙高")
        #expect(west.stops.first?.station.name == "上越妙高" && west.stops.last?.station.name == "敦賀")
    }
}

/// Display names and aliases of source line names (`LineNames` through the public results).
@Suite struct LineTableTests {
    func record(_ id: String, _ name: String, _ line: String, _ order: Int?, lat: Double, lon: Double,
                dataset: String = "station-database", op: String = "JR東日本") -> SourceRecord {
        SourceRecord(source: SourceRef(dataset: dataset, id: id), name: name, operatorName: op, serviceClass: .conventional,
                     lines: [line], coordinate: Coordinate(lat: lat, lon: lon), lineOrder: order)
    }

    @Test func sectionsOfOneOperatorJoinEndToEndAndAnUnorderedSourceMatchesByEntries() throws {
        let dir = TestPaths.temporaryDirectory()
        let store = try StationStore(path: dir.appendingPathComponent("lines.gpkg").path)
        // Two sections meeting at B (the second given from its far end), and a second line.
        let sd = [record("1", "A", "JR甲府線(A～B)", 1, lat: 35.0, lon: 139.0),
                  record("2", "B", "JR甲府線(A～B)", 2, lat: 35.0, lon: 139.1),
                  record("3", "C", "JR甲府線(乙線)(B～C)", 1, lat: 35.0, lon: 139.2),
                  record("2", "B", "JR甲府線(乙線)(B～C)", 2, lat: 35.0, lon: 139.1),
                  record("4", "D", "JR丙野線", 1, lat: 36.0, lon: 139.0),
                  record("5", "E", "JR丙野線", 2, lat: 36.0, lon: 139.1)]
        let other = [record("x1", "A", "甲府線", nil, lat: 35.0001, lon: 139.0, dataset: "n02", op: "東日本旅客鉄道"),
                     record("x2", "B", "甲府線", nil, lat: 35.0001, lon: 139.1, dataset: "n02", op: "東日本旅客鉄道"),
                     record("x3", "F", "甲府線", nil, lat: 35.0001, lon: 139.3, dataset: "n02", op: "東日本旅客鉄道")]
        try store.importBatches([("station-database", sd), ("n02", other)])
        let lines = try store.lines.all()
        #expect(lines.map(\.id) == ["jr-east/c/丙野線", "jr-east/c/甲府線"])
        let d = try #require(try store.lines.line(id: "jr-east/c/甲府線"))
        #expect(d.stops.map(\.station.name) == ["A", "B", "C", "F"])
        // F, which only the unordered source has, lies beyond C: it continues the line.
        #expect(d.stops.map(\.order) == [0, 1, 2, 3])
        #expect(d.stops.map(\.branch) == [0, 0, 0, 0])
        #expect(d.line.aliases == ["JR甲府線", "JR甲府線(A～B)", "JR甲府線(乙線)(B～C)", "乙線", "甲府線"])
        #expect(try store.lines.named("乙線").map(\.line.id) == ["jr-east/c/甲府線"])
        // Importing again keeps the table as it was.
        try store.importRecords(other, dataset: "n02")
        #expect(try store.lines.all() == lines)
    }

    @Test func version3DatabasesGetTheLineTableWhenOpenedWritable() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("v3.gpkg").path
        do {
            let store = try StationStore(path: path)
            try store.importRecords([record("1", "A", "JR甲府線", 1, lat: 35.0, lon: 139.0),
                                     record("2", "B", "JR甲府線", 2, lat: 35.0, lon: 139.1)], dataset: "station-database")
            // Make it a version 3 file: no line tables, no line order columns.
            try store.db.execute("""
                DROP TABLE line_aliases; DROP TABLE line_stations; DROP TABLE lines;
                ALTER TABLE source_records DROP COLUMN line_order; ALTER TABLE source_records DROP COLUMN line_color;
                UPDATE eki_meta SET value = '3' WHERE name = 'schema_version';
                """)
        }
        #expect(throws: StoreError.self) { try StationStore(path: path, readOnly: true) }
        let writable = try StationStore(path: path)
        #expect(try writable.db.scalarInt("SELECT CAST(value AS INTEGER) FROM eki_meta WHERE name = 'schema_version'") == 8)   // 3 → 4 → 5 → 6 → 7 → 8
        // The rows stored before have no order: the line is there, unordered, until imported again.
        let d = try #require(try writable.lines.line(id: "jr-east/c/jr甲府線"))
        #expect(d.stops.map(\.station.name) == ["A", "B"] && d.stops.map(\.order) == [nil, nil])
        #expect(try StationStore(path: path, readOnly: true).lines.all().count == 1)
    }

    /// The compiled common names are those of `Datasets/line-common-names.csv`, and the
    /// generator finds the Swift file up to date.
    @Test(.needsTool("python3")) func commonNamesMatchTheirCSV() throws {
        let csv = try String(contentsOfFile: TestPaths.package("Datasets/line-common-names.csv"), encoding: .utf8)
        #expect(LineCommonNames.all.count == csv.split(separator: "\n").count - 1)
        #expect(LineCommonNames.all.map(\.name) == ["山形新幹線", "秋田新幹線", "秋田新幹線"])
        #expect(LineCommonNames.all.allSatisfy { !$0.source.isEmpty })
        let check = try TestPaths.checkGenerator("Scripts/gen-line-tables.py")
        #expect(check.status == 0, "\(check.message)")
    }
}

