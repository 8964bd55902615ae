import Testing
import Foundation
import EkiKit
import EkiTestSupport

@Suite struct VisitDateTests {
    @Test func parsesPartialDates() throws {
        #expect(try VisitDate(parsing: "2019").text == "2019")
        #expect(try VisitDate(parsing: "2019-08").text == "2019-08")
        #expect(try VisitDate(parsing: "2019-08-15").text == "2019-08-15")
        #expect(try VisitDate(parsing: "2020-02-29").text == "2020-02-29")
        #expect(try VisitDate(parsing: "2000-02-29").text == "2000-02-29")
        for unknown in ["", "unknown", "?", " Unknown "] {
            #expect(try VisitDate(parsing: unknown) == .unknown)
        }
        #expect(VisitDate.unknown.description == "unknown")
        for bad in ["2019-13", "2019-00", "2019-02-29", "1900-02-29", "2019-04-31", "19-08", "2019-8", "2019-08-1",
                    "0999", "2019-08-15-01", "2019-"] {
            #expect(throws: VisitDate.ParseError.self, "\(bad)") { try VisitDate(parsing: bad) }
        }
    }

    /// Unknown first; a year before its months, a month before its days.
    @Test func partialDatesOrder() throws {
        let texts = ["2019-09", "2019-08-15", "unknown", "2019", "2018-12-31", "2019-08", "2019-08-01", "2020", "2019-08-31"]
        let sorted = try texts.map { try VisitDate(parsing: $0) }.sorted().map(\.description)
        #expect(sorted == ["unknown", "2018-12-31", "2019", "2019-08", "2019-08-01", "2019-08-15", "2019-08-31", "2019-09", "2020"])
    }

    @Test func daysAndWeekdays() throws {
        #expect(try VisitDate(parsing: "1970-01-01").firstDay == 0)
        #expect(try VisitDate(parsing: "2019-08-13").weekday == "Tue")
        #expect(try VisitDate(parsing: "1872-10-14").weekday == "Mon")     // 新橋–横浜 opened
        #expect(try VisitDate(parsing: "2019-08").weekday == nil)
        let feb = try VisitDate(parsing: "2024-02")
        #expect(feb.lastDay! - feb.firstDay! == 28)
        let year = try VisitDate(parsing: "2019")
        #expect(VisitDate.day(number: year.lastDay!).description == "2019-12-31")
        for n in stride(from: -800_000, through: 800_000, by: 997) {
            let d = VisitDate.day(number: n)
            guard d.year! >= 1000, d.year! <= 9999 else { continue }
            #expect(d.firstDay == n)
            #expect(try VisitDate(parsing: d.description) == d)
        }
    }

    @Test func rangeOverlap() throws {
        let r = VisitDateRange(since: try VisitDate(parsing: "2019-08-20"), until: try VisitDate(parsing: "2019-09"))
        let inRange = try ["2019-08", "2019", "2019-08-20", "2019-09-30", "2019-09"].map { try r.contains(VisitDate(parsing: $0)) }
        #expect(inRange == [true, true, true, true, true])
        let out = try ["2019-08-19", "2019-10-01", "2018", "unknown"].map { try r.contains(VisitDate(parsing: $0)) }
        #expect(out == [false, false, false, false])
        #expect(VisitDateRange().contains(.unknown))
    }
}

extension Visit {
    /// What an exchange file carries of a visit: not its sync uid and change time.
    var exchanged: Visit { Visit(id: id, stationKey: stationKey, date: date, kind: kind, note: note) }
}

@Suite struct VisitLogTests {
    let dir = TestPaths.temporaryDirectory()

    func log(_ name: String = "visits.sqlite") throws -> VisitLog {
        try VisitLog(path: dir.appendingPathComponent(name).path)
    }

    func visit(_ key: String, _ date: String, _ kind: VisitKind? = nil, note: String? = nil, id: Int64 = 0) throws -> Visit {
        Visit(id: id, stationKey: key, date: try VisitDate(parsing: date), kind: kind, note: note)
    }

