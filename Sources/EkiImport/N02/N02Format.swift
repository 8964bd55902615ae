import EkiKit

/// 国土数値情報 N02 stations: the official GeoJSON (`N02GeoJSONImporter`) or a CSV with the
/// N02 columns (`N02CSVImporter`). Yes for either signature, no otherwise.
public struct N02Format: ImportFormat {
    public init() {}
    public var name: String { "n02" }
    public var reads: String { "国土数値情報 N02 stations: the official GeoJSON (UTF-8 or Shift_JIS) or a CSV with N02_001…N02_005g, lon, lat" }

    public func identify(_ input: ImportInput) -> Identification {
        if N02GeoJSONImporter.matches(head: input.head) { return .yes }
        guard let header = input.csvHeader(encoding: nil) else { return .no }
        return N02CSVImporter.matches(header: header) ? .yes : .no
    }

    public func importer(for input: ImportInput, options: ImportOptions) throws -> any StationImporter {
        if N02GeoJSONImporter.matches(head: input.head) || input.fileName.lowercased().hasSuffix(".geojson") {
            var importer = N02GeoJSONImporter(path: input.path, encoding: options.encoding)
            importer.limits = options.limits.csv
            return importer
        }
        var importer = N02CSVImporter(path: input.path, encoding: options.encoding)
        importer.skipInvalid = options.skipInvalid
        importer.limits = options.limits.csv
        return importer
    }
}
