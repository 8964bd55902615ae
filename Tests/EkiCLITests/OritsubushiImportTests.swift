import EkiImport
import EkiKit
import EkiSQLite
import Foundation
import Testing
import EkiTestSupport

/// `eki visit import --from oritsubushi`: databases in the 降りつぶし apps' schema, written here
/// from SQL, matched against N02-23 + station_database (the real data) — a station handed to
/// another operator, 新幹線 and 在来線 at one place, renamed stations, one name in two
/// prefectures, a station EkiKit does not have — and the refusal of visit files whose rows
/// resolve to no entry.
@Suite struct OritsubushiImportTests {
    let dir = TestPaths.temporaryDirectory()
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    static let schema = """
        CREATE TABLE stations(s_id INTEGER PRIMARY KEY, station TEXT, yomi TEXT, wiki TEXT, pref INTEGER,
            address TEXT, lat INTEGER, lng INTEGER, o_id INTEGER, enabled INTEGER, weight INTEGER);
        CREATE TABLE operators(o_id INTEGER PRIMARY KEY, operator TEXT, type INTEGER, enabled INTEGER);
        CREATE TABLE lines(l_id INTEGER PRIMARY KEY, line TEXT, o_id INTEGER, enabled INTEGER, l_type INTEGER);
        CREATE TABLE stations_lines(l_id INTEGER, s_id INTEGER, s_sort INTEGER);
        CREATE TABLE completions(s_id INTEGER PRIMARY KEY, comp_date INTEGER, update_date INTEGER, memo TEXT);
        INSERT INTO operators VALUES (1, 'JR西日本', 1, 1), (2, 'JR東日本', 1, 1), (3, 'JR東海', 1, 1),
            (4, '阪急電鉄', 2, 1), (5, '阪神電気鉄道', 2, 1), (6, '京王電鉄', 2, 1), (7, 'JR北海道', 1, 1);
        INSERT INTO lines VALUES (1, '北陸本線', 1, 1, 0), (2, '北陸新幹線', 1, 1, 1), (3, '山手線', 2, 1, 0),
            (4, '東北新幹線', 2, 1, 1), (5, '東海道新幹線', 3, 1, 1), (6, '宝塚本線', 4, 1, 0), (7, '本線', 5, 1, 0),
            (8, '京王線', 6, 1, 0), (9, '福塩線', 1, 1, 0), (10, '深名線', 7, 1, 0), (11, '東海道本線', 1, 1, 0);
        INSERT INTO stations VALUES
            (1, '金沢駅', 'かなざわ', '', 17, '', 36578000, 136647900, 1, 1, 0),
            (2, '金沢駅', 'かなざわ', '', 17, '', 36577900, 136648000, 1, 1, 0),
            (3, '東京駅', 'とうきょう', '', 13, '', 35681200, 139766100, 2, 1, 0),
            (4, '東京駅', 'とうきょう', '', 13, '', 35681100, 139767900, 2, 1, 0),
            (5, '東京駅', 'とうきょう', '', 13, '', 35681100, 139767900, 3, 1, 0),
            (6, '梅田駅', 'うめだ', '', 27, '', 34705500, 135498300, 4, 1, 0),
            (7, '梅田駅', 'うめだ', '', 27, '', 34701500, 135497200, 5, 1, 0),
            (8, '府中駅', 'ふちゅう', '', 13, '', 35672200, 139480100, 6, 1, 0),
            (9, '府中駅', 'ふちゅう', '', 34, '', 34571500, 133236500, 1, 1, 0),
            (10, '朱鞠内駅', 'しゅまりない', '', 1, '', 44293700, 142159200, 7, 1, 0),
            (11, '大阪駅', 'おおさか', '', 27, '', 34702500, 135494900, 1, 1, 0);
        INSERT INTO stations_lines VALUES (1, 1, 1), (2, 2, 1), (3, 3, 1), (4, 4, 1), (5, 5, 1), (6, 6, 1),
            (7, 7, 1), (8, 8, 1), (9, 9, 1), (10, 10, 1), (11, 11, 1);
        """

