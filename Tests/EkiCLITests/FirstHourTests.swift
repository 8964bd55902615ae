import Testing
import Foundation
import EkiCLI
import EkiTestSupport

/// The first hour with `eki`: tables that fit, lists that say they were cut, empty queries as
/// usage errors, `eki help COMMAND` and `-k1`.
@Suite(.serialized) struct FirstHourTests {
    static let dir = TestPaths.temporaryDirectory()
    /// The database Scripts/demo.sh builds: the N02 sample, then the readings sample.
    static let demo: String = {
        let db = dir.appendingPathComponent("demo.gpkg").path
        _ = eki("import", "--db", db, TestPaths.package("Datasets/n02-odawara-tokyo.csv"))
        _ = eki("import", "--db", db, "--columns", "id=駅コード,name=駅名,reading=よみ,lat=緯度,lon=経度,operator=事業者,line=路線,class=区分",
                TestPaths.package("Datasets/odawara-readings.csv"))
        return db
    }()

    func run(_ arguments: String..., columns: Int? = nil) -> EkiRun {
        eki(arguments, environment: columns.map { ["COLUMNS": String($0)] } ?? [:])
    }

    @Test("a table fits COLUMNS: lines, then readings and operators are cut with …; coordinates go when that is not enough")
    func tableFitsColumns() {
        let r = run("nearest", "--db", Self.demo, "--lat", "35.2564", "--lon", "139.1553", "-k", "3", columns: 100)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == """
            distance  name    reading  operator     class   lines   lat        lon         key
            13 m      小田原  おだわ…  箱根登山鉄…  在来線  鉄道…   35.256355  139.155430  hakone-tozan/c/小田原
            13 m      小田原  おだわ…  小田急       在来線  小田…   35.256355  139.155430  odakyu/c/小田原
            53 m      小田原  おだわ…  JR東海       新幹線  東海…   35.256210  139.154765  jr-central/s/小田原
            (3 entries)

            """)
        let narrow = run("nearest", "--db", Self.demo, "--lat", "35.2564", "--lon", "139.1553", "-k", "3", columns: 80)
        #expect(narrow.out == """
            distance  name    reading   operator      class   lines    key
            13 m      小田原  おだわら  箱根登山鉄道  在来線  鉄道線…  hakone-tozan/c/小田原
            13 m      小田原  おだわら  小田急        在来線  小田原…  odakyu/c/小田原
            53 m      小田原  おだわら  JR東海        新幹線  東海道…  jr-central/s/小田原
            (3 entries)

            """)
        for columns in [72, 80, 100, 120] {
            let out = run("nearest", "--db", Self.demo, "--lat", "35.2564", "--lon", "139.1553", "-k", "5", columns: columns).out
            let widest = out.split(separator: "\n").map { line in
                line.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x2E80 ? 2 : 1) }   // kana and kanji are wide
            }.max() ?? 0
            #expect(widest <= columns, "\(columns) columns: a line is \(widest) wide\n\(out)")
        }
    }

    @Test("--wide and the 120-column default when stdout is no terminal keep these cells whole")
    func wideAndDefault() {
        let expected = """
            distance  name    reading   operator      class   lines                     lat        lon         key
            13 m      小田原  おだわら  箱根登山鉄道  在来線  鉄道線, 箱根登山鉄道      35.256355  139.155430  hakone-tozan/c/小田原
            13 m      小田原  おだわら  小田急        在来線  小田原線, 小田急小田原線  35.256355  139.155430  odakyu/c/小田原
            53 m      小田原  おだわら  JR東海        新幹線  東海道新幹線              35.256210  139.154765  jr-central/s/小田原
            (3 entries)

