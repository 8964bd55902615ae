import Foundation
import EkiKit
import EkiImport
import EkiTestSupport

/// Locates GTFS test data: the real feeds and peer suites in the shared folder (`TestPaths`),
/// and this target's own fixtures.
enum GTFSTestData {
    /// Path of `relative` in the shared folder (which may name a missing file on purpose), for
    /// a test enabled by `.needsShared(…)`.
    static func shared(_ relative: String) -> String {
        guard let root = TestPaths.shared else { fatalError("../shared is absent: the test needs `.needsShared(…)`") }
        return root.appendingPathComponent(relative).path
    }

    /// Path of a fixture under Tests/EkiImportTests/Fixtures/gtfs.
    static func fixture(_ name: String) -> String {
        TestPaths.package("Tests/EkiImportTests/Fixtures/gtfs/" + name)
    }

    static let portLiner = "datasets/gtfs-portliner-kobe-unofficial"
    static let utsunomiya = "datasets/gtfs-utsunomiya-lrt-unofficial"
    static let transitfeed = "peer-suites/gtfs-transitfeed"
    static let googleSample = "peer-suites/gtfs-google-sample"

    /// The cases of peer-suites/gtfs-transitfeed/expected.json as (path, outcome).
    static func transitfeedCases() -> [(path: String, outcome: String)] {
        guard let data = FileManager.default.contents(atPath: shared(transitfeed + "/expected.json")),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let cases = json["cases"] as? [[String: Any]] else { return [] }
        return cases.compactMap { c in
            guard let p = c["path"] as? String, let o = c["outcome"] as? String else { return nil }
            return (p, o)
        }
    }

    /// Reads a feed, returning the batch or the error.
    static func run(_ path: String, modes: GTFSModes = .rail) -> Result<ImportBatch, ImportError> {
        do throws(ImportError) {
            return .success(try GTFSImporter(path: path, modes: modes).read())
        } catch {
            return .failure(error)
        }
    }
}
