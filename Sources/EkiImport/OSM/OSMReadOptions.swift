/// What both OpenStreetMap importers are given (`OSMImporter` for XML, `OSMPBFImporter`).
public struct OSMReadOptions: Sendable {
    /// Path of the input; `-` for stdin (XML only).
    public var path: String
    /// Operator given to rows that have none (e.g. files without operator tags).
    public var operatorOverride: String?
    /// The name used in messages; by default the path (`<stdin>` for `-`).
    public var displayName: String
    /// The longest tag value accepted, in bytes (`--max-field-bytes`).
    public var maxValueBytes: Int

    public init(path: String, operatorOverride: String? = nil, displayName: String? = nil,
                maxValueBytes: Int = OSMImporter.defaultMaxValueBytes) {
        self.path = path
        self.operatorOverride = operatorOverride
        self.displayName = displayName ?? (path == "-" ? "<stdin>" : path)
        self.maxValueBytes = maxValueBytes
    }
}

/// An OpenStreetMap importer (XML or PBF), made from `OSMReadOptions`.
public protocol OSMFileImporter: StationImporter {
    init(options: OSMReadOptions)
}

extension OSMFileImporter {
    /// The importer of `path` (see `OSMReadOptions`).
    public init(path: String, operatorOverride: String? = nil, displayName: String? = nil,
                maxValueBytes: Int = OSMImporter.defaultMaxValueBytes) {
        self.init(options: OSMReadOptions(path: path, operatorOverride: operatorOverride,
                                          displayName: displayName, maxValueBytes: maxValueBytes))
    }
}