            """
        #expect(run("nearest", "--db", Self.demo, "--lat", "35.2564", "--lon", "139.1553", "-k", "3", "--wide", columns: 80).out == expected)
        #expect(run("nearest", "--db", Self.demo, "--lat", "35.2564", "--lon", "139.1553", "-k", "3").out == expected)
    }

    @Test("json and csv carry full values whatever the width")
    func machineFormatsAreWhole() {
        let csv = run("nearest", "--db", Self.demo, "--lat", "35.2564", "--lon", "139.1553", "-k", "1", "--format", "csv", columns: 40)
        #expect(csv.out.contains("hakone-tozan/c/小田原,小田原,おだわら,,箱根登山鉄道,hakone-tozan,conventional,鉄道線;箱根登山鉄道,"))
        let json = run("search", "--db", Self.demo, "小田原", "--limit", "1", "--format", "json", columns: 40)
        #expect(json.out.contains("\"lines\": [\"鉄道線\",\"箱根登山鉄道\"],"))
        #expect(json.err == "1 of 8 shown (--limit)\n")
        #expect(!json.out.contains("…"))
    }

    @Test("a list cut by --limit says so on stderr; an uncut one says nothing")
    func limitNotice() {
        let search = run("search", "--db", Self.demo, "小", "--match", "partial", "--limit", "2")
        #expect(search.status == 0)
        #expect(search.err == "2 of 8 shown (--limit)\n")
        #expect(search.out.hasSuffix("(2 entries)\n"))
        #expect(run("search", "--db", Self.demo, "小", "--match", "partial", "--limit", "8").err == "")
        let bbox = run("bbox", "--db", Self.demo, "139.0,35.0,140.0,36.0", "--limit", "3", "--format", "csv")
        #expect(bbox.err == "3 of 39 shown (--limit)\n")
        #expect(bbox.out.split(separator: "\r\n").count == 4)
        #expect(run("bbox", "--db", Self.demo, "139.0,35.0,140.0,36.0", "--limit", "39").err == "")
    }

    @Test("an empty query is a usage error (64) for every command")
    func emptyQuery() {
        let visits = Self.dir.appendingPathComponent("visits.sqlite").path
        let cases: [([String], String)] = [
            (["search", "--db", Self.demo, ""], "eki search: QUERY is empty\n"),
            (["search", "--db", Self.demo, "  "], "eki search: QUERY is empty\n"),
            (["geocode", "--db", Self.demo, ""], "eki geocode: QUERY is empty\n"),
            (["visit", "add", "--db", Self.demo, "--visits", visits, ""], "eki visit: QUERY is empty\n"),
            (["nearest", "--db", Self.demo, "--place", ""], "eki nearest: --place needs a place name\n"),
            (["bbox", "--db", Self.demo, "--place", " ", "--span", "600"], "eki bbox: --place needs a place name\n"),
        ]
        for (arguments, message) in cases {
            let r = eki(arguments)
            #expect(r.status == 64, "\(arguments)")
            #expect(r.err == message, "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: visits))
    }

    @Test("eki help bbox shows the bbox help; an unknown command is a usage error")
    func helpCommand() {
        let help = eki("help", "bbox")
        #expect(help.status == 0)
        #expect(help.out == eki("bbox", "--help").out)
        #expect(help.out.hasPrefix("usage: eki bbox "))
        let unknown = eki("help", "frobnicate")
        #expect(unknown.status == 64)
        #expect(unknown.err == "eki: unknown command 'frobnicate' (`eki --help` lists the commands)\n")
        // A mistyped command, subcommand or option names the one meant.
        for arguments in [["serach", "小田原"], ["help", "serach"]] {
            let typo = eki(arguments)
            #expect(typo.status == 64 && typo.out.isEmpty)
            #expect(typo.err == "eki: unknown command 'serach'; did you mean 'search'? (`eki --help` lists the commands)\n")
        }
        #expect(eki("lnes").err == "eki: unknown command 'lnes'; did you mean 'lines'? (`eki --help` lists the commands)\n")
        let sub = eki("visit", "shaer")
        #expect(sub.status == 64 && sub.err.hasPrefix("eki visit: unknown subcommand 'shaer'; did you mean 'share'? ("))
        let option = eki("nearest", "--db", Self.demo, "--lat", "35.2564", "--lon", "139.1553", "--vistied")
        #expect(option.status == 64 && option.err == "eki nearest: unknown option --vistied; did you mean --visited?\n")
        for command in ["bbox", "nearest", "search", "show", "import", "info", "stats", "geocode", "visit", "serve"] {
            let text = eki("help", command)
            #expect(text.status == 0, "\(command): \(text.err)")
            #expect(text.out.hasSuffix("\n") && !text.out.hasSuffix("\n\n\n"), "eki help \(command) ends on its own line")
        }
    }

    @Test("-k1 is -k 1")
    func attachedShortValue() {
        let attached = run("nearest", "--db", Self.demo, "--lat", "35.2564", "--lon", "139.1553", "-k1", "--format", "csv")
        #expect(attached.status == 0, "\(attached.err)")
        #expect(attached.out == run("nearest", "--db", Self.demo, "--lat", "35.2564", "--lon", "139.1553", "-k", "1", "--format", "csv").out)
        #expect(attached.out.split(separator: "\r\n").count == 2)
        let bad = run("nearest", "--db", Self.demo, "--lat", "35.2564", "--lon", "139.1553", "-kx")
        #expect(bad.status == 64)
        #expect(bad.err == "eki nearest: -k needs a whole number ≥ 1, got 'x'\n")
    }
}
