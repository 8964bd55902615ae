import EkiKit
import Foundation

/// One import as `eki import` runs it, for the command line and library callers alike: the
/// inputs planned by the registry, each read and checked, then all written to the store in one
/// transaction. Calling the importers and `StationStore.importBatches` directly skips the
/// checks; this type is where they live:
/// - every batch's rows far from all the others are warned about
///   (`PositionChecks.farFromOthers`), and its warnings are capped at `options.limits.maxWarnings`
///   (the rest counted in `ImportBatch.warningsNotKept`);
/// - batches of one dataset (several OSM extracts) are joined (`ImportBatch.merging`);
/// - each dataset's edition is `edition` when given (a `YYYY-MM-DD` date), else the one its
///   importer read from the data (`ImportBatch.edition`);
/// - an import that would retire more than `retireLimit` of a dataset's entries stops before
///   writing (`RetireLimitError`).
public struct ImportSession {
    /// The share of a dataset's entries an import may retire unless told otherwise (5 %).
    public static let defaultRetireLimit = 0.05

    public var registry: ImporterRegistry
    public var options: ImportOptions
    /// The format of every input (`--profile`); nil identifies each by its contents.
    public var profile: String?
    /// The edition of every dataset imported (`--edition`, YYYY-MM-DD); nil: each dataset's
    /// own, when its importer can tell.
    public var edition: String?
    /// The caller's operator aliases, a CSV `alias,operator` and its file name
    /// (`--operators`); stored in the database and used by every later import.
    public var operatorAliases: (csv: String, file: String)?
    /// The share of a dataset's entries the import may retire; nil for no limit (`--replace`).
    public var retireLimit: Double?

    public init(registry: ImporterRegistry = ImporterRegistry(), options: ImportOptions = ImportOptions(),
                profile: String? = nil, edition: String? = nil, operatorAliases: (csv: String, file: String)? = nil,
                retireLimit: Double? = ImportSession.defaultRetireLimit) {
        self.registry = registry
        self.options = options
        self.profile = profile
        self.edition = edition
        self.operatorAliases = operatorAliases
        self.retireLimit = retireLimit
    }

    /// The importers for `inputs` (paths, `-` for stdin), as `ImporterRegistry.plan` chooses them.
    /// - Throws: `ImportOptionError` for options that do not fit the inputs (or a bad
    ///   `edition`), `ImportError` for an input that is missing or no format claims.
    public func plan(_ inputs: [String]) throws -> [PlannedImport] {
        if let edition, !Self.isEdition(edition) {
            throw ImportOptionError("--edition must be a date YYYY-MM-DD, got '\(edition)'")
        }
        return try registry.plan(inputs, profile: profile, options: options)
    }

    /// Reads one planned import and checks its batch (`check`).
    /// - Throws: what the importer throws (`ImportError` naming file, line and field).
    public func read(_ planned: PlannedImport) throws -> ImportBatch {
        var trace = PhaseTrace()
        var batch = try planned.importer.read()
        trace.mark("read \(planned.input.displayName): \(batch.records.count) rows")
        check(&batch, file: planned.input.displayName)
        trace.mark("position checks")
        return batch
    }

    /// The checks of every import on one batch read from `file` (as warnings name it): rows far
    /// from all the others warned about, warnings capped at `options.limits.maxWarnings`.
    public func check(_ batch: inout ImportBatch, file: String) {
        batch.warnings += PositionChecks.farFromOthers(batch.records, file: file)
        batch.capWarnings(options.limits.maxWarnings)
    }

    /// Writes `batches` (read by `read`) to `store` in one transaction: one dataset's batches
    /// joined, editions as `edition` or the batches' own, the retire limit applied. The rows
    /// are handed over, not copied, so that the store holds the only copy.
    /// - Throws: `RetireLimitError`, `OperatorTableError` for bad aliases, `SQLiteError`.
    @discardableResult
    public func write(_ batches: consuming [ImportBatch], to store: StationStore) throws -> (datasets: [ImportSummary], merge: MergeSummary) {
        var merged = ImportBatch.merging(batches)
        batches = []
        var editions: [String: String] = [:]
        for b in merged { if let e = edition ?? b.edition { editions[b.dataset] = e } }
        let rows = merged.map { (dataset: $0.dataset, records: $0.records) }
        merged = []
        return try store.importBatches(consume rows, operatorAliases: operatorAliases, retireLimit: retireLimit, editions: editions)
    }

    /// `plan`, `read` each, then `write`: the whole of `eki import` but for what it prints.
    /// - Parameter inspect: called with each batch once it is read and checked (its warnings,
    ///   skipped rows, empty reason), before the rows are written.
    /// - Throws: what `plan`, `read` and `write` throw; nothing is written then.
    @discardableResult
    public func run(_ inputs: [String], into store: StationStore,
                    inspect: (PlannedImport, ImportBatch) -> Void = { _, _ in }) throws -> (datasets: [ImportSummary], merge: MergeSummary) {
        var batches: [ImportBatch] = []
        for p in try plan(inputs) {
            let batch = try read(p)
            inspect(p, batch)
            batches.append(batch)
        }
        return try write(consume batches, to: store)
    }

    /// The operator aliases of the CSV file at `path` (`alias,operator`), for `operatorAliases`.
    /// - Throws: `ImportError` when the file cannot be read.
    public static func operatorAliases(file path: String) throws(ImportError) -> (csv: String, file: String) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(file: path, message: "cannot read the operator alias file")
        }
        return (String(decoding: data, as: UTF8.self), path)
    }

    /// True for a calendar day written `YYYY-MM-DD` (an edition), as `VisitDate` reads dates.
    public static func isEdition(_ s: String) -> Bool {
        guard let d = try? VisitDate(parsing: s) else { return false }
        return d.isDay && d.text == s
    }
}
