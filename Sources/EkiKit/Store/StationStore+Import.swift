import EkiSQLite
import Foundation

/// What one import did to the entries.
public struct ImportSummary: Sendable, Equatable {
    public var dataset: String
    /// Source rows read.
    public var records: Int
    /// Entries that hold at least one row of this dataset after the import.
    public var entries: Int
    /// Entries that held rows of this dataset before the import and are retired by it.
    public var retired = 0
}

/// What an import did to the database as a whole.
public struct MergeSummary: Sendable, Equatable {
    public var added = 0
    public var updated = 0
    public var unchanged = 0
    /// Entries whose last source row disappeared: marked retired, kept.
    public var retired = 0
    /// Entries merged into another (their keys became aliases).
    public var merged = 0
}

extension StationStore {
    /// Imports one dataset (see `importBatches`).
    @discardableResult
    public func importRecords(_ records: [SourceRecord], dataset: String,
                              rule: EntryRule? = nil) throws -> ImportSummary {
        try importBatches([(dataset, records)], rule: rule).datasets[0]
    }

    /// Replaces the rows of each given dataset with `records` and re-derives every entry from
    /// the rows of all datasets with `rule`, in one transaction: on any error the database is
    /// left exactly as it was. The search index is brought up to date in the same transaction.
    ///
    /// Keys never move under what refers to them. A new entry takes the key of the existing
    /// entry it shares source rows with (so a renamed or moved station keeps its key, and its
    /// old name is recorded); failing that, of an unclaimed existing entry with the same
    /// operator, class and name within the rule's link distance; otherwise it gets a new key.
    /// When one entry now holds the rows of two old ones, the younger old key becomes an alias
    /// of the older. An old entry no row maps to any more is marked retired (with today's
    /// date) and kept. Importing the same data again changes nothing, unless the entries were derived with
    /// other rules or tables (`DerivationStamp`): then they are derived again.
    /// - Throws: `SQLiteError` (the transaction is rolled back).
    ///
    /// - Parameters:
    ///   - rule: the entry rule; by default one over `operatorTable()` (with `operatorAliases`).
    ///   - retireLimit: the largest share of a dataset's entries the import may retire (0.05 =
    ///     5 %); above it `RetireLimitError` is thrown and nothing is written. nil: no limit.
    ///   - operatorAliases: an `alias,operator` CSV text (`OperatorTable.addAliases`) to store in
    ///     the database and use from now on, replacing earlier ones.
    ///   - editions: the edition date (YYYY-MM-DD) of datasets of this import, stored in the
    ///     database (`editions()`); when two datasets have one, the older one's names give way
    ///     to the newer one's (`SourceReconciler.olderDatasets`).
    /// - Throws: `OperatorTableError` for a bad alias text, `RetireLimitError`, `SQLiteError`.
    @discardableResult
    public func importBatches(_ batches: consuming [(dataset: String, records: [SourceRecord])],
                              rule: EntryRule? = nil, operatorAliases: (csv: String, file: String)? = nil,
                              retireLimit: Double? = nil, today: String? = nil,
                              editions: [String: String] = [:]) throws -> (datasets: [ImportSummary], merge: MergeSummary) {
        var table = OperatorTable.builtIn
        if let a = operatorAliases {
            try table.addAliases(csv: a.csv, file: a.file)
        } else {
            table = try info.operatorTable()
        }
        var rule = rule ?? EntryRule(operators: table)
        var known = try info.editions()
        for (d, e) in editions { known[d] = e }
        // Known editions decide which dataset is newer; the reconciler's defaults stand for
        // pairs without two editions.
        for (a, ea) in known {
            for (b, eb) in known where a != b {
                if ea > eb { rule.reconciler.olderDatasets[a, default: []].insert(b) } else { rule.reconciler.olderDatasets[a]?.remove(b) }
            }
        }
        // The same rows again (no new aliases, entries derived with this library's rules and
        // tables): nothing to do, and nothing is written, so the file stays byte for byte as it was.
        if operatorAliases == nil, try info.derivationStamp() == DerivationStamp.current, try editions.allSatisfy({ try info.editions()[$0.key] == $0.value }), try batches.allSatisfy({ try info.sourceRecords(dataset: $0.dataset) == $0.records }) {
            let counts = try SourceRows(db: db).datasetCounts()
            return (batches.map { ImportSummary(dataset: $0.dataset, records: $0.records.count, entries: counts[$0.dataset] ?? 0) },
                    MergeSummary(unchanged: try entries.count()))
        }
        var trace = PhaseTrace()
        // A larger page cache while writing (16 MiB, 8 times the default): fewer dirty pages
        // spilled and read back mid-import. 64 MiB saved 1–2 s of 36 at 1M entries but raised
        // the peak by 50 MB (the cache fills, then the search index's terms come on top).
        let cacheSize = try db.scalarInt("PRAGMA cache_size") ?? -2000
        try db.execute("PRAGMA cache_size = -16384")
        defer { try? db.execute("PRAGMA cache_size = \(cacheSize)") }
        // The rows are handed on (`rederive` empties `pending`), so that a caller who gives up its
        // own reference (`consume`) leaves the reconciler the only copy: one copy of the rows in
        // memory instead of two.
        let sizes = batches.map { (dataset: $0.dataset, records: $0.records.count) }
        var pending = batches
        batches = []
        // A store with no rows yet (a file this import creates): the rollback journal instead of
        // the write-ahead log for this transaction. SQLite journals only the pages the file had
        // before it, so each new page is written once (through the log it is written twice:
        // into the log, then copied into the file), and a failed or interrupted import still
        // leaves the file as it was (the journal rolls it back). Another connection open on
        // the file keeps the log (the switch fails and is skipped).
        let mode = try db.prepare("PRAGMA journal_mode")
        let fresh = try mode.step() && mode.text(0) == "wal"
            && db.scalarInt("SELECT NOT EXISTS (SELECT 1 FROM stations) AND NOT EXISTS (SELECT 1 FROM source_records)") == 1
        mode.reset()
        if fresh { try? db.execute("PRAGMA journal_mode = DELETE") }
        defer { if fresh { try? db.execute("PRAGMA journal_mode = WAL") } }
        return try writeTransaction {
            if let a = operatorAliases {
                try db.prepare("INSERT OR REPLACE INTO eki_meta (name, value) VALUES ('operator_aliases', ?)").run([.text(a.csv)])
            }
            try db.prepare("INSERT OR REPLACE INTO eki_meta (name, value) VALUES ('derivation', ?)").run([.text(DerivationStamp.current)])
            let retireGuard = RetireGuard(db: db)
            let before = try retireGuard.unretiredEntries(of: sizes.map(\.dataset))
            for (d, e) in editions.sorted(by: { $0.key < $1.key }) {
                try db.prepare("INSERT OR REPLACE INTO eki_meta (name, value) VALUES (?, ?)").run([.text("edition:" + d), .text(e)])
            }
            let rows = SourceRows(db: db)
            for b in pending { try rows.replace(b.records, dataset: b.dataset) }
            trace.mark("store source rows")
            let merge = try EntryDerivation(db: db, spatial: spatial, info: info, strategy: entryWriteStrategy)
                .rederive(rule: rule, today: today ?? Self.today(), batches: &pending)
            let retired = try retireGuard.retiredSince(before)
            let lost = retireLimit == nil ? [:] : try retireGuard.lostSince(before)
            let over = lost.filter { d, r in retireLimit.map { Double(r.count) > $0 * Double(before[d]!.count) } ?? false }
            if let retireLimit, !over.isEmpty {
                throw RetireLimitError(shares: over.keys.sorted().map {
                    .init(dataset: $0, wouldRetire: over[$0]!.count, of: before[$0]!.count, examples: over[$0]!.examples)
                }, limit: retireLimit)
            }
            trace = PhaseTrace()
            try search.update()
            trace.mark("search index")
            try lines.update(priority: rule.sourcePriority)
            trace.mark("line table")
            let counts = try rows.datasetCounts()
            trace.mark("dataset counts")
            return (sizes.map { ImportSummary(dataset: $0.dataset, records: $0.records, entries: counts[$0.dataset] ?? 0,
                                                retired: retired[$0.dataset]?.count ?? 0) }, merge)
        }
    }

    /// Today's date in UTC, YYYY-MM-DD.
    private static func today() -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd"
        return f.string(from: Date())
    }
}
