import Testing
import Foundation
import EkiCLI
import EkiKit
import EkiTestSupport

/// `eki visit`, `eki stats` and `--visited/--unvisited` on real data: station_database (and
/// N02-23) from ../shared, skipped with the reason when absent.
@Suite(.serialized) struct VisitRealDataTests {
    let dir = TestPaths.temporaryDirectory()
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// `eki args… --db db --visits visits`.
    func run(_ db: String, _ visits: String, _ args: String...) -> EkiRun {
        eki(args + ["--db", db, "--visits", visits])
    }

    /// A fresh database of station_database `main` (and N02 first or after it).
    func build(_ name: String, stationDatabase main: String, n02: String? = nil, n02First: Bool = true) -> String {
        let db = path(name)
        try? FileManager.default.removeItem(atPath: db)
        let n02Import = { if let n02 { #expect(eki("import", "--db", db, n02).status == 0) } }
        if n02First { n02Import() }
        let r = eki("import", "--db", db, main)
        #expect(r.status == 0, "\(r.err)")
        if !n02First { n02Import() }
        return db
    }

    static let odawaraJRE = "jr-east/c/小田原", odawaraShinkansen = "jr-central/s/小田原", atamiJRC = "jr-central/c/熱海"

    /// The three visits of the issue, recorded by name as a person would.
    func recordThree(_ db: String, _ visits: String) {
        let a = run(db, visits, "visit", "add", "小田原", "--operator", "JR東日本", "--date", "2019-08-13", "--kind", "board")
        #expect(a.status == 0 && a.out == "visit 1: 2019-08-13 board 小田原 (JR東日本) jr-east/c/小田原\n", "\(a.out)\(a.err)")
        let b = run(db, visits, "visit", "add", "小田原", "--operator", "JR東海", "--date", "2019-08-13", "--kind", "alight")
        #expect(b.out == "visit 2: 2019-08-13 alight 小田原 (JR東海 新幹線) jr-central/s/小田原\n", "\(b.err)")
        let c = run(db, visits, "visit", "add", "熱海", "--operator", "jr東海", "--class", "conventional",
                    "--date", "2019-08-17", "--kind", "transfer")
        #expect(c.out == "visit 3: 2019-08-17 transfer 熱海 (JR東海) jr-central/c/熱海\n", "\(c.err)")
    }

    func keys(_ csv: String) -> [String] {
        csv.split(separator: "\r\n").dropFirst().map { String($0.split(separator: ",")[0]) }
    }

    @Test(.needsStationDatabase) func threeVisitsOnStationDatabase() throws {
        let main = TestPaths.requireShared(TestPaths.stationDatabaseMainFolder)
        let db = build("sd.gpkg", stationDatabase: main), visits = path("visits.sqlite")
        // A name with five entries is refused, with the candidates listed; nothing is written.
        let ambiguous = run(db, visits, "visit", "add", "小田原")
        #expect(ambiguous.status == 1)
        #expect(ambiguous.err.hasPrefix("eki visit add: '小田原' matches 5 entries; give a key, or narrow with --operator, --class or --near:\n"))
        for key in [Self.odawaraJRE, Self.odawaraShinkansen, "izuhakone/c/小田原", "odakyu/c/小田原", "hakone-tozan/c/小田原"] {
            #expect(ambiguous.err.contains(key))
        }
        #expect(!FileManager.default.fileExists(atPath: visits))
        let twoAtAtami = run(db, visits, "visit", "add", "熱海", "--operator", "JR東海", "--near", "35.1036,139.0777")
        #expect(twoAtAtami.status == 1 && twoAtAtami.err.contains("matches 2 entries"))
        #expect(run(db, visits, "visit", "add", "熱海", "--near", "35.68,139.76").err
                == "eki visit add: no entry matches '熱海' with the options given\n")

        recordThree(db, visits)
        #expect(run(db, visits, "visit", "add", Self.atamiJRC, "--date", "2019-08-17", "--kind", "transfer").status == 1)

        let bbox = run(db, visits, "bbox", "139.14,35.24,139.17,35.27", "--visited", "--format", "csv")
        #expect(bbox.status == 0)
        #expect(keys(bbox.out) == [Self.odawaraShinkansen, Self.odawaraJRE])   // sorted by key
        #expect(bbox.out.split(separator: "\r\n").dropFirst().allSatisfy { $0.hasSuffix(",yes,2019-08-13") })
        // The same filter on search: the visited 小田原 entries, then the first unvisited one.
        let searched = run(db, visits, "search", "小田原", "--visited", "--format", "csv")
        #expect(searched.status == 0, "\(searched.err)")
        #expect(Set(keys(searched.out)) == [Self.odawaraShinkansen, Self.odawaraJRE])
        #expect(searched.out.split(separator: "\r\n").dropFirst().allSatisfy { $0.hasSuffix(",yes,2019-08-13") })
        let searchedUnvisited = keys(run(db, visits, "search", "小田原", "--unvisited", "--limit", "1", "--format", "csv").out)
        #expect(searchedUnvisited.count == 1 && ["hakone-tozan/c/小田原", "izuhakone/c/小田原", "odakyu/c/小田原"].contains(searchedUnvisited[0]))
        let unvisited = keys(run(db, visits, "bbox", "139.14,35.24,139.17,35.27", "--unvisited", "--format", "csv").out)
        #expect(unvisited.count == 6 && !unvisited.contains(Self.odawaraJRE) && !unvisited.contains(Self.odawaraShinkansen))
        // The pin cap applies after the filter (both share station_database's point: the tie
        // goes to the smaller key).
        #expect(keys(run(db, visits, "bbox", "139.14,35.24,139.17,35.27", "--visited", "--limit", "1", "--format", "csv").out)
                == [Self.odawaraShinkansen])
        #expect(keys(run(db, visits, "bbox", "139.14,35.24,139.17,35.27", "--unvisited", "--limit", "6", "--format", "csv").out).count == 6)

        let json = run(db, visits, "nearest", "--lat", "35.1036", "--lon", "139.0777", "-k", "2", "--visited", "--format", "json")
        let near = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as! [[String: Any]]
        #expect(near.map { $0["key"] as? String } == [Self.atamiJRC, Self.odawaraShinkansen])
        #expect(near.map { $0["completed"] as? String } == ["2019-08-17", "2019-08-13"])
        #expect(near.allSatisfy { $0["visited"] as? Bool == true })
        let unvisitedNear = run(db, visits, "nearest", "--lat", "35.1036", "--lon", "139.0777", "-k", "3", "--unvisited", "--format", "csv")
        #expect(keys(unvisitedNear.out) == ["jr-central/s/熱海", "jr-east/c/熱海", "jr-east/c/来宮"])

        let stats = run(db, visits, "stats", "--by", "operator", "--format", "csv")
        let rows = stats.out.split(separator: "\r\n")
        #expect(rows.first == "operator,visited,total,percent")
        #expect(rows[1] == "JR東海,2,420,0.48")   // 高山本線 楡原–富山 is JR西日本's (Datasets/operator-sections.csv)
        // 北陸新幹線 west of 上越妙高 is JR西日本's; 米坂線 今泉–坂町, 津軽線 蟹田–三厩 and 猪苗代湖畔 (19) are suspended.
        #expect(rows[2] == "JR東日本,1,1641,0.06")
        #expect(rows.last == "total,3,9483,0.03")   // 近鉄内部線 is 四日市あすなろう鉄道's (2015)
        // Every open entry counts under --rules all; the suspended stations too.
        let all = run(db, visits, "stats", "--by", "operator", "--format", "csv", "--rules", "all").out.split(separator: "\r\n")
        #expect(all[2] == "JR東日本,1,1660,0.06" && all.last == "total,3,9519,0.03")
        #expect(run(db, visits, "stats", "--rules", "some").status == 64)
        let table = run(db, visits, "stats", "--by", "class")
        #expect(table.out.contains("新幹線  1        ") && table.out.contains("在来線  2        "))

        let check = run(db, visits, "visit", "check")
        #expect(check.status == 0)
        #expect(check.out == "3 visits at 3 station keys: 3 resolve (0 through an alias), 0 orphaned\n")
    }

