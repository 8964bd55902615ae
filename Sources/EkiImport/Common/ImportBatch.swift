import EkiKit

/// Everything one importer read from one input: its rows and warnings. The store applies a
/// batch in one transaction (all or nothing).
public struct ImportBatch: Sendable {
    /// Dataset name written in every source reference (e.g. `n02`, `station-database`).
    public var dataset: String
    /// The station rows, before the entry rule.
    public var records: [SourceRecord]
    /// Non-fatal findings: the first `ImportLimits.maxWarnings` of them.
    public var warnings: [ImportWarning]
    /// Warnings found beyond those kept in `warnings` (counted only; `ImportLimits.maxWarnings`).
    public var warningsNotKept = 0
    /// Rows left out under `--skip-invalid` (no usable position or name).
    public var skipped: SkippedRows
    /// Why the input gave no rows, when it gave none and the importer can tell (routes all
    /// excluded by `--modes`, an OSM file without stations).
    public var emptyReason: String?
    /// The edition (YYYY-MM-DD) the importer read from the data, when it can tell (station_database:
    /// its newest open or closed date); `eki import` stores it when `--edition` is not given.
    public var edition: String?

    public init(dataset: String, records: [SourceRecord] = [], warnings: [ImportWarning] = [],
                skipped: SkippedRows = SkippedRows()) {
        self.dataset = dataset
        self.records = records
        self.warnings = warnings
        self.skipped = skipped
        self.emptyReason = nil
        self.edition = nil
    }

    /// A batch with the warnings `list` kept, and the count of those it did not.
    public init(dataset: String, records: [SourceRecord], warnings list: WarningList,
                skipped: SkippedRows = SkippedRows()) {
        self.init(dataset: dataset, records: records, warnings: list.kept, skipped: skipped)
        warningsNotKept = list.notKept
    }
}

/// The rows an importer skipped under `--skip-invalid`: how many, and the first few as the
/// errors they would have raised (file:line:column: field: message).
public struct SkippedRows: Sendable, Equatable {
    /// How many of the first rows are kept as examples.
    public static let shown = 5
    /// Rows skipped.
    public var count = 0
    /// The first `shown` of them.
    public var first: [ImportError] = []

    public init() {}

    /// Counts one skipped row, keeping it when it is among the first few.
    public mutating func add(_ e: ImportError) {
        count += 1
        if first.count < Self.shown { first.append(e) }
    }

    /// "N rows skipped (no usable position or name): file:2:3: lat: …; …", or nil when none.
    public var summary: String? {
        guard count > 0 else { return nil }
        let more = count > first.count ? "; …" : ""
        return "\(count) row\(count == 1 ? "" : "s") skipped without a usable position or name (--skip-invalid): "
            + first.map(\.description).joined(separator: "; ") + more
    }
}

/// An importer reads one input (file, directory or archive) into a batch.
/// - Throws: `ImportError` naming file, line and field on bad input; nothing is written then.
public protocol StationImporter {
    func read() throws -> ImportBatch
}