    /// The completions: every date form, memos with and without text, one not done (大阪).
    static let completions = """
        INSERT INTO completions VALUES (1, 20150314, 0, '北陸本線の最終日'), (2, 20150314, 0, ''),
            (3, 1, 0, NULL), (4, 20190800, 0, 'はやぶさ'), (5, 20190000, 0, NULL),
            (6, 20180505, 0, 'まだ梅田だった'), (7, 20180506, 0, NULL), (8, 20200101, 0, NULL),
            (9, 20210321, 0, '福塩線, "各駅"'), (11, 0, 0, NULL);
        """

    func app(_ name: String, _ sql: String...) throws -> String {
        let file = path(name)
        let db = try Database(path: file)
        try db.execute(Self.schema + sql.joined(separator: "\n"))
        db.close()
        return file
    }

    var db: String { RealData.combinedDatabase }

    static let matchedLines = """
        matched: 金沢駅 (JR西日本, s_id 1, 2015-03-14) → ir-ishikawa/c/金沢 (operator changed: now IRいしかわ鉄道)
        matched: 金沢駅 (JR西日本, s_id 2, 2015-03-14) → jr-west/s/金沢
        matched: 東京駅 (JR東日本, s_id 3, unknown) → jr-east/c/東京
        matched: 東京駅 (JR東日本, s_id 4, 2019-08) → jr-east/s/東京
        matched: 東京駅 (JR東海, s_id 5, 2019) → jr-central/s/東京
        matched: 梅田駅 (阪急電鉄, s_id 6, 2018-05-05) → hankyu/c/大阪梅田 (same place: now 大阪梅田, 9 m)
        matched: 梅田駅 (阪神電気鉄道, s_id 7, 2018-05-06) → hanshin/c/大阪梅田 (same place: now 大阪梅田, 5 m)
        matched: 府中駅 (京王電鉄, s_id 8, 2020-01-01) → keio/c/府中
        matched: 府中駅 (JR西日本, s_id 9, 2021-03-21) → jr-west/c/府中

        """