    /// The same files imported again from scratch: the same keys, the same stations.
    @Test(.needsStationDatabase) func visitsSurviveRebuildFromTheSameFiles() throws {
        let main = TestPaths.requireShared(TestPaths.stationDatabaseMainFolder)
        let db = build("rebuild.gpkg", stationDatabase: main), visits = path("rebuild.sqlite")
        recordThree(db, visits)
        let before = try resolved(db, visits)
        let bboxBefore = run(db, visits, "bbox", "139.14,35.24,139.17,35.27", "--visited", "--format", "geojson").out
        _ = build("rebuild.gpkg", stationDatabase: main)
        #expect(try resolved(db, visits) == before)
        #expect(before.count == 3 && before.allSatisfy { $0 != nil })
        #expect(run(db, visits, "bbox", "139.14,35.24,139.17,35.27", "--visited", "--format", "geojson").out == bboxBefore)
        #expect(run(db, visits, "visit", "check").status == 0)
    }

    /// N02-23 and station_database imported in either order: the three visits resolve to the
    /// same entries (same sources), and the viewport and stats agree.
    @Test(.needsN02AndStationDatabase) func visitsSurviveEitherImportOrder() throws {
        let main = TestPaths.requireShared(TestPaths.stationDatabaseMainFolder)
        let n02 = TestPaths.requireShared(TestPaths.n02CSVFile)
        let visits = path("order.sqlite")
        let first = build("n02-sd.gpkg", stationDatabase: main, n02: n02, n02First: true)
        let second = build("sd-n02.gpkg", stationDatabase: main, n02: n02, n02First: false)
        recordThree(first, visits)
        let a = try resolved(first, visits), b = try resolved(second, visits)
        #expect(a.count == 3 && a.allSatisfy { $0 != nil })
        #expect(a == b)
        // Each is one entry holding the rows of both sources.
        #expect(a.allSatisfy { Set($0!.sources.map(\.dataset)) == ["n02", "station-database"] })
        for db in [first, second] {
            #expect(keys(run(db, visits, "bbox", "139.14,35.24,139.17,35.27", "--visited", "--format", "csv").out)
                    == [Self.odawaraShinkansen, Self.odawaraJRE])
            #expect(run(db, visits, "stats", "--by", "operator", "--format", "csv").out.contains("\r\nJR東海,2,"))
        }
    }

    /// A station with a bracketed part is named by either part: `visit add 本諫早` records
    /// 本諫早（諫早市役所前）, and `show` finds it (it said "no entry matches").
    @Test(.needsN02AndStationDatabase) func bracketedNameByEitherPart() throws {
        let db = RealData.combinedDatabase, visits = path("bracket.sqlite")
        let add = run(db, visits, "visit", "add", "本諫早", "--date", "2024-05-03")
        #expect(add.status == 0, "\(add.err)")
        #expect(add.out.contains("shimatetsu/c/本諫早"), "\(add.out)")
        let show = eki("show", "本諫早", "--db", db)
        #expect(show.status == 0 && show.out.contains("本諫早（諫早市役所前）"), "\(show.err)")
        #expect(run(db, visits, "visit", "add", "諫早市役所前", "--date", "2024-05-04").out.contains("shimatetsu/c/本諫早"))
    }

    /// A "next edition" of station_database in which 熱海 (code 100205) is renamed 熱海温泉.
    @Test(.needsStationDatabase) func renamedStationInANextEdition() throws {
        let main = TestPaths.requireShared(TestPaths.stationDatabaseMainFolder)
        let next = dir.appendingPathComponent("next-edition")
        let source = URL(fileURLWithPath: main)
        try FileManager.default.createDirectory(at: next.appendingPathComponent("main"), withIntermediateDirectories: true)
        for f in ["line.csv", "register.csv"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent(f), to: next.appendingPathComponent("main/\(f)"))
        }
        try FileManager.default.copyItem(at: source.deletingLastPathComponent().appendingPathComponent("src"),
                                         to: next.appendingPathComponent("src"))
        let stations = try String(contentsOf: source.appendingPathComponent("station.csv"), encoding: .utf8)
        let renamed = stations.replacingOccurrences(of: "\n100205,1278,熱海,熱海,あたみ,", with: "\n100205,1278,熱海温泉,熱海温泉,あたみおんせん,")
        #expect(renamed != stations)
        try renamed.write(to: next.appendingPathComponent("main/station.csv"), atomically: true, encoding: .utf8)
        let nextMain = next.appendingPathComponent("main").path

        // The next edition imported over the database the visits were recorded on: keys stay.
        let db = build("next.gpkg", stationDatabase: main), visits = path("next.sqlite")
        recordThree(db, visits)
        let before = try resolved(db, visits)
        #expect(eki("import", "--db", db, nextMain).status == 0)
        let after = try resolved(db, visits)
        #expect(after.map { $0?.key } == before.map { $0?.key })
        #expect(after.map { $0?.sources } == before.map { $0?.sources })
        #expect(after[2]?.name == "熱海温泉" && after[2]?.formerNames == ["熱海"])
        #expect(run(db, visits, "visit", "check").out == "3 visits at 3 station keys: 3 resolve (0 through an alias), 0 orphaned\n")
        #expect(run(db, visits, "stats", "--by", "operator", "--format", "csv").out.contains("\r\nJR東海,2,420,"))
        #expect(run(db, visits, "visit", "share").out.contains("  熱海温泉（JR東海）乗換 ★\n"))

        // A database built from scratch from the next edition alone has no alias for the old
        // key; the log noted which source rows the key stood for (at `visit add`), and finds
        // the renamed station by them.
        let fresh = build("next-fresh.gpkg", stationDatabase: nextMain)
        let atamiNow = try resolved(fresh, visits)[2]
        #expect(atamiNow?.sources == before[2]?.sources)
        #expect(atamiNow?.name == "熱海温泉")
        let check = run(fresh, visits, "visit", "check")
        #expect(check.status == 0)
        #expect(check.out.hasPrefix("3 visits at 3 station keys: 3 resolve (1 through an alias), 0 orphaned\n"))
        #expect(run(fresh, visits, "stats", "--by", "operator", "--format", "csv").out.contains("\r\nJR東海,2,420,"))
        #expect(run(fresh, visits, "bbox", "139.0,35.0,139.2,35.3", "--visited", "--format", "csv").out.contains("熱海温泉"))

        // A log without that note (an older file, or visits imported from an export) reports
        // the visit as orphaned and keeps it.
        let bare = path("bare.sqlite")
        let exported = run(db, visits, "visit", "export")
        let exportFile = dir.appendingPathComponent("visits.csv").path
        #expect(FileManager.default.createFile(atPath: exportFile, contents: Data(exported.out.utf8)))
        #expect(eki("visit", "import", exportFile, "--keep-orphans", "--visits", bare).status == 0)
        let orphan = run(fresh, bare, "visit", "check")
        #expect(orphan.status == 1)
        #expect(orphan.out == """
            3 visits at 3 station keys: 2 resolve (0 through an alias), 1 orphaned
            orphaned (kept in the log; they count again once the key resolves):
              jr-central/c/熱海  visit 3

            """)
        #expect(run(fresh, bare, "visit", "list").out.contains("(orphaned)"))
        #expect(run(fresh, bare, "stats").out.contains("1 visited key resolves to no entry (see `eki visit check`)\n"))
        // With an alias to the renamed entry, the visit resolves again.
        let store = try StationStore(path: fresh)
        try store.db.execute("INSERT INTO station_aliases (old_key, new_key, reason) VALUES ('jr-central/c/熱海', 'jr-central/c/熱海温泉', 'renamed')")
        #expect(try store.entries.resolve(key: Self.atamiJRC)?.sources == before[2]?.sources)
        let aliased = run(fresh, bare, "visit", "check")
        #expect(aliased.status == 0)
        #expect(aliased.out.hasPrefix("3 visits at 3 station keys: 3 resolve (1 through an alias), 0 orphaned\nthrough an alias:\n"))
    }

    /// The entries the three visits' keys resolve to now.
    func resolved(_ db: String, _ visits: String) throws -> [Station?] {
        let store = try StationStore(path: db, readOnly: true)
        let log = try VisitLog(path: visits, create: false)
        return try [Self.odawaraJRE, Self.odawaraShinkansen, Self.atamiJRC].map { try log.resolve($0, in: store) }
    }
}
