import Testing
import Foundation
import EkiCLI
import EkiTestSupport

/// `eki visit` on the N02 sample in Datasets/ (39 entries around 小田原 and 東京) and a fixed log.
@Suite(.serialized) struct VisitLogCommandTests {
    let dir = TestPaths.temporaryDirectory()
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// The sample database, built once per test.
    func sampleDatabase() -> String { EkiCLITests.sampleDatabase(in: dir) }

    /// A fixed log: partial and unknown dates, every kind, a note with a comma and quotes, a
    /// second visit of one station and a key the sample does not have.
    static let seed = #"""
        id,station,date,kind,note
        1,jr-east/c/小田原,2019-08-13,board,
        2,jr-central/s/小田原,2019-08-13,alight,こだま 660号
        3,odakyu/c/小田原,2019-08-13,pass,
        4,hakone-tozan/c/箱根湯本,2019-08-14,alight,
        5,hakone-tozan/c/小田原,2019-08-16,transfer,
        6,tokyo-metro/c/銀座,2019-08,,"銀座線, 日比谷線 ""どちらか"""
        7,jr-east/c/東京,,board,
        8,jr-east/c/小田原,2019-08-20,alight,
        9,jr-central/c/熱海,2019-08-20,board,
        10,hakone-tozan/c/風祭,2019,,

        """#

    func seeded(_ name: String) throws -> (db: String, visits: String) {
        let file = path(name + ".csv"), visits = path(name + ".sqlite")
        try Self.seed.write(toFile: file, atomically: true, encoding: .utf8)
        let r = eki("visit", "import", file, "--keep-orphans", "--visits", visits)
        #expect(r.out == "\(file): 10 visits: 10 added, 0 already present, 0 conflicts, 0 renumbered\n", "\(r.err)")
        return (sampleDatabase(), visits)
    }

    func run(_ s: (db: String, visits: String), _ args: String...) -> EkiRun {
        eki(args + ["--db", s.db, "--visits", s.visits])
    }

    @Test func listOrdersPartialDates() throws {
        let s = try seeded("list")
        #expect(run(s, "visit", "list").out == """
            id  date        kind      station                  note                         key
            7   unknown     board     東京 (JR東日本)                                       jr-east/c/東京
            10  2019                  風祭 (箱根登山鉄道)                                   hakone-tozan/c/風祭
            6   2019-08               銀座 (東京メトロ)        銀座線, 日比谷線 "どちらか"  tokyo-metro/c/銀座
            1   2019-08-13  board     小田原 (JR東日本)                                     jr-east/c/小田原
            2   2019-08-13  alight    小田原 (JR東海 新幹線)   こだま 660号                 jr-central/s/小田原
            3   2019-08-13  pass      小田原 (小田急)                                       odakyu/c/小田原
            4   2019-08-14  alight    箱根湯本 (箱根登山鉄道)                               hakone-tozan/c/箱根湯本
            5   2019-08-16  transfer  小田原 (箱根登山鉄道)                                 hakone-tozan/c/小田原
            8   2019-08-20  alight    小田原 (JR東日本)                                     jr-east/c/小田原
            9   2019-08-20  board     (orphaned)                                            jr-central/c/熱海
            (10 visits)

            """)
        let ranged = run(s, "visit", "list", "--since", "2019-08-14", "--until", "2019-08-16").out
        #expect(ranged.split(separator: "\n").dropFirst().map { $0.prefix(3).trimmingCharacters(in: .whitespaces) }
                == ["10", "6", "4", "5", "(4"])
    }

    /// `visit share` in Japanese (the default): 乗車 / 降車 / 乗換 / 通過, 日付不明, the weekday as
    /// （火）, 記録のない日 for days without visits, completion as `7 / 39 駅（17.95 %）`.
    @Test func shareIsExactInJapanese() throws {
        let s = try seeded("share")
        #expect(run(s, "visit", "share").out == """
            乗下車記録 2019年〜2019年8月20日