    /// Every completion lands on its entry, with its date and memo exactly.
    @Test(.needsN02AndStationDatabase) func everyCompletionAtItsEntry() throws {
        let file = try app("all-known.sqlite", Self.completions)
        let visits = path("all-known-visits.sqlite")
        let dry = eki("visit", "import", "--from", "oritsubushi", file, "--dry-run", "--db", db, "--visits", visits)
        let report = "\(file): 9 completions: 9 matched, 0 ambiguous, 0 unmatched (1 listed as not done)\n" + Self.matchedLines
        #expect(dry.status == 0, "\(dry.err)")
        #expect(dry.out == report + "dry run: nothing written\n")
        #expect(!FileManager.default.fileExists(atPath: visits))

        let r = eki("visit", "import", "--from", "oritsubushi", file, "--db", db, "--visits", visits)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == report + "\(file): 9 visits: 9 added, 0 already present, 0 conflicts, 0 renumbered\n")
        // export lists by date: undated first, a year before its months.
        let rows = [
            #"id,station,date,kind,note"#,
            #"3,jr-east/c/東京,,,"#,
            #"1,ir-ishikawa/c/金沢,2015-03-14,,北陸本線の最終日"#,
            #"2,jr-west/s/金沢,2015-03-14,,"#,
            #"6,hankyu/c/大阪梅田,2018-05-05,,まだ梅田だった"#,
            #"7,hanshin/c/大阪梅田,2018-05-06,,"#,
            #"5,jr-central/s/東京,2019,,"#,
            #"4,jr-east/s/東京,2019-08,,はやぶさ"#,
            #"8,keio/c/府中,2020-01-01,,"#,
            #"9,jr-west/c/府中,2021-03-21,,"福塩線, ""各駅""""#,
        ]
        #expect(eki("visit", "export", "--visits", visits).out == rows.map { $0 + "\r\n" }.joined())
        // Once more: nothing new.
        let again = eki("visit", "import", "--from", "oritsubushi", file, "--db", db, "--visits", visits)
        #expect(again.out.hasSuffix("\(file): 9 visits: 0 added, 9 already present, 0 conflicts, 0 renumbered\n"))
    }

    /// A station EkiKit does not have (朱鞠内, 深名線, closed 1995) stops the import with the
    /// report; `--keep-orphans` imports the rest and keeps it as an orphaned visit.
    @Test(.needsN02AndStationDatabase) func unmatchedStationStopsTheImport() throws {
        let file = try app("one-unknown.sqlite", Self.completions, "INSERT INTO completions VALUES (10, 19950904, 0, '廃止前');")
        let visits = path("one-unknown-visits.sqlite")
        let report = "\(file): 10 completions: 9 matched, 0 ambiguous, 1 unmatched (1 listed as not done)\n" + Self.matchedLines
            + "unmatched: 朱鞠内駅 (JR北海道, s_id 10, 1995-09-04): no entry named 朱鞠内駅 within 5 km, and none of its operator within 300 m\n"
        let refused = eki("visit", "import", "--from", "oritsubushi", file, "--db", db, "--visits", visits)
        #expect(refused.status == 1)
        #expect(refused.out == report)
        #expect(refused.err == "eki visit: \(file): 1 completion does not match one entry; nothing imported "
                + "(--keep-orphans imports the matched ones and keeps the others as orphaned visits)\n")
        #expect(!FileManager.default.fileExists(atPath: visits))

        let kept = eki("visit", "import", "--from", "oritsubushi", file, "--keep-orphans", "--db", db, "--visits", visits)
        #expect(kept.status == 0, "\(kept.err)")
        #expect(kept.out == report + "\(file): 10 visits: 10 added, 0 already present, 0 conflicts, 0 renumbered\n")
        let check = eki("visit", "check", "--db", db, "--visits", visits)
        #expect(check.status == 1)
        #expect(check.out.contains("oritsubushi/10/朱鞠内駅"), "\(check.out)")
        #expect(eki("visit", "export", "--visits", visits).out.contains("\r\n10,oritsubushi/10/朱鞠内駅,1995-09-04,,廃止前\r\n"), "\(kept.out)")
    }

    /// A row with 新幹線 and 在来線 lines names both entries at 東京: ambiguous, with both.
    @Test(.needsN02AndStationDatabase) func mixedClassRowIsAmbiguous() throws {
        let file = try app("mixed.sqlite", "INSERT INTO stations_lines VALUES (4, 3, 2);", "INSERT INTO completions VALUES (3, 20200202, 0, NULL);")
        let r = eki("visit", "import", "--from", "oritsubushi", file, "--dry-run", "--db", db, "--visits", path("mixed-visits.sqlite"))
        #expect(r.out == """
            \(file): 1 completions: 0 matched, 1 ambiguous, 0 unmatched (0 listed as not done)
            ambiguous: 東京駅 (JR東日本, s_id 3, 2020-02-02): 2 entries: jr-east/c/東京, jr-east/s/東京
            dry run: nothing written

            """)
    }

    @Test func completionDates() {
        #expect(OritsubushiFile.date(1) == .unknown)
        #expect(OritsubushiFile.date(20190000) == VisitDate(year: 2019))
        #expect(OritsubushiFile.date(20190800) == VisitDate(year: 2019, month: 8))
        #expect(OritsubushiFile.date(20190815) == VisitDate(year: 2019, month: 8, day: 15))
        for bad: Int64 in [2, 2019, 20190230, 20191300, 20190015, 99999999_0] { #expect(OritsubushiFile.date(bad) == nil, "\(bad)") }
    }

    /// Bad files: not SQLite, no completions table, a date that is none of the forms.
    @Test func badFilesAreNamed() throws {
        let text = path("not-a-db.sqlite")
        try "station,date\n".write(toFile: text, atomically: true, encoding: .utf8)
        #expect(throws: OritsubushiFileError.self) { try OritsubushiFile(path: text) }
        let noTable = path("no-completions.sqlite")
        let d = try Database(path: noTable)
        try d.execute("CREATE TABLE stations(s_id INTEGER PRIMARY KEY, station TEXT);")
        d.close()
        #expect(throws: OritsubushiFileError.self) { try OritsubushiFile(path: noTable) }
        do { _ = try OritsubushiFile(path: noTable) } catch {
            #expect("\(error)" == "\(noTable): no 'completions' table: not a 降りつぶし database")
        }
        let badDate = try app("bad-date.sqlite", "INSERT INTO completions VALUES (4, 20190230, 0, NULL);")
        do { _ = try OritsubushiFile(path: badDate); Issue.record("read") } catch {
            #expect("\(error)" == "\(badDate): completions s_id 4: comp_date: 20190230 is not 1, YYYY0000, YYYYMM00 or YYYYMMDD")
        }
    }

    /// A hand-made file keyed by names, two of three unknown: refused naming those two rows,
    /// nothing written; `--keep-orphans` keeps them, and the known name is recorded by its key.
    @Test func nameKeyedRowsThatResolveToNothingAreRefused() throws {
        let sample = sampleDatabase(in: dir)
        let file = path("by-name.csv"), visits = path("by-name.sqlite")
        try "station,date,note\n風祭,2019-08,箱根\n夢の丘,2020,\n幻ヶ原,2021-05-05,\n".write(toFile: file, atomically: true, encoding: .utf8)
        let refused = eki("visit", "import", file, "--db", sample, "--visits", visits)
        #expect(refused.status == 1)
        #expect(refused.out == "")
        #expect(refused.err == """
            eki visit: \(file): 2 of 3 visits name no entry of \(sample):
              line 3: '夢の丘': no entry matches
              line 4: '幻ヶ原': no entry matches
            nothing imported (--keep-orphans keeps such visits as orphans)

            """)
        #expect(!FileManager.default.fileExists(atPath: visits))
        let dry = eki("visit", "import", file, "--dry-run", "--db", sample, "--visits", visits)
        #expect(dry.status == 0)
        #expect(dry.out.hasSuffix("  line 4: '幻ヶ原': no entry matches\nwould be refused (--keep-orphans keeps such visits as orphans)\n"
                                  + "\(file): 3 visits; dry run: nothing written\n"), "\(dry.out)")
        #expect(!FileManager.default.fileExists(atPath: visits))
        let kept = eki("visit", "import", file, "--keep-orphans", "--db", sample, "--visits", visits)
        #expect(kept.status == 0, "\(kept.err)")
        #expect(kept.out == """
            by name: line 2: '風祭' is hakone-tozan/c/風祭
            \(file): 2 of 3 visits name no entry of \(sample):
              line 3: '夢の丘': no entry matches
              line 4: '幻ヶ原': no entry matches
            kept as orphaned visits (--keep-orphans)
            \(file): 3 visits: 3 added, 0 already present, 0 conflicts, 0 renumbered

            """)
        #expect(eki("visit", "export", "--visits", visits).out
                == "id,station,date,kind,note\r\n1,hakone-tozan/c/風祭,2019-08,,箱根\r\n2,夢の丘,2020,,\r\n3,幻ヶ原,2021-05-05,,\r\n")
        // An ambiguous name lists its candidates.
        let odawara = path("odawara.csv")
        try "station\n小田原\n".write(toFile: odawara, atomically: true, encoding: .utf8)
        let many = eki("visit", "import", odawara, "--db", sample, "--visits", path("odawara.sqlite"))
        #expect(many.status == 1)
        #expect(many.err.contains("  line 2: '小田原': 5 entries match: "), "\(many.err)")
    }
}
