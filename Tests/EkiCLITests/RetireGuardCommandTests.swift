import Foundation
import Testing
import EkiKit
import EkiTestSupport

/// An import that would retire more than 5 % of a dataset's entries stops before writing and
/// says what it would retire; `--replace` confirms; every import prints its retire count; an
/// input that gives nothing says why.
@Suite struct RetireGuardCommandTests {
    let dir = TestPaths.temporaryDirectory()

    /// A copy of a database RealData built once, to write into.
    func copy(_ path: String, as name: String) throws -> String {
        let to = dir.appendingPathComponent(name).path
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: to + suffix)
        }
        return to
    }

    /// The case: Datasets/n02-odawara-tokyo.csv (54 N02 rows) into the nationwide N02
    /// database.
    @Test(.needsN02) func partialN02FileIntoNationwideDatabase() throws {
        let db = try copy(RealData.n02Database, as: "n02.gpkg")
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let sample = TestPaths.package("Datasets/n02-odawara-tokyo.csv")
        let refused = eki("import", "--db", db, sample)
        #expect(refused.status == 1)
        #expect(refused.err.hasPrefix("eki import: this import would retire 9548 of the 9587 n02 entries (99.6 %: "), "\(refused.err)")
        #expect(refused.err.hasSuffix(", …), more than 5 % of a dataset; nothing was written. If the input is meant to replace the dataset, run it again with --replace\n"),
                "\(refused.err)")
        #expect(refused.out.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)

        let replaced = eki("import", "--db", db, "--replace", sample)
        #expect(replaced.status == 0, "\(replaced.err)")
        #expect(replaced.out.hasPrefix("n02: 54 rows → 39 entries\nn02: 9548 entries retired (no longer in the input; kept, marked retired)\n"),
                "\(replaced.out)")
        #expect(replaced.out.contains(" 9548 retired, "), "\(replaced.out)")
    }

    /// A bus feed imported with --modes bus, then with the default (rail) modes: nothing is
    /// read, the message says why, and retiring all 3 entries needs --replace.
    @Test func busFeedWithDefaultModes() throws {
        let db = dir.appendingPathComponent("bus.gpkg").path
        let feed = TestPaths.package("Tests/EkiImportTests/Fixtures/gtfs/bus-only-3stops")
        let bus = eki("import", "--db", db, "--modes", "bus", feed)
        #expect(bus.status == 0, "\(bus.err)")
        #expect(bus.out.hasPrefix("gtfs/bus-only-3stops: 3 rows → 3 entries\nentries: 3 added, 0 updated, 0 unchanged, 0 retired, 0 merged\n"), "\(bus.out)")

        let rail = eki("import", "--db", db, feed)
        #expect(rail.status == 1)
        #expect(rail.err.contains(feed + ": nothing imported: all 2 routes are excluded by --modes: 2 bus (route_type 3); --modes bus includes them\n"), "\(rail.err)")
        #expect(rail.err.contains("this import would retire 3 of the 3 gtfs/bus-only-3stops entries (100.0 %: "), "\(rail.err)")

        let replaced = eki("import", "--db", db, "--replace", feed)
        #expect(replaced.status == 0)
        #expect(replaced.out.hasPrefix("gtfs/bus-only-3stops: 0 rows → 0 entries\ngtfs/bus-only-3stops: 3 entries retired (no longer in the input; kept, marked retired)\n"),
                "\(replaced.out)")
    }

    @Test func osmFileWithoutStationsSaysSo() {
        let db = dir.appendingPathComponent("osm.gpkg").path
        let file = TestPaths.package("Tests/EkiImportTests/Fixtures/osm/no-stations-n2.osm")
        let r = eki("import", "--db", db, file)
        #expect(r.status == 0)
        #expect(r.err.contains(file + ": nothing imported: no stations in this file (railway=station, halt or tram_stop, "), "\(r.err)")
        #expect(r.out.hasPrefix("osm: 0 rows → 0 entries\n"), "\(r.out)")
    }
}