            日付不明
              東京（JR東日本）乗車 ★
            2019年（月日不明）
              風祭（箱根登山鉄道）★
            2019年8月（日付不明）
              銀座（東京メトロ）★ 「銀座線, 日比谷線 "どちらか"」
            2019年8月13日（火）
              小田原（JR東日本）乗車 ★
              小田原（JR東海 新幹線）降車 ★ 「こだま 660号」
              小田原（小田急）通過
            2019年8月14日（水）
              箱根湯本（箱根登山鉄道）降車 ★
            2019年8月15日　記録のない日
            2019年8月16日（金）
              小田原（箱根登山鉄道）乗換 ★
            2019年8月17日〜19日　記録のない日が 3 日
            2019年8月20日（火）
              小田原（JR東日本）降車
              jr-central/c/熱海（駅データにない駅）乗車

            ★ 初めて乗下車した駅：7 駅
            降りつぶし：7 / 39 駅（17.95 %）

            """)
        #expect(run(s, "visit", "share", "--lang", "ja").out == run(s, "visit", "share").out)
        // With transfers not counting, 箱根登山鉄道's 小田原 is not completed.
        #expect(run(s, "visit", "config", "transfer-counts", "no").out == "transfer-counts no\n")
        #expect(run(s, "visit", "share", "--since", "2019-08-14", "--until", "2019-08-31").out == """
            乗下車記録 2019年8月14日〜31日

            2019年（月日不明）
              風祭（箱根登山鉄道）★
            2019年8月（日付不明）
              銀座（東京メトロ）★ 「銀座線, 日比谷線 "どちらか"」
            2019年8月14日（水）
              箱根湯本（箱根登山鉄道）降車 ★
            2019年8月15日　記録のない日
            2019年8月16日（金）
              小田原（箱根登山鉄道）乗換
            2019年8月17日〜19日　記録のない日が 3 日
            2019年8月20日（火）
              小田原（JR東日本）降車
              jr-central/c/熱海（駅データにない駅）乗車

            ★ 初めて乗下車した駅：3 駅
            降りつぶし：6 / 39 駅（15.38 %）

            """)
        // Open ranges, and a period without visits.
        #expect(run(s, "visit", "share", "--since", "2019-08-16").out.hasPrefix("乗下車記録 2019年8月16日〜20日\n"))
        #expect(run(s, "visit", "share", "--since", "2021-12-30", "--until", "2022-01-02").out == """
            乗下車記録 2021年12月30日〜2022年1月2日

            この期間の記録はありません。

            ★ 初めて乗下車した駅：0 駅
            降りつぶし：6 / 39 駅（15.38 %）

            """)
    }

    /// `visit share --lang en`: the same summary in English.
    @Test func shareIsExactInEnglish() throws {
        let s = try seeded("share-en")
        #expect(run(s, "visit", "share", "--lang", "en").out == """
            Visits 2019 – 2019-08-20

            date unknown
              東京 (JR東日本) board ★
            2019, month unknown
              風祭 (箱根登山鉄道) ★
            2019-08, day unknown
              銀座 (東京メトロ) ★ — 銀座線, 日比谷線 "どちらか"
            2019-08-13 Tue
              小田原 (JR東日本) board ★
              小田原 (JR東海 新幹線) alight ★ — こだま 660号
              小田原 (小田急) pass
            2019-08-14 Wed
              箱根湯本 (箱根登山鉄道) alight ★
            2019-08-15: no visits
            2019-08-16 Fri
              小田原 (箱根登山鉄道) transfer ★
            2019-08-17 – 2019-08-19: no visits (3 days)
            2019-08-20 Tue
              小田原 (JR東日本) alight
              jr-central/c/熱海 (not in the station database) board

            ★ new stations: 7
            Completed: 7 of 39 open stations (17.95%)

            """)
        #expect(run(s, "visit", "share", "--lang", "en-GB", "--since", "2021").out == """
            Visits from 2021

            No visits.

            ★ new stations: 0
            Completed: 7 of 39 open stations (17.95%)

