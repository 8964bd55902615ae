import Testing
import Foundation
import EkiImport
import EkiTestSupport

/// Which format the registry picks for each kind of input, and how sure each format is.
@Suite struct ImporterRegistryTests {
    let registry = ImporterRegistry()

    func chosen(_ relative: String) throws -> String {
        try registry.format(for: ImportInput(TestPaths.package(relative)), profile: nil, options: ImportOptions()).name
    }

    @Test("the package's own samples and fixtures go to their formats")
    func fixtures() throws {
        #expect(try chosen("Datasets/n02-odawara-tokyo.csv") == "n02")
        #expect(try chosen("Datasets/odawara-readings.csv") == "generic")
        #expect(try chosen("Tests/EkiImportTests/Fixtures/ekidata") == "ekidata")
        #expect(try chosen("Tests/EkiImportTests/Fixtures/ekidata/station-sample.csv") == "ekidata")
        #expect(try chosen("Tests/EkiImportTests/Fixtures/gtfs/monorail-2stops-in-folder.zip") == "gtfs")
        #expect(try chosen("Tests/EkiImportTests/Fixtures/gtfs/stop-without-latitude") == "gtfs")
        #expect(try chosen("Tests/EkiImportTests/Fixtures/osm/odawara-n14w1r6.osm") == "osm")
        #expect(try chosen("Tests/EkiImportTests/Fixtures/osm/bad-doctype-billion-laughs.osm") == "osm")
    }

    @Test("each format's answer for a generic CSV: only the generic importer says maybe")
    func answersForGenericCSV() throws {
        let input = try ImportInput(TestPaths.package("Datasets/odawara-readings.csv"))
        let answers = registry.formats.map { "\($0.name)=\($0.identify(input))" }
        #expect(answers == ["n02=no", "station-database=no", "ekidata=no", "gtfs=no", "osm=no", "generic=maybe"])
    }

    @Test("an explicit profile chooses; an unknown one is an option error")
    func explicitProfile() throws {
        let input = try ImportInput(TestPaths.package("Datasets/n02-odawara-tokyo.csv"))
        #expect(try registry.format(for: input, profile: "generic", options: ImportOptions()).name == "generic")
        #expect(throws: ImportOptionError("--profile must be one of n02, station-database, ekidata, gtfs, osm, generic, got 'kml'")) {
            try registry.format(for: input, profile: "kml", options: ImportOptions())
        }
    }

    @Test("batches of one dataset are merged in first-seen order")
    func merging() {
        let merged = ImportBatch.merging([ImportBatch(dataset: "osm"), ImportBatch(dataset: "n02"), ImportBatch(dataset: "osm")])
        #expect(merged.map(\.dataset) == ["osm", "n02"])
    }

    @Test("GTFS feed names: a folder with a generic name takes its parent's")
    func feedNames() {
        #expect(GTFSFormat.feedName("/data/portliner/gtfs") == "portliner-gtfs")
        #expect(GTFSFormat.feedName("/data/gtfs-PortLiner2025v1.zip") == "gtfs-PortLiner2025v1")
    }

    /// A format of the caller's own that declares it reads no invalid rows and takes a column map.
    struct PlacesFormat: ImportFormat {
        var name: String { "places" }
        var reads: String { "a places file" }
        var capabilities: ImportCapabilities {
            ImportCapabilities(skipInvalidRefusal: .init(input: "places", reason: "every place has a position"), takesColumnMap: true)
        }
        func identify(_ input: ImportInput) -> Identification { input.fileName.hasSuffix(".csv") ? .yes : .no }
        func importer(for input: ImportInput, options: ImportOptions) throws -> any StationImporter {
            try GenericCSVImporter(path: input.path)
        }
    }

    @Test("what a format takes is its declared capabilities, not its type")
    func capabilitiesDecide() throws {
        #expect(registry.formats.filter(\.capabilities.readsStandardInput).map(\.name) == ["osm"])
        #expect(registry.formats.filter { !$0.capabilities.supportsSkipInvalid }.map(\.name) == ["osm"])
        #expect(registry.formats.filter(\.capabilities.takesColumnMap).map(\.name) == ["generic"])
        let own = ImporterRegistry(formats: [PlacesFormat(), GenericCSVFormat()])
        let input = try ImportInput(TestPaths.package("Datasets/odawara-readings.csv"))
        #expect(throws: ImportOptionError("--skip-invalid does not go with places input (\(input.displayName)): every place has a position")) {
            try own.format(for: input, profile: nil, options: ImportOptions(skipInvalid: true))
        }
        #expect(throws: ImportOptionError("--skip-invalid does not go with the places profile (every place has a position)")) {
            try own.format(for: input, profile: "places", options: ImportOptions(skipInvalid: true))
        }
        #expect(try own.format(for: input, profile: nil, options: ImportOptions(columns: "name=駅名")).name == "places")
        #expect(throws: ImportOptionError("--columns goes with the generic profile")) {
            try registry.format(for: input, profile: "n02", options: ImportOptions(columns: "name=駅名"))
        }
    }

    @Test("a multi-file CSV dataset: a folder, its files one by one, or a companion alone")
    func csvFileSets() throws {
        let folder = TestPaths.package("Tests/EkiImportTests/Fixtures/ekidata")
        let byFolder = try registry.plan([folder], options: ImportOptions())
        let byFiles = try registry.plan([folder + "/line-sample.csv", folder + "/station-sample.csv", folder + "/company-sample.csv"],
                                        options: ImportOptions())
        // The files given one by one are one dataset, planned at its station file.
        #expect(byFiles.map(\.input.fileName) == ["station-sample.csv"])
        let a = try #require(byFolder.first?.importer as? EkidataImporter), b = try #require(byFiles.first?.importer as? EkidataImporter)
        #expect([a.stationPath, a.linePath, a.companyPath].map { ($0 as NSString).lastPathComponent }
                == ["station-sample.csv", "line-sample.csv", "company-sample.csv"])
        #expect(try a.read().records == (try b.read().records))
        // The folder and its station file given together are read once.
        #expect(try registry.plan([folder, folder + "/station-sample.csv"], options: ImportOptions()).count == 1)
        #expect(throws: ImportError(file: folder + "/line-sample.csv", message: "this is ekidata's line file: give the station file (or its folder) with it")) {
            try registry.plan([folder + "/line-sample.csv"], options: ImportOptions())
        }
        // A station file whose companions are not beside it says what it looked for.
        let dir = TemporaryDirectory()
        let lone = dir.url.appendingPathComponent("station.csv").path
        try FileManager.default.copyItem(atPath: folder + "/station-sample.csv", toPath: lone)
        #expect(throws: ImportError(file: dir.url.path, message: "ekidata needs the line file, header line_cd,company_cd,… (looked in \(dir.url.path))")) {
            try EkidataImporter(path: lone)
        }
        #expect(EkidataImporter.fileSet.role(forHeader: ["company_cd", "rr_cd", "company_name"])?.name == "company")
        #expect(StationDatabaseImporter.fileSet.role(forHeader: ["station_code", "line_code", "index"])?.name == "register")
    }
}
