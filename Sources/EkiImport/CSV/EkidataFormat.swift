import EkiKit
import Foundation

/// 駅データ.jp (`EkidataImporter`): a folder holding its station file, or its files named one
/// by one (station, line, company; recognised by their headers). Yes for either, no otherwise.
public struct EkidataFormat: ImportFormat {
    public init() {}
    public var name: String { "ekidata" }
    public var reads: String { "駅データ.jp: a folder with the station, line and company files, or the station file (line and company files beside it or given too)" }

    public func identify(_ input: ImportInput) -> Identification {
        if input.isDirectory {
            let hasStationFile = input.entries.contains { name in
                guard name.lowercased().hasSuffix(".csv"),
                      let h = try? ImportInput((input.path as NSString).appendingPathComponent(name)),
                      let header = h.csvHeader(encoding: nil) else { return false }
                return EkidataImporter.matches(header: header)
            }
            return hasStationFile ? .yes : .no
        }
        guard let header = input.csvHeader(encoding: nil) else { return .no }
        return EkidataImporter.file(forHeader: header) != nil ? .yes : .no
    }

    public func importer(for input: ImportInput, options: ImportOptions) throws -> any StationImporter {
        var importer = try EkidataImporter(path: input.path, encoding: options.encoding)
        importer.skipInvalid = options.skipInvalid
        importer.limits = options.limits.csv
        return importer
    }

    /// Folders as one dataset each; the station file joined with the line and company files
    /// given with it; inputs naming the same station file read once.
    public func importers(for inputs: [ImportInput], options: ImportOptions) throws -> [PlannedImport] {
        let roles = inputs.map { i in (input: i, file: i.isDirectory ? nil : i.csvHeader(encoding: options.encoding).flatMap(EkidataImporter.file(forHeader:))) }
        let given = { (f: EkidataImporter.File) in roles.filter { $0.file == f }.map(\.input) }
        let hasStation = !given(.station).isEmpty
        var planned: [PlannedImport] = []
        var seen = Set<String>()
        for (input, role) in roles {
            var importer: EkidataImporter
            if input.isDirectory {
                importer = try EkidataImporter(path: input.path, encoding: options.encoding)
            } else if role == .station || role == nil {
                importer = try EkidataImporter(station: input.path, line: given(.line).count == 1 ? given(.line)[0].path : nil,
                                               company: given(.company).count == 1 ? given(.company)[0].path : nil,
                                               encoding: options.encoding)
            } else {
                guard hasStation else {
                    throw ImportError(file: input.displayName, message: "this is ekidata's \(role!.rawValue) file: give the station file (or its folder) with it")
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
