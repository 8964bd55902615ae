import Foundation
import Testing
import EkiTestSupport

/// `eki import` and positions: (0, 0) and rows without a position refused naming
/// `--skip-invalid`, which skips them and reports how many; rows far from all others listed with
/// `--verbose`.
@Suite struct PositionImportCommandTests {
    let dir = TestPaths.temporaryDirectory()

    static func csv(_ name: String) -> String {
        TestPaths.package("Tests/EkiImportTests/Fixtures/csv/" + name)
    }

    @Test func rowsWithoutPositionRefusedThenSkipped() throws {
        let db = dir.appendingPathComponent("codes.gpkg").path
        let good = eki("import", "--db", db, Self.csv("null-island-line3.csv"), "--skip-invalid")
        #expect(good.status == 0, "\(good.err)")
        #expect(good.err.contains("null-island-line3.csv: 1 row skipped without a usable position or name (--skip-invalid): "
                                  + Self.csv("null-island-line3.csv") + ":3:3: lat: (0, 0) is a placeholder, not a position: no position\n"),
                "\(good.err)")
        #expect(good.out.contains("csv/null-island-line3: 2 rows → 2 entries"), "\(good.out)")
        let before = try Data(contentsOf: URL(fileURLWithPath: db))

        let path = Self.csv("codes-8-rows-2-with-position.csv")
        let refused = eki("import", "--db", db, path)
        #expect(refused.status == 1)
        #expect(refused.err.contains(path + ":3:3: lat: empty: the row has no position (--skip-invalid skips rows without a usable position or name)"),
                "\(refused.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)

        let skipped = eki("import", "--db", db, "--skip-invalid", path)
        #expect(skipped.status == 0, "\(skipped.err)")
        #expect(skipped.err.contains("codes-8-rows-2-with-position.csv: 6 rows skipped without a usable position or name (--skip-invalid): "
                                     + path + ":3:3: lat: empty: the row has no position; "), "\(skipped.err)")
        #expect(skipped.out.contains("csv/codes-8-rows-2-with-position: 2 rows → 2 entries"), "\(skipped.out)")
    }

    /// GTFS takes `--skip-invalid` too (its stops); OpenStreetMap, whose nodes always have a
    /// position, does not: a usage error.
    @Test func skipInvalidWithGTFSAndOSM() {
        let feed = TestPaths.package("Tests/EkiImportTests/Fixtures/gtfs/stop-at-null-island")
        let db = dir.appendingPathComponent("gtfs.gpkg").path
        let r = eki("import", "--db", db, "--skip-invalid", "--modes", "all", feed)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("stop-at-null-island: 1 row skipped without a usable position or name (--skip-invalid): \(feed)/stops.txt:3:3: stop_lat: stop 'S2': (0, 0) is a placeholder, not a position: no position\n"), "\(r.err)")
        let osm = TestPaths.package("Tests/EkiImportTests/Fixtures/osm/bad-coordinate-null-island-n2.osm")
        let o = eki("import", "--db", db, "--skip-invalid", osm)
        #expect(o.status == 64)
        #expect(o.err == "eki import: --skip-invalid does not go with OpenStreetMap input (\(osm)): its stations are nodes, which always have a position\n", "\(o.err)")
    }

    @Test func farRowsAreWarnedAndListedWithVerbose() {
        let path = Self.csv("far-row-line5-lon-digit-dropped.csv")
        let quiet = eki("import", "--db", dir.appendingPathComponent("far1.gpkg").path, path)
        #expect(quiet.status == 0)
        #expect(quiet.err.contains("far-row-line5-lon-digit-dropped.csv: 1 warning(s) (--verbose lists them)"), "\(quiet.err)")
        let verbose = eki("import", "--db", dir.appendingPathComponent("far2.gpkg").path, "--verbose", path)
        #expect(verbose.status == 0)
        #expect(verbose.err.contains("  warning: " + path + ": '二宮' (4) at 35.29895, 13.92863 is far from every other row of this input (none within 1°): check its position"),
                "\(verbose.err)")
    }
}