            """)
        let bad = run(s, "visit", "share", "--lang", "fr")
        #expect(bad.status == 64 && bad.err == "eki visit: --lang must be ja or en, got 'fr'\n" && bad.out.isEmpty)
        // With transfers not counting, 箱根登山鉄道's 小田原 is not completed.
        #expect(run(s, "visit", "config", "transfer-counts", "no").out == "transfer-counts no\n")
        let stats = run(s, "stats", "--by", "class", "--format", "csv").out
        #expect(stats == "class,visited,total,percent\r\nconventional,5,36,13.89\r\nshinkansen,1,3,33.33\r\ntotal,6,39,15.38\r\n")
    }

    /// export → wipe → import gives the same list and the same export, byte for byte.
    @Test func exportWipeImportByteForByte() throws {
        let s = try seeded("roundtrip")
        #expect(run(s, "visit", "rm", "3", "9").out == """
            removed visit 3: 2019-08-13 pass odakyu/c/小田原
            removed visit 9: 2019-08-20 board jr-central/c/熱海

            """)
        let added = run(s, "visit", "add", "風祭", "--date", "2020-01-02", "--note", "line one\nline \"two\", \\ three")
        #expect(added.out == "visit 11: 2020-01-02 - 風祭 (箱根登山鉄道) hakone-tozan/c/風祭\n", "\(added.err)")
        let list = run(s, "visit", "list").out
        #expect(list.contains("line one line \"two\", \\ three"))
        for format in ["csv", "json"] {
            let export = run(s, "visit", "export", "--format", format).out
            let file = path("export.\(format)")
            try export.write(toFile: file, atomically: true, encoding: .utf8)
            let wiped = path("wiped-\(format).sqlite")
            let fresh = (db: s.db, visits: wiped)
            let imported = run(fresh, "visit", "import", file)
            #expect(imported.out == "\(file): 9 visits: 9 added, 0 already present, 0 conflicts, 0 renumbered\n")
            #expect(run(fresh, "visit", "list").out == list, "\(format)")
            #expect(run(fresh, "visit", "export", "--format", format).out == export, "\(format)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(run(fresh, "visit", "export", "--format", format).out.utf8))
            // Importing again changes nothing.
            #expect(run(fresh, "visit", "import", file).out == "\(file): 9 visits: 0 added, 9 already present, 0 conflicts, 0 renumbered\n")
        }
        // A changed note is a conflict; the log's note is kept. A taken id is renumbered.
        let other = path("other.csv")
        try "id,station,date,kind,note\r\n2,jr-central/s/小田原,2019-08-13,alight,ひかり\r\n4,tokyo-metro/c/京橋,2021-03-04,board,\r\n"
            .write(toFile: other, atomically: true, encoding: .utf8)
        #expect(run(s, "visit", "import", other).out == """
            \(other): 2 visits: 1 added, 0 already present, 1 conflict, 1 renumbered
            conflict: visit 2 (jr-central/s/小田原 2019-08-13 alight) has note “こだま 660号”; the file has “ひかり”; kept the log's
            renumbered: id 4 was taken; the visit is 12

