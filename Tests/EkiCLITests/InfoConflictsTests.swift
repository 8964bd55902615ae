import Testing
import Foundation
import EkiCLI
import EkiTestSupport

/// `eki info` counts what the sources disagreed on; `--conflicts` lists what stayed unresolved.
@Suite struct InfoConflictsTests {
    @Test(.needsN02AndStationDatabase) func conflictsOnTheRealFiles() throws {
        let db = RealData.combinedDatabase
        let info = eki("info", "--db", db)
        #expect(info.status == 0, "\(info.err)")
        #expect(info.out.contains("\nmissing operator                39\n"))
        #expect(info.out.contains("\noperator by station             78\n"))
        #expect(info.out.contains("\noperator by curated section     63\n"))
        #expect(info.out.contains("\none station in two classes      1\n"))
        #expect(info.out.contains("\nrenamed after an older edition  4\n"))
        #expect(info.out.contains("\nunresolved: 9 (list them with --conflicts)\n"))
        let list = eki("info", "--db", db, "--conflicts")
        #expect(list.status == 0, "\(list.err)")
        #expect(list.out.hasPrefix("could not be resolved: 9\n"))
        // Only closed lines of long ago have no company anywhere.
        #expect(list.out.contains("station-database:2500139  秦野      湘南軌道"))
        let json = eki("info", "--db", db, "--conflicts", "--format", "json")
        let parsed = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        #expect((parsed?["unresolved"] as? [Any])?.count == 9)
    }

    /// `--edition` is stored with each dataset of the import and shown by `eki info`; a bad
    /// date is a usage error and writes nothing.
    @Test func editionIsStored() throws {
        let tmp = TemporaryDirectory()
        let db = tmp.file("e.gpkg")
        let bad = eki("import", "--db", db, "--edition", "2023-13-01", TestPaths.package("Datasets/n02-odawara-tokyo.csv"))
        #expect(bad.status == 64)
        #expect(bad.err.contains("--edition must be a date YYYY-MM-DD, got '2023-13-01'"))
        #expect(!FileManager.default.fileExists(atPath: db))
        let ok = eki("import", "--db", db, "--edition", "2023-01-01", TestPaths.package("Datasets/n02-odawara-tokyo.csv"))
        #expect(ok.status == 0, "\(ok.err)")
        let info = eki("info", "--db", db)
        #expect(info.out.contains("\neditions: n02 2023-01-01\n"))
        let json = try JSONSerialization.jsonObject(with: Data(eki("info", "--db", db, "--format", "json").out.utf8)) as? [String: Any]
        #expect(json?["editions"] as? [String: String] == ["n02": "2023-01-01"])
    }
}
