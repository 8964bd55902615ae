import Foundation
import Testing
import EkiTestSupport

/// `eki visit export` → a spreadsheet → save → `eki visit import`: CP932 (what Japanese
/// spreadsheet programs save CSV as), a UTF-8 BOM, CRLF, and dates like 2019/8/13 and
/// 2019年8月13日 all read; refusals name line and field.
@Suite struct VisitSpreadsheetImportTests {
    let dir = TestPaths.temporaryDirectory()
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// The rows as a spreadsheet writes them back: dates reformatted, CRLF line ends.
    static let saved = "id,station,date,kind,note\r\n1,tokyo-metro/c/銀座,2019/8/13,board,\r\n"
        + "2,tokyo-metro/c/京橋,2019/08/14,alight,初めての京橋\r\n3,jr-east/c/東京,2019年8月15日,,\r\n"
        + "4,jr-east/c/神田,2020年1月,,\r\n5,jr-east/c/秋葉原,,,\r\n"

    static let expectedExport = """
        id,station,date,kind,note
        5,jr-east/c/秋葉原,,,
        1,tokyo-metro/c/銀座,2019-08-13,board,
        2,tokyo-metro/c/京橋,2019-08-14,alight,初めての京橋
        3,jr-east/c/東京,2019-08-15,,
        4,jr-east/c/神田,2020-01,,

        """.replacingOccurrences(of: "\n", with: "\r\n")   // export writes CRLF (RFC 4180)

    @Test func cp932WithCRLFAndSlashDates() throws {
        let file = path("saved-cp932.csv")
        try #require(Self.saved.data(using: .shiftJIS)).write(to: URL(fileURLWithPath: file))
        let visits = path("cp932.sqlite")
        let r = eki("visit", "import", file, "--keep-orphans", "--visits", visits)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "\(file): 5 visits: 5 added, 0 already present, 0 conflicts, 0 renumbered\n")
        #expect(eki("visit", "export", "--visits", visits).out == Self.expectedExport)
    }

    @Test func utf8WithBOMAndCRLF() throws {
        let file = path("saved-bom.csv")
        try (Data([0xEF, 0xBB, 0xBF]) + Data(Self.saved.utf8)).write(to: URL(fileURLWithPath: file))
        let visits = path("bom.sqlite")
        let r = eki("visit", "import", file, "--keep-orphans", "--visits", visits)
        #expect(r.status == 0, "\(r.err)")
        #expect(eki("visit", "export", "--visits", visits).out == Self.expectedExport)
    }

    @Test func badDateNamesLineAndField() throws {
        let file = path("bad-date.csv")
        let text = "station,date\r\ntokyo-metro/c/銀座,2019/8/13\r\ntokyo-metro/c/京橋,2019/2/30\r\n"
        try #require(text.data(using: .shiftJIS)).write(to: URL(fileURLWithPath: file))
        let visits = path("bad.sqlite")
        let r = eki("visit", "import", file, "--keep-orphans", "--visits", visits)
        #expect(r.status == 1)
        #expect(r.err == "eki visit: \(file): line 3: date: invalid date '2019/2/30': no such date\n")
        #expect(!FileManager.default.fileExists(atPath: visits) || eki("visit", "export", "--visits", visits).out == "id,station,date,kind,note\n")
    }

    /// A Latin-1 file (a São Paulo trip's note) is refused, not read as CP932 `S縊 Paulo`.
    @Test func latin1FileIsRefused() throws {
        let file = path("latin1.csv")
        try Data("station,note\nmetro-sp/c/se,".utf8 + [0x53, 0xE3, 0x6F, 0x20, 0x50, 0x61, 0x75, 0x6C, 0x6F, 0x0A])
            .write(to: URL(fileURLWithPath: file))
        let r = eki("visit", "import", file, "--keep-orphans", "--visits", path("latin1.sqlite"))
        #expect(r.status == 1)
        #expect(r.err == "eki visit: \(file):2: not UTF-8, and as CP932 it reads '縊' (U+7E0A), which is not station text (Latin-1 or another encoding?): convert it to UTF-8, or give --encoding cp932 if it is CP932\n", "\(r.err)")
    }
}

extension VisitSpreadsheetImportTests {
    /// 螢田 in CP932 is valid UTF-8 too (`壓c`) and both readings look like Japanese text: the
    /// import stops naming the line, both readings and --encoding, and `--encoding cp932` reads it.
    @Test func ambiguousFileNeedsEncoding() throws {
        let file = path("hotaruda.csv")
        try #require("station\r\nodakyu/c/螢田\r\n".data(using: .shiftJIS)).write(to: URL(fileURLWithPath: file))
        let visits = path("hotaruda.sqlite")
        let refused = eki("visit", "import", file, "--keep-orphans", "--visits", visits)
        #expect(refused.status == 1)
        #expect(refused.err == "eki visit: \(file):2: reads as UTF-8 'odakyu/c/壓c' and as CP932 'odakyu/c/螢田', and both look like Japanese text: give --encoding utf-8|cp932\n", "\(refused.err)")
        let read = eki("visit", "import", file, "--keep-orphans", "--encoding", "cp932", "--visits", visits)
        #expect(read.status == 0, "\(read.err)")
        #expect(eki("visit", "export", "--visits", visits).out == "id,station,date,kind,note\r\n1,odakyu/c/螢田,,,\r\n")
    }
}
