import EkiKit

/// OpenStreetMap XML (`OSMImporter`), plain, gzip or bzip2, from a file or standard input
/// (see `OSMImporter.identify(path:)`), and OpenStreetMap PBF (`OSMPBFImporter`), recognised by
/// its first bytes (`OSMPBFImporter.isPBF(path:)`) whatever the name.
public struct OSMFormat: ImportFormat {
    public init() {}
    public var name: String { "osm" }
    public var reads: String { "OpenStreetMap XML 0.6 (API, Overpass, JOSM, osmium), plain, .gz or .bz2, or PBF (.osm.pbf); `-` reads XML from stdin" }
    /// XML from standard input; no `--skip-invalid` (a node always has a position).
    public var capabilities: ImportCapabilities {
        ImportCapabilities(standardInput: .init(content: "OpenStreetMap XML", short: "OSM"),
                           skipInvalidRefusal: .init(input: "OpenStreetMap", reason: "its stations are nodes, which always have a position"))
    }

    public func identify(_ input: ImportInput) -> Identification {
        if input.isDirectory { return .no }
        if !input.isStandardInput && OSMPBFImporter.isPBF(path: input.path) { return .yes }
        let xml = OSMImporter.identify(path: input.path)
        if xml == .no && input.path.hasSuffix(".pbf") { return .maybe }
        return xml
    }

    /// PBF by its first bytes; a `.pbf` file that is neither PBF nor XML goes to the PBF
    /// importer too, which says why it cannot read it.
    private static func readsAsPBF(_ input: ImportInput) -> Bool {
        guard !input.isStandardInput else { return false }
        return OSMPBFImporter.isPBF(path: input.path)
            || (input.path.hasSuffix(".pbf") && OSMImporter.identify(path: input.path) == .no)
    }

    public func importer(for input: ImportInput, options: ImportOptions) throws -> any StationImporter {
        if Self.readsAsPBF(input) {
            return OSMPBFImporter(path: input.path, operatorOverride: options.operatorOverride,
                                  maxValueBytes: options.maxFieldBytes)
        }
        return OSMImporter(path: input.path, operatorOverride: options.operatorOverride,
                           displayName: input.isStandardInput ? input.displayName : nil,
                           maxValueBytes: options.maxFieldBytes)
    }
}
