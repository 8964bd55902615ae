import EkiImport
import EkiKit
import Foundation

/// The real open data of the shared folder, read once per test process, and station databases
/// built from it once. Use only from tests enabled by the matching trait (`.needsN02`,
/// `.needsStationDatabase`, `.needsN02AndStationDatabase`): without the data these stop the
/// process with a message naming the trait.
public enum RealData {
    /// N02-23's 10,240 rows, as `N02CSVImporter` reads the UTF-8 CSV.
    public static let n02Records: [SourceRecord] = {
        try! N02CSVImporter(path: TestPaths.requireShared(TestPaths.n02CSVFile)).read().records
    }()

    /// station_database main/: 11,106 rows (one per register.csv row), dataset `station-database`.
    public static let stationDatabase: ImportBatch = {
        try! StationDatabaseImporter(path: TestPaths.requireShared(TestPaths.stationDatabaseMainFolder)).read()
    }()

    /// A database of N02-23 alone (9,587 entries), imported with `importRecords`.
    public static let n02Database: String = build("n02.gpkg") { try $0.importRecords(n02Records, dataset: "n02") }

    /// A database of station_database main/ alone (10,017 entries).
    public static let stationDatabaseDatabase: String = build("station-database.gpkg") {
        try $0.importRecords(stationDatabase.records, dataset: stationDatabase.dataset)
    }

    /// N02-23 and station_database imported together in one `importBatches`.
    public static let combinedDatabase: String = build("n02-station-database.gpkg") {
        try $0.importBatches([("n02", n02Records), (stationDatabase.dataset, stationDatabase.records)])
    }

    /// station_database main/ imported first, then N02-23 in a second import (the reverse of
    /// the usual order; `combinedDatabase` imports both in one batch).
    public static let stationDatabaseThenN02: String = build("station-database-then-n02.gpkg") {
        try $0.importRecords(stationDatabase.records, dataset: stationDatabase.dataset)
        try $0.importRecords(n02Records, dataset: "n02")
    }

    /// A connection of its own on one of the databases above (a connection is not thread-safe,
    /// and suites run in parallel); read-only unless `writable`.
    public static func open(_ path: String, writable: Bool = false) -> StationStore {
        try! StationStore(path: path, readOnly: !writable)
    }

    private static func build(_ name: String, _ fill: (StationStore) throws -> Void) -> String {
        let path = TestPaths.temporaryDirectory().appendingPathComponent(name).path
        try! fill(try! StationStore(path: path))
        return path
    }
}