    @Test func countingRule() {
        let on = VisitCounting(), off = VisitCounting(transferCounts: false)
        #expect([nil, .board, .alight, .transfer, .pass].map(on.counts) == [true, true, true, true, false])
        #expect([nil, .board, .alight, .transfer, .pass].map(off.counts) == [true, true, true, false, false])
    }

    @Test func addListRemove() throws {
        let log = try log()
        try log.add(visit("a/c/x", "2019-08-15", .board))
        try log.add(visit("a/c/x", "2019-08", .alight))
        try log.add(visit("a/c/y", "unknown"))
        try log.add(visit("a/c/y", "2019"))
        let v5 = try log.add(visit("a/c/z", "2019-08-01", .pass, note: "通過"))
        #expect(v5.id == 5)
        #expect(try log.visits().map(\.id) == [3, 4, 2, 5, 1])
        // One station, date and kind is one visit.
        #expect(throws: VisitLogError.self) { try log.add(visit("a/c/x", "2019-08-15", .board, note: "again")) }
        #expect(try log.add(visit("a/c/x", "2019-08-15", .alight)).id == 6)
        // rm is all or none; ids are not reused.
        #expect(throws: VisitLogError.self) { try log.remove(ids: [6, 99]) }
        #expect(try log.count() == 6)
        #expect(try log.remove(ids: [6]).map(\.id) == [6])
        #expect(try log.add(visit("a/c/w", "2020")).id == 7)
        // Empty notes are no notes.
        #expect(try log.add(visit("a/c/v", "2020", note: "")).note == nil)
    }

    @Test func completionIsFirstCountingVisit() throws {
        let log = try log()
        try log.add(visit("a/c/x", "2019-08-01", .pass))
        try log.add(visit("a/c/x", "2019-08-15", .transfer))
        try log.add(visit("a/c/x", "2019-09", .board))
        try log.add(visit("a/c/y", "2019-08-02", .pass))
        try log.add(visit("a/c/z", "2021", .alight))
        try log.add(visit("a/c/z", "unknown", .board))
        #expect(try log.completions() == ["a/c/x": try VisitDate(parsing: "2019-08-15"), "a/c/z": .unknown])
        try log.setCounting(VisitCounting(transferCounts: false))
        #expect(try log.counting().transferCounts == false)
        #expect(try log.completions()["a/c/x"] == (try VisitDate(parsing: "2019-09")))
    }

    /// Tricky notes survive CSV and JSON; encode → decode → encode is the same bytes.
    @Test func exchangeRoundTrip() throws {
        let log = try log()
        try log.add(visit("jr-central/s/小田原", "2019-08-13", .alight, note: "こだま, 660号 \"自由席\""))
        try log.add(visit("jr-east/c/小田原", "unknown", note: "line one\nline two\r\nthree"))
        try log.add(visit("x/c/tab", "2019", .pass, note: "\ttab\\backslash\u{1}"))
        try log.add(visit("x/c/plain", "2019-08"))
        let visits = try log.visits()
        for format in VisitExchangeFormat.allCases {
            let text = VisitExchange.encode(visits, format: format)
            let back = try VisitExchange.decode(text, format: format, file: "f")
            #expect(back == visits.map(\.exchanged), "\(format)")
            #expect(VisitExchange.encode(back, format: format) == text, "\(format)")
            #expect(VisitExchange.detectFormat(path: "noext", text: text) == format)
        }
        #expect(VisitExchange.encode([], format: .json) == "[]\n")
        #expect(VisitExchange.encode([], format: .csv) == "id,station,date,kind,note\r\n")
    }

