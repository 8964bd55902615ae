import EkiKit

/// Any CSV with a header (`GenericCSVImporter`): maybe for a text file whose first line has
/// two or more fields and does not open an XML or JSON document, and for a UTF-16 file (which
/// the importer refuses, saying so); no otherwise. Last in the
/// registry, so a known header wins.
public struct GenericCSVFormat: ImportFormat {
    public init() {}
    public var name: String { "generic" }
    public var reads: String { "any CSV with a header; --columns maps its columns" }
    public var capabilities: ImportCapabilities { ImportCapabilities(takesColumnMap: true) }

    public func identify(_ input: ImportInput) -> Identification {
        // A UTF-16 text file: the importer says to convert it.
        if input.head.starts(with: [0xFF, 0xFE]) || input.head.starts(with: [0xFE, 0xFF]) { return .maybe }
        guard let header = input.csvHeader(encoding: nil), header.count >= 2,
              let first = header[0].first, first != "<", first != "{", first != "[" else { return .no }
        return .maybe
    }

    public func importer(for input: ImportInput, options: ImportOptions) throws -> any StationImporter {
        var importer = try GenericCSVImporter(path: input.path, encoding: options.encoding, columns: options.columns,
                                              skipInvalid: options.skipInvalid, maxFieldBytes: options.maxFieldBytes)
        importer.maxLineBytes = options.limits.csv.maxLineBytes
        return importer
    }
}
