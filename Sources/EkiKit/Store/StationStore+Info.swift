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

extension StationStore {
    /// Entry counts in total, per dataset and per operator × class.
    public func info() throws -> StoreInfo {
        let total = try count(), open = try count(includeClosed: false)
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

    /// The open entries holding rows of `dataset` and of no other dataset: what no other
    /// source confirmed, for a person to check. Sorted by key.
    public func unmatchedEntries(dataset: String, includeClosed: Bool = false) throws -> [Station] {
        let s = try db.prepare("""
            SELECT \(Self.columns) FROM stations s
            WHERE s.fid IN (SELECT station_fid FROM station_sources WHERE dataset = ?1)
              AND NOT EXISTS (SELECT 1 FROM station_sources o WHERE o.station_fid = s.fid AND o.dataset != ?1)
              AND (?2 OR s.open = 1)
            ORDER BY s.key
            """)
        try s.bind([.text(dataset), .int(includeClosed ? 1 : 0)])
        var out: [Station] = []
        while try s.step() { out.append(Self.station(from: s)) }
        return out
    }
}

extension StationStore {
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

    /// Stores the reconciler's report of this derivation (`eki_meta` `conflicts`, JSON:
    /// `counts` per kind and `decisions`, each `[kind, dataset, id, name, line, before, after]`).
    func storeConflicts(_ report: SourceReconciler.Report) throws {
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
