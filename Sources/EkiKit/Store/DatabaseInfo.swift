import Foundation
import EkiSQLite

/// Counts for `eki info`.
public struct StoreInfo: Sendable {
    public struct Count: Sendable, Equatable {
        public var name: String
        public var entries: Int
        public var open: Int
        /// Entries that also hold rows of another dataset (0 when the database has one dataset).
        public var matched: Int
        /// Open entries that also hold rows of another dataset.
        public var openMatched: Int
    }
    public var entries: Int
    public var openEntries: Int
    /// Entries whose every source row is gone (kept for what refers to them).
    public var retiredEntries: Int
    /// Per dataset: entries with at least one source row from it.
    public var datasets: [Count]
    /// Per operator id and class: the id (`jr-east`, or the folded name of an operator the
    /// table does not know), its label (the table's short name, else the name as published),
    /// whether the operator table knows it, and the counts. Most entries first.
    public var operators: [(operatorID: String, label: String, known: Bool, serviceClass: ServiceClass, entries: Int, open: Int)]

    /// The operators the table does not know (`noOperatorID`, no operator at all, is not one).
    public var unknownOperators: [(operatorID: String, label: String, known: Bool, serviceClass: ServiceClass, entries: Int, open: Int)] {
        operators.filter { !$0.known && $0.operatorID != Station.noOperatorID }
    }
    /// Entries no source names an operator for (rows of closed lines, mostly), and how many are open.
    public var withoutOperator: (entries: Int, open: Int) {
        operators.filter { $0.operatorID == Station.noOperatorID }.reduce((0, 0)) { ($0.0 + $1.entries, $0.1 + $1.open) }
    }
}

/// What a station database holds (`store.info`): counts per dataset and per operator, the
/// datasets' editions, the stored operator aliases, the reconciler's report and the source
/// rows as each source gave them. A value holding the store's connection.
///
/// ```swift
/// let summary = try store.info.summary()      // entries, open, retired, per dataset, per operator
/// let editions = try store.info.editions()    // ["n02": "2023-01-01"]
/// ```
public struct DatabaseInfo {
    let db: Database
    let entries: EntryCatalog

    /// Entry counts in total, per dataset and per operator × class.
    public func summary() throws -> StoreInfo {
        let total = try entries.count(), open = try entries.count(includeClosed: false)
        var datasets: [StoreInfo.Count] = []
        let d = try db.prepare("""
            WITH m AS (SELECT ss.dataset, s.fid, s.open,
                              EXISTS (SELECT 1 FROM station_sources o WHERE o.station_fid = s.fid AND o.dataset != ss.dataset) AS matched
                       FROM (SELECT DISTINCT dataset, station_fid FROM station_sources) ss JOIN stations s ON s.fid = ss.station_fid)
            SELECT dataset, count(*), sum(open), sum(matched), sum(open AND matched) FROM m GROUP BY dataset ORDER BY dataset
            """)
        while try d.step() {
            datasets.append(.init(name: d.text(0), entries: Int(d.int64(1)), open: Int(d.int64(2)),
                                  matched: Int(d.int64(3)), openMatched: Int(d.int64(4))))
        }
        let retired = Int(try db.scalarInt("SELECT count(*) FROM stations WHERE retired IS NOT NULL") ?? 0)
        var ops: [(operatorID: String, label: String, known: Bool, serviceClass: ServiceClass, entries: Int, open: Int)] = []
        let o = try db.prepare("""
            SELECT operator_id, min(coalesce(operator, '-')), class, count(*), sum(open) FROM stations
            GROUP BY operator_id, class ORDER BY count(*) DESC, operator_id, class
            """)
        while try o.step() {
            let id = o.text(0), known = OperatorTable.builtIn[id: id]
            ops.append((id, known?.shortName ?? o.text(1), known != nil,
                        ServiceClass(rawValue: o.text(2)) ?? .conventional, Int(o.int64(3)), Int(o.int64(4))))
        }
        return StoreInfo(entries: total, openEntries: open, retiredEntries: retired, datasets: datasets, operators: ops)
    }

    /// The user's operator aliases stored in the database (an `alias,operator` CSV text), if any.
    public func operatorAliasesCSV() throws -> String? {
        let s = try db.prepare("SELECT value FROM eki_meta WHERE name = 'operator_aliases'")
        return try s.step() ? s.text(0) : nil
    }

