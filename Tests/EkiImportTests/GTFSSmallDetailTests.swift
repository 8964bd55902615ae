import Foundation
import Testing
import EkiKit
@testable import EkiImport
import EkiTestSupport

/// Small GTFS details: a whitespace-only last line, a file without its header row.
@Suite struct GTFSSmallDetailTests {
    typealias D = GTFSTestData
    static let jp = "jp-2agencies-station-shinkansen-bus-oldtranslations"

    /// A copy of the fixture feed in a new folder, with `change` applied to its files.
    static func feed(_ dir: TemporaryDirectory, _ change: (String) throws -> Void) throws -> String {
        let path = dir.file("feed")
        try FileManager.default.copyItem(atPath: D.fixture(jp), toPath: path)
        try change(path)
        return path
    }

    static func edit(_ path: String, _ transform: (String) -> String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try transform(text).write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func stopsEndingInAWhitespaceOnlyLineAreRead() throws {
        let whole = try GTFSImporter(path: D.fixture(Self.jp)).read().records.map(\.source.id).sorted()
        let dir = TemporaryDirectory()
        let path = try Self.feed(dir) { try Self.edit($0 + "/stops.txt") { $0 + "   \t\n" } }
        let batch = try GTFSImporter(path: path).read()
        #expect(batch.records.map(\.source.id).sorted() == whole)
        #expect(whole.count == 3)
        #expect(batch.skipped.count == 0)
    }

    @Test func stopTimesWithoutAHeaderRowSaysSo() throws {
        let dir = TemporaryDirectory()
        let path = try Self.feed(dir) { try Self.edit($0 + "/stop_times.txt") { String($0.drop { $0 != "\n" }.dropFirst()) } }
        guard case .failure(let error) = D.run(path) else { Issue.record("imported"); return }
        #expect(error.description == path + "/stop_times.txt:1: no header row: the first line names none of the required columns (trip_id, stop_id); a GTFS file starts with its column names")
    }
}
