import EkiImport
import EkiKit
import EkiTestSupport
import Foundation

/// Paths and helpers shared by the OSM importer tests: fixtures beside the tests, real data in
/// the shared folder (`TestPaths`).
enum OSMTestSupport {
    static func fixture(_ name: String) -> String {
        TestPaths.package("Tests/EkiImportTests/Fixtures/osm/\(name)")
    }

    /// The two JOSM files, relative to the shared folder.
    static let hokkaidoFile = "datasets/osm-hokkaido-rail-josm/stops_shapes.osm"
    static let tokyoRailGeoFile = "datasets/osm-tokyo-rail-geo-josm/rail_geo.osm"
    /// Their paths, for tests enabled by `.needsShared(hokkaidoFile)` (or tokyoRailGeoFile).
    static var hokkaido: String { TestPaths.requireShared(hokkaidoFile) }
    static var tokyoRailGeo: String { TestPaths.requireShared(tokyoRailGeoFile) }

    /// Writes `xml` to a temporary file and imports it.
    static func importXML(_ xml: String, operatorOverride: String? = nil) throws -> ImportBatch {
        let dir = TemporaryDirectory()
        let file = dir.url.appendingPathComponent("inline.osm")
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
