import Foundation
import Testing
import EkiKit
import EkiImport
import EkiTestSupport

/// Placeholder positions refused in every importer, rows without a position skipped on request
/// (`--skip-invalid`), and rows far from every other one flagged.
@Suite struct PositionCheckTests {
    static func csv(_ name: String) -> String {
        TestPaths.package("Tests/EkiImportTests/Fixtures/csv/" + name)
    }

    static func error(_ body: () throws -> Void) -> ImportError? {
        do { try body(); return nil } catch let e as ImportError { return e } catch { return nil }
    }

    @Test func genericCSVRefusesNullIsland() {
        let path = Self.csv("null-island-line3.csv")
        let e = Self.error { _ = try GenericCSVImporter(path: path).read() }
        #expect(e?.description == path + ":3:3: lat: (0, 0) is a placeholder, not a position: no position (--skip-invalid skips rows without a usable position or name)")
    }

    @Test func n02CSVRefusesNullIsland() throws {
        let dir = TemporaryDirectory()
        let path = dir.url.appendingPathComponent("n02-null-island.csv").path
        try """
        N02_001,N02_002,N02_003,N02_004,N02_005,N02_005c,N02_005g,lon,lat
        12,2,東海道線,東日本旅客鉄道,小田原,003765,003765,139.15531,35.25641
        12,2,東海道線,東日本旅客鉄道,鴨宮,003766,003766,0,0

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let e = Self.error { _ = try N02CSVImporter(path: path).read() }
        #expect(e?.description == path + ":3:9: lat: (0, 0) is a placeholder, not a position: no position (--skip-invalid skips rows without a usable position or name)")
    }

    @Test func gtfsRefusesAStopAtNullIsland() {
        let path = GTFSTestData.fixture("stop-at-null-island")
        guard case .failure(let e) = GTFSTestData.run(path) else { Issue.record("imported"); return }
        #expect(e.description == path + "/stops.txt:3:3: stop_lat: stop 'S2': (0, 0) is a placeholder, not a position: no position (--skip-invalid skips stops without a usable position or name)")
    }

    @Test func osmRefusesANodeAtNullIsland() {
        let path = TestPaths.package("Tests/EkiImportTests/Fixtures/osm/bad-coordinate-null-island-n2.osm")
        let e = Self.error { _ = try OSMImporter(path: path).read() }
        #expect(e?.file == path)
        #expect(e?.line == 7)
        #expect(e?.field == "lat")
        #expect(e?.message.contains("(0, 0) is a placeholder, not a position: no position") == true, "\(String(describing: e))")
    }

    @Test func rowsWithoutPositionStopTheImportNamingTheOption() {
        let path = Self.csv("codes-8-rows-2-with-position.csv")
        let e = Self.error { _ = try GenericCSVImporter(path: path).read() }
        #expect(e?.description == path + ":3:3: lat: empty: the row has no position (--skip-invalid skips rows without a usable position or name)")
    }

    @Test func skipInvalidKeepsTheRowsWithAPosition() throws {
        let path = Self.csv("codes-8-rows-2-with-position.csv")
        let batch = try GenericCSVImporter(path: path, skipInvalid: true).read()
        #expect(batch.records.map(\.name) == ["茗荷谷", "水道橋"])
        #expect(batch.records.map(\.coordinate) == [Coordinate(lat: 35.71765, lon: 139.73725),
                                                    Coordinate(lat: 35.70207, lon: 139.75345)])
        #expect(batch.skipped.count == 6)
        #expect(batch.skipped.first.map(\.line) == [3, 4, 5, 6, 8])
        #expect(batch.skipped.first.map(\.field) == ["lat", "lat", "name", "lat", "lat"])
        let summary = try #require(batch.skipped.summary)
        #expect(summary.hasPrefix("6 rows skipped without a usable position or name (--skip-invalid): " + path + ":3:3: lat: empty: the row has no position; "))
        #expect(summary.hasSuffix("; …"))
    }

    @Test func skipInvalidDoesNotGoWithOSM() {
        let osm = TestPaths.package("Tests/EkiImportTests/Fixtures/osm/bad-coordinate-null-island-n2.osm")
        #expect(throws: ImportOptionError("--skip-invalid does not go with OpenStreetMap input (\(osm)): its stations are nodes, which always have a position")) {
            _ = try ImporterRegistry().plan([osm], options: ImportOptions(skipInvalid: true))
        }
    }

    @Test func aRowFarFromAllOthersIsFlagged() throws {
        let path = Self.csv("far-row-line5-lon-digit-dropped.csv")
        let batch = try GenericCSVImporter(path: path).read()
        let warnings = PositionChecks.farFromOthers(batch.records, file: path)
        #expect(warnings.map(\.description) == [
            path + ": '二宮' (4) at 35.29895, 13.92863 is far from every other row of this input (none within 1°): check its position",
        ])
        // The three real neighbours alone: nothing flagged; two rows are not checked.
        #expect(PositionChecks.farFromOthers(Array(batch.records.prefix(3)), file: path).isEmpty)
        #expect(PositionChecks.farFromOthers([batch.records[0], batch.records[3]], file: path).isEmpty)
    }

    /// The real N02 rows: no station is far from all the others (1° cells around each).
    @Test(.needsN02) func noRealN02StationIsFlagged() throws {
        let batch = try N02CSVImporter(path: TestPaths.requireShared(TestPaths.n02CSVFile)).read()
        #expect(batch.records.count > 10_000)
        #expect(PositionChecks.farFromOthers(batch.records, file: "n02").map(\.description) == [])
    }
}
