import Testing
import Foundation
import EkiCLI
import EkiKit
import EkiTestSupport

/// `eki lines`, `eki line`, `search --by line`, `stats --by line`, `--prefecture` and `visit
/// list --by` on the N02-23 + station_database database `RealData` builds once (read-only
/// here; each test has its own visit log).
@Suite struct LinesCommandTests {
    let dir = TestPaths.temporaryDirectory()

    func run(_ visits: String, _ args: String...) -> EkiRun {
        eki(args + ["--db", RealData.combinedDatabase, "--visits", dir.appendingPathComponent(visits).path])
    }

    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    /// The example: visits at 小田原 (JR東海 Shinkansen) and 熱海 (JR東海 conventional).
    @Test(.needsN02AndStationDatabase) func jrCentralCompletionAfterTwoVisits() throws {
        #expect(run("v.sqlite", "visit", "add", "jr-central/s/小田原", "--date", "2019-08-13").status == 0)
        #expect(run("v.sqlite", "visit", "add", "jr-central/c/熱海", "--date", "2019-08-17").status == 0)
        let r = run("v.sqlite", "lines", "--operator", "JR東海", "--format", "json")
        #expect(r.status == 0, "\(r.err)")
        let lines = try #require(try json(r.out) as? [[String: Any]])
        #expect(lines.count == 13)
        let shinkansen = try #require(lines.first { $0["id"] as? String == "jr-central/s/東海道新幹線" })
        #expect(shinkansen["name"] as? String == "東海道新幹線" && shinkansen["operator_id"] as? String == "jr-central")
        #expect(shinkansen["class"] as? String == "shinkansen")
        #expect(shinkansen["visited"] as? Int == 1 && shinkansen["total"] as? Int == 17)
        #expect(shinkansen["operator_type"] as? String == "JR")
        #expect((shinkansen["aliases"] as? [String]) == ["東海道新幹線"])
        let tokaido = try #require(lines.first { $0["id"] as? String == "jr-central/c/東海道本線" })
        #expect(tokaido["visited"] as? Int == 1 && tokaido["total"] as? Int == 86)
        let table = run("v.sqlite", "lines", "--operator", "jr-central", "--class", "s")
        #expect(table.out == """
            type   operator  line          class   visited  total  percent
            JR     JR東海    東海道新幹線  新幹線  1        17     5.88%
            total            1 lines               1        17     5.88%

            """)
        let stats = run("v.sqlite", "stats", "--by", "line", "--format", "csv")
        #expect(stats.out.hasPrefix("line,visited,total,percent\r\nJR東海 東海道本線,1,86,1.16\r\nJR東海 東海道新幹線,1,17,5.88\r\n"), "\(stats.out.prefix(300))")
        let byMonth = run("v.sqlite", "visit", "list", "--by", "month")
        #expect(byMonth.out == "month    completed\n2019-08  2\ntotal    2\n")
        let line = try #require(try json(run("v.sqlite", "line", "東海道新幹線", "--format", "json").out) as? [String: Any])
        let stations = try #require(line["stations"] as? [[String: Any]])
        #expect(stations.count == 17 && stations[3]["name"] as? String == "小田原")
        #expect(stations[3]["visited"] as? Bool == true && stations[3]["completed"] as? String == "2019-08-13")
        #expect(stations[3]["order"] as? Int == 3 && stations[3]["key"] as? String == "jr-central/s/小田原")
        #expect(stations[0]["reading"] as? String == "とうきょう" && stations[0]["visited"] as? Bool == false)
        #expect((line["line"] as? [String: Any])?["visited"] as? Int == 1)
    }

    @Test(.needsN02AndStationDatabase) func yamagataShinkansenByLine() throws {
        let search = run("none.sqlite", "search", "山形新幹線", "--by", "line", "--limit", "100", "--format", "csv")
        #expect(search.status == 0)
        let names = search.out.split(separator: "\r\n").dropFirst().map { String($0.split(separator: ",")[1]) }
        #expect(names.count == 35 && names.first == "福島" && names.last == "新庄")   // 赤岩 is closed
        let line = try #require(try json(run("none.sqlite", "line", "山形新幹線", "--format", "json").out) as? [String: Any])
        let stations = try #require(line["stations"] as? [[String: Any]])
        #expect(stations.map { $0["name"] as? String }.prefix(3) == ["福島", "笹木野", "庭坂"])
        #expect(stations.last?["name"] as? String == "新庄" && stations.count == 36)
        // 赤岩 (closed 2021) stands in its place along the line, marked closed.
        #expect(stations.filter { $0["open"] as? Bool == false }.map { $0["name"] as? String } == ["赤岩"])
        #expect(stations.filter { $0["open"] as? Bool == true }.count == 35)
        #expect((line["line"] as? [String: Any])?["section"] as? String == "山形新幹線")
        let akita = try #require(try json(run("none.sqlite", "line", "秋田新幹線", "--format", "json").out) as? [String: Any])
        let a = try #require(akita["stations"] as? [[String: Any]])
        #expect(a.first?["name"] as? String == "盛岡" && a.last?["name"] as? String == "秋田")
        #expect(a.filter { $0["name"] as? String == "大曲" }.count == 1)
    }

    @Test(.needsN02AndStationDatabase) func lineGeoJSONIsPointsAndALineStringInOrder() throws {
        let g = try #require(try json(run("none.sqlite", "line", "銀座線", "--format", "geojson").out) as? [String: Any])
        let features = try #require(g["features"] as? [[String: Any]])
        let points = features.filter { ($0["geometry"] as? [String: Any])?["type"] as? String == "Point" }
        let strings = features.filter { ($0["geometry"] as? [String: Any])?["type"] as? String == "LineString" }
        #expect(points.count == 19 && strings.count == 1)
        let coords = try #require((strings[0]["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        #expect(coords.count == 19)
        let first = try #require((points[0]["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        #expect(coords[0] == first && (points[0]["properties"] as? [String: Any])?["name"] as? String == "浅草")
        // The loop closes its ring.
        let loop = try #require(try json(run("none.sqlite", "line", "jr-east/c/山手線", "--format", "geojson").out) as? [String: Any])
        let ring = (loop["features"] as? [[String: Any]])?.compactMap { ($0["geometry"] as? [String: Any]).flatMap { $0["type"] as? String == "LineString" ? $0["coordinates"] as? [[Double]] : nil } }
        #expect(ring?.first?.count == 31 && ring?.first?.first == ring?.first?.last)
    }

    /// A name that matches nothing is a data error (exit 1) naming the closest names, by edit
    /// distance over the line names and aliases, or the operator names, short names and aliases.
    @Test(.needsN02AndStationDatabase) func unknownNamesSuggestTheClosest() {
        let operatorTypo = run("none.sqlite", "lines", "--operator", "JR束海")
        #expect(operatorTypo.status == 1 && operatorTypo.out.isEmpty)
        #expect(operatorTypo.err == "eki lines: no operator with lines is called 'JR束海'; did you mean JR東海 (jr-central)?\n")
        // The formal name and the id are names of the operator too.
        #expect(run("none.sqlite", "lines", "--operator", "東海旅客铁道").err
                == "eki lines: no operator with lines is called '東海旅客铁道'; did you mean JR東海 (jr-central)?\n")
        #expect(run("none.sqlite", "lines", "--operator", "jr-centrl").err
                == "eki lines: no operator with lines is called 'jr-centrl'; did you mean JR東海 (jr-central)?\n")
        let far = run("none.sqlite", "lines", "--operator", "まったく別の会社")
        #expect(far.status == 1 && far.err == "eki lines: no operator with lines is called 'まったく別の会社' (`eki lines` lists the operators)\n")
        // A real operator, filtered to nothing, is an empty list, not an error.
        let empty = run("none.sqlite", "lines", "--operator", "JR東海", "--prefecture", "北海道")
        #expect(empty.status == 0 && empty.out.hasSuffix("total            0 lines         0        0      0.00%\n"), "\(empty.out)")

        let lineTypo = run("none.sqlite", "line", "東海道新幹")
        #expect(lineTypo.status == 1 && lineTypo.out.isEmpty)
        #expect(lineTypo.err == "eki line: no line is called '東海道新幹'; did you mean 東海道新幹線 (JR東海)?\n")
        #expect(run("none.sqlite", "line", "銀坐線").err == "eki line: no line is called '銀坐線'; did you mean 銀座線 (東京メトロ)?\n")
        // A common name is suggested with the operator of the line it is a section of.
        #expect(run("none.sqlite", "line", "山形新幹綫").err == "eki line: no line is called '山形新幹綫'; did you mean 山形新幹線 (JR東日本)?\n")
        let unknown = run("none.sqlite", "line", "存在しない線")
        #expect(unknown.status == 1 && unknown.err == "eki line: no line is called '存在しない線' (`eki lines` lists them)\n")
    }

    @Test(.needsN02AndStationDatabase) func ambiguousNamesAreUsageErrors() {
        let r = run("none.sqlite", "line", "東海道線")
        #expect(r.status == 64)
        #expect(r.err == "eki line: '東海道線' names 3 lines: jr-central/c/東海道本線, jr-east/c/東海道本線, jr-west/c/東海道本線; give one id\n")
        #expect(run("none.sqlite", "lines", "--class", "x").status == 64)
        #expect(run("none.sqlite", "visit", "list", "--by", "week").status == 64)
    }

    @Test(.needsN02AndStationDatabase) func prefectureFilters() throws {
        let near = run("none.sqlite", "nearest", "--lat", "35.1", "--lon", "139.08", "-k", "3", "--prefecture", "神奈川県", "--format", "csv")
        #expect(near.out.split(separator: "\r\n").dropFirst().map { String($0.split(separator: ",")[0]) }
                == ["jr-east/c/湯河原", "jr-east/c/真鶴", "jr-east/c/根府川"])
        let box = run("none.sqlite", "bbox", "139.0,35.0,139.2,35.3", "--prefecture", "静岡県", "--format", "csv")
        // header + 9 entries, all 静岡県: 熱海 ×3, 来宮, 伊豆多賀, 宇佐美, 網代, 十国峠山頂, 十国峠山麓 (熱海市)
        #expect(box.out.split(separator: "\r\n").dropFirst().map { String($0.split(separator: ",")[0]) }
                == ["jr-central/c/熱海", "jr-central/s/熱海", "jr-east/c/伊豆多賀", "jr-east/c/宇佐美", "jr-east/c/来宮", "jr-east/c/熱海",
                    "jr-east/c/網代", "jukkoku-toge/c/十国峠山頂", "jukkoku-toge/c/十国峠山麓"])
        let lines = run("none.sqlite", "lines", "--prefecture", "静岡県", "--class", "s", "--format", "csv")
        #expect(lines.out == "id,operator_type,operator_id,operator,name,class,visited,total,percent\r\njr-central/s/東海道新幹線,JR,jr-central,JR東海,東海道新幹線,shinkansen,0,6,0.00\r\n")
    }

    @Test(.needsN02AndStationDatabase) func infoListsLinesAndTheUnmatched() throws {
        func info(_ args: String...) -> EkiRun { eki(["info", "--db", RealData.combinedDatabase] + args) }
        let table = info()
        #expect(table.out.contains("""
            lines: 591 open (unmatched: only that dataset has the line; list them with --unmatched-lines DATASET)
            dataset           lines  unmatched
            n02               588    62
            station-database  529    3
            lines without a full order (some stations have no position):
            """))
        let summary = try #require(try json(info("--format", "json").out) as? [String: Any])
        let lines = try #require(summary["lines"] as? [String: Any])
        #expect(lines["open"] as? Int == 591)
        let unordered = try #require(lines["unordered"] as? [String])
        #expect(!unordered.isEmpty && !unordered.contains("jr-west/c/奈良線"))
        let sd = try #require(try json(info("--unmatched-lines", "station-database", "--format", "json").out) as? [[String: Any]])
        #expect(sd.count == 3)
        #expect(sd.contains { $0["id"] as? String == "kumaden/c/上熊本線" })
        #expect(sd.allSatisfy { ($0["sources"] as? [String] ?? []).allSatisfy { $0.hasPrefix("station-database:") } })
        let n02 = try #require(try json(info("--unmatched-lines", "n02", "--format", "json").out) as? [[String: Any]])
        #expect(n02.count == 62)
        #expect(n02.contains { $0["id"] as? String == "takao-tozan/c/高尾鋼索線" && $0["total"] as? Int == 2 })
        #expect(info("--unmatched-lines", "osm").status == 64)
    }
}
