import EkiKit
import Foundation

/// station_database (`StationDatabaseImporter`): its `out/main` (or `out/extra`) folder, or its
/// files named one by one (`station.csv line.csv register.csv ../src/company.csv`, recognised
/// by their headers, in any order). Yes for either, no otherwise.
public struct StationDatabaseFormat: ImportFormat {
    public init() {}
    public var name: String { "station-database" }
    public var reads: String { "station_database main/ or extra/ folder (station.csv, line.csv, register.csv; company.csv beside them or in ../src/), or those files" }

    public func identify(_ input: ImportInput) -> Identification {
        if input.isDirectory { return input.has("station.csv") && input.has("register.csv") ? .yes : .no }
        guard let header = input.csvHeader(encoding: nil) else { return .no }
        return StationDatabaseImporter.file(forHeader: header) != nil ? .yes : .no
    }

    public func importer(for input: ImportInput, options: ImportOptions) throws -> any StationImporter {
        var importer = try StationDatabaseImporter(path: input.path, encoding: options.encoding)
        importer.skipInvalid = options.skipInvalid
        importer.limits = options.limits.csv
        return importer
    }

    /// Folders as one dataset each; files joined with the station.csv they go with (the one in
    /// the same folder, else the only one); inputs naming the same station.csv read once.
    public func importers(for inputs: [ImportInput], options: ImportOptions) throws -> [PlannedImport] {
        typealias File = StationDatabaseImporter.File
        var roles: [(input: ImportInput, file: File?)] = []
        for input in inputs {
            roles.append((input, input.isDirectory ? nil : input.csvHeader(encoding: options.encoding).flatMap(StationDatabaseImporter.file(forHeader:))))
        }
        let stations = roles.filter { $0.file == .station }.map(\.input)
        func folder(_ i: ImportInput) -> String { (i.path as NSString).deletingLastPathComponent }
        /// The companion of `role` for `station`: the one in its folder, else the only one given.
        func companion(_ role: File, of station: ImportInput) -> String? {
            let given = roles.filter { $0.file == role }.map(\.input)
            return (given.first { folder($0) == folder(station) } ?? (given.count == 1 ? given[0] : nil))?.path
        }
        var planned: [PlannedImport] = []
        var seen = Set<String>()
        for (input, role) in roles {
            var importer: StationDatabaseImporter
            if input.isDirectory {
                importer = try StationDatabaseImporter(path: input.path, encoding: options.encoding)
            } else if role == .station || role == nil {
                importer = try StationDatabaseImporter(station: input.path, line: companion(.line, of: input),
                                                       register: companion(.register, of: input),
                                                       company: companion(.company, of: input), encoding: options.encoding)
            } else {
                guard !stations.isEmpty else {
                    throw ImportError(file: input.displayName, message: "this is station_database's \(role!.rawValue).csv: give station.csv (or its folder) with it")
                }
                continue
            }
            importer.skipInvalid = options.skipInvalid
            importer.limits = options.limits.csv
            if seen.insert(importer.stationPath).inserted {
                planned.append(PlannedImport(input: input, format: name, importer: importer))
            }
        }
        return planned
    }
}
