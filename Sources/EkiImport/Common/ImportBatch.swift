import EkiKit

/// Everything one importer read from one input: its rows and warnings. The store applies a
/// batch in one transaction (all or nothing).
public struct ImportBatch: Sendable {
    /// Dataset name written in every source reference (e.g. `n02`, `station-database`).
    public var dataset: String
    /// The station rows, before the entry rule.
    public var records: [SourceRecord]
    /// Non-fatal findings.
    public var warnings: [ImportWarning]

    public init(dataset: String, records: [SourceRecord] = [], warnings: [ImportWarning] = []) {
        self.dataset = dataset
        self.records = records
        self.warnings = warnings
    }
}

/// An importer reads one input (file, directory or archive) into a batch.
/// - Throws: `ImportError` naming file, line and field on bad input; nothing is written then.
public protocol StationImporter {
    func read() throws -> ImportBatch
}
