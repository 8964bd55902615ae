import Testing
import Foundation
@testable import EkiKit
import EkiSQLite
import EkiTestSupport

/// Notes with unusual characters survive the log and its exchange files, are shown escaped, and
/// a visit and its source rows are written together.
@Suite struct VisitLogFaultTests {
    let dir = TestPaths.temporaryDirectory()

    func log(_ name: String) throws -> VisitLog { try VisitLog(path: dir.appendingPathComponent(name).path) }

    static let station = Station(key: "jr-east/c/小田原", name: "小田原", reading: nil, latinName: nil, operatorName: "JR東日本",
                                 operatorRef: nil, serviceClass: .conventional, lines: ["東海道線"], prefecture: nil,
                                 coordinate: Coordinate(lat: 35.2564, lon: 139.1553),
                                 sources: [SourceRef(dataset: "n02", id: "1"), SourceRef(dataset: "n02", id: "2")], isOpen: true)

    @Test func visitAndSourcesInOneTransaction() throws {
        let log = try log("one.sqlite")
        let v = try log.add(Visit(stationKey: Self.station.key, date: .unknown, kind: .board, note: nil), of: Self.station)
        #expect(v.id == 1)
        #expect(try log.sources(forKey: Self.station.key).map(\.description) == ["n02:1", "n02:2"])
        // When the source rows cannot be written, the visit is not kept either.
        try log.db.execute("CREATE TRIGGER refuse BEFORE INSERT ON key_sources BEGIN SELECT RAISE(ABORT, 'refused'); END")
        #expect(throws: SQLiteError.self) {
            try log.add(Visit(stationKey: Self.station.key, date: try VisitDate(parsing: "2019"), kind: .board, note: nil), of: Self.station)
        }
        #expect(try log.visits().map(\.id) == [1])
        #expect(try log.sources(forKey: Self.station.key).map(\.description) == ["n02:1", "n02:2"])
    }

    /// A NUL, a leading U+FEFF, CRLF and a lone CR in notes: kept whole through the log, CSV and
    /// JSON files, and a second log.
    @Test func unusualNotesRoundTrip() throws {
        let notes = ["a\u{0}b", "\u{FEFF}bom first", "line one\r\nline two", "cr\ronly", "\u{0}"]
        let log = try log("notes.sqlite")
        for (n, note) in notes.enumerated() {
            try log.add(Visit(stationKey: "k/c/\(n)", date: .unknown, kind: nil, note: note))
        }
        let visits = try log.visits()
        #expect(visits.map(\.note) == notes)
        for format in VisitExchangeFormat.allCases {
            let text = VisitExchange.encode(visits, format: format)
            let back = try VisitExchange.decode(text, format: format, file: "f")
            #expect(back.map(\.note) == notes, "\(format)")
            let other = try self.log("back-\(format).sqlite")
            #expect(try other.merge(back).added.count == notes.count)
            #expect(try other.visits().map(\.exchanged) == visits.map(\.exchanged), "\(format)")
        }
        // A file that starts with a byte order mark still reads as JSON, and keeps the note's.
        let json = "\u{FEFF}[{\"station\": \"k/c/x\", \"note\": \"\u{FEFF}x\"}, {\"station\": \"k/c/y\", \"note\": \"\\ufeffy\"}]"
        #expect(try VisitExchange.decode(json, format: .json, file: "f").map(\.note) == ["\u{FEFF}x", "\u{FEFF}y"])
    }

    @Test func controlCharactersAreShownEscaped() {
        #expect(DisplayText.escaped("red \u{1B}[31mtext\u{1B}[0m\u{7}") == "red \\u{1B}[31mtext\\u{1B}[0m\\u{7}")
        #expect(DisplayText.escaped("a\r\nb\nc\rd\te\u{0}f\u{7F}g\u{9B}h") == "a b c d\te\\u{0}f\\u{7F}g\\u{9B}h")
        #expect(DisplayText.escaped("小田原 ★") == "小田原 ★")
    }
}
