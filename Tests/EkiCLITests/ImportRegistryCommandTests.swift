import Testing
import Foundation
import EkiCLI
import EkiTestSupport

/// `eki import` picks the importer through the registry: inputs no format claims are refused
/// with the formats tried; files of one dataset given one by one import as their folder does.
@Suite(.serialized) struct ImportRegistryCommandTests {
    let dir = TestPaths.temporaryDirectory()
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
    static let gzipPresent = FileManager.default.isExecutableFile(atPath: "/usr/bin/gzip")
    static let allFormats = "n02, station-database, ekidata, gtfs, osm, generic"

    @Test("a folder no format reads names the formats tried, and the file inside it to give")
    func datasetsFolder() {
        let datasets = TestPaths.package("Datasets")
        let r = eki("import", "--db", path("a.gpkg"), datasets)
        #expect(r.status == 1)
        #expect(r.err == "eki import: \(datasets): no importer recognises this folder (tried: \(Self.allFormats)); "
                + "give the file inside it: \(datasets)/n02-odawara-tokyo.csv (n02)\n")
        #expect(!FileManager.default.fileExists(atPath: path("a.gpkg")))
    }

    /// N02-23 as it is kept in the shared data (the original Shift_JIS GeoJSON and two CSVs made
    /// from it): the folder names the UTF-8 CSV to give.
    @Test("the N02 folder names the station file inside it", .needsN02)
    func n02Folder() {
        let folder = (TestPaths.requireShared(TestPaths.n02CSVFile) as NSString).deletingLastPathComponent
        let r = eki("import", "--db", path("n02.gpkg"), folder)
        #expect(r.status == 1)
        #expect(r.err == "eki import: \(folder): no importer recognises this folder (tried: \(Self.allFormats)); "
                + "give the file inside it: \(folder)/N02-23_Station.utf8.csv (n02)\n")
        #expect(!FileManager.default.fileExists(atPath: path("n02.gpkg")))
    }

    /// The download's shapefiles alone (N02-23_GML/N02-23_Station.shp …): not read, and said so.
    @Test func shapefilesAreNamed() throws {
        let folder = path("N02-23_GML")
        try FileManager.default.createDirectory(atPath: folder + "/UTF-8", withIntermediateDirectories: true)
        for ext in ["shp", "shx", "dbf", "prj"] {
            #expect(FileManager.default.createFile(atPath: "\(folder)/UTF-8/N02-23_Station.\(ext)", contents: Data([0, 0, 39, 10])))
        }
        let r = eki("import", "--db", path("shp.gpkg"), folder)
        #expect(r.status == 1)
        #expect(r.err == "eki import: \(folder): no importer recognises this folder (tried: \(Self.allFormats)); "
                + "shapefiles (N02-23_Station.shp) are not read: give the GeoJSON (.geojson) of the same data\n")
    }

    @Test("a text file no format reads names the formats tried")
    func readme() {
        let readme = TestPaths.package("README.md")
        let r = eki("import", "--db", path("a.gpkg"), readme)
        #expect(r.status == 1)
        #expect(r.err == "eki import: \(readme): no importer recognises this file (tried: \(Self.allFormats))\n")
    }

    @Test("piped CSV on - is refused as not OSM, the only format read from stdin",
          .enabled(if: builtEki != nil, "needs the built eki executable (swift build)"))
    func pipedCSV() throws {
        let csv = try Data(contentsOf: URL(fileURLWithPath: TestPaths.package("Datasets/odawara-readings.csv")))
        let r = try ekiProcess(["import", "--db", path("a.gpkg"), "-"], stdin: csv)
        #expect(r.status == 1)
        #expect(r.err == "eki import: <stdin>: not OpenStreetMap XML (tried: osm; standard input is read as OSM only, give other formats as files)\n")
    }

    @Test("OSM XML piped on - imports", .enabled(if: builtEki != nil, "needs the built eki executable (swift build)"))
    func pipedOSM() throws {
        let osm = try Data(contentsOf: URL(fileURLWithPath: TestPaths.package("Tests/EkiImportTests/Fixtures/osm/odawara-n14w1r6.osm")))
        let r = try ekiProcess(["import", "--db", path("stdin.gpkg"), "-"], stdin: osm)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("osm: 5 rows → 5 entries\n"))
    }

    @Test("bzip2-compressed OSM piped on - imports, copied aside for the second pass",
          .enabled(if: builtEki != nil, "needs the built eki executable (swift build)"),
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/bzip2"), "needs /usr/bin/bzip2"))
    func pipedBzip2OSM() throws {
        let fixture = TestPaths.package("Tests/EkiImportTests/Fixtures/osm/odawara-n14w1r6.osm")
        let bz = Process()
        bz.executableURL = URL(fileURLWithPath: "/usr/bin/bzip2")
        bz.arguments = ["-c", fixture]
        let out = Pipe()
        bz.standardOutput = out
        try bz.run()
        let compressed = out.fileHandleForReading.readDataToEndOfFile()
        bz.waitUntilExit()
        #expect(compressed.starts(with: Array("BZh".utf8)))
        let r = try ekiProcess(["import", "--db", path("stdin-bz2.gpkg"), "-"], stdin: compressed)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("osm: 5 rows → 5 entries\n"))
    }

    @Test("errors in OSM read from stdin are named <stdin>, with line and column",
          .enabled(if: builtEki != nil, "needs the built eki executable (swift build)"))
    func pipedOSMError() throws {
        let osm = try Data(contentsOf: URL(fileURLWithPath: TestPaths.package("Tests/EkiImportTests/Fixtures/osm/bad-version-0.5.osm")))
        let r = try ekiProcess(["import", "--db", path("stdin-bad.gpkg"), "-"], stdin: osm)
        #expect(r.status == 1)
        #expect(r.err == "eki import: <stdin>:2:1: version: OSM XML version 0.5 is not supported (0.6 expected)\n")
    }

    @Test("an OSM file with a DOCTYPE is identified as OSM and refused for its entities")
    func osmWithDoctype() {
        let file = TestPaths.package("Tests/EkiImportTests/Fixtures/osm/bad-doctype-billion-laughs.osm")
        let r = eki("import", "--db", path("a.gpkg"), file)
        #expect(r.status == 1)
        #expect(r.err == "eki import: \(file):2:15: refused: the DOCTYPE has an internal subset (entity declarations are not allowed in OSM XML)\n")
    }

    @Test("a gzipped OSM file whose prologue is longer than the 4 KiB sniffed imports",
          .enabled(if: gzipPresent, "needs /usr/bin/gzip"))
    func gzippedOSMWithLongPrologue() throws {
        let fixture = try String(contentsOfFile: TestPaths.package("Tests/EkiImportTests/Fixtures/osm/odawara-n14w1r6.osm"), encoding: .utf8)
        var lines = fixture.split(separator: "\n", omittingEmptySubsequences: false)
        lines.insert("<!-- \(String(repeating: "x", count: 6000)) -->", at: 1)
        let plain = path("long-prologue.osm")
        try lines.joined(separator: "\n").write(toFile: plain, atomically: true, encoding: .utf8)
        let gz = Process()
        gz.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        gz.arguments = [plain]
        try gz.run()
        gz.waitUntilExit()
        let r = eki("import", "--db", path("gz.gpkg"), plain + ".gz")
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("osm: 5 rows → 5 entries\n"))
    }

    @Test("a damaged zip goes to the GTFS importer, which says what is wrong")
    func damagedZip() throws {
        let zip = try Data(contentsOf: URL(fileURLWithPath: TestPaths.package("Tests/EkiImportTests/Fixtures/gtfs/monorail-2stops-in-folder.zip")))
        let file = path("damaged.zip")
        #expect(FileManager.default.createFile(atPath: file, contents: zip.prefix(300)))
        let r = eki("import", "--db", path("a.gpkg"), file)
        #expect(r.status == 1)
        #expect(r.err == "eki import: \(file): not a readable zip archive (Truncated input file (needed 64 bytes, only 1 available))\n")
    }

    @Test("a UTF-16 CSV reaches the CSV importer, which says to convert it")
    func utf16CSV() {
        let file = path("utf16.csv")
        #expect(FileManager.default.createFile(atPath: file, contents: Data([0xFF, 0xFE]) + "name,lat,lon\n".data(using: .utf16LittleEndian)!))
        let r = eki("import", "--db", path("a.gpkg"), file)
        #expect(r.status == 1)
        #expect(r.err == "eki import: \(file):1: file is UTF-16; convert it to UTF-8 (or CP932)\n")
    }

    @Test("--columns with a file of a known format is a usage error; a bad map is one too")
    func columnsWithKnownFormat() {
        let n02 = TestPaths.package("Datasets/n02-odawara-tokyo.csv")
        let r = eki("import", "--db", path("a.gpkg"), "--columns", "name=駅名", n02)
        #expect(r.status == 64)
        #expect(r.err == "eki import: --columns goes with the generic profile, but \(n02) is n02 (its columns are known)\n")
        let bad = eki("import", "--db", path("a.gpkg"), "--columns", "nom=駅名", TestPaths.package("Datasets/odawara-readings.csv"))
        #expect(bad.status == 64)
        #expect(bad.err == "eki import: --columns: unknown field 'nom' (fields: id, name, lat, lon, operator, line, reading, class)\n")
    }

    @Test("station_database's files named one by one give exactly the entries of its folder",
          .enabled(if: TestPaths.stationDatabaseMain != nil, "needs ../shared/datasets/csv-station-database-ekimemo"))
    func stationDatabaseFileList() throws {
        let main = TestPaths.stationDatabaseMain!
        let src = (main as NSString).deletingLastPathComponent + "/src"
        // The files copied to a folder of their own, company.csv left where it is: only the
        // file list can say where it is.
        let copy = dir.appendingPathComponent("sd").path
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for f in ["station.csv", "line.csv", "register.csv"] {
            try FileManager.default.copyItem(atPath: main + "/" + f, toPath: copy + "/" + f)
        }
        let folder = eki("import", "--db", path("folder.gpkg"), main)
        #expect(folder.status == 0, "\(folder.err)")
        let files = eki("import", "--db", path("files.gpkg"), copy + "/register.csv", copy + "/station.csv",
                        copy + "/line.csv", src + "/company.csv")
        #expect(files.status == 0, "\(files.err)")
        #expect(folder.out.hasPrefix("station-database: 11106 rows → 9977 entries\n"))
        #expect(files.out.hasPrefix("station-database: 11106 rows → 9977 entries\n"))
        #expect(try dump(path("folder.gpkg")) == (try dump(path("files.gpkg"))))
        // A companion without its station.csv says what is missing.
        let alone = eki("import", "--db", path("alone.gpkg"), copy + "/line.csv")
        #expect(alone.status == 1)
        #expect(alone.err == "eki import: \(copy)/line.csv: this is station_database's line.csv: give station.csv (or its folder) with it\n")
    }
}
