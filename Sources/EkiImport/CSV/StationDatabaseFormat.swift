import EkiKit

/// station_database (`StationDatabaseImporter`): its `out/main` (or `out/extra`) folder, or its
/// files named one by one (`station.csv line.csv register.csv ../src/company.csv`, recognised
/// by their headers in any order, `StationDatabaseImporter.fileSet`). Yes for either, no
/// otherwise.
public struct StationDatabaseFormat: CSVFileSetFormat {
    public typealias Importer = StationDatabaseImporter
    public init() {}
    public var name: String { "station-database" }
    public var reads: String { "station_database main/ or extra/ folder (station.csv, line.csv, register.csv; company.csv beside them or in ../src/), or those files" }
}
