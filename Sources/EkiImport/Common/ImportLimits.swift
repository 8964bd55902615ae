import EkiKit

/// The bounds an import reads within, so that no input (a line of a gigabyte, a zip that
/// inflates a thousandfold, millions of warnings) makes it hold more than a bounded amount in
/// memory. Each has a flag of `eki import` that raises it; an input over a limit stops the
/// import with an `ImportError` naming the file, where, the limit and the flag.
public struct ImportLimits: Sendable, Equatable {
    /// CSV and GTFS text: the longest field and line (`--max-field-bytes`, `--max-line-bytes`).
    public var csv: CSVLimits
    /// A zip member's size once unzipped, in bytes (`--max-unzipped-bytes`; 4 GiB by default):
    /// checked against the size the zip's header states, and counted while unzipping (a
    /// header can lie).
    public var maxUnzippedBytes: Int64
    /// How many times its compressed size a zip member may unzip to (`--max-zip-ratio`; 100 by
    /// default, well above the 5–20 of real GTFS text), checked once 1 MiB is unzipped.
    public var maxZipRatio: Int
    /// Warnings kept per input to be listed (`--max-warnings`; 1,000 by default); the rest
    /// are counted.
    public var maxWarnings: Int

    public static let defaultMaxUnzippedBytes: Int64 = 4 << 30
    public static let defaultMaxZipRatio = 100
    public static let defaultMaxWarnings = 1000

    public init(csv: CSVLimits = CSVLimits(), maxUnzippedBytes: Int64 = ImportLimits.defaultMaxUnzippedBytes,
                maxZipRatio: Int = ImportLimits.defaultMaxZipRatio, maxWarnings: Int = ImportLimits.defaultMaxWarnings) {
        self.csv = csv
        self.maxUnzippedBytes = maxUnzippedBytes
        self.maxZipRatio = maxZipRatio
        self.maxWarnings = maxWarnings
    }
}

/// Warnings as an importer collects them: the first `limit` kept, the rest only counted.
public struct WarningList: Sendable, Equatable {
    /// The warnings kept, in the order found.
    public private(set) var kept: [ImportWarning] = []
    /// Warnings found beyond `limit` (counted, not kept).
    public private(set) var notKept = 0
    public let limit: Int

    public init(limit: Int = ImportLimits.defaultMaxWarnings) { self.limit = max(0, limit) }

    /// All warnings found, kept or not.
    public var count: Int { kept.count + notKept }

    /// Keeps `w` while fewer than `limit` are kept; counts it otherwise.
    public mutating func append(_ w: ImportWarning) {
        if kept.count < limit { kept.append(w) } else { notKept += 1 }
    }

    public mutating func append(contentsOf ws: [ImportWarning]) {
        for w in ws { append(w) }
    }
}

extension ImportBatch {
    /// The batch's warnings beyond `limit` dropped and counted in `warningsNotKept`.
    public mutating func capWarnings(_ limit: Int) {
        guard warnings.count > limit else { return }
        warningsNotKept += warnings.count - limit
        warnings.removeSubrange(limit...)
    }
}