            """)
    }

    /// A note with CRLF, ESC, BEL and a NUL: `add`, export, import into an empty log and export
    /// again give the same bytes; `list` and `share` show the control characters escaped.
    @Test func controlCharactersInNotes() throws {
        let s = try seeded("control")
        let note = "first\r\nsecond \u{1B}[31mred\u{1B}[0m\u{7} nul\u{0}end"
        let added = run(s, "visit", "add", "風祭", "--date", "2020-01-02", "--note", note)
        #expect(added.out == "visit 11: 2020-01-02 - 風祭 (箱根登山鉄道) hakone-tozan/c/風祭\n", "\(added.err)")
        let shown = "first second \\u{1B}[31mred\\u{1B}[0m\\u{7} nul\\u{0}end"
        #expect(run(s, "visit", "list").out.contains("  " + shown + "  hakone-tozan/c/風祭\n"))
        #expect(run(s, "visit", "share", "--since", "2020").out.contains("  風祭（箱根登山鉄道）「" + shown + "」\n"))
        #expect(run(s, "visit", "share", "--since", "2020", "--lang", "en").out.contains("  風祭 (箱根登山鉄道) — " + shown + "\n"))
        for format in ["csv", "json"] {
            let export = run(s, "visit", "export", "--format", format).out
            #expect(export.contains(format == "csv" ? "\"" + note + "\"\r\n" : "\\r\\n"))
            let file = path("control.\(format)")
            try export.write(toFile: file, atomically: true, encoding: .utf8)
            let fresh = (db: s.db, visits: path("control-\(format).sqlite"))
            #expect(run(fresh, "visit", "import", file, "--keep-orphans").out.hasSuffix("\(file): 11 visits: 11 added, 0 already present, 0 conflicts, 0 renumbered\n"))
            #expect(run(fresh, "visit", "export", "--format", format).out == export, "\(format)")
        }
    }

    /// A bad row anywhere stops the import before anything is written.
    @Test func importIsOneTransaction() throws {
        let s = try seeded("tx")
        let before = run(s, "visit", "export").out
        let bad = path("bad.csv")
        try "station,date,kind\ntokyo-metro/c/京橋,2021,board\ntokyo-metro/c/銀座,2021-02-30,board\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let r = run(s, "visit", "import", bad)
        #expect(r.status == 1)
        #expect(r.err == "eki visit: \(bad): line 3: date: invalid date '2021-02-30': no such date\n")
        #expect(run(s, "visit", "export").out == before)
    }

    /// Without a log, station lists carry no visit properties; asking for a filter is an empty
    /// log (with a note), never an error, and creates no file.
    @Test func noLogYet() throws {
        let db = sampleDatabase(), missing = path("none.sqlite")
        let plain = eki("bbox", "139.14,35.24,139.17,35.27", "--db", db, "--visits", missing, "--format", "csv")
        #expect(plain.status == 0 && !plain.out.contains("visited"))
        let visited = eki("bbox", "139.14,35.24,139.17,35.27", "--db", db, "--visits", missing, "--visited")
        #expect(visited.status == 0 && visited.out.hasSuffix("(0 entries)\n"))
        #expect(visited.err == "note: no visit log at \(missing) yet\n")
        let unvisited = eki("nearest", "--lat", "35.2564", "--lon", "139.1553", "-k", "3", "--db", db, "--visits", missing, "--unvisited", "--format", "csv")
        #expect(unvisited.out.split(separator: "\r\n").count == 4 && unvisited.out.contains(",no,\r\n"))
        #expect(eki("stats", "--db", db, "--visits", missing).out.hasSuffix("total  0        39     0.00%\n"))
        #expect(!FileManager.default.fileExists(atPath: missing))
        // EKI_VISITS is used when --visits is not given.
        let c = Capture()
        var console = c.console
        console.environment = ["EKI_VISITS": path("env.sqlite")]
        #expect(EkiCommandLine.run(["visit", "add", "jr-central/s/小田原", "--db", db], console: console) == 0)
        #expect(FileManager.default.fileExists(atPath: path("env.sqlite")))
    }

    @Test func usageAndDataErrors() throws {
        let s = try seeded("errors")
        #expect(run(s, "bbox", "139,35,140,36", "--visited", "--unvisited").status == 64)
        #expect(run(s, "visit").status == 64)
        #expect(run(s, "visit", "frob").status == 64)
        #expect(run(s, "visit", "add").status == 64)
        #expect(run(s, "visit", "add", "小田原", "extra").status == 64)
        #expect(run(s, "visit", "add", "jr-east/c/東京", "--date", "2019-13").status == 64)
        #expect(run(s, "visit", "add", "jr-east/c/東京", "--kind", "walk").status == 64)
        #expect(run(s, "visit", "add", "jr-east/c/東京", "--near", "35.6").status == 64)
        #expect(run(s, "visit", "list", "--since", "2020", "--until", "2019").status == 64)
        #expect(run(s, "visit", "rm", "abc").status == 64)
        #expect(run(s, "visit", "export", "--format", "xml").status == 64)
        #expect(run(s, "visit", "config", "colour", "red").status == 64)
        #expect(run(s, "stats", "--by", "city").status == 64)
        let missing = run(s, "visit", "rm", "99")
        #expect(missing.status == 1 && missing.err == "eki visit: no visit with id 99\n")
        let duplicate = run(s, "visit", "add", "jr-east/c/東京", "--kind", "board")
        #expect(duplicate.status == 1 && duplicate.err == "eki visit: visit 7 already records jr-east/c/東京 on unknown (board)\n")
        let notALog = eki("visit", "list", "--visits", s.db)
        #expect(notALog.status == 1 && notALog.err.contains("is not an EkiKit visit log"))
    }
}