    /// The built-in operator table with the stored user aliases added.
    /// - Throws: `OperatorTableError` when the stored aliases no longer fit the table.
    public func operatorTable() throws -> OperatorTable {
        var table = OperatorTable.builtIn
        if let csv = try operatorAliasesCSV() { try table.addAliases(csv: csv, file: "\(db.path) (stored operator aliases)") }
        return table
    }

    /// The stored edition date (YYYY-MM-DD) of each dataset imported with one.
    public func editions() throws -> [String: String] {
        let s = try db.prepare("SELECT name, value FROM eki_meta WHERE name LIKE 'edition:%'")
        var out: [String: String] = [:]
        while try s.step() { out[String(s.text(0).dropFirst("edition:".count))] = s.text(1) }
        return out
    }

    /// Every stored source row (of `dataset` when given), in import order.
    /// - Throws: `SQLiteError`.
    public func sourceRecords(dataset: String? = nil) throws -> [SourceRecord] {
        try SourceRows(db: db).read(dataset: dataset)
    }

    /// A number that changes whenever another connection commits to the database file
    /// (SQLite's data version): what a long-running reader (the map server) compares to
    /// notice an import. Equal values mean nothing another connection wrote since.
    /// - Throws: `SQLiteError`.
    public func dataVersion() throws -> UInt32 { try db.dataVersion() }

    /// What the sources disagree on and how it was settled: the stored source rows run through
    /// the reconciler again (`SourceReconciler`, with the stored operator aliases), as the last
    /// import did. Counts per kind, the operator decisions, and what could not be decided.
    /// - Throws: `SQLiteError`, `OperatorTableError` when the stored aliases no longer fit.
    /// The report the last import stored; computed again for a database written before
    /// reports were stored.
    public func conflicts() throws -> SourceReconciler.Report {
        let s = try db.prepare("SELECT value FROM eki_meta WHERE name = 'conflicts'")
        if try s.step(), let report = Self.decodeConflicts(s.text(0)) { return report }
        let rule = EntryRule(operators: try operatorTable())
        return rule.reconciler.reconcile([try sourceRecords()]).report
    }

    /// The `DerivationStamp` the entries were last derived with (`eki_meta` `derivation`); nil
    /// for a database written before stamps were recorded.
    /// - Throws: `SQLiteError`.
    public func derivationStamp() throws -> String? {
        let s = try db.prepare("SELECT value FROM eki_meta WHERE name = 'derivation'")
        return try s.step() ? s.text(0) : nil
    }

    /// Stores the reconciler's report of this derivation (`eki_meta` `conflicts`, JSON:
    /// `counts` per kind and `decisions`, each `[kind, dataset, id, name, line, before, after]`).
    func store(conflicts report: SourceReconciler.Report) throws {
        var counts: [String: Int] = [:]
        for (k, n) in report.counts { counts[k.rawValue] = n }
        let decisions = report.decisions.map { [$0.kind.rawValue, $0.row.dataset, $0.row.id, $0.name, $0.line, $0.before, $0.after] }
        let data = try JSONSerialization.data(withJSONObject: ["counts": counts, "decisions": decisions] as [String: Any],
                                              options: [.sortedKeys])
        try db.prepare("INSERT OR REPLACE INTO eki_meta (name, value) VALUES ('conflicts', ?)")
            .run([.text(String(decoding: data, as: UTF8.self))])
    }

    static func decodeConflicts(_ text: String) -> SourceReconciler.Report? {
        guard let o = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let counts = o["counts"] as? [String: Int], let decisions = o["decisions"] as? [[String]] else { return nil }
        var report = SourceReconciler.Report()
        for (k, n) in counts { if let kind = SourceReconciler.Kind(rawValue: k) { report.counts[kind] = n } }
        for d in decisions where d.count == 7 {
            guard let kind = SourceReconciler.Kind(rawValue: d[0]) else { continue }
            report.decisions.append(.init(kind: kind, row: SourceRef(dataset: d[1], id: d[2]), name: d[3], line: d[4],
                                          before: d[5], after: d[6]))
        }
        return report
    }
}
