import Foundation
import Testing
import EkiKit
import EkiImport
import EkiTestSupport

/// A library import through `ImportSession` behaves as `eki import`: the position checks, the
/// warning cap, the editions and the retire limit are the library's, not the command line's.
@Suite struct ImportSessionTests {
    /// 小田原, 鴨宮, 国府津 and 二宮 on the 東海道線, 二宮's longitude with a digit dropped
    /// (139.2… written 13.92863).
    static let farRow = TestPaths.package("Tests/EkiImportTests/Fixtures/csv/far-row-line5-lon-digit-dropped.csv")

    @Test func aLibraryImportWarnsAboutAFarRowAndCapsWarnings() throws {
        let path = Self.farRow
        // The importer alone does not check positions against one another …
        #expect(try GenericCSVImporter(path: path).read().warnings.isEmpty)
        // … a session does, as `eki import` does.
        let tmp = TemporaryDirectory()
        let store = try StationStore(path: tmp.file("s.gpkg"))
        var seen: [ImportBatch] = []
        let result = try ImportSession().run([path], into: store) { _, batch in seen.append(batch) }
        #expect(seen.map { $0.warnings.map(\.description) } == [[
            path + ": '二宮' (4) at 35.29895, 13.92863 is far from every other row of this input (none within 1°): check its position",
        ]])
        #expect(result.datasets.map(\.records) == [4])
        #expect(try store.entries.count() == 4)
        // --max-warnings 0: the warning is counted, not kept.
        var capped = ImportSession(options: ImportOptions(limits: ImportLimits(maxWarnings: 0)))
        capped.retireLimit = nil
        let planned = try capped.plan([path])
        #expect(planned.map(\.format) == ["generic"])
        let batch = try capped.read(planned[0])
        #expect(batch.warnings.isEmpty)
        #expect(batch.warningsNotKept == 1)
    }

    @Test func aBadEditionIsAnOptionError() {
        #expect(throws: ImportOptionError("--edition must be a date YYYY-MM-DD, got '2025-13-01'")) {
            try ImportSession(edition: "2025-13-01").plan([Self.farRow])
        }
        #expect(ImportSession.isEdition("2024-02-29") && !ImportSession.isEdition("24-02-29"))
    }

    /// The real station_database: its edition read from the data (its newest date, a closure of
    /// 2026-04-01), and a re-import of a small part of it stopped by the retire limit.
    @Test(.needsStationDatabase) func aLibraryImportTakesTheEditionAndKeepsTheRetireLimit() throws {
        let main = TestPaths.requireShared(TestPaths.stationDatabaseMainFolder)
        let tmp = TemporaryDirectory()
        let store = try StationStore(path: tmp.file("sd.gpkg"))
        let first = try ImportSession().run([main], into: store)
        #expect(first.datasets.map(\.records) == [11106])
        #expect(try store.info.editions()["station-database"] == "2026-04-01")
        // Only the stations of the first 200 lines of station.csv: most entries would retire.
        let part = tmp.file("part")
        try FileManager.default.createDirectory(atPath: part, withIntermediateDirectories: true)
        for f in ["line.csv", "register.csv"] { try FileManager.default.copyItem(atPath: main + "/" + f, toPath: part + "/" + f) }
        try FileManager.default.copyItem(atPath: (main as NSString).deletingLastPathComponent + "/src/company.csv", toPath: part + "/company.csv")
        let stations = try String(contentsOfFile: main + "/station.csv", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let kept = Set(stations.dropFirst().prefix(200).map { String($0.split(separator: ",")[0]) })
        try (stations.prefix(201).joined(separator: "\n") + "\n").write(toFile: part + "/station.csv", atomically: true, encoding: .utf8)
        let register = try String(contentsOfFile: main + "/register.csv", encoding: .utf8).split(separator: "\n")
        try ([String(register[0])] + register.dropFirst().filter { kept.contains(String($0.split(separator: ",")[0])) }.map(String.init))
            .joined(separator: "\n").appending("\n").write(toFile: part + "/register.csv", atomically: true, encoding: .utf8)
        #expect(throws: RetireLimitError.self) { try ImportSession(edition: "2026-05-01").run([part], into: store) }
        #expect(try store.info.editions()["station-database"] == "2026-04-01")   // nothing written
    }
}
