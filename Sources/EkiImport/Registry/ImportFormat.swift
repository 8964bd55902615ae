import EkiKit

/// How sure a format is that an input is its own, as GDAL's `Identify` answers.
public enum Identification: Int, Comparable, Sendable {
    /// Not this format.
    case no = 0
    /// Could be this format, but the first bytes do not prove it (a zip whose listing cannot be
    /// read, a CSV with an unknown header): chosen only when no format says `yes`.
    case maybe = 1
    /// This format's signature (header, root element, file set) is present.
    case yes = 2

    public static func < (a: Identification, b: Identification) -> Bool { a.rawValue < b.rawValue }
}

/// The options of one `eki import` that importers may use.
public struct ImportOptions: Sendable {
    /// The text encoding of CSV inputs; nil detects it (UTF-8, else CP932).
    public var encoding: TextEncoding?
    /// The generic CSV column map, `field=COLUMN,...` (see `GenericCSVImporter`).
    public var columns: String?
    /// The GTFS route types to read.
    public var modes: GTFSModes
    /// The operator of OSM stations without an operator tag.
    public var operatorOverride: String?
    /// Skip rows without a usable position or name instead of refusing the input
    /// (`--skip-invalid`: generic CSV, N02 CSV, station_database, ekidata, GTFS stops).
    public var skipInvalid: Bool
    /// The bounds inputs are read within (`ImportLimits`: fields, lines, zip members, warnings).
    public var limits: ImportLimits
    /// The longest CSV or GTFS field and OSM tag value accepted, in bytes (`--max-field-bytes`; 1 MiB by default,
    /// `CSVReader.defaultMaxFieldBytes`): `limits.csv.maxFieldBytes`.
    public var maxFieldBytes: Int {
        get { limits.csv.maxFieldBytes }
        set { limits.csv.maxFieldBytes = newValue }
    }

    /// - Parameter maxFieldBytes: when given, replaces `limits.csv.maxFieldBytes`.
    public init(encoding: TextEncoding? = nil, columns: String? = nil, modes: GTFSModes = .rail,
                operatorOverride: String? = nil, skipInvalid: Bool = false,
                maxFieldBytes: Int? = nil, limits: ImportLimits = ImportLimits()) {
        self.encoding = encoding
        self.columns = columns
        self.modes = modes
        self.operatorOverride = operatorOverride
        self.skipInvalid = skipInvalid
        self.limits = limits
        if let maxFieldBytes { self.limits.csv.maxFieldBytes = maxFieldBytes }
    }
}

/// What a format can take beyond its files, declared as data so that the registry checks the
/// options against it (`ImporterRegistry.format(for:profile:options:)`) without knowing the
/// formats. The default: files only, `--skip-invalid` applies, no column map.
public struct ImportCapabilities: Sendable, Equatable {
    /// What standard input (`-`) is read as, as messages name it; nil when the format reads
    /// files only (it may need to seek, or to find companion files beside its input).
    public var standardInput: StandardInput?
    /// Why `--skip-invalid` does not apply, nil when it does (rows may lack a usable position
    /// or name): the input as messages name it and the reason.
    public var skipInvalidRefusal: SkipInvalidRefusal?
    /// Whether the format takes the generic column map (`--columns`): its columns are not known.
    public var takesColumnMap: Bool

    /// What standard input is read as: `content` in full ("OpenStreetMap XML"), `short` ("OSM").
    public struct StandardInput: Sendable, Equatable {
        public var content: String
        public var short: String
        public init(content: String, short: String) { self.content = content; self.short = short }
    }

    /// Why a format has no rows to skip: `input` names its data ("OpenStreetMap"), `reason`
    /// says why ("its stations are nodes, which always have a position").
    public struct SkipInvalidRefusal: Sendable, Equatable {
        public var input: String
        public var reason: String
        public init(input: String, reason: String) { self.input = input; self.reason = reason }
    }

    public init(standardInput: StandardInput? = nil, skipInvalidRefusal: SkipInvalidRefusal? = nil,
                takesColumnMap: Bool = false) {
        self.standardInput = standardInput
        self.skipInvalidRefusal = skipInvalidRefusal
        self.takesColumnMap = takesColumnMap
    }

    /// True when the format reads standard input.
    public var readsStandardInput: Bool { standardInput != nil }
    /// True when `--skip-invalid` applies.
    public var supportsSkipInvalid: Bool { skipInvalidRefusal == nil }
}

/// One input format behind `eki import`: what it reads, whether an input is its own, and the
/// importer that reads it. `ImporterRegistry` asks every format and picks.
public protocol ImportFormat: Sendable {
    /// The profile name `--profile` takes (`n02`, `gtfs`, …).
    var name: String { get }
    /// One line for `--help`: the inputs this format reads.
    var reads: String { get }
    /// What the format takes beyond files (standard input, `--skip-invalid`, `--columns`);
    /// by default `ImportCapabilities()`.
    var capabilities: ImportCapabilities { get }
    /// How sure the format is that `input` is its own. Reads little (the input's head bytes or
    /// folder listing, a zip's listing, 4 KiB of decompressed text); never throws.
    func identify(_ input: ImportInput) -> Identification
    /// The importer for one input of this format.
    /// - Throws: `ImportError` when the input lacks a companion file the format needs, or
    ///   `ImportOptionError` for an option the format cannot take.
    func importer(for input: ImportInput, options: ImportOptions) throws -> any StationImporter
    /// The importers for all the inputs given to this format in one import, in order. Formats
    /// whose datasets span several files (station_database, ekidata) read files given one by
    /// one as one dataset, and inputs naming the same files once. By default one importer per
    /// input.
    func importers(for inputs: [ImportInput], options: ImportOptions) throws -> [PlannedImport]
}

extension ImportFormat {
    public var capabilities: ImportCapabilities { ImportCapabilities() }

    public func importers(for inputs: [ImportInput], options: ImportOptions) throws -> [PlannedImport] {
        try inputs.map { PlannedImport(input: $0, format: name, importer: try importer(for: $0, options: options)) }
    }
}

/// One importer the registry chose, with the input it reads (the first, for a dataset given
/// as several files) and the format's name.
public struct PlannedImport {
    public let input: ImportInput
    public let format: String
    public let importer: any StationImporter

    public init(input: ImportInput, format: String, importer: any StationImporter) {
        self.input = input
        self.format = format
        self.importer = importer
    }
}

/// An import option that does not fit the inputs or the chosen format (a usage error: the
/// command line exits 64).
public struct ImportOptionError: Error, CustomStringConvertible, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