    @Test func decodeErrorsSayWhere() {
        let cases: [(String, VisitExchangeFormat, String)] = [
            ("id,station,date\n1,a/c/x,2019\n2,a/c/y,2019-13\n", .csv, "f: line 3: date: invalid date '2019-13': no such date"),
            ("id,date\n1,2019\n", .csv, "f: line 1: the header has no 'station' column"),
            ("station,kind\na/c/x,walk\n", .csv, "f: line 2: kind 'walk' is not one of board, alight, transfer, pass"),
            ("station,note\na/c/x,\"open\n", .csv, "f: line 2: quoted field is never closed (unclosed \")"),
            ("station,note\na/c/x\n", .csv, "f: line 2: row has 1 fields, the header has 2"),
            ("[{\"station\": \"a/c/x\"}, {\"station\": 5}]", .json, "f: visit 2: station must be a string or null"),
            ("[{\"station\": \"a/c/x\", \"id\": 1.5}]", .json, "f: visit 1: id must be a whole number"),
            ("{\"visits\": []}", .json, "f: expected a JSON array of visits"),
        ]
        for (text, format, message) in cases {
            #expect(throws: VisitExchangeError.self) { try VisitExchange.decode(text, format: format, file: "f") }
            do { _ = try VisitExchange.decode(text, format: format, file: "f") } catch { #expect(error.description == message) }
        }
        // Other columns are ignored, missing optional ones are empty, BOM and CRLF are fine.
        let v = try? VisitExchange.decode("\u{FEFF}name,station\r\n小田原,jr-central/s/小田原\r\n", format: .csv, file: "f")
        #expect(v == [Visit(stationKey: "jr-central/s/小田原")])
    }

    @Test func mergeReportsConflictsAndKeepsFreeIDs() throws {
        let log = try log()
        try log.add(visit("a/c/x", "2019-08-15", .board, note: "mine"))     // id 1
        try log.add(visit("a/c/y", "2019"))                                   // id 2
        let incoming = [
            try visit("a/c/x", "2019-08-15", .board, note: "theirs", id: 7),  // conflict
            try visit("a/c/y", "2019", id: 9),                                // already present
            try visit("a/c/z", "2020", id: 2),                                // id taken → renumbered
            try visit("a/c/w", "2021", id: 5),                                // id free → kept
            try visit("a/c/w", "2021", id: 6),                                // duplicate in the file
            try visit("a/c/v", "2022"),                                       // no id → new
        ]
        let r = try log.merge(incoming)
        #expect(r.added.map(\.id) == [3, 5, 6])
        #expect(r.added.map(\.stationKey) == ["a/c/z", "a/c/w", "a/c/v"])
        #expect(r.alreadyPresent == 2)
        #expect(r.renumbered.map { [$0.from, $0.to] } == [[2, 3]])
        #expect(r.conflicts.count == 1)
        #expect(r.conflicts.first?.existing.note == "mine" && r.conflicts.first?.incoming.note == "theirs")
        #expect(try log.visit(id: 1)?.note == "mine")
        #expect(try log.count() == 5)
    }

    @Test func refusesOtherFiles() throws {
        let path = dir.appendingPathComponent("stations.gpkg").path
        _ = try StationStore(path: path)
        #expect(throws: VisitLogError.self) { try VisitLog(path: path) }
        #expect(throws: VisitLogError.self) { try VisitLog(path: dir.appendingPathComponent("none.sqlite").path, create: false) }
        // A new log in a folder that does not exist yet.
        let nested = dir.appendingPathComponent("a/b/visits.sqlite").path
        _ = try VisitLog(path: nested)
        #expect(FileManager.default.fileExists(atPath: nested))
        #expect(try VisitLog(path: nested, create: false).count() == 0)
    }

    @Test func defaultPath() {
        #expect(VisitLog.defaultPath(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/eki/visits.sqlite")
        #expect(VisitLog.defaultPath(environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"]) == "/h/.local/share/eki/visits.sqlite")
        #expect(VisitLog.defaultPath(environment: [:]) == "visits.sqlite")
    }
}
