import EkiKit

/// OpenStreetMap XML (`OSMImporter`), plain, gzip or bzip2, from a file or standard input:
/// see `OSMImporter.identify(path:)`.
public struct OSMFormat: ImportFormat {
    public init() {}
    public var name: String { "osm" }
    public var reads: String { "OpenStreetMap XML 0.6 (API, Overpass, JOSM, osmium), plain, .gz or .bz2; `-` reads stdin" }

    public func identify(_ input: ImportInput) -> Identification {
        input.isDirectory ? .no : OSMImporter.identify(path: input.path)
    }

    public func importer(for input: ImportInput, options: ImportOptions) throws -> any StationImporter {
        OSMImporter(path: input.path, operatorOverride: options.operatorOverride,
                    displayName: input.isStandardInput ? input.displayName : nil)
    }
}
