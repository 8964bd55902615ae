import EkiImport
import EkiKit
import Foundation

/// Paths and helpers shared by the OSM importer tests. Everything is found relative to this
/// file: fixtures beside the tests, real data in `../shared/datasets` next to the package.
enum OSMTestSupport {
    /// Tests/EkiImportTests
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// The package root (two levels up from this file's folder).
    static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String) -> String {
        testsDirectory.appendingPathComponent("Fixtures/osm/\(name)").path
    }

    /// A file in `../shared/datasets` beside the package, nil when it is not there.
    static func sharedDataset(_ relative: String) -> String? {
        let path = packageRoot.appendingPathComponent("../shared/datasets/\(relative)").standardizedFileURL.path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    static let hokkaido = sharedDataset("osm-hokkaido-rail-josm/stops_shapes.osm")
    static let tokyoRailGeo = sharedDataset("osm-tokyo-rail-geo-josm/rail_geo.osm")

    /// A fresh temporary directory, removed by the caller with `removeItem`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("eki-osm-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `xml` to a temporary file and imports it.
    static func importXML(_ xml: String, operatorOverride: String? = nil) throws -> ImportBatch {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("inline.osm")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        return try OSMImporter(path: file.path, operatorOverride: operatorOverride).read()
    }

    /// Runs `/bin/sh -c script` with the arguments as `$1`…, waiting for it to finish.
    @discardableResult
    static func shell(_ script: String, _ arguments: String...) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script, "sh"] + arguments
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// Rows as comparable strings: `operator|class|lines|source`.
    static func summary(_ records: [SourceRecord]) -> [String] {
        records.map {
            "\($0.operatorName ?? "-")|\($0.serviceClass.rawValue)|\($0.lines.joined(separator: ","))|\($0.source.id)"
        }.sorted()
    }
}
